"""lnrnn/training/stopping.py at the edges of its rules, against the definitions in its docstring: a loss of
exactly BLOWUP_FACTOR times the first one is not out of range, a --time-budget used to the second is used
up, a budget the run reached is lifted with its seconds, a run that finished exactly --epochs has nothing
left, and a group stopped by another rank's signal names that signal."""
import signal
from types import SimpleNamespace

import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES, StopPolicy, blown_up


def trainer(**kw):
    cfg = SimpleNamespace(max_steps=None, time_budget=None, epochs=3, out="runs/x", patience=None, lr=0.1)
    cfg.__dict__.update(kw.pop("cfg", {}))
    t = SimpleNamespace(cfg=cfg, group=SimpleNamespace(size=1, root=True), votes=[0, 0, 0], budget_used=0.0,
                        t_start=None, reached=None, step=0, epoch=0, early_stop=None, saved_step=0,
                        best={"metric": "loss", "value": None, "step": None, "since": 0}, flag=None,
                        initial_loss=None, high_streak=0)
    t.__dict__.update(kw)
    return t


def test_a_loss_at_the_blowup_level_is_not_out_of_range():
    t = trainer()
    blown_up(t, 2.0)
    for _ in range(3 * BLOWUP_UPDATES):
        blown_up(t, BLOWUP_FACTOR * 2.0)          # exactly the level: not above it
        assert t.high_streak == 0
    for k in range(1, BLOWUP_UPDATES):
        blown_up(t, BLOWUP_FACTOR * 2.0 * 1.001)  # just above it
        assert t.high_streak == k
    with pytest.raises(TrainingDiverged, match="blew up"):
        blown_up(t, BLOWUP_FACTOR * 2.0 * 1.001)


@pytest.mark.parametrize("used, stops", [(59.999, False), (60.0, True), (60.5, True)])
def test_a_time_budget_used_to_the_second_is_used_up(used, stops):
    t = trainer(cfg={"time_budget": 60.0}, budget_used=used)   # t_start None: the seconds are budget_used alone
    p = StopPolicy(t)
    assert p.over_budget() is stops
    assert p.reason(SimpleNamespace(requested=False)) == ("used the --time-budget of 60 s" if stops else None)
    assert t.reached == ("time_budget" if stops else None)


def test_a_reached_budget_is_lifted_with_its_seconds_and_the_other_kept():
    t = trainer(cfg={"time_budget": 60.0, "max_steps": 50}, budget_used=61.25, reached="time_budget")
    assert StopPolicy(t).budget_record() == {"max_steps": 50, "time_budget": None, "used_s": 0.0}
    t = trainer(cfg={"time_budget": 60.0, "max_steps": 50}, budget_used=12.3456, reached="max_steps", step=50)
    assert StopPolicy(t).budget_record() == {"max_steps": None, "time_budget": 60.0, "used_s": 12.346}
    t = trainer(cfg={"time_budget": 60.0}, budget_used=12.3456)
    assert StopPolicy(t).budget_record() == {"max_steps": None, "time_budget": 60.0, "used_s": 12.346}


@pytest.mark.parametrize("epoch, done", [(2, False), (3, True), (4, True)])
def test_a_run_that_finished_its_epochs_has_nothing_left(epoch, done):
    said = StopPolicy(trainer(epoch=epoch)).nothing_left()
    if done:
        assert said == (f"Nothing to do: the run in runs/x has finished {epoch} epochs (--epochs 3); pass a larger "
                        "--epochs to train it further.")
    else:
        assert said is None


@pytest.mark.parametrize("votes, sig", [([0, 0, 0], None), ([1, 1, 0], signal.SIGINT), ([2, 1, 0], signal.SIGINT),
                                        ([1, 0, 0], signal.SIGTERM), ([1, 0, 1], signal.SIGTERM)])
def test_a_group_names_the_signal_another_rank_got(votes, sig):
    t = trainer(group=SimpleNamespace(size=2, root=False), votes=votes)
    assert StopPolicy(t).voted_signal() == sig
    t.group.size = 1                                            # one process: its own flag, no votes
    assert StopPolicy(t).voted_signal() is None
