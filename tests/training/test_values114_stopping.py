"""lnrnn/training/stopping.py's flag, exit statuses, stop votes and messages against their definitions.

A save that ends leaves the flag out of its saving state (a later second signal aborts at once); the exit
status of an interruption is what a shell reports for a process the signal ended, 128 + its number; in a
group the time budget is rank 0's vote (the third of cast_votes' three), never the SIGINT one; the
"nothing to do" line of a run stopped early names the update it stopped at, and a divergence names the
update under way counted from 1, like its epoch."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import Abort, StopFlag, StopPolicy, diverged, interrupted, signal_name


def test_a_save_that_ends_leaves_the_saving_state():
    f = StopFlag()
    f._handler(signal.SIGTERM, None)
    with f.saving():
        assert f.in_save
    assert not f.in_save and f.deferred is None
    with pytest.raises(Abort) as e:               # a second signal after the save: at once
        f._handler(signal.SIGINT, None)
    assert e.value.signum == signal.SIGINT


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_the_exit_status_is_128_plus_the_signal(signum):
    err = interrupted("stopped", signum)
    assert err.exit_code == 128 + int(signum)
    assert str(err) == "stopped"


def test_signal_names():
    assert signal_name(signal.SIGTERM) == "SIGTERM" and signal_name(signal.SIGINT) == "SIGINT"
    assert signal_name(999) == "signal 999"


def group_policy(votes, time_budget=60.0):
    c = SimpleNamespace(max_steps=None, time_budget=time_budget, epochs=3, out="runs/x", patience=None, lr=0.1)
    t = SimpleNamespace(cfg=c, group=SimpleNamespace(size=2, root=False), budget_used=0.0, t_start=None,
                        votes=np.asarray(votes, np.float64), early_stop=None, step=4, reached=None)
    return StopPolicy(t), t


@pytest.mark.parametrize("votes, over", [([0, 0, 0], False), ([1, 1, 0], False), ([0, 0, 1], True),
                                         ([1, 0, 2], True)])
def test_a_groups_budget_is_the_budget_vote(votes, over):
    p, t = group_policy(votes)
    assert bool(p.over_budget()) == over
    flag = SimpleNamespace(requested=False, signum=None)
    if votes[0] == 0:
        reason = p.reason(flag)
        if over:
            assert reason == "used the --time-budget of 60 s" and t.reached == "time_budget"
        else:
            assert reason is None and t.reached is None


def test_a_runs_early_stop_names_the_update_it_stopped_at():
    c = SimpleNamespace(max_steps=None, time_budget=None, epochs=9, out="runs/x", patience=3)
    t = SimpleNamespace(cfg=c, epoch=2, step=40, early_stop={"patience": 3, "metric": "loss", "best": 0.5,
                                                            "best_step": 25, "step": 40},
                        best={"since": 3}, group=SimpleNamespace(size=1, root=True), budget_used=0.0, t_start=None)
    msg = StopPolicy(t).nothing_left()
    assert msg == ("Nothing to do: the run in runs/x stopped early at update 40 (no better validation loss in 3 "
                   "evaluations, --patience 3); pass a larger --patience to train it further.")


@pytest.mark.parametrize("norm, noise, bn_hint", [("ln", 0.0, False), ("bn", 0.0, True), ("bn", 0.1, False)])
def test_a_divergence_names_the_update_under_way(norm, noise, bn_hint):
    epoch, step = 1, 7        # the second epoch, the eighth update
    t = SimpleNamespace(setup=SimpleNamespace(plan=SimpleNamespace(cell=SimpleNamespace(norm=norm))),
                        model=SimpleNamespace(state_noise=noise), epoch=epoch, step=step, saved_step=5,
                        cfg=SimpleNamespace(out="runs/x"))
    with pytest.raises(TrainingDiverged) as e:
        diverged(t, "training loss", float("nan"))
    msg = str(e.value)
    assert msg.startswith(f"the training loss became nan at epoch {epoch + 1}, update {step + 1}; training "
                          "stopped and the last good checkpoint (update 5) is kept in runs/x; ")
    assert ("--state-noise 0.1" in msg) == bn_hint
    assert msg.endswith("a lower --lr or a --clip.")
