"""Planted bugs, round 468 (format: tests/mutants/mutants.py): the one CUDA-only line of the forty-ninth random sample
(tests/mutants/random_sample.py --seed 49 --count 40 --all-named, on 4d61a4a: 36 of 40 caught) that gives the same
values, a copy it showed, and their neighbours, sixty-third pass.

Seed 49's 4 missed: 3 equivalent (rnd49-13: the predictions table's row count read from its second column, every
column as long; rnd49-17: a bidirectional stack's backend module taken from layers[1], the same module; rnd49-21:
the torch binding's noise seed drawn from [1, 2^62)), 1 CUDA-only line equal in values (rnd49-06): a device model's
last-step path asking its stack for host results (on_device=False), the whole output copied to the host for one row
of it. Its test, which records every device-to-host copy of a last-step model's update and evaluation, found the
device update copying dL/dx to the host, which nothing reads: it now stays on the device.

The planted bugs: the last-step path's stack run asking for host results, or copying the whole output before taking
its last rows; the update's dL/dx copied to the host; evaluation or training never taking the last-step path (each
going through the host with the same values); the last-step path taken with lengths (short rows read at step T-1). 6
mutants. The old files named after the module (OLD_MODELS) with the CUDA files that run a model on the device
(OLD_CUDA) catch 1 (the last-step path taken with lengths); the new file alone catches 5 of 6 (all but that one, as
it gives no lengths).

    python tests/mutants/run.py --only 'v468-*'
"""
MODELS = "lnrnn/model/models.py"
NEW_MODELS = ["tests/model/test_values468_last_step_residence_cuda.py"]
# the sample's own files for the module (every file named after the module, then importers up to 8)
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
# the CUDA files that run a model on the device (the sample leaves the CUDA files out)
OLD_CUDA = ["tests/model/test_values139_models_cuda.py", "tests/model/test_values20_models_cuda.py",
            "tests/model/test_cuda_infer_path.py"]
TESTS = NEW_MODELS + OLD_MODELS + OLD_CUDA

RUN = "        y_dev, _ = self.stack.forward(x, state, training=training, on_device=True, keep=training)"
ROW = "        return k.to_host(y_dev[y_dev.shape[0] - 1]), y_dev"
DX = "            self.stack.backward(dy, on_device=True)   # dL/dx stays on the device: nothing reads it"
EVAL = "        if self._fast_last(lengths, False):"
TRAIN = "        if self._fast_last(lengths, chunk < T):"
LENGTHS = "                and lengths is None and not chunked"

MUTANTS = [
    dict(name="v468-last-run-to-host", file=MODELS, old=RUN, new=RUN.replace("on_device=True", "on_device=False"),
         tests=TESTS, why="rnd49-06: the last-step path's stack run hands back host results, the whole output copied"),
    dict(name="v468-last-rows-after-whole-copy", file=MODELS, old=ROW,
         new="        return k.to_host(y_dev)[y_dev.shape[0] - 1], y_dev", tests=TESTS,
         why="the last-step path copies the whole output to the host before taking its last rows"),
    dict(name="v468-update-dx-to-host", file=MODELS, old=DX, new=DX.replace(", on_device=True", ""), tests=TESTS,
         why="the last-step update copies dL/dx to the host, which nothing reads"),
    dict(name="v468-evaluation-never-fast", file=MODELS, old=EVAL, new=EVAL.replace("False", "True"), tests=TESTS,
         why="evaluation of a last-step head on 'cuda' goes through the host, chunk by chunk"),
    dict(name="v468-training-never-fast", file=MODELS, old=TRAIN, new=TRAIN.replace("chunk < T", "True"),
         tests=TESTS, why="a last-step update on 'cuda' copies its outputs through the host"),
    dict(name="v468-fast-with-lengths", file=MODELS, old=LENGTHS, new="                and not chunked",
         tests=TESTS, why="the last-step path taken with lengths: short rows read at step T-1"),
]
