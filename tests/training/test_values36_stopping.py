"""lnrnn/training/stopping.py's blow-up rule over hand-made loss histories, against its definition: the level is
BLOWUP_FACTOR times the run's first loss, the first loss is whatever it was (0, a negative density NLL), kept
for the whole run however the losses go after it, and a first loss that is not positive puts no loss out of
range."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES, blown_up


def run(losses):
    """blown_up over the losses (one an update) -> (the trainer, the update that raised or None)."""
    t = SimpleNamespace(initial_loss=None, high_streak=0, epoch=0, step=0, saved_step=0,
                        cfg=SimpleNamespace(out="runs/x", lr=0.1))
    for k, loss in enumerate(losses):
        t.step = k
        try:
            blown_up(t, loss)
        except TrainingDiverged:
            return t, k
    return t, None


@pytest.mark.parametrize("first", [0.0, -2.0])
def test_a_first_loss_that_is_not_positive_is_kept_and_bounds_nothing(first):
    """The first loss stays the run's first through a later small, larger and huge losses: no streak, no stop."""
    losses = [first, 1.0, 0.5, 3.0] + [1e6] * (2 * BLOWUP_UPDATES)
    t, stopped = run(losses)
    assert t.initial_loss == first and t.high_streak == 0 and stopped is None


def test_the_first_loss_is_kept_through_ups_and_downs():
    """First loss 2: a dip to 0 and back up does not move the level (20), the streak counts from it."""
    level = BLOWUP_FACTOR * 2.0
    losses = [2.0, 0.0, 1.0, 0.0] + [level * 1.01] * BLOWUP_UPDATES
    t, stopped = run(losses)
    assert t.initial_loss == 2.0
    assert stopped == len(losses) - 1 and t.high_streak == BLOWUP_UPDATES
