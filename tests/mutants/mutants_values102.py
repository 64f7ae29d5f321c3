"""Planted bugs, round 102 (format: tests/mutants/mutants.py): single-line slips in the built-in tasks, the run
configuration, checkpoints and the run recorder, on lines no earlier round mutates: --split's counts read as
VAL/TRAIN, the adding problem's first marker written over the value channel, the adding and copy tasks' validation
sequences redrawn from the data seed (the first training sequences again), --steps 0 dropped as if not given,
the MNIST shapes counting the digits' split; a config file's values not cast by the option's click type, the
options it gave reported under the file's spelling, the unknown-key sentence listing every parameter of the
command; a checkpoint-*.npz named directly not led to its folder's description, another model's refusal naming
only its first difference; a resume dropping updates.jsonl's row of the checkpoint's own update, a resume
swapping epoch and batch within it, RUN/best/'s best record without its update.

14 mutants. Against the existing targeted tests alone 9 were caught and 5 missed: the adding and the copy
task's validation redrawn from the seed (no old test compares validation sequences with training ones), the
MNIST shapes counting 1437/360 (the old task tests never ask a task's shape before building it), the unknown-key sentence
listing every parameter (the old test looks for the key, not for the keys offered) and the resume dropping the
checkpoint's own row of updates.jsonl (no old test counts the rows kept at the resume's own update). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values102_tasks (the digits' images and labels found in scikit-learn's set at the --split counts; the
adding problem's markers, one per half, and its target summed here from the marked values; the copy task's
codes and labels rebuilt here from its first K symbols; train and validation disjoint row by row, a second build
equal; --steps 0 and 1 refused and 2 taken; the MNIST files' 60000/10000 images), test_values102_runconfig
(every field of a run, and the defaults, through config.json and lnrnn train's own click context: equal and of
the field's type; integral 8.0 for --hidden an int, 1 for --lr a float; the given set under field names;
--eval-batch-size at its bound 1 taken, 0 refused in one line; the unknown-key sentence listing exactly the
command's settable options), test_values102_checkpoint (saves at updates 9, 10, 10**6 and 1234567890 read back
from the folder, the description and the arrays file; the refusal naming each differing setting with both
values and no other; --keep 3 over a history that went back keeping the three highest updates, each loadable,
and the run's own checkpoint the last saved) and test_values102_recorder (updates.jsonl rows kept up to and
including the update resumed at, across 9/10, 99/100 and 999/1000, and continued without a row lost or
repeated; epoch, batch and update restored from a checkpoint's description; the best record read back from
RUN/best/). Dropped before the catalogue as equivalent or near it: write_csv's repr of floats as str (the same
text in Python 3); keep_past copying straight to the final name instead of the .tmp- one (the same end state
when nothing fails); np.asarray for np.ascontiguousarray before savez (a Fortran-ordered array reads back equal);
the arrays file's folder from the description's dirname without abspath (the path is already resolved); the
environment left out of what overrides a config file (lnrnn train reads no environment variables). Left out:
the TensorBoard rows (step from the epoch, the whole history added again): the package is optional and absent
where these tests run.

    python tests/mutants/run.py --only 'v102-*'
"""
TASKS = "lnrnn/data/tasks.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
CKPT = "lnrnn/training/checkpoint.py"
RECORDER = "lnrnn/training/recorder.py"

# existing tests of these modules
TASKS_OLD = ["tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py", "tests/data/test_values12_tasks.py",
             "tests/data/test_values13_tasks.py", "tests/data/test_values21_tasks.py",
             "tests/data/test_values32_tasks.py", "tests/data/test_values44_tasks.py",
             "tests/data/test_values53_tasks.py", "tests/data/test_values76_tasks.py",
             "tests/data/test_values89_tasks.py", "tests/data/test_values_taskdata.py", "tests/data/test_data.py"]
RUNCONFIG_OLD = ["tests/training/test_values_runconfig.py", "tests/training/test_values13_runconfig.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py", "tests/training/test_values63_checkpoint.py",
            "tests/training/test_values91_checkpoint.py"]
RECORDER_OLD = ["tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
                "tests/training/test_values20_recorder.py", "tests/training/test_values21_recorder.py",
                "tests/training/test_values36_recorder.py", "tests/training/test_values47_resume.py",
                "tests/training/test_values54_resume.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TASKS_NEW = ["tests/data/test_values102_tasks.py"]
RUNCONFIG_NEW = ["tests/training/test_values102_runconfig.py"]
CKPT_NEW = ["tests/training/test_values102_checkpoint.py"]
RECORDER_NEW = ["tests/training/test_values102_recorder.py"]

MUTANTS = [
    # ---- the built-in tasks ----
    dict(name="v102-split-counts-swapped", file=TASKS,
         old="    a, b = split\n",
         new="    b, a = split\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="--split TRAIN/VAL read as VAL/TRAIN: the digits train on the validation count"),
    dict(name="v102-adding-first-marker-on-the-value", file=TASKS,
         old="    x[rows, first, 1] = 1.0\n",
         new="    x[rows, first, 0] = 1.0\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="the adding problem's first marker overwrites the value channel: one marker, and a target of 1 + v"),
    dict(name="v102-adding-validation-redrawn-from-the-seed", file=TASKS,
         old="    xv, yv = _adding_sequences(rng, SYNTHETIC_VAL, T)\n",
         new="    xv, yv = _adding_sequences(np.random.default_rng(DATA_SEED), SYNTHETIC_VAL, T)\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="the adding problem's validation sequences are the first training sequences again"),
    dict(name="v102-copy-validation-redrawn-from-the-seed", file=TASKS,
         old="    xv, yv = _copy_sequences(rng, SYNTHETIC_VAL, delay)\n",
         new="    xv, yv = _copy_sequences(np.random.default_rng(DATA_SEED), SYNTHETIC_VAL, delay)\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task's validation sequences are the first training sequences again"),
    dict(name="v102-steps-zero-taken-as-unset", file=TASKS,
         old="        if val is None:\n            continue\n",
         new="        if not val:\n            continue\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="--steps 0 is dropped as if not given: the adding problem silently runs 100 steps, digits takes it"),
    dict(name="v102-mnist-shape-digits-counts", file=TASKS,
         old="    nt, nv = parse_split(spec.get(\"split\")) or MNIST_SPLIT\n",
         new="    nt, nv = parse_split(spec.get(\"split\")) or DIGITS_SPLIT\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="the MNIST tasks' shape before loading counts the digits' 1437/360 images, not 60000/10000"),
    # ---- the run configuration ----
    dict(name="v102-config-value-not-cast", file=RUNCONFIG,
         old="            value = param.type_cast_value(ctx, value)\n",
         new="            param.type_cast_value(ctx, value)\n",
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="a config file's values skip the option's click type: 8.0 stays a float for --hidden, 1 an int for --lr"),
    dict(name="v102-config-given-under-the-file-key", file=RUNCONFIG,
         old="        given.add(name)\n",
         new="        given.add(key)\n",
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="the options a file gave are reported under its spelling (batch-size), not the field's (batch_size)"),
    dict(name="v102-config-unknown-key-lists-every-parameter", file=RUNCONFIG,
         old="            known = \", \".join(sorted(option_name(n) for n in settable))\n",
         new="            known = \", \".join(sorted(option_name(n) for n in params))\n",
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="the unknown-key sentence offers keys a file may not set (config, resume, quiet)"),
    # ---- checkpoints ----
    dict(name="v102-checkpoint-sibling-inside-the-file", file=CKPT,
         old="    sibling = os.path.join(os.path.dirname(path), DESCRIPTION)\n",
         new="    sibling = os.path.join(path, DESCRIPTION)\n",
         tests=CKPT_NEW + CKPT_OLD,
         why="a checkpoint-*.npz named directly is not led to its folder's checkpoint.json"),
    dict(name="v102-mismatch-names-the-first-difference-only", file=CKPT,
         old="    return \"; \".join(diffs)\n",
         new="    return \"; \".join(diffs[:1])\n",
         tests=CKPT_NEW + CKPT_OLD,
         why="a checkpoint of another model names one of the settings that differ, not all"),
    # ---- the run recorder ----
    dict(name="v102-update-log-drops-the-checkpoint-row", file=RECORDER,
         old="        self.update_log = UpdateLog(cfg.out).start(t.step) if",
         new="        self.update_log = UpdateLog(cfg.out).start(t.step - 1) if",
         tests=RECORDER_NEW + RECORDER_OLD,
         why="a resume drops the updates.jsonl row of the checkpoint's own update: that row is lost"),
    dict(name="v102-resume-epoch-and-batch-swapped", file=RECORDER,
         old="meta[\"epoch\"], meta[\"batch_in_epoch\"], meta[\"step\"]\n",
         new="meta[\"batch_in_epoch\"], meta[\"epoch\"], meta[\"step\"]\n",
         tests=RECORDER_NEW + RECORDER_OLD,
         why="a resume restores the epoch as the batch within it and the batch as the epoch"),
    dict(name="v102-best-record-without-its-step", file=RECORDER,
         old="for k in (\"metric\", \"value\", \"step\", \"epoch\")}",
         new="for k in (\"metric\", \"value\", \"epoch\")}",
         tests=RECORDER_NEW + RECORDER_OLD,
         why="RUN/best/checkpoint.json's best record leaves out the update it was evaluated at"),
]
