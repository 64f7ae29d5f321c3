"""Planted bugs, round 142 (format: tests/mutants/mutants.py): single-line slips in the plan, the run setup, the
run configuration and checkpoints, a sixth pass on lines no earlier round mutates: resolve_defaults dropping
every falsy value given (--no-skip, --clip 0), BEST_METRICS without cer, RESUME_OVERRIDABLE without data_dir,
--clip-gates refused for the plain rnn alone, the window layer's norm defaulting to none for every cell, the
window's alphabet one character too wide, the mixture density head clipping at --clip; RESUMABLE_KEYS without
the generator's state, --batch-size held against the validation count; a bad --config value naming the field
instead of its key; a non-UTF-8 description, a description field of the wrong type and a failed save over a
corrupt description each raising a traceback instead of one line, the arrays file looked for under the path
given instead of beside the description; a 0-d array saved as one element.

15 mutants (the fifteenth, a 0-d array saved as shape (1,), was a real slip found while writing this round and
fixed; the old tests never saved a 0-d array). Of the first fourteen, against the existing targeted tests alone (the
direct files listed below) 6 were caught and 8 missed: the falsy values, the window norm, the batch size against the
validation count, the field named for the key, the non-UTF-8 description and the arrays file beside the path were
seen; the old files never resolve --best-metric cer, resume with another --data-dir, ask for --clip-gates on ln-rnn
or bn-rnn, check a synthesis network's alphabet_size or a head's clip_output against --clip, drop the generator's
state from a checkpoint, write a description field of the wrong type, or fail a save over a corrupt description. The
new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values142_plan (every resolved field against the given value or the task's TASK_DEFAULTS row; the four best
metrics and a fifth refused in the sentence written here; --clip-gates over the registry's cells with and without
gates; resume_config over the options --resume's help lists and where the run runs; model_config of a fake text task
over the three LSTM cells against the window's definition: K = 10, len(alphabet) columns, the window norm written
only where it differs from the cell's; model_for's head against --clip-output), test_values142_setup (a checkpoint
missing each of the nine records a resume continues from; build on 40 training and 8 validation digits with batches
of 40 and 41), test_values142_runconfig (config.json against the dataclass's fields, renamed by hand; bad values
under four keys named as written), test_values142_checkpoint (arrays of every kind compared byte for byte, dtype and
shape, named by folder, description or arrays file; descriptions not UTF-8, cut short or with a field of the wrong
type; an arrays file cut short with and without a matching digest; object arrays that need pickle; a save failing
with ENOSPC over whole and corrupt descriptions). The plan module holds no derived counts (updates per epoch,
partial batches, --eval-every phases, truncated-BPTT chunks live in the schedule and the trainer): none are mutated
here. Dropped before the catalogue as equivalent: ParameterSource.ENVIRONMENT dropped from the command line's
precedence (no option of lnrnn train reads an environment variable); `cfg.skip is False` read as `not cfg.skip` in
window_size (a resolved config's skip is always a bool); the reproducible check's device compared with == "cuda"
(validate refuses any other device next); np.savez_compressed for np.savez and the SHA-256 read in other chunk sizes
(the same arrays and digest come back).

    python tests/mutants/run.py --only 'v142-*'
"""
PLAN = "lnrnn/training/plan.py"
SETUP = "lnrnn/training/setup.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
CKPT = "lnrnn/training/checkpoint.py"

# existing tests of these modules, the most direct ones
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values130_plan.py",
            "tests/training/test_values80_plan.py", "tests/training/test_values54_plan.py",
            "tests/training/test_values36_plan.py", "tests/training/test_values21_plan.py",
            "tests/training/test_values_plan.py"]
SETUP_OLD = ["tests/training/test_values114_setup.py", "tests/training/test_values63_setup.py",
             "tests/training/test_values_setup.py", "tests/training/test_values9_setup.py"]
RUNCONFIG_OLD = ["tests/training/test_values122_runconfig.py", "tests/training/test_values102_runconfig.py",
                 "tests/training/test_values13_runconfig.py", "tests/training/test_values_runconfig.py",
                 "tests/commands/test_cli_train_config.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values122_checkpoint.py",
            "tests/training/test_values102_checkpoint.py", "tests/training/test_values91_checkpoint.py",
            "tests/training/test_values63_checkpoint.py", "tests/training/test_values19_checkpoint.py",
            "tests/training/test_values14_checkpoint.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
PLAN_NEW = ["tests/training/test_values142_plan.py"]
SETUP_NEW = ["tests/training/test_values142_setup.py"]
RUNCONFIG_NEW = ["tests/commands/test_values142_runconfig.py"]
CKPT_NEW = ["tests/training/test_values142_checkpoint.py"]

MUTANTS = [
    # ---- the plan: defaults, checks, the model config ----
    dict(name="v142-plan-given-falsy-values-dropped", file=PLAN,
         old="given = {k: v for k, v in dataclasses.asdict(cfg).items() if v is not None}",
         new="given = {k: v for k, v in dataclasses.asdict(cfg).items() if v}",
         tests=PLAN_NEW + PLAN_OLD,
         why="resolve_defaults drops every falsy value given (--no-skip, --clip 0, --seed 0): a stroke task's "
             "--no-skip becomes its default skip=True, --clip 0 the default 1.0"),
    dict(name="v142-plan-best-metric-without-cer", file=PLAN,
         old='BEST_METRICS = ("loss", "acc", "cer", "none")',
         new='BEST_METRICS = ("loss", "acc", "none")',
         tests=PLAN_NEW + PLAN_OLD,
         why="--best-metric cer (a reader's character error rate) is refused by validate"),
    dict(name="v142-plan-resume-may-not-move-data-dir", file=PLAN,
         old='"eval_batch_size", "device", "out", "data_dir",\n',
         new='"eval_batch_size", "device", "out",\n',
         tests=PLAN_NEW + SETUP_OLD + PLAN_OLD,
         why="a resume that names where the data now live (--data-dir) is refused as another setting"),
    dict(name="v142-plan-clip-gates-by-cell-name", file=PLAN,
         old="(not cfg.clip_gates or cell.gate_clip,",
         new='(not cfg.clip_gates or cfg.cell != "rnn",',
         tests=PLAN_NEW + PLAN_OLD,
         why="--clip-gates is refused for the plain rnn alone: ln-rnn and bn-rnn, which have no gates either, "
             "are let through"),
    dict(name="v142-plan-window-norm-default-none", file=PLAN,
         old="WINDOW_NORM_DEFAULT.get(spec.norm, spec.norm)",
         new='WINDOW_NORM_DEFAULT.get(spec.norm, "none")',
         tests=PLAN_NEW + PLAN_OLD,
         why="the window layer's norm defaults to none for every cell, not only LN's: a BN-LSTM synthesis network "
             "gets window_norm none in its model config"),
    dict(name="v142-plan-alphabet-size-plus-one", file=PLAN,
         old="config.update(window=K, alphabet_size=len(task.alphabet), skip=True)",
         new="config.update(window=K, alphabet_size=len(task.alphabet) + 1, skip=True)",
         tests=PLAN_NEW + PLAN_OLD,
         why="the window's one-hot text gets one column more than the task's alphabet has characters"),
    dict(name="v142-plan-clip-output-from-clip", file=PLAN,
         old="model.head.clip_output = float(cfg.clip_output)",
         new="model.head.clip_output = float(cfg.clip)",
         tests=PLAN_NEW + PLAN_OLD,
         why="the mixture density head clips dL/d(outputs) at --clip (the global norm limit), not --clip-output"),
    # ---- run setup ----
    dict(name="v142-setup-resumable-keys-without-rng", file=SETUP,
         old='RESUMABLE_KEYS = ("train", "optimizer", "epoch", "batch_in_epoch", "step", "rng", "epoch_sums",',
         new='RESUMABLE_KEYS = ("train", "optimizer", "epoch", "batch_in_epoch", "step", "epoch_sums",',
         tests=SETUP_NEW + SETUP_OLD,
         why="a checkpoint without the shuffling generator's state is taken for a resumable one"),
    dict(name="v142-setup-batch-size-against-validation", file=SETUP,
         old='n = task.size("train")',
         new='n = task.size("val")',
         tests=SETUP_NEW + SETUP_OLD,
         why="--batch-size is held against the validation sequences' count: a batch that fits the training set "
             "but not the smaller validation set is refused, and the message quotes the wrong count"),
    # ---- the run configuration file ----
    dict(name="v142-runconfig-bad-value-names-the-field", file=RUNCONFIG,
         old='bad value for {option_name(name)!r}: {why}.',
         new='bad value for {name!r}: {why}.',
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="a bad value in --config names the settings field (batch_size) instead of the key/option (batch-size)"),
    # ---- checkpoints ----
    dict(name="v142-ckpt-description-not-utf8-uncaught", file=CKPT,
         old="except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:",
         new="except (OSError, json.JSONDecodeError) as e:",
         tests=CKPT_NEW + CKPT_OLD,
         why="a description whose bytes are not UTF-8 (a corrupted checkpoint.json) raises a traceback instead of "
             "the one-line 'is corrupt'"),
    dict(name="v142-ckpt-description-field-of-wrong-type-uncaught", file=CKPT,
         old='("arrays_file", isinstance(name, str))', new='("arrays_file", name is not None)',
         tests=CKPT_NEW + CKPT_OLD,
         why="a description whose arrays_file is a number raises TypeError from os.path.join instead of "
             "the one-line 'it is corrupt'"),
    dict(name="v142-ckpt-save-error-over-a-corrupt-description", file=CKPT,
         old="except (OSError, ValueError, KeyError, TypeError):",
         new="except (OSError, KeyError):",
         tests=CKPT_NEW + CKPT_OLD,
         why="a save that fails where the previous description is corrupt raises the JSON error instead of "
             "its one line ('nothing was written there')"),
    dict(name="v142-ckpt-arrays-beside-the-path-given", file=CKPT,
         old='npz_path = os.path.join(os.path.dirname(os.path.abspath(desc)), name)',
         new='npz_path = os.path.join(path, name)',
         tests=CKPT_NEW + CKPT_OLD,
         why="the arrays file is looked for under the path given: a checkpoint named by its checkpoint.json (or "
             "its arrays file) is reported missing"),
    dict(name="v142-ckpt-scalar-made-one-element", file=CKPT,
         old='arrays = {k: np.asarray(v, order="C") for k, v in arrays.items()}',
         new='arrays = {k: np.ascontiguousarray(v) for k, v in arrays.items()}',
         tests=CKPT_NEW + CKPT_OLD,
         why="a 0-d array comes back as shape (1,) (ascontiguousarray returns at least one dimension), and the "
             "description records [1], so the load's own check passes it"),
]
