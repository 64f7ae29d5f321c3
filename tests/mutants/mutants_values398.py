"""Planted bugs, round 398 (format: tests/mutants/mutants.py): single-line slips in the run folder's recorder
(lnrnn/training/recorder.py), twentieth pass, planted before any test was written for them.

The planted bugs: a new run's step-0 checkpoint keyed on update 1 (a run opened at update 0 writes none); closing
the recorder leaving updates.jsonl open; a checkpoint written without first syncing the update rows it covers; a
save that waited leaving its pending mark (every later update saves); --save-every-seconds measured the wrong way
round (never due by the clock); the best checkpoint written over the run's latest one instead of RUN/best/; the
best checkpoint's write outside the signal guard; a checkpoint without its process count read as 0 processes; an
lnrnn 0.1 checkpoint's epoch sums read with the loss and the correct count swapped; arrays that do not fit the model
refused without the reason; updates.jsonl's time_s in milliseconds; a run stopped by --patience advising a larger
--epochs. 12 mutants. Against the old targeted files alone (the 12 recorder files listed in OLD): 3 of 12 caught;
missed: the step-0 checkpoint, updates.jsonl left open, the rows not synced before a checkpoint, the pending mark
kept, the best's write unguarded, the 0.1 sums swapped, the fit refusal without its reason, time_s in
milliseconds, the --epochs advice. test_values398_recorder checks on hand-made trainer states: opening a new run's
folder saves once and a resumed one never; closing leaves no descriptor on updates.jsonl; a save's order (host
synced, guard on, update rows synced, checkpoint written, --keep copy, guard off) and a waiting save cleared; a
save due at 10.0 s and not 9.9; RUN/best/ on disk with the latest checkpoint untouched, written inside the guard;
the resume note without a process count and with 2; 0.1 epoch sums in order; the fit refusal and the early stop's
last line word for word; an update row's time_s in seconds. With NEW + OLD all 12 are caught; alone it catches
12 of 12 (it also checks the three the old files caught: the clock's sign, the best over the latest, the missing
process count). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v398-*'
"""
RECORDER = "lnrnn/training/recorder.py"
NEW = ["tests/training/test_values398_recorder.py"]
OLD = [
    "tests/training/test_values10_recorder.py",
    "tests/training/test_values12_recorder.py",
    "tests/training/test_values20_recorder.py",
    "tests/training/test_values21_recorder.py",
    "tests/training/test_values36_recorder.py",
    "tests/training/test_values102_recorder.py",
    "tests/training/test_values122_recorder.py",
    "tests/training/test_values274_recorder.py",
    "tests/training/test_values335_recorder.py",
    "tests/training/test_values362_recorder.py",
    "tests/training/test_curve_redraw.py",
    "tests/training/test_stopping_recorder_parts.py",
]

MUTANTS = [
    dict(name="v398-recorder-open-no-step0-checkpoint", file=RECORDER,
         old="        if t.step == 0 and t.batch_in_epoch == 0 and t.epoch == 0:",
         new="        if t.step == 1 and t.batch_in_epoch == 0 and t.epoch == 0:",
         tests=NEW + OLD,
         why="a new run writes no step-0 checkpoint when it opens its folder: a run killed in its first epoch "
             "leaves nothing to resume"),
    dict(name="v398-recorder-close-leaves-updates-open", file=RECORDER,
         old="            self.update_log.close()",
         new="            pass",
         tests=NEW + OLD,
         why="closing the recorder leaves updates.jsonl open: every run in one process leaks a descriptor"),
    dict(name="v398-recorder-save-before-updates-synced", file=RECORDER,
         old="                self.update_log.sync()  # the rows this checkpoint covers are on disk before it is",
         new="                pass  # the rows this checkpoint covers are on disk before it is",
         tests=NEW + OLD,
         why="a checkpoint is written before the updates.jsonl rows it covers are made durable: a crash can "
             "leave a checkpoint whose update rows are lost"),
    dict(name="v398-recorder-save-keeps-pending", file=RECORDER,
         old="t.saved_step, t.save_pending, t.last_save_t = t.step, False, time.perf_counter()",
         new="t.saved_step, t.save_pending, t.last_save_t = t.step, t.save_pending, time.perf_counter()",
         tests=NEW + OLD,
         why="a save that waited (the loss was high) leaves its pending mark: every update after it saves"),
    dict(name="v398-recorder-save-due-seconds-sign", file=RECORDER,
         old="time.perf_counter() - t.last_save_t >= c.save_every_seconds",
         new="t.last_save_t - time.perf_counter() >= c.save_every_seconds",
         tests=NEW + OLD,
         why="--save-every-seconds measures the time the wrong way round: no save is ever due by the clock"),
    dict(name="v398-recorder-best-over-the-latest", file=RECORDER,
         old="save_checkpoint(os.path.join(t.cfg.out, BEST_DIR), self.model_arrays(),",
         new="save_checkpoint(t.cfg.out, self.model_arrays(),",
         tests=NEW + OLD,
         why="the best checkpoint is written over the run's latest one (without the optimizer's slots) instead "
             "of RUN/best/"),
    dict(name="v398-recorder-best-save-not-guarded", file=RECORDER,
         old="        with (t.flag.saving() if t.flag is not None else contextlib.nullcontext()):\n"
             "            best = {k: t.best[k]",
         new="        with contextlib.nullcontext():\n"
             "            best = {k: t.best[k]",
         tests=NEW + OLD,
         why="a second SIGINT/SIGTERM during the best checkpoint's write is not held off: RUN/best/ is left "
             "half-written"),
    dict(name="v398-recorder-restore-ranks-default-zero", file=RECORDER,
         old='note = distributed.resume_note(int(meta.get("ranks", 1)), t.group.size',
         new='note = distributed.resume_note(int(meta.get("ranks", 0)), t.group.size',
         tests=NEW + OLD,
         why="a checkpoint from before the ranks were recorded, resumed in one process, is said to have been "
             "trained as 0 processes"),
    dict(name="v398-recorder-restore-v01-sums-swapped", file=RECORDER,
         old='sums = {"sums": {"loss": sums[0], "acc": sums[1]}',
         new='sums = {"sums": {"loss": sums[1], "acc": sums[0]}',
         tests=NEW + OLD,
         why="an lnrnn 0.1 checkpoint's epoch sums come back with the loss and the correct count swapped"),
    dict(name="v398-recorder-restore-fit-error-without-reason", file=RECORDER,
         old='f"the checkpoint in {t.cfg.out} does not fit the model ({e}).") from None',
         new='f"the checkpoint in {t.cfg.out} does not fit the model.") from None',
         tests=NEW + OLD,
         why="a checkpoint whose arrays do not fit the model is refused without saying which array and why"),
    dict(name="v398-recorder-update-row-time-in-ms", file=RECORDER,
         old='"updates": w["samples"], "time_s": round(t.train_time, 3)})',
         new='"updates": w["samples"], "time_s": round(t.train_time * 1000, 3)})',
         tests=NEW + OLD,
         why="updates.jsonl's time_s is in milliseconds: the curve's time axis and any reader are off by 1000"),
    dict(name="v398-recorder-early-stop-advice-epochs", file=RECORDER,
         old="to train further, resume with a larger --patience.",
         new="to train further, resume with a larger --epochs.",
         tests=NEW + OLD,
         why="a run stopped early advises a larger --epochs, which resumes still stopped, instead of --patience"),
]
