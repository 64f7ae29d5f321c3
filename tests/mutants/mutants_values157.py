"""Planted bugs, round 157 (format: tests/mutants/mutants.py): single-line slips in evaluation, the optimizers,
the memory plan, the logs and prewarming, on lines no earlier round mutates: clip_grad_norm asking clip_scale
with the norm and the limit swapped, _slot looking a buffer up under the slot's name (every step starts from
zero moments), the flat path counting its step after the update (Adam's bias correction of step k - 1),
load_state_dict popping 'lr' out of the caller's saved state, RMSPropMomentum storing alpha and momentum
swapped; the memory plan's evaluation part at --batch-size rows, the device path counting the host's batch H
wide, slots counted from the slot names instead of the slots kept, format_bytes floored to whole units,
check_fits naming only the parts of 10% of the peak or more; split_arrays splitting at the last '/',
model_from_checkpoint loading the optimizer's slots into the model; metrics.csv floats cut to six digits;
prewarm.stop killing the finished children instead of the running ones.

14 mutants. Against the existing targeted tests alone 13 were caught and 1 missed: load_state_dict popping the
learning rate out of the caller's state (the old resume tests load each saved state once). The new value tests
catch every mutant on their own (checked with the old tests taken off the lists):
test_values157_optim (the flat form of SGD with momentum, RMSProp, Graves's centred RMSProp at its defaults, the
uncentred and a centred form with alpha and momentum apart, and Adam against the rules written here in float64
NumPy over seven updates in three epochs, gradients on both sides of the clipping limit, lr decayed per epoch;
a state taken after three updates, loaded twice into fresh optimizers of another learning rate, finishes as the
run never stopped and is left unchanged; clip_grad_norm by hand under and over the limit),
test_values157_memory (parameters with the slots each optimizer really allocates on its first step, the
evaluation part at 11 rows against the plan's formula counted by hand, the host's batches on --device cuda,
format_bytes' one decimal, check_fits' message listing every part of 1% or more),
test_values157_evaluation_logs (split_arrays on names holding '.' and '/', model_from_checkpoint's loss equal to
the model the arrays came from and not to a freshly seeded one, metrics.csv floats read back exactly and empty
cells, stop killing only running children and waiting for all of them).
Dropped before the catalogue as equivalent: write_csv's float test widened to ints or repr swapped for str
(Python 3 writes a float's repr either way, ints alike); state_dict's per-name copies of the host array made
views (the host array is already a fresh copy); Optimizer.step's params.ndim != 1 as > 1 (no 0-d parameter
array reaches it); the prewarm child's spec with I and H swapped (sizes leave the compiled loop's types as
they are). Left out: the TensorBoard scalars' tags (the tensorboard package is an optional extra the
test environment lacks, so no targeted test can run them) and available_bytes' /proc and cgroup reading.

    python tests/mutants/run.py --only 'v157-*'
"""
OPTIM = "lnrnn/training/optim.py"
MEMORY = "lnrnn/training/memory.py"
EVAL = "lnrnn/training/evaluation.py"
LOGS = "lnrnn/training/logs.py"
PREWARM = "lnrnn/training/prewarm.py"

# existing tests of these modules
OPT_OLD = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
           "tests/training/test_values64_optim.py", "tests/training/test_values95_optim.py",
           "tests/training/test_values118_optim.py", "tests/training/test_values130_optim.py"]
MEMORY_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values70_memory.py",
              "tests/training/test_values95_memory.py", "tests/training/test_values36_memory.py"]
EVAL_OLD = ["tests/training/test_values130_evaluation.py", "tests/training/test_values64_evaluation.py",
            "tests/training/test_values_evaluation.py"]
LOGS_OLD = ["tests/training/test_values_logs.py", "tests/training/test_values32_progress_logs.py"]
PREWARM_OLD = ["tests/training/test_prewarm.py", "tests/training/test_values32_prewarm.py",
               "tests/training/test_values70_prewarm.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
OPT_NEW = ["tests/training/test_values157_optim.py"]
MEMORY_NEW = ["tests/training/test_values157_memory.py"]
EVAL_NEW = ["tests/training/test_values157_evaluation_logs.py"]
LOGS_NEW = ["tests/training/test_values157_evaluation_logs.py"]
PREWARM_NEW = ["tests/training/test_values157_evaluation_logs.py"]

MUTANTS = [
    # ---- optimizers: clipping, slots, the step count, a resumed state, Graves's hyper-parameters ----
    dict(name="v157-clip-scale-arguments-swapped", file=OPTIM,
         old="    scale = clip_scale(norm, max_norm)",
         new="    scale = clip_scale(max_norm, norm)",
         tests=OPT_NEW + OPT_OLD,
         why="clip_grad_norm asks clip_scale with the norm and the limit swapped: gradients over the limit are "
             "left alone and ones under it are scaled up"),
    dict(name="v157-slot-looked-up-by-slot-name", file=OPTIM,
         old="        buf = self.slots[slot].get(name)",
         new="        buf = self.slots[slot].get(slot)",
         tests=OPT_NEW + OPT_OLD,
         why="_slot looks a parameter's buffer up under the slot's name: every step starts its momentum and "
             "moments from zeros again"),
    dict(name="v157-flat-step-counted-after-the-update", file=OPTIM,
         old="            self.step_count += 1\n            self._update(FLAT, params, grads)",
         new="            self._update(FLAT, params, grads)\n            self.step_count += 1",
         tests=OPT_NEW + OPT_OLD,
         why="the flat path counts the step after updating: Adam's bias corrections use k - 1 (k = 0 on the "
             "first step divides by 1 - beta1^0 = 0)"),
    dict(name="v157-load-pops-the-callers-lr", file=OPTIM,
         old="        hyper = dict(state[\"hyper\"])",
         new="        hyper = state[\"hyper\"]",
         tests=OPT_NEW + OPT_OLD,
         why="load_state_dict pops 'lr' out of the caller's saved state: loading the same state a second time "
             "fails, and the state written again afterwards has no learning rate"),
    dict(name="v157-rmsprop-momentum-alpha-and-momentum-swapped", file=OPTIM,
         old="        super().__init__(lr, alpha=float(alpha), momentum=float(momentum), eps=float(eps),",
         new="        super().__init__(lr, alpha=float(momentum), momentum=float(alpha), eps=float(eps),",
         tests=OPT_NEW + OPT_OLD,
         why="RMSPropMomentum stores momentum as the decay of the squares and alpha as the momentum: Graves's "
             "defaults (0.95, 0.9) are run as (0.9, 0.95)"),
    # ---- the memory plan ----
    dict(name="v157-eval-batch-is-the-train-batch", file=MEMORY,
         old="    H, L, Be, skip = cfg.hidden, cfg.layers, cfg.eval_batch_size, cfg.skip",
         new="    H, L, Be, skip = cfg.hidden, cfg.layers, cfg.batch_size, cfg.skip",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="the evaluation part counts --batch-size rows instead of --eval-batch-size"),
    dict(name="v157-device-activations-hidden-wide", file=MEMORY,
         old="if on_host else isz * T * B * I,",
         new="if on_host else isz * T * B * H,",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="on the device the host keeps the batch x (T,B,I); the estimate counts it H wide"),
    dict(name="v157-slots-counted-from-the-names", file=MEMORY,
         old="    return OPTIMIZERS[kind]().slots_kept() if kind in OPTIMIZERS else 2",
         new="    return len(OPTIMIZERS[kind].slot_names) if kind in OPTIMIZERS else 2",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="slots counts every slot an optimizer can have, not those it keeps at its defaults: "
             "rmsprop-momentum (not centred) is counted with 3 parameter-sized slots instead of 2"),
    dict(name="v157-format-bytes-floored", file=MEMORY,
         old="            return f\"{n / size:.1f} {unit}\"",
         new="            return f\"{n // size:.1f} {unit}\"",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="format_bytes floors to whole units: 1.5 GB reads '1.0 GB'"),
    dict(name="v157-shown-parts-over-a-tenth", file=MEMORY,
         old="for k in big if counted[k] >= 0.01 * train_peak)",
         new="for k in big if counted[k] >= 0.1 * train_peak)",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="check_fits' message leaves out the parts between 1% and 10% of the peak"),
    # ---- evaluation, logs, prewarm ----
    dict(name="v157-split-arrays-last-slash", file=EVAL,
         old="        kind, _, name = k.partition(\"/\")",
         new="        kind, _, name = k.rpartition(\"/\")",
         tests=EVAL_NEW + EVAL_OLD,
         why="split_arrays splits a key at its last '/': 'optim/SLOT/NAME' is of kind 'optim/SLOT' and its "
             "slots are lost"),
    dict(name="v157-model-loaded-from-the-slots", file=EVAL,
         old="    model.load_arrays(split_arrays(arrays)[0])",
         new="    model.load_arrays(split_arrays(arrays)[1])",
         tests=EVAL_NEW + EVAL_OLD,
         why="model_from_checkpoint hands the model the optimizer's slots instead of its parameters"),
    dict(name="v157-csv-floats-to-six-digits", file=LOGS,
         old="        w.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()})",
         new="        w.writerow({k: (f\"{v:.6g}\" if isinstance(v, float) else v) for k, v in r.items()})",
         tests=LOGS_NEW + LOGS_OLD,
         why="metrics.csv keeps six significant digits: a float read back differs from the jsonl row's"),
    dict(name="v157-stop-kills-the-finished", file=PREWARM,
         old="            if proc.poll() is None:\n                proc.kill()",
         new="            if proc.poll() is not None:\n                proc.kill()",
         tests=PREWARM_NEW + PREWARM_OLD,
         why="stop kills the children that have finished and waits on the ones still compiling"),
]
