"""Planted bugs, round 47 (format: tests/mutants/mutants.py): single-line slips in the training policies over
histories that go up and down, on lines no earlier round mutates: the judge's --best-metric none and the metric
it reads, the early stop's record of its update and its row's mark; the trainer's first best (None, for a
loss and an accuracy alike), an early stop that fires at an epoch end acted on there, the --save-every-seconds
clock started with the invocation, an epoch end above the blow-up level leaving its save waiting, the bar of
an epoch resumed in its middle; the recorder restarting the clock at each save, a waiting save kept, the
patience count written into checkpoints, and a resume's early stop, --patience, schedule changes and a
change computed over the earlier ones; a change of --lr-decay alone; the arrays file's nine-digit step and
--keep pruning its own folder; updates.jsonl kept on resume.

20 mutants. Against the existing targeted tests alone 15 were caught and 5 missed: a resume forgetting the
schedule's earlier changes, a second change taking the rate in effect without the first, the arrays file's
step unpadded, an epoch end above the blow-up level leaving no save waiting, and the resumed epoch's bar
counting batches for samples. The new value tests catch every mutant: test_values47_stopping_judge (the judge over
"worse, better, tie" loss and accuracy histories beside an unrelated other metric, each --patience, ties, the
stop's record and row, --best-metric none, a count restored mid-way), test_values47_saves (the saves of
tiny runs as --keep 100 folders against the schedule written in the test, on a stand-in clock, uninterrupted
and resumed; the default clock; a waiting save; --keep 2 against RUN/best/ of update 4 bit for bit; keep_past
past powers of ten; the arrays file's name), test_values47_resume (an early stop at an epoch end, resumed
with the same and a larger --patience against the uninterrupted run; an accuracy run cut in its patience
count and resumed, bit for bit; no best without an evaluation; the resumed bar), test_values47_schedule
(three resumes changing the decay alone, against each epoch's rate by the rule; a resume without a change
bit for bit; a new rate mid-epoch), test_values47_epoch_end (Trainer._end_epoch on a stand-in: best, save,
waiting save and metrics at each epoch end). None was dropped as equivalent; written and left out before
planting: a save at an epoch's last update also when its epoch-end save follows (it writes the same update's
checkpoint twice, the --keep copy once: nothing observable but the time), and the step-0 save's test without
its step (a run at update 0 is always at epoch 0, batch 0). Eleven more slips, on lines earlier rounds
mutate and therefore not listed here (a loss or accuracy tie taken as better, --patience one late, the count
not reset by a better one, --keep's slice without its floor or from the wrong end, --save-every-seconds
strictly past its second or --save-every by the batch in the epoch, the schedule counted from the first
change or from the resume, a resume's best dropped), were planted by hand against the five new files alone:
each was caught. The new files take 1, 1, 8, 7 and 7 s (judge, epoch_end, saves, resume, schedule; one
process, kernels cached).

    python tests/mutants/run.py --only 'v47-*'
"""
STOP = "lnrnn/training/stopping.py"
RECORDER = "lnrnn/training/recorder.py"
TRAIN = "lnrnn/training/train.py"
CKPT = "lnrnn/training/checkpoint.py"
FINETUNE = "lnrnn/training/finetune.py"
RUNDIR = "lnrnn/training/rundir.py"

T = "tests/training/"
# existing tests of these modules
STOP_OLD = [T + f for f in ("test_values_train_policies.py", "test_values12_stopping.py", "test_values9_stopping.py",
                            "test_values21_stopping.py", "test_values36_stopping.py", "test_checkpoints_best.py")]
RECORDER_OLD = [T + f for f in ("test_values_train_policies.py","test_values10_recorder.py","test_values12_recorder.py",
                                "test_values20_recorder.py", "test_values21_recorder.py", "test_values36_recorder.py",
                                "test_checkpoints_best.py", "test_values20_recorder_keep.py", "test_runs.py")]
TRAIN_OLD = [T + f for f in ("test_values_train_policies.py", "test_checkpoints_best.py", "test_values_train.py",
                             "test_values17_train.py", "test_values33_train.py", "test_values_train_schedule.py",
                             "test_schedule.py", "test_runs.py")]
CKPT_OLD = [T + f for f in ("test_values_train_policies.py", "test_checkpoint.py", "test_values14_checkpoint.py",
                            "test_values19_checkpoint.py", "test_values20_recorder_keep.py",
                            "test_checkpoints_best.py")]
FINETUNE_OLD = [T + f for f in ("test_finetune.py", "test_values_finetune.py", "test_values14_finetune.py",
                                "test_schedule.py")]
RESUME_OLD = RECORDER_OLD + FINETUNE_OLD
RUNDIR_OLD = [T + f for f in ("test_values_rundir.py", "test_values15_rundir.py", "test_values40_rundir.py",
                              "test_values_train_policies.py", "test_runs.py")]

# value tests written for the bugs below (first, so that a caught mutant stops there)
JUDGE = [T + "test_values47_stopping_judge.py"]
SAVES = T + "test_values47_saves.py"
RESUME = T + "test_values47_resume.py"
SCHEDULE = [T + "test_values47_schedule.py"]
EPOCH_END = [T + "test_values47_epoch_end.py"]
NO_BEST = [f"{RESUME}::test_a_run_without_a_scheduled_evaluation_has_no_best",
           f"{RESUME}::test_the_first_evaluation_is_the_first_best_for_either_direction"]
EARLY = [f"{RESUME}::test_an_early_stop_at_an_epoch_end_stops_there_and_a_resume_goes_on_only_with_more_patience"]
MID_COUNT = [f"{RESUME}::test_an_accuracy_run_cut_in_the_middle_of_its_count_resumes_it_exactly"]
BAR = [f"{RESUME}::test_the_bar_of_an_epoch_resumed_in_its_middle_ends_at_the_epochs_samples"]
CLOCK = [f"{SAVES}::test_saves_follow_the_schedule", f"{SAVES}::test_no_save_between_the_epoch_ends_by_default",
         f"{SAVES}::test_a_resumed_run_saves_on_the_same_schedule_from_its_stop"]
WAITING = [f"{SAVES}::test_a_save_due_while_the_loss_is_high_waits_and_is_done_once_back"]
NAMES = [f"{SAVES}::test_the_arrays_file_carries_the_step_in_nine_digits",
         f"{SAVES}::test_arrays_files_of_later_steps_sort_later"]
KEEP = [f"{SAVES}::test_keep_past_powers_of_ten_one_save_at_a_time",
        f"{SAVES}::test_keep_prunes_the_oldest_and_best_stays_the_model_of_its_update"]

MUTANTS = [
    # ---- stopping.judge: the metric judged, the early stop's record ----
    dict(name="v47-stop-metric-none-unrecognised", file=STOP,
         old='    if b["metric"] == "none":',
         new='    if b["metric"] is None:',
         tests=JUDGE + STOP_OLD,
         why="--best-metric none is the string 'none', not None: every evaluation looks up val_none (a KeyError)"),
    dict(name="v47-stop-best-metric-read-as-loss", file=STOP,
         old='    v = rec["val_" + b["metric"]]',
         new='    v = rec["val_loss"]',
         tests=JUDGE + STOP_OLD,
         why="the evaluation's loss is judged whatever --best-metric names: with acc, a higher loss is 'better'"),
    dict(name="v47-stop-early-record-step-is-the-best", file=STOP,
         old='                            "step": t.step}',
         new='                            "step": b["step"]}',
         tests=JUDGE + STOP_OLD,
         why="the early stop records the best's update as the update it stopped at"),
    dict(name="v47-stop-early-row-unmarked", file=STOP,
         old='            rec["early_stop"] = True',
         new='            rec["early_stop"] = b["since"] > p',
         tests=JUDGE + STOP_OLD,
         why="the evaluation that fires the early stop is not marked in metrics.jsonl (it is marked only past "
             "--patience, which never comes)"),
    # ---- train.py: the initial best, the early stop at an epoch end, the save clock ----
    dict(name="v47-train-initial-best-infinite", file=TRAIN,
         old='"value": None, "step": None, "epoch": None, "since": 0}',
         new='"value": float("inf"), "step": None, "epoch": None, "since": 0}',
         tests=NO_BEST + TRAIN_OLD,
         why="the best starts at +inf (lower is better): with --best-metric acc no evaluation is ever better, no "
             "best/ is written and the early stop counts from the first evaluation; a run without any evaluation "
             "reports a best of inf"),
    dict(name="v47-train-epoch-end-early-stop-inverted", file=TRAIN,
         old="                    if stop_reason is None and self.early_stop is not None:",
         new="                    if stop_reason is not None and self.early_stop is not None:",
         tests=EARLY + TRAIN_OLD,
         why="an early stop that fires at an epoch end is not acted on there: the run trains one more update of "
             "the next epoch (at the next epoch's rate) before it stops"),
    dict(name="v47-train-save-clock-from-zero", file=TRAIN,
         old="        self.saved_step, self.last_save_t = self.step, time.perf_counter()",
         new="        self.saved_step, self.last_save_t = self.step, 0.0",
         tests=CLOCK + TRAIN_OLD,
         why="--save-every-seconds counts from the clock's zero, not from the invocation's start: the first "
             "update of every run and resume saves a checkpoint"),
    dict(name="v47-train-epoch-end-save-not-waiting", file=TRAIN,
         old="            self.save_pending = True  # the loss is above the blow-up level",
         new="            self.save_pending = False  # the loss is above the blow-up level",
         tests=EPOCH_END + TRAIN_OLD,
         why="an epoch end while the loss is above the blow-up level neither saves nor leaves a save waiting: "
             "the epoch's checkpoint is lost until the next periodic one"),
    dict(name="v47-train-resumed-epoch-bar-counts-batches", file=TRAIN,
         old="done=min(self.batch_in_epoch * B, n))",
         new="done=min(self.batch_in_epoch, n))",
         tests=BAR + TRAIN_OLD,
         why="the progress bar of an epoch resumed in its middle starts at the batches done, not the samples: "
             "it ends short of the epoch's samples"),
    # ---- recorder: the save clock, the waiting save, the best state in the checkpoint, a resume ----
    dict(name="v47-recorder-save-clock-not-restarted", file=RECORDER,
         old="            t.saved_step, t.save_pending, t.last_save_t = t.step, False, time.perf_counter()",
         new="            t.saved_step, t.save_pending, t.last_save_t = t.step, False, t.last_save_t",
         tests=CLOCK + RECORDER_OLD,
         why="a save does not restart --save-every-seconds' clock: once due, every later update saves"),
    dict(name="v47-recorder-waiting-save-forgotten", file=RECORDER,
         old="            t.save_pending = True\n            return False",
         new="            return False",
         tests=WAITING + RECORDER_OLD,
         why="a periodic save due while the loss is above the blow-up level is dropped, not kept waiting"),
    dict(name="v47-recorder-checkpoint-patience-restarted", file=RECORDER,
         old='"best_state": t.best, "budget"',
         new='"best_state": {**t.best, "since": 0}, "budget"',
         tests=MID_COUNT + RECORDER_OLD,
         why="checkpoints record the best with its patience count at 0: a resumed run counts --patience afresh"),
    dict(name="v47-recorder-resume-early-stop-forgotten", file=RECORDER,
         old='        t.early_stop = meta.get("early_stop")',
         new='        t.early_stop = None',
         tests=EARLY + RECORDER_OLD,
         why="a run that stopped early, resumed with the same --patience, trains on instead of 'Nothing to do'"),
    dict(name="v47-recorder-resume-forgets-the-lr-changes", file=RECORDER,
         old='        t.lr_changes = list(meta.get("lr_changes", []))',
         new='        t.lr_changes = []',
         tests=SCHEDULE + RESUME_OLD,
         why="a resume forgets the schedule's earlier changes: the changed rate decays from epoch 0, not from "
             "the change's epoch"),
    dict(name="v47-recorder-resume-change-without-earlier-changes", file=RECORDER,
         old="schedule_change(meta[\"train\"], t.cfg, t.epoch, t.step, t.lr_changes)",
         new="schedule_change(meta[\"train\"], t.cfg, t.epoch, t.step, [])",
         tests=SCHEDULE + RESUME_OLD,
         why="a second schedule change takes the rate in effect as if there had been no first change (decayed "
             "from epoch 0)"),
    dict(name="v47-recorder-resume-patience-of-the-checkpoint", file=RECORDER,
         old="        p = t.cfg.patience\n",
         new='        p = meta["train"]["patience"]\n',
         tests=EARLY + RECORDER_OLD,
         why="a resume compares the patience count with the checkpoint's --patience, not the one given: a run "
             "stopped early and resumed with a larger --patience still has nothing to do"),
    # ---- finetune: a change of the decay alone ----
    dict(name="v47-finetune-decay-change-unseen", file=FINETUNE,
         old='    lr, decay = float(saved["lr"]), float(saved["lr_decay"])',
         new='    lr, decay = float(saved["lr"]), float(cfg.lr_decay)',
         tests=SCHEDULE + FINETUNE_OLD,
         why="a resume with a new --lr-decay alone is no change: the new decay applies from epoch 0"),
    # ---- checkpoint: the arrays file's padded name, --keep's pruning ----
    dict(name="v47-ckpt-arrays-name-unpadded", file=CKPT,
         old="name = f\"checkpoint-{int(meta.get('step', 0)):09d}-{secrets.token_hex(4)}.npz\"",
         new="name = f\"checkpoint-{int(meta.get('step', 0))}-{secrets.token_hex(4)}.npz\"",
         tests=NAMES + CKPT_OLD,
         why="the arrays file's step is not zero-padded to nine digits: checkpoint-1000-* sorts before "
             "checkpoint-999-*"),
    dict(name="v47-ckpt-keep-prunes-in-the-run-folder", file=CKPT,
         old="        shutil.rmtree(os.path.join(past, old), ignore_errors=True)",
         new="        shutil.rmtree(os.path.join(directory, old), ignore_errors=True)",
         tests=KEEP + CKPT_OLD,
         why="--keep removes RUN/update-* (nothing) instead of RUN/checkpoints/update-*: nothing is pruned"),
    # ---- rundir: updates.jsonl on resume ----
    dict(name="v47-rundir-update-log-reopened-empty", file=RUNDIR,
         old='        self.f = open(self.path, "a")',
         new='        self.f = open(self.path, "w")',
         tests=RUNDIR_OLD,
         why="updates.jsonl is truncated when a run (re)starts: a resume loses every row before its checkpoint"),
]
