"""Planted bugs, round 134 (format: tests/mutants/mutants.py): single-line slips in the training driver,
stopping and the recorder, on lines no earlier round mutates: updates.jsonl's epoch fractions counted over the
batch size; StopFlag giving back the default handlers instead of the ones it found, an interruption's note naming
the updates made as the --max-steps that holds, "Nothing to do" naming --max-steps as the updates made and the new
--patience as the evaluations counted, judge updating a copy of the best; a resume reading the best from the best
checkpoint's key, the checkpoint keeping the epoch's sums as updates.jsonl's open window, the early stop written
only with a stop evaluation, the optimizer's slots saved without their slot's name, RUN/best/ keeping the live
best record with its patience count.

11 mutants. Against the existing targeted tests alone (the direct files listed below, run with --no-baseline)
6 were caught and 5 missed: the wrong key for the best, the window, the early stop, the slots' names and the
live best were seen by the resume and recorder tests, and the budget note's mutant only because an old test's
fake trainer has no step; the old files did not see updates.jsonl's epoch fractions counted over the batch
size, and none leaves a StopFlag with handlers of its own installed, resumes with a smaller --max-steps or
--patience than done, or (among the stopping files) judges a scripted history. The new value tests catch
every mutant on their own (checked with the old tests taken off the lists):
test_values134_recorder_resume (digits, 40 samples in batches of 16: 3 updates an epoch; --eval-every 2, --patience 3,
--log-every 2 over a scripted validation history that is better, worse, tied and better again: the evaluated
updates, the best, its step and epoch, the patience count and the early stop against the rule worked out
here; RUN/best/'s four fields; updates.jsonl's rows against each window's mean of the updates' sums read by a
hook and the epoch fraction e + (b + 1) / 3; runs stopped by --max-steps at 5 and at 7, their stop evaluation
scoring better than any and counting for nothing, resumed and compared with the uninterrupted run: metrics.jsonl
and updates.jsonl rows, the checkpoint's arrays bit for bit, best, patience, early stop, window and optimizer,
the best checkpoint; the early-stopped run resumed with the same --patience has nothing to do, in the sentence
written here), test_values134_stopping (StopFlag with handlers of the caller's own installed; the
interruption's line for --max-steps, --time-budget, both and neither; both "Nothing to do" lines over a fake
trainer). No learning-rate decay on a plateau exists (the schedule decays by epoch), and checkpoint names live
in the checkpoint module, outside these three files: neither is covered here.
Dropped before the catalogue as equivalent: the restored saved_step after restore (run() sets it again before
any use), the step-0 save's epoch/batch conditions (a step-0 run is at epoch 0, batch 0), the driver appending
an evaluation's row before judging it instead of after (the same dict either way), the curve's redraw at >
instead of >= 30 s (a float clock never lands on the bound).

    python tests/mutants/run.py --only 'v134-*'
"""
TRAIN = "lnrnn/training/train.py"
STOP = "lnrnn/training/stopping.py"
REC = "lnrnn/training/recorder.py"

# existing tests of these modules, the most direct ones
TRAIN_OLD = ["tests/training/test_values124_train_driver.py", "tests/training/test_values90_loop.py",
             "tests/training/test_values47_epoch_end.py"]
STOP_OLD = ["tests/training/test_values124_stopping.py", "tests/training/test_values114_stopping.py",
            "tests/training/test_values54_stopping.py"]
REC_OLD = ["tests/training/test_values122_recorder.py", "tests/training/test_values102_recorder.py",
           "tests/training/test_values47_resume.py", "tests/training/test_values54_resume.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TRAIN_NEW = ["tests/training/test_values134_recorder_resume.py"]
STOP_NEW = ["tests/training/test_values134_stopping.py", "tests/training/test_values134_recorder_resume.py"]
REC_NEW = ["tests/training/test_values134_recorder_resume.py"]

MUTANTS = [
    # ---- the driver ----
    dict(name="v134-train-log-update-by-batch-size", file=TRAIN,
         old="self.recorder.log_update(nb)",
         new="self.recorder.log_update(B)",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="updates.jsonl's epoch fractions are counted over the batch size instead of the epoch's updates"),
    # ---- stopping ----
    dict(name="v134-stop-flag-exit-restores-default", file=STOP,
         old="            signal.signal(s, handler)",
         new="            signal.signal(s, signal.SIG_DFL)",
         tests=STOP_NEW + STOP_OLD,
         why="leaving StopFlag puts back the default handlers, not the ones it found: a caller's own "
             "SIGINT/SIGTERM handling (a notebook's, a test runner's) is lost after the run"),
    dict(name="v134-stop-budget-note-max-steps-as-step", file=STOP,
         old='parts.append(f"--max-steps {c.max_steps}")',
         new='parts.append(f"--max-steps {self.trainer.step}")',
         tests=STOP_NEW + STOP_OLD,
         why="the interruption's note names the updates made as the --max-steps that still holds"),
    dict(name="v134-stop-nothing-left-made-max-steps", file=STOP,
         old="has made {trainer.step} update{'s' * (trainer.step != 1)}",
         new="has made {c.max_steps} update{'s' * (trainer.step != 1)}",
         tests=STOP_NEW + STOP_OLD,
         why="'Nothing to do' names --max-steps as the updates made when a resume asks for fewer than done"),
    dict(name="v134-stop-nothing-left-since-as-patience", file=STOP,
         old="            since = trainer.best['since']",
         new='            since = c.patience',
         tests=STOP_NEW + STOP_OLD,
         why="'Nothing to do' after an early stop names the new --patience as the evaluations without a better "
             "value when the resume asks for a smaller --patience"),
    dict(name="v134-stop-judge-on-a-copy-of-best", file=STOP,
         old="b, p = t.best, t.cfg.patience",
         new="b, p = dict(t.best), t.cfg.patience",
         tests=STOP_NEW + STOP_OLD,
         why="judge updates a copy of the best: the best value, its step and the patience count never move, so "
             "every evaluation is 'better' and --patience never stops"),
    # ---- the recorder: what a checkpoint keeps and a resume reads ----
    dict(name="v134-rec-restore-best-from-wrong-key", file=REC,
         old='best = meta.get("best_state")',
         new='best = meta.get("best")',
         tests=REC_NEW + REC_OLD,
         why="a resume reads the best from the best checkpoint's key: the best and the patience count start "
             "afresh, a worse evaluation after the resume overwrites RUN/best/"),
    dict(name="v134-rec-log-window-saved-as-epoch-sums", file=REC,
         old='"log_window": t.log_window',
         new='"log_window": t.sums',
         tests=REC_NEW + REC_OLD,
         why="the checkpoint keeps the epoch's sums as updates.jsonl's open window: a run resumed between two "
             "log rows writes a different next row (its mean and 'updates') than an uninterrupted one"),
    dict(name="v134-rec-early-stop-saved-with-stop-eval", file=REC,
         old="        if t.early_stop is not None:",
         new="        if t.stop_eval is not None:",
         tests=REC_NEW + REC_OLD,
         why="the early stop is written to the checkpoint only when a stop evaluation exists (never for an early "
             "stop): a resume with the same --patience trains on instead of having nothing to do"),
    dict(name="v134-rec-optim-slots-share-names", file=REC,
         old='f"optim/{slot}/{k}"',
         new='f"optim/{k}"',
         tests=REC_NEW + REC_OLD,
         why="the optimizer's slots are saved without their slot's name: Adam's moments are lost (or collide) "
             "and a resumed run differs from an uninterrupted one"),
    dict(name="v134-rec-best-checkpoint-keeps-live-best", file=REC,
         old='"best": best}',
         new='"best": t.best}',
         tests=REC_NEW + REC_OLD,
         why="RUN/best/checkpoint.json's 'best' is the live record with its patience count ('since'), not the "
             "four fields of the best evaluation"),
]
