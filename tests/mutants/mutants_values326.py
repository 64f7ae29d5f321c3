"""Planted bugs, round 326 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in evaluation (lnrnn/training/evaluation.py), fine-tuning (lnrnn/training/finetune.py), the progress bar
(lnrnn/training/progress.py) and the run's logs in other formats (lnrnn/training/logs.py): a checkpoint that cannot
be rebuilt refused with repr(e) (KeyError('hidden_size')) in place of the key; evaluate reading the training split
by default; an unknown pretrained:NAME refused without '--init-from NAME:'; read_source taking the training
settings for the model config (a checkpoint with no model config accepted); check_settings comparing the options
with the model config (a source of the same shape refused for --cell); load_into catching KeyError instead of
ValueError (arrays of another name or shape escape as a bare ValueError); _shape_of without upgrade_config (a
version 0.1 model config crashes on its missing 'head'); the bar on stdout by default; min_interval not passed
through (a terminal redrawn every 0.2 s); the metrics sorted by name (acc before loss); an update without metrics
dropping the ones given before; quiet honoured only on a terminal (a log file still gets lines); TensorBoard
getting only the last of the rows given; its folder RUN/runs instead of RUN/tensorboard.

14 mutants. Against the old targeted files alone: 6 of 14 (missed: the rebuild refusal showing the error's repr,
evaluate's default split, the pretrained refusal without --init-from, the model config read from the training
settings, an array misfit escaping as ValueError, a 0.1 config not upgraded, the bar on stdout by default,
min_interval not passed). The new value tests catch every mutant on their own (checked with the old files taken off
the lists): test_values326_evaluation_finetune (evaluate's defaults: the 7 validation rows of a stand-in task in one
batch; batches of 3, 3 and 1 against the mean over the rows, weighted by counts, that NumPy takes, a mean of batch
means shown to differ; model_from_run's refusals word for word with the key quoted as str(KeyError) quotes it and an
unknown setting named; --init-from's refusals word for word: an unknown pretrained name with the shipped names, a
checkpoint whose model config is a name, settings of another --hidden, --layers, --bidirectional (on/off) and
--cell, arrays of another name and of another shape, (3, 12) for an LSTM of hidden 3 worked out from its four gates,
nothing loaded; settings of the same shape accepted; a version 0.1 config loading every parameter, the names listed
by hand), test_values326_progress_logs (on a stand-in clock: the bar's line at 0, 1, 9, 10, 99, 100 and 101 of 100
samples 16 s on, fill, rate, ETA and elapsed time worked out by hand; hours and a thousands separator; metrics in
the order given and kept over updates without them; a log file's lines every log_every seconds and none at the
total; a terminal redrawn at most every min_interval and at the total; stderr by default through capsys; quiet
silent on a file and a terminal; the compile note's 2 s timer and its sentence; TensorBoard rows at updates 9, 10,
99, 100 through the stand-in package of test_values_logs, in RUN/tensorboard; metrics.csv read back with the csv
module, floats exactly). Left out as equivalent: split_arrays's loop over arrays.items() in another order (every
name lands under its own key); model_from_run's device passed as "cpu" (the only device a CPU host builds on, and
the CUDA path is not cheap to test). Left out as not cheap: evaluate's group.size > 1 made >= 1 (it needs a group
object of distributed training). Left out to keep the round at 14 (not equivalent): the compile note's timer started
at LOG_EVERY_S (test_values326_progress_logs reads its 2 s interval) and the log-file branch's `return` made `pass`
(a file then also gets the terminal's redraw at the total, which
test_a_log_file_gets_a_line_every_log_every_seconds_before_the_total reads).

    python tests/mutants/run.py --only 'v326-*'
"""
EVAL = "lnrnn/training/evaluation.py"
FT = "lnrnn/training/finetune.py"
PROG = "lnrnn/training/progress.py"
LOGS = "lnrnn/training/logs.py"

T_EF = "tests/training/test_values326_evaluation_finetune.py::"
T_PL = "tests/training/test_values326_progress_logs.py::"
OLD_EVAL = ["tests/training/test_values185_evaluation.py", "tests/training/test_values248_evaluation_finetune.py"]
OLD_FT = ["tests/training/test_values278_finetune.py", "tests/training/test_values248_evaluation_finetune.py",
          "tests/training/test_values180_setup_finetune.py"]
OLD_PROG = ["tests/training/test_values210_progress.py", "tests/training/test_values_progress.py"]
OLD_LOGS = ["tests/training/test_values283_logs.py", "tests/training/test_values_logs.py"]

MUTANTS = [
    # ---- evaluation: lnrnn/training/evaluation.py ----
    dict(name="v326-eval-rebuild-refusal-repr-of-error", file=EVAL,
         old='does not describe a model lnrnn can rebuild ({e}).") from None',
         new='does not describe a model lnrnn can rebuild ({e!r}).") from None',
         tests=[T_EF + "test_a_checkpoint_without_the_hidden_size_is_refused_quoting_the_key"] + OLD_EVAL,
         why="a checkpoint that cannot be rebuilt is refused naming KeyError('hidden_size') instead of the key"),
    dict(name="v326-eval-default-split-train", file=EVAL,
         old='def evaluate(model, task, which="val", batch_size=500, group=None):',
         new='def evaluate(model, task, which="train", batch_size=500, group=None):',
         tests=[T_EF + "test_evaluate_by_default_reads_the_validation_split_in_one_batch"] + OLD_EVAL,
         why="evaluate without a split reads the training set, not the validation set"),
    # ---- fine-tuning: lnrnn/training/finetune.py ----
    dict(name="v326-ft-pretrained-refusal-without-option", file=FT,
         old="        where = resolve(path)                  # pretrained:NAME: a run shipped with the package\n"
             "    except CheckpointError as e:\n"
             '        raise CheckpointError(f"--init-from {path}: {e}") from None',
         new="        where = resolve(path)                  # pretrained:NAME: a run shipped with the package\n"
             "    except CheckpointError as e:\n"
             "        raise CheckpointError(str(e)) from None",
         tests=[T_EF + "test_an_unknown_pretrained_name_is_refused_listing_the_shipped_ones"] + OLD_FT,
         why="an unknown pretrained:NAME is refused without saying it came from --init-from NAME"),
    dict(name="v326-ft-model-config-read-from-train", file="lnrnn/training/checkpoint.py",
         old='("model", isinstance(model, dict))', new='("model", isinstance(meta.get("train"), dict))',
         tests=[T_EF + "test_a_checkpoint_with_training_settings_but_no_model_config_is_refused"] + OLD_FT,
         why="the training settings are held to the model config's form: a checkpoint whose model config is a name "
             "is a source (the check moved from finetune.read_source to load_checkpoint)"),
    dict(name="v326-ft-settings-compared-with-model-config", file=FT,
         old='    saved = source.meta["train"]',
         new='    saved = source.meta["model"]',
         tests=[T_EF + "test_settings_of_the_same_shape_are_accepted"] + OLD_FT,
         why="the shape options are compared with the model config's keys: a source of the same shape is refused"),
    dict(name="v326-ft-array-misfit-not-caught", file=FT,
         old="    except ValueError as e:",
         new="    except KeyError as e:",
         tests=[T_EF + "test_arrays_of_another_name_are_refused_naming_it",
                T_EF + "test_arrays_of_another_shape_are_refused_with_both_shapes"] + OLD_FT,
         why="arrays of another name or shape escape as a bare ValueError, not the --init-from sentence"),
    dict(name="v326-ft-shape-without-upgrade", file=FT,
         old="    config = upgrade_config(config)",
         new="    config = dict(config)",
         tests=[T_EF + "test_a_version_0_1_model_config_loads_every_parameter"] + OLD_FT,
         why="a version 0.1 model config (the head's fields beside the stack's) is not upgraded: no 'head', a crash"),
    # ---- the progress bar: lnrnn/training/progress.py ----
    dict(name="v326-progress-default-stdout", file=PROG,
         old="        self.stream = stream if stream is not None else sys.stderr",
         new="        self.stream = stream if stream is not None else sys.stdout",
         tests=[T_PL + "test_the_bar_goes_to_stderr_by_default"] + OLD_PROG,
         why="the bar goes to stdout by default, mixed into the command's output"),
    dict(name="v326-progress-min-interval-not-passed", file=PROG,
         old="        self.min_interval = min_interval",
         new="        self.min_interval = 0.2",
         tests=[T_PL + "test_a_terminal_redrawn_at_most_every_min_interval_and_at_the_total"] + OLD_PROG,
         why="min_interval is ignored: a terminal is redrawn every 0.2 s whatever was asked"),
    dict(name="v326-progress-metrics-sorted", file=PROG,
         old="        for name, v in self.fields.items():",
         new="        for name, v in sorted(self.fields.items()):",
         tests=[T_PL + "test_metrics_in_the_order_given_and_kept_over_updates_without_them"] + OLD_PROG,
         why="the metrics are shown sorted by name (acc before loss), not in the head's order"),
    dict(name="v326-progress-fields-replaced", file=PROG,
         old="        self.fields.update(fields)",
         new="        self.fields = fields",
         tests=[T_PL + "test_metrics_in_the_order_given_and_kept_over_updates_without_them"] + OLD_PROG,
         why="an update without metrics drops those given before: the final line loses them"),
    dict(name="v326-progress-quiet-only-on-terminal", file=PROG,
         old="        if self.quiet:\n            return\n        now = time.perf_counter()",
         new="        if self.quiet and self.tty:\n            return\n        now = time.perf_counter()",
         tests=[T_PL + "test_quiet_writes_nothing"] + OLD_PROG,
         why="quiet silences only a terminal's redraws: a log file still gets a line every log_every seconds"),
    # ---- logs: lnrnn/training/logs.py ----
    dict(name="v326-logs-tensorboard-last-row-only", file=LOGS,
         old="        for r in rows:\n            values = []",
         new="        for r in rows[-1:]:\n            values = []",
         tests=[T_PL + "test_tensorboard_gets_every_row_given_in_run_tensorboard"] + OLD_LOGS,
         why="TensorBoard gets only the last of the rows one add is given: the others never reach it"),
    dict(name="v326-logs-tensorboard-folder-runs", file=LOGS,
         old='TENSORBOARD_DIR = "tensorboard"',
         new='TENSORBOARD_DIR = "runs"',
         tests=[T_PL + "test_tensorboard_gets_every_row_given_in_run_tensorboard"] + OLD_LOGS,
         why="the scalars go to RUN/runs/, not the documented RUN/tensorboard/"),
]
