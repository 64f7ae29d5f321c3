"""The trainer loop's counters and the rows it writes, against counts kept here by a hook that sees every update.

A tiny run (digits, 40 training samples in batches of 16: 3 updates an epoch) with --eval-every 2, --log-every 1
and --max-steps 4: the k-th update of an epoch leaves batch_in_epoch at k (3, the epoch's last, then 0 with the
epoch counted), so the stop at update 4 is inside epoch 2 at batch 1 and the checkpoint says so; every
updates.jsonl row's epoch is epoch + batches done / 3 (rounded to 6 places), as is every --eval-every row's in
metrics.jsonl, the epoch-end rows count whole epochs; the stop falls on the update an --eval-every evaluation just
scored (update 4), so no evaluation at the stop is made (the last row is that state's), while a --max-steps 4 run
without --eval-every evaluates the state it stops at. An --eval-every evaluation whose validation loss is NaN stops
the run as diverged at once, naming the validation loss, the epoch and the update, and writes no NaN row."""
import json
import math

import pytest

import lnrnn.training.train as train_module
from lnrnn.errors import TrainingDiverged
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=5, lr=0.05,
            save_every_seconds=0, log_every=1)
NB = 3                                   # updates an epoch: 16, 16, 8


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def quiet_train(c, **kw):
    return train(c, quiet=True, log=lambda m: None, **kw)


def by_hand(steps):
    """(epoch index, batches done in it) after each of the first `steps` updates: the k-th update of an epoch
    leaves k done."""
    return [(s // NB, s % NB + 1) for s in range(steps)]


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    out = tmp_path_factory.mktemp("v80") / "run"
    seen = []
    trainer = quiet_train(cfg(out, eval_every=2, max_steps=4),
                          hook=lambda t: seen.append((t.epoch, t.batch_in_epoch, t.step)))
    return out, trainer, seen


def test_each_update_leaves_the_batches_done_in_its_epoch(stopped):
    out, trainer, seen = stopped
    assert [(e, b) for e, b, _ in seen] == by_hand(4)
    assert [s for _, _, s in seen] == [1, 2, 3, 4]
    assert (trainer.step, trainer.epoch, trainer.batch_in_epoch) == (4, 1, 1)
    ckpt = json.load(open(out / "checkpoint.json"))
    meta = ckpt.get("meta", ckpt)
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (4, 1, 1)


def test_updates_rows_place_each_update_in_its_epoch(stopped):
    out, _, _ = stopped
    rows = read_jsonl(out / "updates.jsonl")
    assert [r["step"] for r in rows] == [1, 2, 3, 4]
    assert [r["epoch"] for r in rows] == [round(e + b / NB, 6) for e, b in by_hand(4)]


def test_metrics_rows_place_each_evaluation(stopped):
    out, _, _ = stopped
    rows = read_jsonl(out / "metrics.jsonl")
    # update 2 (--eval-every, inside epoch 1), epoch 1's end (update 3), update 4 (--eval-every, inside epoch 2)
    assert [r["step"] for r in rows] == [2, 3, 4]
    assert [r.get("eval") for r in rows] == ["update", None, "update"]
    assert rows[0]["epoch"] == round(0 + 2 / NB, 6)
    assert rows[1]["epoch"] == 1
    assert rows[2]["epoch"] == round(1 + 1 / NB, 6)


def test_a_stop_on_an_evaluated_update_evaluates_nothing_more(stopped):
    out, trainer, _ = stopped
    assert trainer.reached == "max_steps"
    assert trainer.stop_eval is None
    ckpt = json.load(open(out / "checkpoint.json"))
    assert "stop_eval" not in ckpt.get("meta", ckpt)


def test_a_stop_between_evaluations_evaluates_the_state_reached(tmp_path):
    trainer = quiet_train(cfg(tmp_path / "run", max_steps=4))
    assert trainer.history[-1]["step"] == 3
    assert trainer.stop_eval is not None and trainer.stop_eval["step"] == 4 and trainer.stop_eval["eval"] == "stop"


def test_a_nan_eval_every_validation_loss_stops_the_run(tmp_path, monkeypatch):
    real, calls = train_module.evaluate, []

    def first_nan(*a, **kw):
        val = real(*a, **kw)
        calls.append(val["loss"])
        if len(calls) == 1:
            val = {**val, "loss": math.nan}
        return val
    monkeypatch.setattr(train_module, "evaluate", first_nan)
    out = tmp_path / "run"
    with pytest.raises(TrainingDiverged) as e:
        quiet_train(cfg(out, eval_every=2))
    assert len(calls) == 1                                     # at update 2, inside epoch 1
    assert "the validation loss became nan at epoch 1, after update 2;" in str(e.value)
    assert not (out / "metrics.jsonl").exists() or not any(
        not math.isfinite(r["val_loss"]) for r in read_jsonl(out / "metrics.jsonl"))
