"""lnrnn/training/stopping.py's blow-up rule, budget record, group signal and second-signal message against their
docstrings and the constants they name: the level is BLOWUP_FACTOR times the run's first loss (an update strictly
above it counts, one at or below it ends the streak) and the BLOWUP_UPDATES-th update in a row above it stops the
run; a limit this invocation reached is lifted from the budget a resume inherits, the other kept; a group stopped
by another rank's signal reports SIGINT when any rank got one, else SIGTERM, and nothing when no rank was
signalled or there is one process; a second signal during an update names the update it cut short (the one after
the last finished) and the last checkpoint."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES, StopPolicy, blown_up


def run_state(**kw):
    base = dict(initial_loss=None, high_streak=0, epoch=0, step=0, saved_step=0,
                cfg=SimpleNamespace(out="runs/x", lr=0.1))
    return SimpleNamespace(**{**base, **kw})


def streak_by_hand(losses):
    """The streak after each loss, from the rule: above BLOWUP_FACTOR * the first loss counts, else resets."""
    level, streak, out = BLOWUP_FACTOR * losses[0], 0, []
    for v in losses:
        streak = streak + 1 if losses[0] > 0 and v > level else 0
        out.append(streak)
    return out


@pytest.mark.parametrize("first", [0.5, 2.0])
def test_the_streak_counts_losses_above_factor_times_the_first(first):
    level = BLOWUP_FACTOR * first
    # between factor*first and factor+first (or the other way round): only the product separates them
    just_above, just_below = level * 1.02, level * 0.98
    losses = [first, just_above, just_above, level, just_above, just_below, just_above, just_above]
    t = run_state()
    seen = []
    for v in losses:
        blown_up(t, v)
        t.step += 1
        seen.append(t.high_streak)
    assert t.initial_loss == first
    assert seen == streak_by_hand(losses)


@pytest.mark.parametrize("first", [0.5, 2.0])
def test_the_run_stops_at_the_update_that_completes_the_streak(first):
    above = BLOWUP_FACTOR * first * 1.01
    t = run_state()
    blown_up(t, first)
    for k in range(BLOWUP_UPDATES - 1):
        t.step += 1
        blown_up(t, above)
    assert t.high_streak == BLOWUP_UPDATES - 1
    t.step += 1
    with pytest.raises(TrainingDiverged) as e:
        blown_up(t, above)
    assert t.high_streak == BLOWUP_UPDATES
    assert f"for {BLOWUP_UPDATES} updates in a row" in str(e.value)
    assert f"update {t.step + 1};" in str(e.value)


def trainer(**kw):
    base = dict(reached=None, budget_used=12.5, t_start=None, step=7, saved_step=5, epoch=1, batch_in_epoch=2,
                votes=np.zeros(3), group=SimpleNamespace(size=1, root=True),
                cfg=SimpleNamespace(max_steps=7, time_budget=60.0, out="runs/x"))
    return SimpleNamespace(**{**base, **kw})


@pytest.mark.parametrize("reached, want", [
    (None, {"max_steps": 7, "time_budget": 60.0, "used_s": 12.5}),
    ("max_steps", {"max_steps": None, "time_budget": 60.0, "used_s": 12.5}),
    ("time_budget", {"max_steps": 7, "time_budget": None, "used_s": 0.0}),
])
def test_the_budget_record_lifts_the_limit_reached_only(reached, want):
    assert StopPolicy(trainer(reached=reached)).budget_record() == want


@pytest.mark.parametrize("size, votes, want", [
    (1, [1, 1, 0], None),                       # one process: its own flag says which signal
    (2, [0, 0, 0], None),                       # no rank signalled
    (2, [0, 0, 1], None),                       # over budget is no signal
    (2, [1, 0, 0], signal.SIGTERM),             # some rank got a signal, none a SIGINT
    (2, [1, 1, 0], signal.SIGINT),
    (3, [2, 1, 1], signal.SIGINT),
])
def test_the_group_signal_follows_the_votes(size, votes, want):
    t = trainer(group=SimpleNamespace(size=size, root=True), votes=np.array(votes, float))
    assert StopPolicy(t).voted_signal() == want


def test_a_second_signal_during_an_update_names_the_update_cut_short():
    t = trainer(step=7, saved_step=5, epoch=1)
    err = StopPolicy(t).abort(signal.SIGINT)
    msg = str(err)
    assert f"during update {t.step + 1} of epoch {t.epoch + 1};" in msg
    assert f"the last checkpoint (update {t.saved_step})" in msg
    assert err.exit_code == 128 + signal.SIGINT
