"""Planted bugs, round 474 (format: tests/mutants/mutants.py): the real survivor of a fifty-ninth random sample
(tests/mutants/random_sample.py --seed 59 --count 40 --all-named, on 2cdaedc: 38 of 40 caught) and its neighbours,
sixty-ninth pass.

Seed 59's 2 missed: 1 equivalent (rnd59-16: the synthetic loop words' point noise subtracted for added, the same
normal distribution for every reader), 1 real: the Trainer's blow-up streak starting at one (rnd59-08), which the
first update resets, so only the step-0 checkpoint of a run stopped before its first update records it.

The planted bugs: a run's blow-up streak starting at one (rnd59-08), the blow-up reference starting at zero, and a
process alone running one more update after a signal that came before it. 3 mutants. The old files named after the
train module catch 2 (all but the sampled one); the new file alone catches 3 of 3.

    python tests/mutants/run.py --only 'v474-*'
"""
from mutants_values457 import NEW_TRAIN as NEW_457, OLD_TRAIN as OLD_457  # the train module's files up to round 457

TRAIN = "lnrnn/training/train.py"
NEW = ["tests/training/test_values474_train_step0.py"]
OLD_TRAIN = OLD_457 + NEW_457
STREAK = "        self.initial_loss, self.high_streak = None, 0    # the run's first loss; updates in a row above the"
EARLY = "                    if flag.requested and self.group.size == 1:  # a signal during the last evaluation or save"

MUTANTS = [
    dict(name="v474-streak-starts-at-one", file=TRAIN, old=STREAK, new=STREAK.replace("None, 0", "None, 1"),
         tests=NEW + OLD_TRAIN, why="rnd59-08: a run's blow-up streak starts at one update above the level"),
    dict(name="v474-first-loss-starts-at-zero", file=TRAIN, old=STREAK, new=STREAK.replace("None, 0", "0.0, 0"),
         tests=NEW + OLD_TRAIN, why="the blow-up reference is zero before the first update: the level never set"),
    dict(name="v474-signal-before-an-update-ignored", file=TRAIN, old=EARLY,
         new=EARLY.replace("size == 1", "size > 1"), tests=NEW + OLD_TRAIN,
         why="a process alone runs one more update after a signal that came before it"),
]
