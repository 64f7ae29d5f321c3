"""Planted bugs, round 54 (format: tests/mutants/mutants.py): single-line slips in the run's record, the trainer loop,
the stop rules, the plan's checks and the prediction files, on lines no earlier round mutates: a checkpoint keeping
the generator's state after the epoch's permutation, a resume dropping the metrics history or the open updates.jsonl
window's sums, an epoch row's lr read from --lr, the checkpoint's buffer/ arrays taken from the parameters,
updates.jsonl's 'updates' counting sequences, a --max-steps stop's summary naming --time-budget; the loop overwriting
the epoch's generator state instead of restoring it, a resumed epoch training its first batches again, the epoch's
training sums not reset, the evaluation scoring the training split; a second signal during a save aborting at once,
the resume hint's verb backwards; --hidden 0 and --lr 0 let through, --window 0 refused, --batch-size's refusal
quoting --eval-batch-size, --patience not overridable on resume; softmax over the rows, CTC labels written run
together, the CSV one row short, read_inputs recording each file's end row as its count.

22 mutants. Against the existing targeted tests alone 8 were caught and 14 missed: the checkpoint's generator state,
the epoch state overwritten and a resumed epoch restarted (no old test compares a resumed run with one made in one
go), the window's sums (the old updates.jsonl tests do not go through restore), the buffers (no BatchNorm checkpoint
is read back array by array), the summary's limit, the sums not reset (no old test holds epoch 2's train_ columns to
its own updates), the split evaluated, the signal during a save, the hint's verb, --lr 0, --batch-size's message,
--patience on resume, and softmax over the rows. The new value tests catch every mutant on their own (checked with
the old tests taken off the lists): test_values54_resume (a digits run stopped by --max-steps inside epoch 2 and
resumed against the same run made in one go: parameters bit for bit, metrics.jsonl and updates.jsonl rows; each epoch
row's train_ means and each updates.jsonl row's means against the per-update sums a hook collects, its lr against lr
* lr_decay**epoch, its val_ columns against an evaluation of the validation split in another batching; a bn-rnn
checkpoint's buffer/ and param/ arrays against the model's; the --max-steps summary), test_values54_stopping
(StopFlag's first, second and deferred signals by its docstring; the hint's verb for one and two limits),
test_values54_plan (each refusal's exact line quoting the value given, the edge values taken, resume_config taking a
larger --patience and refusing another --hidden), test_values54_predict_io (softmax against exp/sum by hand, labels
read back from the CSV and the .npy, the CSV against the .npy row by row, read_inputs's (file, first row, count) over
three files). Dropped as equivalent: the step-0 checkpoint's condition reduced to t.step == 0 (a run at update 0 is
at epoch 0, batch 0), the plural of 'finished N epochs' or '--patience N evaluations' as N > 1 (N is at least 1), 'no
better ... in N evaluations' quoting the early stop's own patience (the count stops at it), read_inputs comparing
with the last file's steps instead of the first's (all are equal once admitted), a step kept where any output rather
than every one is NaN (a step's outputs are all NaN or none). Also left out: the checkpoint's 'ranks' as 1 (one
process cannot tell).

    python tests/mutants/run.py --only 'v54-*'
"""
RECORDER = "lnrnn/training/recorder.py"
TRAIN = "lnrnn/training/train.py"
STOPPING = "lnrnn/training/stopping.py"
PLAN = "lnrnn/training/plan.py"
PREDICT_IO = "lnrnn/predict_io.py"

# existing tests of these modules
RECORDER_OLD = ["tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
                "tests/training/test_values20_recorder.py", "tests/training/test_values21_recorder.py",
                "tests/training/test_values36_recorder.py", "tests/training/test_curve_redraw.py"]
TRAIN_OLD = ["tests/training/test_values17_train.py", "tests/training/test_values25_training.py",
             "tests/training/test_stopping_recorder_parts.py"]
STOPPING_OLD = ["tests/training/test_values9_stopping.py", "tests/training/test_values12_stopping.py",
                "tests/training/test_values21_stopping.py", "tests/training/test_values36_stopping.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py",
                   "tests/training/test_values21_plan.py", "tests/training/test_values36_plan.py"]
PREDICT_IO_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py",
                  "tests/test_values14_predict_io.py", "tests/test_values21_predict_io.py",
                  "tests/test_values34_predict_io.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RESUME_NEW = ["tests/training/test_values54_resume.py"]
STOPPING_NEW = ["tests/training/test_values54_stopping.py"]
PLAN_NEW = ["tests/training/test_values54_plan.py"]
PREDICT_IO_NEW = ["tests/test_values54_predict_io.py"]

MUTANTS = [
    # ---- the run's record: what a checkpoint keeps and a resume reads back; the rows written ----
    dict(name="v54-checkpoint-rng-after-the-permutation", file=RECORDER,
         old='"rng": t.epoch_rng,',
         new='"rng": t.rng.bit_generator.state,',
         tests=RESUME_NEW + RECORDER_OLD,
         why="a checkpoint keeps the generator's state after the epoch's permutation was drawn instead of the state "
             "at the epoch's start: a run resumed in the middle of an epoch shuffles that epoch anew"),
    dict(name="v54-restore-drops-the-metrics-history", file=RECORDER,
         old='t.history, t.train_time = list(meta["metrics"]), float(meta["train_time_s"])',
         new='t.history, t.train_time = [], float(meta["train_time_s"])',
         tests=RESUME_NEW + RECORDER_OLD,
         why="a resumed run starts an empty history: metrics.jsonl and metrics.csv lose the rows of before the resume"),
    dict(name="v54-restore-drops-the-log-window-sums", file=RECORDER,
         old='t.log_window = {"sums": {**t._new_sums()["sums"], **window.get("sums", {})},',
         new='t.log_window = {"sums": t._new_sums()["sums"],',
         tests=RESUME_NEW + RECORDER_OLD,
         why="a resume keeps the update count of updates.jsonl's open window but not its sums: the first row after "
             "a resume between two rows averages the new updates' losses over all the window's units"),
    dict(name="v54-epoch-row-lr-the-configured-one", file=RECORDER,
         old='"lr": t.opt.lr, **{f"train_{m}"',
         new='"lr": t.cfg.lr, **{f"train_{m}"',
         tests=RESUME_NEW + RECORDER_OLD,
         why="an epoch's metrics row records --lr, not the rate the epoch trained at: wrong under --lr-decay"),
    dict(name="v54-checkpoint-buffers-from-the-params", file=RECORDER,
         old='arrays.update({"buffer/" + k: v for k, v in model.buffers.items()})',
         new='arrays.update({"buffer/" + k: v for k, v in model.params.items()})',
         tests=RESUME_NEW + RECORDER_OLD,
         why="the checkpoint's buffer/ arrays are the parameters again: a BatchNorm run's running statistics are "
             "not saved"),
    dict(name="v54-update-row-counts-scored-units", file=RECORDER,
         old='"updates": w["samples"],',
         new='"updates": w["count"],',
         tests=RESUME_NEW + RECORDER_OLD,
         why="updates.jsonl's 'updates' counts the window's scored sequences instead of its updates"),
    dict(name="v54-summary-names-the-other-limit", file=RECORDER,
         old='flag = "--max-steps" if t.reached == "max_steps" else "--time-budget"',
         new='flag = "--max-steps" if t.reached == "time_budget" else "--time-budget"',
         tests=RESUME_NEW + RECORDER_OLD,
         why="a run stopped by --max-steps tells the user to give --time-budget again, and the other way round"),
    # ---- the trainer loop ----
    dict(name="v54-epoch-rng-assigned-backwards", file=TRAIN,
         old="self.rng.bit_generator.state = self.epoch_rng",
         new="self.epoch_rng = self.rng.bit_generator.state",
         tests=RESUME_NEW + TRAIN_OLD,
         why="the epoch's generator state is overwritten instead of restored: a resumed run draws its epoch's "
             "permutation from the seed's fresh generator"),
    dict(name="v54-resume-restarts-the-epoch", file=TRAIN,
         old="for b in range(self.batch_in_epoch, nb):",
         new="for b in range(nb):",
         tests=RESUME_NEW + TRAIN_OLD,
         why="a run resumed in the middle of an epoch trains that epoch's first batches again"),
    dict(name="v54-epoch-sums-not-reset", file=TRAIN,
         old="        self.sums = self._new_sums()\n        self.epoch_rng = self.rng.bit_generator.state",
         new="        self.epoch_rng = self.rng.bit_generator.state",
         tests=RESUME_NEW + TRAIN_OLD,
         why="the running training sums carry over from one epoch to the next: epoch 2's train_loss averages "
             "epochs 1 and 2"),
    dict(name="v54-validation-on-the-training-split", file=TRAIN,
         old='evaluate(self.model, self.task, "val", self.cfg.eval_batch_size',
         new='evaluate(self.model, self.task, "train", self.cfg.eval_batch_size',
         tests=RESUME_NEW + TRAIN_OLD,
         why="the scheduled evaluation scores the training split: every val_ column is a training figure"),
    # ---- stop rules ----
    dict(name="v54-second-signal-in-a-save-aborts-at-once", file=STOPPING,
         old="        elif self.in_save:\n",
         new="        elif not self.in_save:\n",
         tests=STOPPING_NEW + STOPPING_OLD,
         why="a second signal during a save raises at once (the checkpoint being written is lost) and one outside "
             "a save waits"),
    dict(name="v54-budget-note-plural-backwards", file=STOPPING,
         old="still hold{'s' * (len(parts) == 1)}",
         new="still hold{'s' * (len(parts) > 1)}",
         tests=STOPPING_NEW + STOPPING_OLD,
         why="'the run's --max-steps 5 still hold', 'the run's --max-steps 5 and --time-budget ... still holds'"),
    # ---- the plan: every option checked ----
    dict(name="v54-hidden-zero-let-through", file=PLAN,
         old="(cfg.hidden >= 1, ",
         new="(cfg.hidden >= 0, ",
         tests=PLAN_NEW + PLAN_OLD,
         why="--hidden 0 passes the plan and fails later in the kernels, not with one line"),
    dict(name="v54-lr-zero-let-through", file=PLAN,
         old="(cfg.lr > 0 and math.isfinite(cfg.lr),",
         new="(cfg.lr >= 0 and math.isfinite(cfg.lr),",
         tests=PLAN_NEW + PLAN_OLD,
         why="--lr 0 is taken: the run trains nothing"),
    dict(name="v54-window-zero-refused", file=PLAN,
         old="cfg.window is None or cfg.window >= 0,",
         new="cfg.window is None or cfg.window > 0,",
         tests=PLAN_NEW + PLAN_OLD,
         why="--window 0, the documented way to train a stroke task with text without the attention window, is "
             "refused"),
    dict(name="v54-batch-size-message-names-the-eval-batch", file=PLAN,
         old='f"--batch-size must be at least 1, not {cfg.batch_size}."',
         new='f"--batch-size must be at least 1, not {cfg.eval_batch_size}."',
         tests=PLAN_NEW + PLAN_OLD,
         why="the refusal of --batch-size 0 quotes --eval-batch-size's value"),
    dict(name="v54-patience-not-resume-overridable", file=PLAN,
         old='"keep", "patience", "eval_every"',
         new='"keep", "eval_every"',
         tests=PLAN_NEW + PLAN_OLD,
         why="a resume with a larger --patience (what an early stop's message says to do) is refused as a change "
             "of the run's settings"),
    # ---- prediction files ----
    dict(name="v54-softmax-over-the-rows", file=PREDICT_IO,
         old="return e / e.sum(axis=-1, keepdims=True)",
         new="return e / e.sum(axis=0, keepdims=True)",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="the probabilities are normalized over the sequences instead of over the classes"),
    dict(name="v54-labels-joined-without-spaces", file=PREDICT_IO,
         old='text = [" ".join(map(str, row)) for row in predictions.labels]',
         new='text = ["".join(map(str, row)) for row in predictions.labels]',
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="a CTC head's labels are written run together: 1 12 and 11 2 both read '112'"),
    dict(name="v54-csv-last-row-dropped", file=PREDICT_IO,
         old="for f, (_, _, a) in zip(fmt, cols)) for i in range(rows)]",
         new="for f, (_, _, a) in zip(fmt, cols)) for i in range(rows - 1)]",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="the CSV stops one row short of the table (the .npy keeps every row)"),
    dict(name="v54-input-where-records-the-end", file=PREDICT_IO,
         old="where.append((f, start, len(x)))",
         new="where.append((f, start, start + len(x)))",
         tests=PREDICT_IO_NEW + PREDICT_IO_OLD,
         why="read_inputs's (file, first row, count) records the end row for the count: wrong from the second "
             "file on"),
]
