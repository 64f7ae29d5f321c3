"""Planted bugs, round 426 (format: tests/mutants/mutants.py): where a resume takes up an epoch
(lnrnn/training/train.py: Trainer._start and batches_per_epoch), a --config file's values that the command line
gives again (lnrnn/training/runconfig.py: apply_config_file) and lnrnn plot of a run whose logs are not files
(lnrnn/commands/plot.py: _log_path), twenty-second pass.

The planted bugs: a checkpoint's position at or past the epoch's last batch let through (the check off by one, or
dropped), the refusal's words naming the wrong largest position or the validation's count; a bad value the command
line overrides unchecked, the file's value winning over the command line's, only the environment's value winning;
plot's metrics.jsonl or updates.jsonl folder read as a missing log, a dangling link let through, only folders
refused, every log refused, a run without updates.jsonl refused. 13 mutants. The old targeted files alone (per
module: OLD_RESUME, OLD_CONFIG, OLD_PLOT) catch 4 of 13: the command line losing to the file (twice) and the
refusals of good logs (twice). The new files alone (test_values426_train_resume_position, test_values426_runconfig,
test_values426_plot) catch 13 of 13, so NEW + OLD does too (not run separately). Found by setting a stopped run's
batch_in_epoch by hand, by giving a config file a bad value and its flag again, and by putting a folder where a
run's logs go. The partial last batch left out of an epoch's count is planted already
(v8-train-batches-per-epoch-floor and vals5-train-last-partial-batch-dropped, which follow the count into
Trainer.batches_per_epoch; the new resume file catches it too).

    python tests/mutants/run.py --only 'v426-*'
"""
NEW_RESUME = ["tests/training/test_values426_train_resume_position.py"]
NEW_CONFIG = ["tests/commands/test_values426_runconfig.py"]
NEW_PLOT = ["tests/commands/test_values426_plot.py"]
TRAIN = "lnrnn/training/train.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
PLOT = "lnrnn/commands/plot.py"
OLD_RESUME = ["tests/training/test_values134_recorder_resume.py", "tests/training/test_values236_train_resume.py",
              "tests/training/test_values47_resume.py", "tests/training/test_values54_resume.py",
              "tests/training/test_values398_recorder.py", "tests/training/test_values362_recorder.py",
              "tests/training/test_values425_diverged_state.py"]
OLD_CONFIG = ["tests/commands/test_cli_train_config.py", "tests/commands/test_values142_runconfig.py",
              "tests/commands/test_values236_runconfig.py", "tests/commands/test_values421_config_numbers.py",
              "tests/training/test_values_runconfig.py", "tests/training/test_values348_runconfig.py"]
OLD_PLOT = ["tests/commands/test_plot.py", "tests/commands/test_values173_plot.py",
            "tests/commands/test_values253_plot.py", "tests/commands/test_values349_plot.py",
            "tests/commands/test_values425_other_data.py"]

MUTANTS = [
    dict(name="v426-position-check-off-by-one", file=TRAIN,
         old="            if self.batch_in_epoch >= nb:\n",
         new="            if self.batch_in_epoch > nb:\n",
         tests=NEW_RESUME + OLD_RESUME,
         why="a checkpoint at the epoch's last batch (which no run saves) ends the epoch without a word"),
    dict(name="v426-position-unchecked", file=TRAIN,
         old="            if self.batch_in_epoch >= nb:\n",
         new="            if self.batch_in_epoch >= nb and self.epoch < 0:\n",
         tests=NEW_RESUME + OLD_RESUME,
         why="a damaged position skips the rest of the epoch and reports the partial sums as the epoch's"),
    dict(name="v426-position-words-say-nb", file=TRAIN,
         old='f"of {s.cfg.batch_size}, so at most {nb - 1} of them are done when a run saves)")\n',
         new='f"of {s.cfg.batch_size}, so at most {nb} of them are done when a run saves)")\n',
         tests=NEW_RESUME + OLD_RESUME,
         why="the refusal names a position it refuses as the largest a run saves"),
    dict(name="v426-position-words-count-the-validation", file=TRAIN,
         old='f"{self.task.size(\'train\')} training sequences it resumes with is {nb} batches "\n',
         new='f"{self.task.size(\'val\')} training sequences it resumes with is {nb} batches "\n',
         tests=NEW_RESUME + OLD_RESUME,
         why="the refusal counts the validation sequences as the training data's"),
    dict(name="v426-config-overridden-value-unchecked", file=RUNCONFIG,
         old="        if value is None:\n            continue\n        param = params[name]\n",
         new="        if value is None or ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE:\n"
             "            continue\n        param = params[name]\n",
         tests=NEW_CONFIG + OLD_CONFIG,
         why="a bad value in the file trains when the flag is given, and is refused only once it is dropped"),
    dict(name="v426-config-file-beats-the-command-line", file=RUNCONFIG,
         old="            continue  # the command line wins\n        options[name] = value\n",
         new="            pass  # the command line wins\n        options[name] = value\n",
         tests=NEW_CONFIG + OLD_CONFIG,
         why="the file's value replaces the one given on the command line"),
    dict(name="v426-config-env-is-not-given", file=RUNCONFIG,
         old="        if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):\n",
         new="        if ctx.get_parameter_source(name) in (ParameterSource.ENVIRONMENT,):\n",
         tests=NEW_CONFIG + OLD_CONFIG,
         why="only options from the environment win over the file: the command line loses"),
    dict(name="v426-plot-metrics-folder-read-as-missing", file=PLOT,
         old="    path = _log_path(run_dir, METRICS_FILE)\n",
         new="    path = os.path.join(run_dir, METRICS_FILE)\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="a metrics.jsonl folder is called 'no evaluations yet' or 'no metrics.jsonl'"),
    dict(name="v426-plot-updates-folder-passed-over", file=PLOT,
         old="    upath = _log_path(run_dir, UPDATES_FILE)\n",
         new="    upath = os.path.join(run_dir, UPDATES_FILE)\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="an updates.jsonl folder is passed over and the picture drawn without the per-update line"),
    dict(name="v426-plot-dangling-link-passed-over", file=PLOT,
         old="    if os.path.lexists(path) and not os.path.isfile(path):\n",
         new="    if os.path.exists(path) and not os.path.isfile(path):\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="a link to a missing log reads as a log not written yet"),
    dict(name="v426-plot-folder-check-only", file=PLOT,
         old="    if os.path.lexists(path) and not os.path.isfile(path):\n",
         new="    if os.path.isdir(path):\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="only a folder is refused; a dangling link reads as a log not written yet"),
    dict(name="v426-plot-every-log-refused", file=PLOT,
         old="    if os.path.lexists(path) and not os.path.isfile(path):\n",
         new="    if os.path.lexists(path) or not os.path.isfile(path):\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="every run's logs are refused as not files"),
    dict(name="v426-plot-missing-updates-refused", file=PLOT,
         old="    if os.path.lexists(path) and not os.path.isfile(path):\n",
         new="    if not os.path.isfile(path):\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="a run of an older lnrnn, without updates.jsonl, is refused"),
]
