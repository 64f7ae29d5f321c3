"""Planted bugs, round 471 (format: tests/mutants/mutants.py): the real survivor of a fifty-fourth random sample
(tests/mutants/random_sample.py --seed 54 --count 40 --all-named, on 0797f32 with round 470: 34 of 40 caught) and
its neighbours, sixty-sixth pass.

Seed 54's 6 missed: 4 equivalent (rnd54-15, rnd54-16: lnrnn.jax's _stat_names and _suffix defaulting to D=2 for 1,
where every caller passes D; rnd54-21: lnrnn.jax.init_stats of a bidirectional stack naming its statistics over D=3
runs a layer for 2, where runs 1 and 2 of a layer both take the name of its reverse direction and the same initial
values, so the dict is the same; rnd54-28: a head's rows reshaped to (-2, H) for (-1, H), which NumPy 2 reads as the
same unknown dimension), 1 CUDA-only and caught by the CUDA stack files (rnd54-36: a one-way stack passing on_device
and k < last for or: caught by tests/model/test_values469_stack_copies_cuda.py), 1 real and CUDA-only: the device
update (loss_and_grad_on_device) of a batch that scores one unit dividing its gradient by 2 (rnd54-08), missed also
by the CUDA files that compare the device update with the CPU model, whose batches score several units.

The planted bugs: the device update of a batch scoring one unit halving its gradient (rnd54-08), the device update
dividing by a count of 0 where the batch scores nothing, and the CPU update halving a one-unit batch's gradient. 3
mutants. The old files named after the models module with the CUDA files that compare the device update with the CPU
model catch 1 (the CPU update's); the new file alone catches 3 of 3.

    python tests/mutants/run.py --only 'v471-*'
"""
MODELS = "lnrnn/model/models.py"
NEW = ["tests/model/test_values471_models_one_row_cuda.py"]
OLD_MODELS = ["tests/model/test_layers_models_bidirectional.py", "tests/model/test_models.py",
              "tests/model/test_values10_models.py", "tests/model/test_values129_models.py",
              "tests/model/test_values163_models.py", "tests/model/test_values16_models.py",
              "tests/model/test_values193_models.py", "tests/model/test_values20_models.py",
              "tests/model/test_values211_models.py", "tests/model/test_values231_models.py",
              "tests/model/test_values242_models.py", "tests/model/test_values257_models.py",
              "tests/model/test_values276_models.py", "tests/model/test_values297_models.py",
              "tests/model/test_values315_models.py", "tests/model/test_values341_models.py",
              "tests/model/test_values363_models.py", "tests/model/test_values37_models.py",
              "tests/model/test_values388_models.py", "tests/model/test_values445_models.py",
              "tests/model/test_values447_models.py", "tests/model/test_values451_models.py",
              "tests/model/test_values455_models_stats.py", "tests/model/test_values51_models.py",
              "tests/model/test_values73_models.py", "tests/model/test_values88_models.py"]
# the CUDA files that compare the device update with the CPU model (the sample leaves the CUDA files out)
OLD_CUDA = ["tests/model/test_values20_models_cuda.py", "tests/model/test_values139_models_cuda.py",
            "tests/training/test_device_update.py", "tests/training/test_device_update_more.py"]
DEVICE_SCALE = "        scale = 1.0 / max(self.last_count, 1)"
HOST_TOTAL = "        total = max(self.last_count if total is None else int(total), 1)"

MUTANTS = [
    dict(name="v471-device-one-unit-halved", file=MODELS, old=DEVICE_SCALE, new=DEVICE_SCALE.replace(", 1)", ", 2)"),
         tests=NEW + OLD_MODELS + OLD_CUDA,
         why="rnd54-08: the device update of a batch scoring one unit takes half its gradient"),
    dict(name="v471-device-nothing-scored-divides-by-zero", file=MODELS, old=DEVICE_SCALE,
         new="        scale = 1.0 / self.last_count", tests=NEW + OLD_MODELS + OLD_CUDA,
         why="the device update of a batch scoring nothing raises ZeroDivisionError"),
    dict(name="v471-host-one-unit-halved", file=MODELS, old=HOST_TOTAL, new=HOST_TOTAL.replace(", 1)", ", 2)"),
         tests=NEW + OLD_MODELS + OLD_CUDA,
         why="the CPU update of a batch scoring one unit takes half its gradient"),
]
