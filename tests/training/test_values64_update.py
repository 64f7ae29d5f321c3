"""lnrnn/training/update.py's host update with a stand-in trainer and a real optimizer, over three updates: each
gradient clipped by its global norm (limit / (norm + 1e-6) above the limit, untouched at or below it) and stepped
by SGD with momentum, both written here in NumPy; a loss of +inf or -inf, or NaN, is a diverged run and nothing
moves (parameters and the optimizer's step count)."""
import math
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.training import optim
from lnrnn.training.update import HostUpdate

CLIP = 2.0


class Stop(Exception):
    pass


def stand_in(p0):
    seen = {"diverged": [], "blown": []}

    def diverged(what, value):
        seen["diverged"].append(what)
        raise Stop(what)

    t = NS(cfg=NS(task="adding", clip=CLIP), batch_in_epoch=0, epoch=0, _diverged=diverged,
           _blown_up=seen["blown"].append, opt=optim.SGD(lr=0.1, momentum=0.5),
           model=NS(flat=(NS(data=p0.copy()), NS(data=np.zeros_like(p0)))))
    return t, seen


def updater(t, grad, loss, monkeypatch):
    up = HostUpdate(t)

    def loss_and_grad(*a, **k):
        t.model.flat[1].data[:] = grad
        return {"loss": loss}
    monkeypatch.setattr(up, "loss_and_grad", loss_and_grad)
    return up


def test_three_updates_clip_and_step_as_written_here(monkeypatch):
    p0 = np.array([0.5, -1.0, 2.0])
    t, seen = stand_in(p0)
    gs = [np.array([1.0, 2.0, 2.0]), np.array([0.6, -0.8, 0.0]) * CLIP, np.array([0.1, 0.2, -0.3])]  # 3, 2, < 2
    p, buf = p0.copy(), np.zeros(3)
    for k, g in enumerate(gs):
        updater(t, g, 0.25 * (k + 1), monkeypatch)(np.zeros((2, 1, 1)), None, None)
        norm = math.sqrt(float(g @ g))
        clipped = g * (CLIP / (norm + 1e-6)) if norm > CLIP else g
        buf = 0.5 * buf + clipped
        p = p - 0.1 * buf
        np.testing.assert_allclose(t.model.flat[0].data, p, rtol=1e-13, err_msg=f"update {k + 1}")
    assert seen == {"diverged": [], "blown": [0.25, 0.5, 0.75]}
    assert t.opt.step_count == 3


@pytest.mark.parametrize("loss", [np.inf, -np.inf, np.nan])
def test_a_nonfinite_loss_moves_nothing(monkeypatch, loss):
    p0 = np.array([0.5, -1.0, 2.0])
    t, seen = stand_in(p0)
    updater(t, np.array([0.1, 0.1, 0.1]), 0.5, monkeypatch)(np.zeros((2, 1, 1)), None, None)
    after_one = t.model.flat[0].data.copy()
    with pytest.raises(Stop):
        updater(t, np.array([0.3, 0.0, 0.1]), loss, monkeypatch)(np.zeros((2, 1, 1)), None, None)
    assert seen["diverged"] == ["training loss"] and seen["blown"] == [0.5]
    np.testing.assert_array_equal(t.model.flat[0].data, after_one)
    assert t.opt.step_count == 1
