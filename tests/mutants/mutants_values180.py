"""Planted bugs, round 180 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training policies, optimizers, setup, progress bar and fine-tuning: a validation value equal to
the best one counted as an improvement (a tie resetting the patience count), the BatchNorm divergence hint cut
one character short, a divergence's epoch counted from 0, the blow-up line naming the last update made instead
of the one under way, one process reading its --time-budget from votes it never casts; a 2-D array taken for
the flat parameter buffer, the keys refusal naming one side only; a plain progress stream ignoring the caller's
log_every, the rate divided by the time since the last line, the closing suffix glued on; read_resume naming
only the first missing record and letting a folder without a checkpoint through to the reader; --dtype dropped
from fine-tuning's shape settings, the source's record quoting its epoch as its update.

14 mutants. Against the existing targeted tests alone 10 were caught and 4 missed: the 2-D flat array (no old
test steps a matrix as a flat buffer), log_every ignored (old plain-stream tests pass 30 s, the default, or
read no line before it), the first missing record only (old tests drop one record at a time) and the folder
without a checkpoint (old tests resume where no folder exists). The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values180_stopping (judge over non-monotonic loss
and accuracy histories with ties against a strict-improvement trace replayed here, the best update and the
early stop's record by hand; the blow-up streak replayed over a loss that dips back to exactly the limit, and
its line; the divergence lines with the epoch and update counted from 1 and the BatchNorm hint written out;
one process over and under its --time-budget), test_values180_optim (Adam, SGD with momentum and RMSProp on a
flat float64 buffer over four steps with the gradient clipped to a global norm computed here and the rate
decayed every two updates, against their textbook forms in NumPy; a 2-D array refused word for word; keys
that differ on either side or both), test_values180_progress (a plain stream's lines at log_every 5 s on a
patched clock: none before, the bar, the rate since the start and the ETA rounded as format_seconds does,
worked out here; the closing line's elapsed time and suffix), test_values180_setup_finetune (read_resume on a
checkpoint written here lacking two records, on an empty folder and on none; read_source's record and
describe_record for a best and a plain checkpoint; check_settings refusing --dtype, --hidden and
--bidirectional with on/off, word for word). Dropped as equivalent: clip_grad_norm's `if scale is not None`
as `if scale` (clip_scale never returns 0: max_norm > 0), the `.copy()` of state_dict's per-parameter slots
(the split views already belong to a fresh host copy), `float(bool(centred))` as `float(centred)` (the
hyper-parameter is a bool or 0/1) and RMSPropMomentum's own defaults (both subclasses pass every argument).
Also left out: update.py, whose unmutated lines are DeviceUpdate's (they need a CUDA device; HostUpdate's
lines are all mutated already), and the constants BLOWUP_FACTOR / BLOWUP_UPDATES and LOG_EVERY_S (a changed
value is a change of policy, not a slip the tests should pin).

    python tests/mutants/run.py --only 'v180-*'
"""
STOP = "lnrnn/training/stopping.py"
OPTIM = "lnrnn/training/optim.py"
PROGRESS = "lnrnn/training/progress.py"
SETUP = "lnrnn/training/setup.py"
FINETUNE = "lnrnn/training/finetune.py"

T = "tests/training/"
OLD_STOP = [T + f for f in ("test_values134_stopping.py", "test_values124_stopping.py", "test_values114_stopping.py",
                            "test_values80_stopping.py", "test_values54_stopping.py", "test_values36_stopping.py",
                            "test_values21_stopping.py", "test_values12_stopping.py", "test_values9_stopping.py",
                            "test_values90_policies.py", "test_values_train_policies.py",
                            "test_values56_stop_place.py")]
OLD_OPTIM = [T + f for f in ("test_values157_optim.py", "test_values130_optim.py", "test_values118_optim.py",
                             "test_values95_optim.py", "test_values64_optim.py", "test_values36_optim.py",
                             "test_values19_optim.py", "test_values13_optim.py", "test_values9_optim.py",
                             "test_values_optim.py", "test_optim.py")]
OLD_PROGRESS = [T + f for f in ("test_values145_progress.py", "test_values95_progress.py", "test_values70_progress.py",
                                "test_values10_progress.py", "test_values_progress.py",
                                "test_values32_progress_logs.py")]
OLD_SETUP = [T + f for f in ("test_values142_setup.py", "test_values114_setup.py", "test_values63_setup.py",
                             "test_values9_setup.py", "test_values_setup.py", "test_values171_runfiles.py")]
OLD_FINETUNE = [T + f for f in ("test_values145_finetune_lock.py", "test_values118_finetune.py",
                                "test_values95_finetune.py", "test_values63_finetune.py", "test_values14_finetune.py",
                                "test_values_finetune.py", "test_finetune.py")]

NEW_STOP = [T + "test_values180_stopping.py"]
NEW_OPTIM = [T + "test_values180_optim.py"]
NEW_PROGRESS = [T + "test_values180_progress.py"]
NEW_SETUP = [T + "test_values180_setup_finetune.py"]
NEW_FINETUNE = [T + "test_values180_setup_finetune.py"]

MUTANTS = [
    # ---- stopping: the best value's ties, the divergence lines, the time budget ----
    dict(name="v180-judge-tie-counts-as-better", file=STOP,
         old="    if better:\n",
         new="    if better or v == b[\"value\"]:\n",
         tests=NEW_STOP + OLD_STOP,
         why="a validation value equal to the best one counts as better: a tie resets the patience count and moves "
             "the best update to the later one"),
    dict(name="v180-bn-hint-slice-keeps-the-space", file=STOP,
         old="hint[4:]",
         new="hint[3:]",
         tests=NEW_STOP + OLD_STOP,
         why="the BatchNorm divergence hint cuts 'try' but keeps its space: 'or  a lower --lr' with two spaces"),
    dict(name="v180-diverged-epoch-counted-from-zero", file=STOP,
         old="became {value} at epoch {t.epoch + 1}, {where}",
         new="became {value} at epoch {t.epoch}, {where}",
         tests=NEW_STOP + OLD_STOP,
         why="a divergence names the epoch counted from 0 (epoch 0 for the first)"),
    dict(name="v180-blowup-names-the-last-update-made", file=STOP,
         old='f"{t.step + 1}; training stopped and the last good',
         new='f"{t.step}; training stopped and the last good',
         tests=NEW_STOP + OLD_STOP,
         why="the blow-up line names the last update made, not the one under way whose loss blew up"),
    dict(name="v180-single-process-budget-read-from-votes", file=STOP,
         old="        if t.group.size > 1:\n            return t.votes[2] > 0",
         new="        if t.group.size >= 1:\n            return t.votes[2] > 0",
         tests=NEW_STOP + OLD_STOP,
         why="a single process reads the time budget from the group's votes, which it never casts: --time-budget "
             "never stops it"),
    # ---- optimizers: the checks of step's arguments ----
    dict(name="v180-step-takes-a-2d-flat-array", file=OPTIM,
         old="or params.ndim != 1:",
         new="or params.ndim > 2:",
         tests=NEW_OPTIM + OLD_OPTIM,
         why="a 2-D parameter array passes the flat-array check (same shape gradients): a matrix is taken for the "
             "whole model's flat buffer"),
    dict(name="v180-step-keys-differ-one-sided", file=OPTIM,
         old="sorted(set(params) ^ set(grads))",
         new="sorted(set(params) - set(grads))",
         tests=NEW_OPTIM + OLD_OPTIM,
         why="the keys refusal names only parameters without a gradient, not gradients without a parameter"),
    # ---- progress: log interval, rate, the closing line ----
    dict(name="v180-progress-log-every-ignored", file=PROGRESS,
         old="self.log_every = LOG_EVERY_S if log_every is None else log_every",
         new="self.log_every = LOG_EVERY_S",
         tests=NEW_PROGRESS + OLD_PROGRESS,
         why="a plain stream's line interval is always 30 s, whatever log_every the caller gave"),
    dict(name="v180-progress-rate-since-last-draw", file=PROGRESS,
         old="dt = time.perf_counter() - self.t0",
         new="dt = time.perf_counter() - self.last_draw",
         tests=NEW_PROGRESS + OLD_PROGRESS,
         why="the rate divides the samples since the start by the time since the last line drawn"),
    dict(name="v180-progress-close-suffix-unspaced", file=PROGRESS,
         old='extra = " " + suffix if suffix else ""',
         new="extra = suffix",
         tests=NEW_PROGRESS + OLD_PROGRESS,
         why="the closing line's suffix is glued to the elapsed time without a space"),
    # ---- setup: read_resume's refusals ----
    dict(name="v180-resume-names-the-first-missing-record", file=SETUP,
         old="lacks {', '.join(missing)}; it cannot",
         new="lacks {missing[0]}; it cannot",
         tests=NEW_SETUP + OLD_SETUP,
         why="a checkpoint lacking several records is refused naming only the first"),
    dict(name="v180-resume-folder-taken-for-a-checkpoint", file=SETUP,
         old="    if not checkpoint_exists(out):\n",
         new="    if not os.path.isdir(out):\n",
         tests=NEW_SETUP + OLD_SETUP,
         why="--resume on an existing folder without a checkpoint gets past the 'no checkpoint' refusal and fails "
             "in the reader with its own sentence"),
    # ---- fine-tuning: shape settings, the source's record ----
    dict(name="v180-finetune-dtype-not-a-shape-setting", file=FINETUNE,
         old='SHAPE_SETTINGS = ("cell", "hidden", "layers", "bidirectional", "dtype")',
         new='SHAPE_SETTINGS = ("cell", "hidden", "layers", "bidirectional")',
         tests=NEW_FINETUNE + OLD_FINETUNE,
         why="--init-from from a float64 run into a float32 one passes check_settings: no --dtype refusal before "
             "the data are read"),
    dict(name="v180-finetune-record-step-from-epoch", file=FINETUNE,
         old='"step": int(m.get("step", 0))',
         new='"step": int(m.get("epoch", 0))',
         tests=NEW_FINETUNE + OLD_FINETUNE,
         why="the start record (and the run's description) quotes the source's epoch as its update"),
]
