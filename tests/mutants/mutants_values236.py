"""Planted bugs, round 236 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training driver (train.py, recorder.py, setup.py, runconfig.py): a NaN validation loss of an
--eval-every evaluation named the training loss; the epoch loop no longer ending on a stop that falls on an
epoch's last update (--max-steps = updates an epoch, --patience at an epoch end); a second schedule change on a
resume announced with the first change's rates; --patience running out at an epoch end reported as a budget stop;
a resume that changes nothing dropping the earlier schedule changes from its checkpoints; the summary reporting
the run's first evaluation; the stopped run's hint without --resume; a fine-tuned run's resume reading its
--init-from source again; the start line's parameter count without its thousands comma; the inherited budget read
under a wrong key (a resume trains past the run's --max-steps); a --config file's options not counted as given (a
resume ignores what the file changes); an unreadable --config quoting the exception instead of its reason; malformed
JSON quoted without its line and column.

13 mutants. Against the existing targeted tests alone (test_values202_train_run, test_values217_train_run,
test_values17_train, test_finetune, test_values_setup, test_values_runconfig) the first 7 measured before the
round's time ran out gave 2 caught (the epoch loop ignoring the stop, the hint without --resume) and 5 missed (the
NaN's name, the second change's announcement, the patience summary, the dropped lr_changes, the summary's first
evaluation); the other 6 were not measured against the old files. The new value tests catch every mutant on their
own (13/13, checked with the old files taken off the lists): test_values236_train_driver (evaluations every 2
updates of a 3-update epoch at updates 2, 3, 4, 6 with 32, 40, 56, 80 samples; the parameter count 1*40 + 40*40 + 40
+ 40*10 + 10 = 2,090 by hand; the summary word for word from the last row of metrics.jsonl and the lowest validation
loss, formatted here; --patience 1 stopping at the first epoch end whose loss is not below the best so far, read
from the rows; --max-steps 3 ending the run on epoch 1's last update; the stopped run's hint; a NaN validation loss
as stopping.diverged's sentence word for word), test_values236_train_resume (four invocations of one run, two --lr
changes announced with rates worked out by hand, 0.045 -> 0.01 and 0.0081 -> 0.002, the middle resume's checkpoint
keeping the first change, metrics.jsonl's rates 0.05, 0.01, 0.009, 0.002; a fine-tuned run resumed after its source
is deleted; a --max-steps 5 inherited by a resume after a failure at update 3), test_values236_runconfig (a resume's
--config changing --hidden refused word for word through the CLI with checkpoint.json untouched; a folder as config
file and malformed JSON, the latter against the json module's own message).

Left out as equivalent: apply_config_file's ParameterSource.ENVIRONMENT (no option reads an environment variable);
the loop's `batch_in_epoch < nb` before a periodic save (a save on an epoch's last update is written again, the same
state, by the epoch end); open()'s step-0 test without its batch_in_epoch term (step 0 implies batch 0); the summary's
`t.step != 1` as `> 1` (no summary is written at step 0: an idle resume returns before it); checkpoint's
compile_time_s read from compile_s alone (the running clock is zero on a warm cache: not observable reliably);
time_s's rounding (wall-clock).

    python tests/mutants/run.py --only 'v236-*'
"""
TRAIN = "lnrnn/training/train.py"
RECORDER = "lnrnn/training/recorder.py"
SETUP = "lnrnn/training/setup.py"
RUNCONFIG = "lnrnn/training/runconfig.py"

OLD = ["tests/training/test_values202_train_run.py", "tests/training/test_values217_train_run.py",
       "tests/training/test_values17_train.py", "tests/training/test_finetune.py",
       "tests/training/test_values_setup.py", "tests/training/test_values_runconfig.py"]

MUTANTS = [
    dict(name="v236-train-mid-epoch-nan-named-training-loss", file=TRAIN,
         old='            self._diverged("validation loss", val["loss"], evaluated=True)\n        return val',
         new='            self._diverged("training loss", val["loss"], evaluated=True)\n        return val',
         tests=['tests/training/test_values236_train_driver.py::test_a_nan_validation_loss_every_two_updates_is_named_as_such']
         + OLD,
         why="a NaN validation loss of an --eval-every evaluation is reported as the training loss"),
    dict(name="v236-train-epoch-loop-ignores-the-stop", file=TRAIN,
         old="            while self.epoch < cfg.epochs and stop_reason is None:",
         new="            while self.epoch < cfg.epochs:",
         tests=['tests/training/test_values236_train_driver.py::test_max_steps_on_an_epochs_last_update_ends_the_run_there',
                'tests/training/test_values236_train_driver.py::test_patience_stops_at_the_first_epoch_end_without_a_better_loss'] + OLD,
         why="a stop that falls on an epoch's last update (--max-steps, --patience) trains on into the next epoch"),
    dict(name="v236-train-schedule-change-names-the-first", file=TRAIN,
         old='trainer.log(f"Changing the schedule: {finetune.describe_change(trainer.lr_change)}.")',
         new='trainer.log(f"Changing the schedule: {finetune.describe_change(trainer.lr_changes[0])}.")',
         tests=['tests/training/test_values236_train_resume.py::test_each_schedule_change_is_announced_with_its_own_rates']
         + OLD,
         why="a second schedule change is announced with the first change's rates and update"),
    dict(name="v236-train-epoch-end-patience-not-early", file=TRAIN,
         old='                        stop_reason = "early"',
         new='                        stop_reason = "patience"',
         tests=['tests/training/test_values236_train_driver.py::test_patience_stops_at_the_first_epoch_end_without_a_better_loss']
         + OLD,
         why="--patience running out at an epoch's end is summarized as a budget stop with a --time-budget hint"),
    dict(name="v236-recorder-lr-changes-kept-only-when-changed-now", file=RECORDER,
         old="        if t.lr_changes:\n",
         new="        if t.lr_change is not None:\n",
         tests=['tests/training/test_values236_train_resume.py::test_a_resume_without_changes_keeps_the_earlier_change',
                'tests/training/test_values236_train_resume.py::test_each_schedule_change_is_announced_with_its_own_rates'] + OLD,
         why="a resume that changes nothing drops the earlier schedule changes from its checkpoints"),
    dict(name="v236-recorder-summary-reports-the-first-evaluation", file=RECORDER,
         old="        last = t.history[-1] if t.history else None",
         new="        last = t.history[0] if t.history else None",
         tests=['tests/training/test_values236_train_driver.py::test_the_summary_reports_the_last_evaluation_and_the_best']
         + OLD,
         why="the summary's validation figures are those of the run's first evaluation, not its last"),
    dict(name="v236-recorder-stopped-hint-drops-resume", file=RECORDER,
         old="continue with `lnrnn train --out {c.out} --resume` (without",
         new="continue with `lnrnn train --out {c.out}` (without",
         tests=['tests/training/test_values236_train_driver.py::test_a_stopped_runs_hint_is_the_command_that_resumes_it']
         + OLD,
         why="the stopped run's hint leaves --resume out of the command that continues it"),
    dict(name="v236-setup-resume-rereads-the-init-source", file=SETUP,
         old="    if cfg.init_from is not None and not resume:",
         new="    if cfg.init_from is not None:",
         tests=['tests/training/test_values236_train_resume.py::test_a_fine_tuned_run_resumes_after_its_source_is_gone']
         + OLD,
         why="resuming a fine-tuned run reads its --init-from source again: refused once the source is gone"),
    dict(name="v236-setup-parameters-without-thousands-commas", file=SETUP,
         old='f"{m.num_params():,} parameters,',
         new='f"{m.num_params()} parameters,',
         tests=['tests/training/test_values236_train_driver.py::test_the_start_line_counts_the_parameters_with_a_thousands_comma']
         + OLD,
         why="the start line writes 2090 parameters instead of 2,090"),
    dict(name="v236-setup-budget-read-under-wrong-key", file=SETUP,
         old='    resumed = resume_config(meta["train"], cfg, explicit, meta.get("budget"))',
         new='    resumed = resume_config(meta["train"], cfg, explicit, meta.get("budget_state"))',
         tests=['tests/training/test_values236_train_resume.py::test_a_resume_inherits_the_max_steps_it_has_not_reached']
         + OLD,
         why="a resume no longer inherits the run's --max-steps / --time-budget: it trains on to --epochs"),
    dict(name="v236-runconfig-file-options-not-explicit", file=RUNCONFIG,
         old="    return given\n",
         new="    return set()\n",
         tests=['tests/commands/test_values236_runconfig.py::test_a_resumes_config_file_that_changes_the_hidden_size_is_refused']
         + OLD,
         why="--config's options do not count as given: a resume ignores a changed --lr or --hidden from the file"),
    dict(name="v236-runconfig-unreadable-says-errno", file=RUNCONFIG,
         old='cannot be read ({e.strerror or e}).")',
         new='cannot be read ({e}).")',
         tests=['tests/commands/test_values236_runconfig.py::test_a_folder_named_as_a_config_file_is_refused_with_the_systems_reason']
         + OLD,
         why="an unreadable --config's refusal quotes '[Errno 21] Is a directory: ...' instead of the reason"),
    dict(name="v236-runconfig-bad-json-message-only", file=RUNCONFIG,
         old='is not valid JSON ({e}).")',
         new='is not valid JSON ({e.msg}).")',
         tests=['tests/commands/test_values236_runconfig.py::test_malformed_json_is_refused_with_its_line_and_column']
         + OLD,
         why="a malformed JSON --config's refusal drops the line and column of the fault"),
]
