"""Planted bugs, round 80 (format: tests/mutants/mutants.py): single-line slips in the trainer loop, the run's
record, the stop rules, the plan's refusals and the prediction files, on lines no earlier round mutates: the
position in the epoch lagging one batch, an --eval-every evaluation's NaN validation loss let through, a --max-steps
stop comparing its update with the first evaluation's instead of the last (evaluating a state already scored again),
updates.jsonl's epoch column built from the run's update count; the blow-up level as 10 plus the first loss, a
--max-steps the invocation reached kept in the budget a resume inherits, a group's signal read from the SIGINT vote,
a second signal's message naming the update already finished; --time-budget 0 and --clip-gates inf taken,
--log-every's refusal quoting --eval-every; a per-step table's index and step columns swapped, CTC labels cut to the
first sequence's width in the .npy, IDX images of an mnist-rows run read column by column, check_like_training
ignoring the slack given, boolean sequences refused.

16 mutants. Against the existing targeted tests alone 8 were caught and 8 missed: the NaN validation loss between
epochs (no old test gives an --eval-every evaluation a NaN loss), the history's first row (no old test stops on an
update an --eval-every evaluation scored), the second signal's update number, --clip-gates inf, --log-every's
message, the labels' width (no old test writes a label longer than the first sequence's to the .npy), mnist-rows
read as columns (no old test holds an mnist-rows run's sequences to the images row by row), and boolean sequences.
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values80_loop (a digits run with --eval-every 2, --log-every 1 and --max-steps 4, 3 updates an epoch: a hook's
(epoch, batches done) after each update against the count by hand, the checkpoint's counters, updates.jsonl's and
metrics.jsonl's epoch columns against epoch + batches / 3, no evaluation at a stop on an evaluated update and one at
a stop between evaluations, a NaN loss of the first --eval-every evaluation raising TrainingDiverged with no NaN
row), test_values80_stopping (the blow-up streak over losses just above, at and just below 10x the first loss
against the rule recomputed here, the stop at the BLOWUP_UPDATES-th; budget_record per limit reached; the group
signal per vote; the abort message's update), test_values80_plan (each refusal's exact line quoting its own value
with other options set, the edge values taken), test_values80_predict_io (per-step values and labels written to .csv
and .npy and read back value by value against the arrays given; IDX images read back row by row against pixel / 255;
booleans kept; the range check at slack 0 and 0.5 against the margin computed here). Dropped as equivalent: the
end-of-epoch save_due test with <= nb (the epoch's end saves the same state right after), the summary's stop_eval
step test (a stop evaluation is made at the update the run ends on), lnrnn 0.1 epoch sums with count and samples
swapped (a sequence classifier counts one unit per sample), the summary's --epochs with the epochs trained (equal
when the run is done). Left out: learning_curve.svg's redraw interval and samples_per_s (wall-clock only).

    python tests/mutants/run.py --only 'v80-*'
"""
RECORDER = "lnrnn/training/recorder.py"
TRAIN = "lnrnn/training/train.py"
STOPPING = "lnrnn/training/stopping.py"
PLAN = "lnrnn/training/plan.py"
PREDICT_IO = "lnrnn/predict_io.py"

# existing tests of these modules
RECORDER_OLD = ["tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
                "tests/training/test_values20_recorder.py", "tests/training/test_values21_recorder.py",
                "tests/training/test_values36_recorder.py", "tests/training/test_values54_resume.py"]
TRAIN_OLD = ["tests/training/test_values17_train.py", "tests/training/test_values25_training.py",
             "tests/training/test_stopping_recorder_parts.py", "tests/training/test_values33_train.py",
             "tests/training/test_values47_epoch_end.py", "tests/training/test_values47_resume.py",
             "tests/training/test_values54_resume.py"]
STOPPING_OLD = ["tests/training/test_values9_stopping.py", "tests/training/test_values12_stopping.py",
                "tests/training/test_values21_stopping.py", "tests/training/test_values36_stopping.py",
                "tests/training/test_values54_stopping.py", "tests/training/test_values56_stop_place.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py",
            "tests/training/test_values21_plan.py", "tests/training/test_values36_plan.py",
            "tests/training/test_values54_plan.py"]
PREDICT_IO_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py",
                  "tests/test_values14_predict_io.py", "tests/test_values21_predict_io.py",
                  "tests/test_values34_predict_io.py", "tests/test_values54_predict_io.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LOOP_NEW = ["tests/training/test_values80_loop.py"]
STOPPING_NEW = ["tests/training/test_values80_stopping.py"]
PLAN_NEW = ["tests/training/test_values80_plan.py"]
PREDICT_IO_NEW = ["tests/test_values80_predict_io.py"]

MUTANTS = [
    # ---- the trainer loop and the rows it writes ----
    dict(name="v80-batch-in-epoch-one-behind", file=TRAIN,
         old="self.batch_in_epoch = b + 1",
         new="self.batch_in_epoch = b",
         tests=LOOP_NEW + TRAIN_OLD,
         why="the position in the epoch lags one batch: a checkpoint inside an epoch says one batch fewer was "
             "trained (a resume trains it again), and the last batch counts as inside the epoch"),
    dict(name="v80-mid-epoch-nan-validation-let-through", file=TRAIN,
         old='        val = self._finite(self._validate())\n        rec = self.recorder.eval_row(val, nb, "update")',
         new='        val = self._validate()\n        rec = self.recorder.eval_row(val, nb, "update")',
         tests=LOOP_NEW + TRAIN_OLD,
         why="an --eval-every evaluation whose validation loss is NaN does not stop the run: the NaN row goes into "
             "metrics.jsonl and counts against --patience"),
    dict(name="v80-history-step-of-the-first-row", file=TRAIN,
         old='return self.history[-1]["step"] if self.history else None',
         new='return self.history[0]["step"] if self.history else None',
         tests=LOOP_NEW + TRAIN_OLD,
         why="a --max-steps stop inside an epoch compares the update with the first evaluation's, not the last: a "
             "stop at the update an --eval-every evaluation just scored evaluates the same state again"),
    dict(name="v80-update-row-epoch-from-the-step", file=RECORDER,
         old='"step": t.step, "epoch": round(t.epoch + t.batch_in_epoch / nb, 6)',
         new='"step": t.step, "epoch": round(t.epoch + t.step / nb, 6)',
         tests=LOOP_NEW + RECORDER_OLD,
         why="updates.jsonl's epoch column adds the run's update count, not the epoch's batches: right in epoch 1, "
             "one epoch ahead per epoch after"),
    # ---- the stop rules ----
    dict(name="v80-blowup-level-added", file=STOPPING,
         old="level = BLOWUP_FACTOR * t.initial_loss",
         new="level = BLOWUP_FACTOR + t.initial_loss",
         tests=STOPPING_NEW + STOPPING_OLD,
         why="the blow-up level is 10 plus the first loss instead of 10 times it: a run whose first loss is "
             "below 10/9 blows up later than its message says, one above it sooner"),
    dict(name="v80-budget-record-keeps-the-reached-max-steps", file=STOPPING,
         old='{"max_steps": None if t.reached == "max_steps" else c.max_steps,',
         new='{"max_steps": c.max_steps,',
         tests=STOPPING_NEW + STOPPING_OLD,
         why="a --max-steps the invocation reached stays in the checkpoint's budget: a resume without --max-steps "
             "finds nothing left to do instead of training on to --epochs"),
    dict(name="v80-voted-signal-reads-the-sigint-vote", file=STOPPING,
         old="if t.group.size == 1 or t.votes[0] == 0:",
         new="if t.group.size == 1 or t.votes[1] == 0:",
         tests=STOPPING_NEW + STOPPING_OLD,
         why="a group stopped by another rank's SIGTERM reports no signal on this rank (the SIGINT vote is 0)"),
    dict(name="v80-abort-names-the-last-update", file=STOPPING,
         old="during update {t.step + 1} of epoch",
         new="during update {t.step} of epoch",
         tests=STOPPING_NEW + STOPPING_OLD,
         why="a second signal during an update names the update already finished instead of the one it cut short"),
    # ---- the plan's refusals ----
    dict(name="v80-time-budget-zero-taken", file=PLAN,
         old="cfg.time_budget is None or cfg.time_budget > 0,",
         new="cfg.time_budget is None or cfg.time_budget >= 0,",
         tests=PLAN_NEW + PLAN_OLD,
         why="--time-budget 0 is taken: the run stops before its first update"),
    dict(name="v80-clip-gates-infinite-taken", file=PLAN,
         old="(cfg.clip_gates >= 0 and math.isfinite(cfg.clip_gates),",
         new="(cfg.clip_gates >= 0,",
         tests=PLAN_NEW + PLAN_OLD,
         why="--clip-gates inf (or nan) gets through the plan"),
    dict(name="v80-log-every-message-quotes-eval-every", file=PLAN,
         old="--log-every must be at least 1 update, not {cfg.log_every}.",
         new="--log-every must be at least 1 update, not {cfg.eval_every}.",
         tests=PLAN_NEW + PLAN_OLD,
         why="--log-every 0's refusal quotes --eval-every's value"),
    # ---- prediction files and inputs ----
    dict(name="v80-per-step-index-and-step-swapped", file=PREDICT_IO,
         old='cols = [("index", "<i8", n), ("step", "<i8", t)]',
         new='cols = [("index", "<i8", t), ("step", "<i8", n)]',
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="a per-step regression's table writes the step in the index column and the sequence in the step one"),
    dict(name="v80-labels-width-of-the-first", file=PREDICT_IO,
         old="width = max([len(t) for t in text] + [1])",
         new="width = max([len(t) for t in text[:1]] + [1])",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="the labels' string width is the first sequence's: longer labels of later sequences are cut in the "
             ".npy"),
    dict(name="v80-mnist-rows-read-as-columns", file=PREDICT_IO,
         old="x = images.reshape(n, rows, cols)",
         new="x = images.transpose(0, 2, 1)",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="IDX images given to an mnist-rows run are read column by column, not row by row as the task reads"),
    dict(name="v80-range-slack-argument-ignored", file=PREDICT_IO,
         old="slack = PREDICT_RANGE_SLACK if slack is None else slack",
         new="slack = PREDICT_RANGE_SLACK",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="check_like_training ignores the slack its caller gives and always uses the configured one"),
    dict(name="v80-bool-sequences-refused", file=PREDICT_IO,
         old="np.issubdtype(x.dtype, np.number) or x.dtype == bool)",
         new="np.issubdtype(x.dtype, np.number))",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="a .npy of boolean sequences (a binary task's inputs) is refused as not numbers"),
]
