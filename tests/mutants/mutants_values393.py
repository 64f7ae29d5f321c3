"""Planted bugs, round 393 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the train loop (lnrnn/training/train.py), twentieth pass, planted before any test was written for them: quiet=True
kept only on ranks other than 0, so one process still draws its bar; the run folder's writability check made on
ranks other than 0 only; a setup that fails keeping the run folder locked; the refusal of a new folder that gained
a run before this one started dropping its hand-off to --resume; a new run's first loss defaulting to 0.0 (no
blow-up level ever set); updates.jsonl's window sharing the epoch's sums; a resume that inherits a --time-budget
starting it afresh; an update's training seconds losing the compile seconds unbracketed; a validation's compile
seconds counted as training time; the last evaluation's update read from the first row of the history; the compile
seconds of earlier invocations dropped from a resumed run's rows and checkpoint; a signal during an epoch's
evaluation or save heeded in a group only, so one process makes one more update before it stops.

12 mutants. Against the old targeted files alone (the twelve train and loop files of lnrnn/training/train.py listed
in OLD): 3 of 12 caught (the first loss at 0.0, the shared window, the history's first row); missed: the quiet bar,
the writability check, the lock kept after a failed setup, the refusal without --resume, the budget not inherited,
the unbracketed compile seconds of an update, a validation's compile seconds, the compile seconds of earlier
invocations, the signal during an evaluation. The new file test_values393_train (a tiny float64 digits run: 40
samples in batches of 16, 16, 8) catches all 9 misses, and 12 of 12 alone (measured with every list cut to it):
quiet=True leaves the stream empty while a loud run draws its bar; a file in the way of --out refused at the
Trainer's construction word for word; a failed setup (a batch larger than the training set, refused word for word)
leaves no lock file and the same folder trains next in the same process; a Trainer made before its folder existed
refuses, once another run has written a checkpoint there, word for word and leaving that checkpoint as it was; the
blow-up reference is update 1's loss of updates.jsonl, in the hook and in the checkpoint; an updates.jsonl row of
--log-every 2 holds 2 updates and the mean of their own loss sums over their counts, the epoch row all three; a
resume whose checkpoint has used its whole --time-budget trains nothing and says so word for word; --eval-every 5
with --max-steps 5 evaluates nothing at the stop, --max-steps 4 does; a SIGTERM during epoch 1's evaluation stops
the run after epoch 1 at update 3, word for word with exit code 143; and, on a wall clock and compile clocks moved
by hand (each invocation compiling 0.5 s in its first update and 0.125 s in its first validation), time_s is 1 s an
update plus 0.25 s a validation, compile_s the compiling seconds, and a resumed run's compile seconds add to the
earlier invocation's (1.25 s). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v393-*'
"""
TRAIN = "lnrnn/training/train.py"
NEW = ["tests/training/test_values393_train.py"]
OLD = [
    "tests/training/test_stopping_recorder_parts.py",
    "tests/training/test_values17_train.py",
    "tests/training/test_values25_training.py",
    "tests/training/test_values301_train_loop.py",
    "tests/training/test_values312_loop.py",
    "tests/training/test_values33_train.py",
    "tests/training/test_values345_train_loop.py",
    "tests/training/test_values370_train_loop.py",
    "tests/training/test_values80_loop.py",
    "tests/training/test_values90_loop.py",
    "tests/training/test_values_train.py",
    "tests/training/test_values_train_schedule.py",
]

MUTANTS = [
    dict(name="v393-train-quiet-only-off-rank-zero", file=TRAIN,
         old="self.quiet, self.stream, self.hook = quiet or not root, stream, hook",
         new="self.quiet, self.stream, self.hook = quiet and not root, stream, hook",
         tests=NEW + OLD,
         why="quiet=True in one process still draws the progress bar (only ranks other than 0 are quiet)"),
    dict(name="v393-train-writable-check-off-rank-zero", file=TRAIN,
         old="        if root:\n            check_writable(cfg.out)",
         new="        if not root:\n            check_writable(cfg.out)",
         tests=NEW + OLD,
         why="the run folder's check (a file in the way of --out) dropped on the rank that writes"),
    dict(name="v393-train-lock-kept-after-a-failed-setup", file=TRAIN,
         old="            self.lock.release()\n            raise",
         new="            raise",
         tests=NEW + OLD,
         why="a setup that fails keeps the run folder locked: the next run on it is told it is in use"),
    dict(name="v393-train-existing-run-refusal-drops-resume", file=TRAIN,
         old='already holds a run; pass --resume to continue it, or choose another --out.")',
         new='already holds a run; choose another --out.")',
         tests=NEW + OLD,
         why="a run folder that gained a run before this one started is refused without naming --resume"),
    dict(name="v393-train-initial-loss-starts-at-zero", file=TRAIN,
         old="        self.initial_loss, self.high_streak = None, 0",
         new="        self.initial_loss, self.high_streak = 0.0, 0",
         tests=NEW + OLD,
         why="a new run's first loss defaults to 0.0: the blow-up level is never set, no blow-up is ever seen"),
    dict(name="v393-train-log-window-is-the-epoch-sums", file=TRAIN,
         old="        self.log_window = self._new_sums()               # the update sums",
         new="        self.log_window = self.sums                      # the update sums",
         tests=NEW + OLD,
         why="updates.jsonl's window shares the epoch's sums: each update counted twice, samples mixed in"),
    dict(name="v393-train-budget-used-not-inherited", file=TRAIN,
         old="        self.budget_used, self.t_start = s.budget_used, None",
         new="        self.budget_used, self.t_start = 0.0, None",
         tests=NEW + OLD,
         why="a resume that inherits a --time-budget starts it afresh instead of from the seconds already used"),
    dict(name="v393-train-update-time-compile-unbracketed", file=TRAIN,
         old="self.train_time += time.perf_counter() - t0 - (clock.seconds() - c0)",
         new="self.train_time += time.perf_counter() - t0 - clock.seconds() - c0",
         tests=NEW + OLD,
         why="an update's training seconds lose all compile seconds so far twice over, not this update's"),
    dict(name="v393-train-validation-time-counts-compiling", file=TRAIN,
         old="        self.train_time += time.perf_counter() - t0 - (self.compile_total() - c0)",
         new="        self.train_time += time.perf_counter() - t0",
         tests=NEW + OLD,
         why="seconds compiling during a validation counted as training time"),
    dict(name="v393-train-history-step-first-row", file=TRAIN,
         old='return self.history[-1]["step"] if self.history else None',
         new='return self.history[0]["step"] if self.history else None',
         tests=NEW + OLD,
         why="a budget stop right after an --eval-every evaluation evaluates the same state again at the stop"),
    dict(name="v393-train-compile-total-this-invocation-only", file=TRAIN,
         old="return self.compile_s + (self.clock.seconds() if self.clock is not None else 0.0)",
         new="return self.clock.seconds() if self.clock is not None else self.compile_s",
         tests=NEW + OLD,
         why="a resumed run's rows and checkpoint drop the compile seconds of earlier invocations"),
    dict(name="v393-train-signal-during-a-save-ignored-in-one-process", file=TRAIN,
         old="if flag.requested and self.group.size == 1:",
         new="if flag.requested and self.group.size > 1:",
         tests=NEW + OLD,
         why="a signal during an epoch's evaluation or save: one more update runs before the run stops"),
]
