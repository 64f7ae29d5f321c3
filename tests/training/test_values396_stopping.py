"""A resumed run whose inherited --time-budget is used up (lnrnn/training/stopping.py, nothing_left), word for word
and followed through: the budget a resume inherits is the one its last invocation left with the seconds it counted
(StopPolicy.budget_record), and a --time-budget given again on a resume starts afresh (lnrnn/training/setup.py), so
the sentence asks for --time-budget again, not a larger one.

By hand: --time-budget 60 with 60.0 s already counted is used up (the rule is seconds >= budget), 59.5 s is not;
a real run (digits 40/20 in batches of 16, 3 updates an epoch) with --time-budget 0.001 interrupted by SIGINT after
update 1 keeps that budget for its resume (a signal is no budget reached) with at least its 0.001 s counted; resumed
as it is, it has nothing to do and says so; resumed with --time-budget 0.001 again, it trains further."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingInterrupted
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.stopping import StopPolicy
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=5, lr=0.05,
            save_every_seconds=0, eval_every=None, optimizer="adam")


def resumed(budget_used, time_budget=60.0):
    """A stand-in for a resumed trainer in the middle of its run: 1 of 3 epochs, 4 updates, nothing else spent."""
    c = SimpleNamespace(max_steps=None, time_budget=time_budget, epochs=3, out="runs/tb", patience=None)
    t = SimpleNamespace(cfg=c, group=SimpleNamespace(size=1, root=True), budget_used=budget_used, t_start=None,
                        votes=np.zeros(3), early_stop=None, step=4, epoch=1, batch_in_epoch=0, reached=None,
                        saved_step=4, best={"since": 0})
    return StopPolicy(t)


def test_an_inherited_time_budget_used_to_its_last_second_asks_for_it_again():
    assert resumed(60.0).nothing_left() == ("Nothing to do: the run in runs/tb has used its --time-budget of 60 s; "
                                            "pass --time-budget again for more time.")
    assert resumed(75.25, time_budget=2.5).nothing_left() == (
        "Nothing to do: the run in runs/tb has used its --time-budget of 2.5 s; pass --time-budget again for more "
        "time.")


def test_an_inherited_time_budget_with_seconds_left_leaves_something_to_do():
    assert resumed(59.5).nothing_left() is None
    assert resumed(1e6, time_budget=None).nothing_left() is None   # no budget: seconds counted stop nothing


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def test_a_run_interrupted_with_its_budget_spent_resumes_only_with_the_budget_given_again(tmp_path):
    out = tmp_path / "run"

    def ctrl_c(t):
        if t.step == 1:
            signal.raise_signal(signal.SIGINT)      # the flag's handler: the run saves after this update

    with pytest.raises(TrainingInterrupted) as e:
        train(cfg(out, time_budget=0.001), quiet=True, log=lambda m: None, hook=ctrl_c)
    assert e.value.exit_code == 128 + signal.SIGINT
    meta = load_checkpoint(str(out))[0]
    assert meta["step"] == 1
    budget = meta["budget"]                         # the budget as the resume inherits it: still 0.001 s
    assert budget["max_steps"] is None and budget["time_budget"] == 0.001 and budget["used_s"] >= 0.001

    said = []
    t = train(cfg(out), resume=True, quiet=True, log=said.append)     # resumed as it is: nothing left
    assert t.step == 1
    assert said == [f"Nothing to do: the run in {out} has used its --time-budget of 0.001 s; pass --time-budget "
                    "again for more time."]

    said = []   # the advice followed: the same --time-budget given again starts afresh, and the run goes on
    t = train(cfg(out, time_budget=0.001), resume=True, explicit=("time_budget",), quiet=True, log=said.append)
    assert t.step > 1 and not any(s.startswith("Nothing to do") for s in said)
    assert load_checkpoint(str(out))[0]["step"] == t.step


def test_a_second_signal_of_the_other_kind_exits_with_its_own_code():
    """SIGINT first, then SIGTERM: the run is stopped by the SIGTERM, so the message names it and the exit status is
    the shell's for SIGTERM (128 + 15), whatever the first signal was; and the other way round (the stand-in stopped
    as epoch 1 ended: batch_in_epoch 0)."""
    for first, second in ((signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT)):
        policy = resumed(0.0, time_budget=None)
        policy.trainer.flag_signum = first
        err = policy.abort(second)
        assert isinstance(err, TrainingInterrupted)
        assert err.exit_code == 128 + int(second)
        assert str(err) == (f"stopped by a second {signal.Signals(second).name} after epoch 1, update 4; the state "
                            "reached is saved in runs/tb; continue with `lnrnn train --out runs/tb --resume`.")
