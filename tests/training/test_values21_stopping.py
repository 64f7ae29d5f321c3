"""lnrnn/training/stopping.py's votes, limits and counters against its docstring: a rank's SIGTERM votes
"signalled" but not "SIGINT" (the group then stops for SIGTERM: exit 143, not 130); --max-steps N stops after
update N exactly; the resume hint's seconds left are the budget minus the seconds used; patience counts the
evaluations since the last better one through a "worse, better, worse, equal" history (an equal value is
not better), for a loss (lower) and an accuracy (higher)."""
import signal
from types import SimpleNamespace

import pytest

from lnrnn.training.stopping import StopPolicy, judge
from test_values9_stopping import trainer  # a trainer's stand-in: the fields StopPolicy and judge read


@pytest.mark.parametrize("signum, votes", [(signal.SIGTERM, [1, 0, 0]), (signal.SIGINT, [1, 1, 0]), (None, [0, 0, 0])])
def test_a_ranks_vote_says_whether_its_signal_was_sigint(signum, votes):
    t = trainer(flag=SimpleNamespace(signum=signum, requested=signum is not None),
                group=SimpleNamespace(size=2, root=True))
    policy = StopPolicy(t)
    policy.cast_votes()
    assert list(t.votes) == votes
    t.group.rank = 1                                   # another rank without a signal of its own
    assert policy.voted_signal() == (None if signum is None else signum)


def test_max_steps_stops_after_that_update_exactly():
    t = trainer(cfg={"max_steps": 10})                 # one process
    policy = StopPolicy(t)
    flag = SimpleNamespace(requested=False, signum=None)
    for step in range(1, 10):
        t.step = step
        assert policy.reason(flag) is None and t.reached is None
    t.step = 10
    assert policy.reason(flag) == "reached --max-steps 10" and t.reached == "max_steps"


@pytest.mark.parametrize("used, left", [(30.0, 70), (99.6, 0), (150.0, 0)])
def test_the_resume_hint_says_the_seconds_left(used, left):
    t = trainer(cfg={"time_budget": 100.0}, budget_used=used)
    assert f"--time-budget 100 s ({left} s left)" in StopPolicy(t).budget_note()


@pytest.mark.parametrize("metric, values", [("loss", [1.0, 1.2, 0.9, 0.95, 0.9]), ("acc", [0.5, 0.4, 0.6, 0.55, 0.6])])
def test_patience_counts_since_the_last_better_through_ups_and_downs(metric, values):
    t = trainer(cfg={"patience": 2}, best={"metric": metric, "value": None, "step": None, "since": 0})
    better, since = [], []
    for k, v in enumerate(values):
        t.step = 10 * (k + 1)
        better.append(judge(t, {"val_" + metric: v, "epoch": k + 1}))
        since.append(t.best["since"])
        if k < len(values) - 1:
            assert t.early_stop is None
    assert better == [True, False, True, False, False]
    assert since == [0, 1, 0, 1, 2]
    assert t.best["value"] == values[2] and t.best["step"] == 30 and t.best["epoch"] == 3
    assert t.early_stop == {"patience": 2, "metric": metric, "best": values[2], "best_step": 30, "step": 50}
