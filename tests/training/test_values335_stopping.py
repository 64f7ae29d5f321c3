"""lnrnn/training/stopping.py, eighteenth pass: WHEN the stop rules fire, on hand-made trainer states. A
--time-budget of 60 s is used up at exactly 60.0 s counted (not one step later) and not at 59.5; a group sees
another rank's SIGTERM vote (not only SIGINT votes) and says which signal it stopped for, none while no rank
voted; the resume hint's budget note names --max-steps when only it is set and the time left when only the
budget is; a resumed run that stopped early points to a larger --patience, word for word."""
import signal
from types import SimpleNamespace

import numpy as np

from lnrnn.training.stopping import StopFlag, StopPolicy


def solo(used, time_budget=60.0, max_steps=None, step=7):
    """One process, its clock stopped (t_start None): budget_seconds() is exactly ``used``."""
    return SimpleNamespace(group=SimpleNamespace(size=1, root=True), votes=np.zeros(3), flag=None,
                           budget_used=used, t_start=None, early_stop=None, step=step, reached=None,
                           cfg=SimpleNamespace(time_budget=time_budget, max_steps=max_steps, out="runs/x"))


def test_a_time_budget_is_used_up_at_exactly_its_seconds():
    # the budget's seconds counted one after another: 59.0, 59.5, 60.0, 60.5; the stop comes at 60.0
    fired = []
    for used in (59.0, 59.5, 60.0, 60.5):
        t = solo(used)
        fired.append(StopPolicy(t).reason(StopFlag()))
    assert fired == [None, None, "used the --time-budget of 60 s", "used the --time-budget of 60 s"]
    t = solo(60.0)
    StopPolicy(t).reason(StopFlag())
    assert t.reached == "time_budget"


def test_without_a_time_budget_no_seconds_count_stop_the_run():
    t = solo(1e9, time_budget=None)
    assert StopPolicy(t).reason(StopFlag()) is None and t.reached is None


def group(votes):
    return SimpleNamespace(group=SimpleNamespace(size=3, root=False), votes=np.array(votes, float),
                           early_stop=None, step=5, reached=None,
                           cfg=SimpleNamespace(max_steps=None, time_budget=None, out="runs/x"))


def test_another_ranks_sigterm_vote_stops_this_rank():
    own = StopFlag()                       # this rank got no signal
    t = group([1.0, 0.0, 0.0])             # the sum of the ranks' votes: one SIGTERM, no SIGINT
    p = StopPolicy(t)
    assert bool(p.signalled(own)) is True
    assert p.reason(own) == "interrupted"
    assert p.voted_signal() == signal.SIGTERM


def test_a_group_says_sigint_when_any_rank_got_one_and_nothing_when_none_voted():
    assert StopPolicy(group([2.0, 1.0, 0.0])).voted_signal() == signal.SIGINT
    quiet = StopPolicy(group([0.0, 0.0, 0.0]))
    assert quiet.voted_signal() is None
    assert bool(quiet.signalled(StopFlag())) is False and quiet.reason(StopFlag()) is None


def test_the_budget_note_names_only_the_limits_given():
    p = StopPolicy(solo(15.0, time_budget=None, max_steps=100))
    assert p.budget_note() == " (the run's --max-steps 100 still holds)"
    p = StopPolicy(solo(15.0, time_budget=60.0, max_steps=None))
    assert p.budget_note() == " (the run's --time-budget 60 s (45 s left) still holds)"
    p = StopPolicy(solo(15.0, time_budget=60.0, max_steps=1000))
    assert p.budget_note() == " (the run's --max-steps 1000 and --time-budget 60 s (45 s left) still hold)"
    assert StopPolicy(solo(15.0, time_budget=None, max_steps=None)).budget_note() == ""


def test_a_resumed_run_that_stopped_early_asks_for_a_larger_patience():
    t = SimpleNamespace(epoch=3, step=16, budget_used=0.0, t_start=None,
                        best={"metric": "loss", "value": 0.9, "step": 8, "epoch": 2, "since": 2},
                        early_stop={"patience": 2, "metric": "loss", "best": 0.9, "best_step": 8, "step": 16},
                        cfg=SimpleNamespace(out="runs/x", epochs=10, max_steps=None, time_budget=None, patience=2))
    assert StopPolicy(t).nothing_left() == (
        "Nothing to do: the run in runs/x stopped early at update 16 (no better validation loss in 2 evaluations, "
        "--patience 2); pass a larger --patience to train it further.")
