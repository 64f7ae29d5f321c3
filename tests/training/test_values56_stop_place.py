"""Where a stopped run says the stop came (stopping.stop_place): "at epoch N" for a stop inside epoch N, "after
epoch N" for one that came as epoch N ended (the loop has already moved its epoch counter on, so the 1-based
"epoch t.epoch + 1" named an epoch that never started), in the run's summary and in a signal's message.

A tiny run (digits, 40 training samples in batches of 16: 3 updates an epoch): --max-steps 2, 3 and 4 stop
inside epoch 1, as epoch 1 ends and inside epoch 2; --patience 1 with validation losses 1.0 then 1.1 (a fake
evaluation) stops as epoch 2 ends, after 6 updates; a signal's messages at an epoch's end and inside one."""
import signal
from types import SimpleNamespace

import pytest

import lnrnn.training.train as train_module
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.stopping import StopPolicy
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=4, seed=5, lr=0.05,
            save_every_seconds=0)


def summary(out, **kw):
    said = []
    t = train(TrainConfig(**{**TINY, "out": str(out), **kw}), quiet=True, log=said.append)
    return t, said[-1]


@pytest.mark.parametrize("steps,epoch,place", [(2, 0, "at epoch 1"), (3, 1, "after epoch 1"), (4, 1, "at epoch 2")])
def test_a_max_steps_stop_names_the_epoch_it_came_in(tmp_path, steps, epoch, place):
    t, said = summary(tmp_path / "run", max_steps=steps)
    assert (t.step, t.epoch) == (steps, epoch)
    assert said.startswith(f"Stopped (reached --max-steps {steps}) {place}, {steps} updates"), said


def test_an_early_stop_at_an_epochs_end_names_that_epoch(tmp_path, monkeypatch):
    losses = iter([1.0, 1.1, 1.2, 1.3])
    monkeypatch.setattr(train_module, "evaluate", lambda *a, **k: {"loss": next(losses), "acc": 0.5})
    t, said = summary(tmp_path / "run", patience=1)
    assert (t.step, t.epoch) == (6, 2)
    assert "since update 3) after epoch 2, 6 updates" in said, said
    assert "epoch 3" not in said


def stopped_trainer(epoch, batch_in_epoch, step, saved_step):
    c = SimpleNamespace(max_steps=None, time_budget=None, epochs=3, out="runs/x")
    return SimpleNamespace(cfg=c, group=SimpleNamespace(size=1, root=True), budget_used=0.0, t_start=None,
                           epoch=epoch, batch_in_epoch=batch_in_epoch, step=step, saved_step=saved_step)


@pytest.mark.parametrize("epoch,batch,step,place", [(1, 0, 3, "after epoch 1, update 3"),
                                                    (1, 1, 4, "at epoch 2, update 4"),
                                                    (0, 2, 2, "at epoch 1, update 2")])
def test_a_signals_messages_name_the_epoch_it_came_in(epoch, batch, step, place):
    policy = StopPolicy(stopped_trainer(epoch, batch, step, saved_step=step))
    assert f"interrupted (SIGTERM) {place};" in str(policy.interruption(signal.SIGTERM))
    assert f"stopped by a second SIGINT {place};" in str(policy.abort(signal.SIGINT))
