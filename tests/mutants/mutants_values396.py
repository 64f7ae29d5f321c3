"""Planted bugs, round 396 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the stop rules (lnrnn/training/stopping.py), twentieth pass, planted before any test was written for them: the
signal flag starting with a deferred signal 0 (every save ends in Abort(0)); the handlers before the run not kept, so
the run's handler stays after it; a second signal of the other kind (SIGINT then SIGTERM) ignored, only the same one
again aborting; a save not marked, so a second signal during it aborts at once; an evaluation tied with the best not
counted against --patience; diverged() defaulting to an evaluation's words ('after update N') for a NaN inside an
update; the NaN refusal and the blow-up refusal built and returned instead of raised (the run goes on); a signal
that reaches a rank other than 0 not voted; the second signal's message after a finished save without how to
continue; its exit code taken from the first signal; a used-up inherited --time-budget asking for a larger one,
when one given again starts afresh.

12 mutants. Against the old targeted files alone (the 22 stopping, judge, stop-place and policy files of
tests/training listed in OLD): 11 of 12 caught; missed: the larger --time-budget. The exit code taken from the first
signal is caught there only because the old files' stand-in trainers hold no flag_signum (an AttributeError), not by
a value. The new file test_values396_stopping catches the miss: nothing_left() of a resumed stand-in with 60.0 s
counted of --time-budget 60 (and 75.25 of 2.5) word for word, 59.5 s and no budget leaving something to do; a real
run with --time-budget 0.001 interrupted by SIGINT after update 1 keeping that budget and its seconds for the
resume, the resume as it is saying it has nothing to do word for word, and the resume with --time-budget 0.001
given again training further; and, for the exit code, abort() of a stand-in whose first signal was SIGINT stopped
by a SIGTERM (and the other way round) exiting 143 (130) with the second signal named word for word. 3 of 12 alone
(measured with every list cut to it): the larger --time-budget, the exit code by value, and the deferred signal 0
(the real run's first save ends in Abort(0)). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v396-*'
"""
STOPPING = "lnrnn/training/stopping.py"
NEW = ["tests/training/test_values396_stopping.py"]
OLD = [
    "tests/training/test_stopping_recorder_parts.py",
    "tests/training/test_values114_stopping.py",
    "tests/training/test_values124_stopping.py",
    "tests/training/test_values12_stopping.py",
    "tests/training/test_values134_stopping.py",
    "tests/training/test_values180_stopping.py",
    "tests/training/test_values209_stopping.py",
    "tests/training/test_values21_stopping.py",
    "tests/training/test_values227_stopping.py",
    "tests/training/test_values274_train_policies.py",
    "tests/training/test_values295_train_stopping.py",
    "tests/training/test_values316_stopping.py",
    "tests/training/test_values335_stopping.py",
    "tests/training/test_values362_stopping.py",
    "tests/training/test_values36_stopping.py",
    "tests/training/test_values47_stopping_judge.py",
    "tests/training/test_values54_stopping.py",
    "tests/training/test_values56_stop_place.py",
    "tests/training/test_values80_stopping.py",
    "tests/training/test_values90_policies.py",
    "tests/training/test_values9_stopping.py",
    "tests/training/test_values_train_policies.py",
]

MUTANTS = [
    dict(name="v396-flag-no-deferred-is-zero", file=STOPPING,
         old="        self.deferred = None  # a second signal that arrived during a save",
         new="        self.deferred = 0  # a second signal that arrived during a save",
         tests=NEW + OLD,
         why="the flag starts with a deferred signal 0: every save ends in Abort(0)"),
    dict(name="v396-flag-old-handlers-not-kept", file=STOPPING,
         old="                self.old[s] = signal.signal(s, self._handler)",
         new="                signal.signal(s, self._handler)",
         tests=NEW + OLD,
         why="the handlers before the run are not kept, so the run's handler stays after it"),
    dict(name="v396-flag-second-signal-of-the-other-kind-ignored", file=STOPPING,
         old="            self.deferred = signum\n        else:",
         new="            self.deferred = signum\n        elif signum == self.signum:",
         tests=NEW + OLD,
         why="a SIGTERM after a SIGINT (or the reverse) does not stop the run at once: only the same signal again"),
    dict(name="v396-flag-save-not-marked", file=STOPPING,
         old="        self.in_save = True",
         new="        self.in_save = False",
         tests=NEW + OLD,
         why="a save is not marked: a second signal during it aborts at once instead of after the save"),
    dict(name="v396-judge-tie-not-counted", file=STOPPING,
         old="    else:\n        b[\"since\"] += 1",
         new="    elif v != b[\"value\"]:\n        b[\"since\"] += 1",
         tests=NEW + OLD,
         why="an evaluation equal to the best is not counted against --patience (not better is not better)"),
    dict(name="v396-diverged-default-evaluated", file=STOPPING,
         old="def diverged(t, what, value, evaluated=False):",
         new="def diverged(t, what, value, evaluated=True):",
         tests=NEW + OLD,
         why="a NaN during an update is placed 'after update N' (an evaluation's words), not in update N + 1"),
    dict(name="v396-diverged-returned-not-raised", file=STOPPING,
         old="    raise TrainingDiverged(\n        f\"the {what}",
         new="    return TrainingDiverged(\n        f\"the {what}",
         tests=NEW + OLD,
         why="a NaN loss or gradient builds the refusal and returns it: the run goes on"),
    dict(name="v396-blowup-returned-not-raised", file=STOPPING,
         old="        raise TrainingDiverged(\n            f\"the training loss blew up",
         new="        return TrainingDiverged(\n            f\"the training loss blew up",
         tests=NEW + OLD,
         why="BLOWUP_UPDATES updates in a row above the blow-up level return their refusal: the run goes on"),
    dict(name="v396-votes-only-rank-zero-signals", file=STOPPING,
         old="        flag = t.flag\n",
         new="        flag = t.flag if t.group.root else None\n",
         tests=NEW + OLD,
         why="a signal that reaches a rank other than 0 is not voted: the group never stops for it"),
    dict(name="v396-abort-saved-without-resume-hint", file=STOPPING,
         old="                   f\"reached is saved in {out}; {again}.\")",
         new="                   f\"reached is saved in {out}.\")",
         tests=NEW + OLD,
         why="a second signal after the save came through: the message drops how to continue the run"),
    dict(name="v396-abort-exit-code-of-first-signal", file=STOPPING,
         old="        return interrupted(msg, signum)",
         new="        return interrupted(msg, t.flag_signum)",
         tests=NEW + OLD,
         why="the exit code of a run a second signal stopped is that of the first signal (SIGINT then SIGTERM: 130)"),
    dict(name="v396-nothing-left-larger-time-budget", file=STOPPING,
         old="                    \"--time-budget again for more time.\")",
         new="                    \"a larger --time-budget for more time.\")",
         tests=NEW + OLD,
         why="a used-up budget asks for a larger --time-budget, when one given again starts afresh"),
]
