"""Trainer._end_epoch on a stand-in trainer over scripted epochs, against what an epoch end must do, in order:
judge the evaluation (the best over "worse, better, tie, better" losses), write RUN/best/ exactly at the
epochs that are better, count the epoch and start the next at its first batch with the generator's state
of now, and save the checkpoint, except while the loss is above the blow-up level: then no save, and one
left waiting; the metrics files after every epoch."""
from types import SimpleNamespace

import pytest

from lnrnn.training import stopping
from lnrnn.training.train import Trainer


def stand_in(patience=None):
    calls = []
    t = SimpleNamespace(history=[], epoch=0, batch_in_epoch=7, step=0, sums={"old": True}, high_streak=0,
                        save_pending=False, early_stop=None, epoch_rng=None, val=None,
                        best={"metric": "loss", "value": None, "step": None, "epoch": None, "since": 0},
                        cfg=SimpleNamespace(patience=patience), calls=calls,
                        rng=SimpleNamespace(bit_generator=SimpleNamespace(state=None)))
    t._validate = lambda: {"loss": t.val, "acc": 0.5}
    t._judge = lambda rec: stopping.judge(t, rec)
    t._diverged = lambda what, value, evaluated=False: pytest.fail(f"{what} {value}")
    t._finite = lambda val: Trainer._finite(t, val)
    t._new_sums = lambda: {"new": True}
    t.save = lambda: calls.append(("save", t.step, t.epoch))
    t.recorder = SimpleNamespace(
        epoch_row=lambda val, wall: {"epoch": t.epoch + 1, "step": t.step, "val_loss": val["loss"]},
        save_best=lambda: calls.append(("best", t.step, t.best["value"])),
        write_metrics=lambda: calls.append(("metrics", t.step, len(t.history))))
    return t


def run(epochs, patience=None):
    """epochs: [(validation loss, blow-up streak at the epoch's end)] -> the stand-in after them."""
    t = stand_in(patience)
    for k, (loss, streak) in enumerate(epochs):
        t.step, t.val, t.high_streak, t.batch_in_epoch = 7 * (k + 1), loss, streak, 7
        t.rng.bit_generator.state = {"after epoch": k}
        Trainer._end_epoch(t, SimpleNamespace(close=lambda *a: None), 1.0)
        assert (t.epoch, t.batch_in_epoch, t.sums, t.epoch_rng) == (k + 1, 0, {"new": True}, {"after epoch": k})
    return t


EPOCHS = [(1.0, 0), (1.2, 0), (0.9, 2), (0.9, 0), (0.95, 1), (0.8, 0), (0.8, 0)]


def test_best_saves_and_waiting_saves_at_each_epoch_end():
    t = run(EPOCHS)
    want, best, pending = [], None, False
    for k, (loss, streak) in enumerate(EPOCHS):
        step = 7 * (k + 1)
        if best is None or loss < best:
            best = loss
            want.append(("best", step, loss))
        if streak == 0:
            want.append(("save", step, k + 1))
        else:
            pending = True
        want.append(("metrics", step, k + 1))
    assert t.calls == want
    assert t.save_pending is pending and t.best["step"] == 42 and t.best["since"] == 1


@pytest.mark.parametrize("streak", [1, 5])
def test_an_epoch_end_above_the_blowup_level_leaves_its_save_waiting(streak):
    t = run([(1.0, 0), (0.5, streak)])
    assert [c[0] for c in t.calls] == ["best", "save", "metrics", "best", "metrics"]
    assert t.save_pending is True


def test_the_epoch_that_fires_patience_is_judged_saved_and_counted():
    t = run([(1.0, 0), (1.1, 0), (1.0, 0)], patience=2)
    assert t.early_stop == {"patience": 2, "metric": "loss", "best": 1.0, "best_step": 7, "step": 21}
    assert t.history[-1]["early_stop"] is True and t.epoch == 3
    assert t.calls[-2:] == [("save", 21, 3), ("metrics", 21, 3)]
