"""lnrnn/training/stopping.py's counters over non-monotonic histories, against their definitions: --patience
counts the evaluations since the best one (a better one resets the count, each worse one adds one), the blow-up
streak stops the run at exactly BLOWUP_UPDATES updates in a row above the level and not before, and a resumed
run with exactly its --max-steps made or its --time-budget used has nothing left to do."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES, StopPolicy, blown_up, judge


def judged(values, patience, metric="loss"):
    """Judge a validation history; -> (the 'since' count after each, the index of the stopping one or None)."""
    t = SimpleNamespace(best={"metric": metric, "value": None, "step": None, "epoch": None, "since": 0},
                        cfg=SimpleNamespace(patience=patience), step=0, early_stop=None)
    since, stop = [], None
    for i, v in enumerate(values):
        t.step = i + 1
        rec = {"val_" + metric: v, "epoch": i + 1}
        judge(t, rec)
        since.append(t.best["since"])
        if rec.get("early_stop") and stop is None:
            stop = i
    return since, stop


def since_by_definition(values, lower_is_better=True):
    """Evaluations since the best so far (strictly better resets to 0), after each evaluation."""
    best, n, out = None, 0, []
    for v in values:
        if best is None or (v < best if lower_is_better else v > best):
            best, n = v, 0
        else:
            n += 1
        out.append(n)
    return out


@pytest.mark.parametrize("values", [
    [1.0, 1.2, 0.9, 1.1, 1.3, 0.8, 0.95, 0.97, 0.99],     # worse, better, worse, worse, better, worse x3
    [2.0, 2.0, 1.0, 3.0, 1.0, 1.0, 0.5],                # ties are not better
])
def test_patience_counts_the_evaluations_since_the_best(values):
    since, stop = judged(values, patience=None)
    assert since == since_by_definition(values)
    assert stop is None


@pytest.mark.parametrize("patience", [1, 2, 3])
def test_patience_stops_at_the_first_evaluation_that_reaches_it(patience):
    values = [1.0, 1.2, 0.9, 1.1, 1.3, 0.8, 0.95, 0.97, 0.99]
    want = next((i for i, n in enumerate(since_by_definition(values)) if n >= patience), None)
    assert judged(values, patience)[1] == want
    assert want is not None


def test_patience_on_accuracy_higher_is_better():
    values = [0.5, 0.4, 0.6, 0.55, 0.58, 0.7, 0.6]
    since, _ = judged(values, None, metric="acc")
    assert since == since_by_definition(values, lower_is_better=False)


def blowup_state():
    return SimpleNamespace(initial_loss=None, high_streak=0, epoch=0, step=0, saved_step=0,
                           cfg=SimpleNamespace(out="run", lr=0.1))


def test_the_blowup_streak_stops_at_exactly_its_length():
    t = blowup_state()
    blown_up(t, 1.0)
    high = BLOWUP_FACTOR * 1.5
    for _ in range(BLOWUP_UPDATES - 2):   # a streak one short, broken by one loss in range
        blown_up(t, high)
    blown_up(t, high)
    assert t.high_streak == BLOWUP_UPDATES - 1
    blown_up(t, 1.0)
    assert t.high_streak == 0
    for k in range(1, BLOWUP_UPDATES):
        blown_up(t, high)
        assert t.high_streak == k
    with pytest.raises(TrainingDiverged):
        blown_up(t, high)                  # the BLOWUP_UPDATES-th in a row


def resumed(step=5, max_steps=None, time_budget=None, used=0.0):
    return SimpleNamespace(cfg=SimpleNamespace(epochs=3, max_steps=max_steps, time_budget=time_budget, out="run",
                                               patience=None),
                           epoch=1, step=step, budget_used=used, t_start=None, early_stop=None, best={"since": 0})


def test_a_resume_at_exactly_its_limits_has_nothing_left():
    assert "--max-steps 5" in StopPolicy(resumed(step=5, max_steps=5)).nothing_left()
    assert StopPolicy(resumed(step=4, max_steps=5)).nothing_left() is None
    assert "--time-budget of 2 s" in StopPolicy(resumed(time_budget=2.0, used=2.0)).nothing_left()
    assert StopPolicy(resumed(time_budget=2.0, used=1.999)).nothing_left() is None
