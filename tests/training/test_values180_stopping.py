"""Stopping's judge, divergence lines and time budget (lnrnn/training/stopping.py) against hand traces worked
out here: a non-monotonic validation history with ties (an equal value is no improvement: the patience count
goes on and the best update stays the first to reach it), for a loss (lower is better) and an accuracy (higher
is better); the blow-up streak over a loss history that dips back to the limit (a loss equal to
BLOWUP_FACTOR times the first is not above it) and its line; a divergence's line with the epoch and update
counted from 1 and the BatchNorm hint's wording; one process stopping on its own --time-budget."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES, StopPolicy, blown_up, diverged, judge


def reference_judge(values, patience, higher):
    """(improved flags, best index, index of the early stop or None): strict improvement only."""
    best = best_i = stop = None
    since, flags = 0, []
    for i, v in enumerate(values):
        if best is None or (v > best if higher else v < best):
            best, best_i, since = v, i, 0
            flags.append(True)
        else:
            since += 1
            flags.append(False)
            if since >= patience:
                stop = i
                break
    return flags, best_i, stop


@pytest.mark.parametrize("metric,values", [
    ("loss", [1.0, 0.8, 0.8, 0.9, 0.8, 0.7, 0.7]),
    ("acc", [0.5, 0.7, 0.7, 0.6, 0.7, 0.8, 0.8]),
])
def test_ties_are_no_improvement_over_a_non_monotonic_history(metric, values):
    patience = 3
    flags, best_i, stop = reference_judge(values, patience, higher=metric == "acc")
    assert stop == 4 and best_i == 1  # by hand: 1 improves, 2 ties, 3 worse, 4 ties: the third without one
    t = SimpleNamespace(best={"metric": metric, "value": None, "step": None, "epoch": None, "since": 0},
                        cfg=SimpleNamespace(patience=patience), step=0, early_stop=None)
    got = []
    for i, v in enumerate(values):
        t.step = 10 * (i + 1)
        rec = {"val_" + metric: v, "epoch": i}
        got.append(judge(t, rec))
        if t.early_stop is not None:
            assert rec.get("early_stop") is True
            break
    assert got == flags
    assert t.best["value"] == values[best_i] and t.best["step"] == 10 * (best_i + 1) and t.best["epoch"] == best_i
    assert t.best["since"] == stop - best_i
    assert t.early_stop == {"patience": patience, "metric": metric, "best": values[best_i],
                            "best_step": 10 * (best_i + 1), "step": 10 * (stop + 1)}


def _trainer(norm="ln", state_noise=0.0, step=5, epoch=1):
    return SimpleNamespace(setup=SimpleNamespace(plan=SimpleNamespace(cell=SimpleNamespace(norm=norm))),
                           model=SimpleNamespace(state_noise=state_noise), step=step, epoch=epoch, saved_step=4,
                           cfg=SimpleNamespace(out="runs/x", lr=0.01), initial_loss=None, high_streak=0)


@pytest.mark.parametrize("norm,evaluated", [("ln", False), ("bn", True)])
def test_a_divergence_line_counts_from_one_and_gives_the_hint(norm, evaluated):
    t = _trainer(norm=norm, step=5, epoch=1)
    with pytest.raises(TrainingDiverged) as e:
        diverged(t, "training loss", "NaN or infinite", evaluated=evaluated)
    where = "after update 5" if evaluated else "update 6"  # 5 updates made; the 6th is under way
    hint = "try a lower --lr or a --clip"
    if norm == "bn":
        hint = ("BatchNorm cells overflow when every sequence of a batch has the same early steps and zero initial "
                "states (zero batch variance): try --state-noise 0.1, or a lower --lr or a --clip")
    assert str(e.value) == (f"the training loss became NaN or infinite at epoch 2, {where}; training stopped and the "
                            f"last good checkpoint (update 4) is kept in runs/x; {hint}.")


def test_the_blow_up_streak_over_a_loss_that_dips_back_to_the_limit():
    first = 2.0
    limit = BLOWUP_FACTOR * first
    high = limit * 1.5
    # one streak one short, broken by a loss exactly at the limit (not above it), then a full streak
    losses = [first] + [high] * (BLOWUP_UPDATES - 1) + [limit] + [high] * BLOWUP_UPDATES
    t = _trainer(step=0, epoch=2)
    streak = 0
    for i, loss in enumerate(losses):
        streak = streak + 1 if loss > limit else 0  # the rule, replayed
        if streak >= BLOWUP_UPDATES:
            with pytest.raises(TrainingDiverged) as e:
                blown_up(t, loss)
            assert i == len(losses) - 1
            assert str(e.value) == (
                f"the training loss blew up: above {BLOWUP_FACTOR:g}x its starting value {first:.4g} for "
                f"{BLOWUP_UPDATES} updates in a row (now {high:.3g}) at epoch 3, update {i + 1}; training stopped "
                "and the last good checkpoint (update 4) is kept in runs/x; start again with a lower --lr than 0.01.")
            return
        blown_up(t, loss)
        assert t.high_streak == streak and t.initial_loss == first
        t.step += 1
    pytest.fail("no blow-up")


@pytest.mark.parametrize("used,expected", [(12.0, "used the --time-budget of 10 s"), (9.0, None)])
def test_one_process_stops_on_its_own_time_budget(used, expected):
    t = SimpleNamespace(cfg=SimpleNamespace(time_budget=10.0, max_steps=None), group=SimpleNamespace(size=1, root=True),
                        votes=np.zeros(3), budget_used=used, t_start=None, early_stop=None, step=3, reached=None)
    flag = SimpleNamespace(requested=False, signum=None)
    assert StopPolicy(t).reason(flag) == expected
    assert t.reached == ("time_budget" if expected else None)
    assert StopPolicy(t).over_budget() == (used >= 10.0)
