"""The trainer's parts on their own: the stop policy (lnrnn/training/stopping.py: signals, a group's votes,
budgets, what a resume has left to do) and the run recorder (lnrnn/training/recorder.py: a checkpoint's
description read back into a trainer gives the state it was written from). No training: plain objects
holding the state each part reads, and one tiny trainer built without running."""
import json
import os
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.stopping import Abort, StopFlag, StopPolicy
from lnrnn.training.train import Trainer


def run_state(size=1, max_steps=None, time_budget=None, step=5, early_stop=None, votes=(0, 0, 0), used=0.0):
    return SimpleNamespace(cfg=SimpleNamespace(max_steps=max_steps, time_budget=time_budget, epochs=3, out="run",
                                               patience=None),
                           group=SimpleNamespace(size=size, root=True), step=step, epoch=0, early_stop=early_stop,
                           votes=np.array(votes, float), budget_used=used, t_start=None, reached=None, flag=None,
                           best={"since": 0})


def flag(signum=None):
    return SimpleNamespace(requested=signum is not None, signum=signum)


@pytest.mark.parametrize("kw, signum, want, reached", [
    ({}, None, None, None),
    ({}, signal.SIGTERM, "interrupted", None),
    ({"early_stop": {"step": 5}, "max_steps": 5}, None, "early", None),
    ({"max_steps": 5, "time_budget": 1.0, "used": 2.0}, None, "reached --max-steps 5", "max_steps"),
    ({"max_steps": 6}, None, None, None),
    ({"time_budget": 1.0, "used": 2.0}, None, "used the --time-budget of 1 s", "time_budget"),
    ({"time_budget": 3.0, "used": 2.0}, None, None, None),
])
def test_the_first_reason_to_stop_wins_and_a_reached_budget_is_named(kw, signum, want, reached):
    t = run_state(**kw)
    assert StopPolicy(t).reason(flag(signum)) == want
    assert t.reached == reached


def test_a_groups_votes_stop_every_rank_alike():
    """Ranks > 0 stop for the votes of the last update, not for their own flag or clock."""
    t = run_state(size=2, votes=(1, 0, 0))
    p = StopPolicy(t)
    assert p.reason(flag(None)) == "interrupted" and p.voted_signal() == signal.SIGTERM
    t.votes[:] = (1, 1, 0)
    assert p.voted_signal() == signal.SIGINT
    t.votes[:] = (0, 0, 1)
    t.cfg.time_budget = 100.0  # this rank's clock is far from it: rank 0's vote decides
    assert p.reason(flag(signal.SIGINT)) == "used the --time-budget of 100 s"
    t.votes[:] = (0, 0, 0)
    assert p.reason(flag(None)) is None and p.voted_signal() is None


def test_cast_votes_are_this_ranks_flag_and_clock():
    t = run_state(size=2, time_budget=1.0, used=5.0)
    t.flag = flag(signal.SIGINT)
    StopPolicy(t).cast_votes()
    assert list(t.votes) == [1, 1, 1]
    t.flag, t.group.root = flag(signal.SIGTERM), False  # a rank > 0 does not vote on the budget
    StopPolicy(t).cast_votes()
    assert list(t.votes) == [1, 0, 0]


def test_the_budget_a_resume_inherits():
    t = run_state(max_steps=10, time_budget=60.0, used=12.5)
    p = StopPolicy(t)
    assert p.budget_record() == {"max_steps": 10, "time_budget": 60.0, "used_s": 12.5}
    assert p.budget_note() == " (the run's --max-steps 10 and --time-budget 60 s (48 s left) still hold)"
    t.reached = "max_steps"
    assert p.budget_record() == {"max_steps": None, "time_budget": 60.0, "used_s": 12.5}
    t.reached = "time_budget"
    assert p.budget_record() == {"max_steps": 10, "time_budget": None, "used_s": 0.0}


@pytest.mark.parametrize("kw, words", [
    ({"max_steps": 5}, "has made 5 updates (--max-steps 5)"),
    ({"time_budget": 1.0, "used": 1.0}, "has used its --time-budget of 1 s"),
    ({"early_stop": {"step": 4, "metric": "loss"}}, "stopped early at update 4"),
])
def test_nothing_left_says_which_limit(kw, words):
    assert words in StopPolicy(run_state(**kw)).nothing_left()
    assert StopPolicy(run_state()).nothing_left() is None


def test_a_second_signal_during_a_save_waits_for_it():
    with StopFlag() as f:
        os.kill(os.getpid(), signal.SIGINT)
        assert f.requested and f.signum == signal.SIGINT
        saved = []
        with pytest.raises(Abort) as e:
            with f.saving():
                os.kill(os.getpid(), signal.SIGTERM)
                saved.append(True)  # the save goes on to its end
        assert saved == [True] and e.value.signum == signal.SIGTERM
        with pytest.raises(Abort):  # outside a save, a second signal stops at once
            os.kill(os.getpid(), signal.SIGTERM)


def test_a_checkpoints_description_restores_the_state_it_was_written_from(tmp_path):
    cfg = dict(task="digits", split="32/16", hidden=4, batch_size=16, epochs=3, best_metric="acc", patience=4)
    a = Trainer(TrainConfig(**cfg, out=str(tmp_path / "a")), quiet=True, log=lambda m: None)
    try:
        rng = np.random.default_rng(1)
        for p in a.model.params.values():
            p[...] = rng.standard_normal(p.shape)
        a.step, a.epoch, a.batch_in_epoch, a.train_time = 7, 1, 1, 3.5
        a.sums = {"sums": {k: 1.5 for k in a.sums["sums"]}, "count": 16, "samples": 16}
        a.log_window = {"sums": {k: 0.5 for k in a.log_window["sums"]}, "count": 3, "samples": 2}
        a.history = [{"epoch": 1, "step": 2, "val_loss": 2.0, "val_acc": 0.25}]
        a.best = {"metric": "acc", "value": 0.25, "step": 2, "epoch": 1, "since": 2}
        a.initial_loss, a.high_streak = 2.3, 1
        meta = json.loads(json.dumps(a.recorder.meta()))  # as checkpoint.json holds it
        arrays = a.recorder.arrays()
    finally:
        a.close()
    b = Trainer(TrainConfig(**cfg, out=str(tmp_path / "b")), quiet=True, log=lambda m: None)
    try:
        b.recorder.restore(meta, arrays)
        for name in ("step", "epoch", "batch_in_epoch", "train_time", "sums", "log_window", "history", "best",
                     "initial_loss", "high_streak"):
            assert getattr(b, name) == getattr(a, name), name
        assert b.epoch_rng == a.epoch_rng
        for k, p in a.model.params.items():
            assert np.array_equal(b.model.params[k], p), k
    finally:
        b.close()
