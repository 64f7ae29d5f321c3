"""lnrnn/training/update.py's checks on the host path, with a stand-in trainer: an infinite gradient norm or
loss is a diverged run and no optimizer step is taken, a finite one is clipped and stepped; a layer's NaN
error is the data's fault (DataError) when the batch itself holds a NaN, else a diverged run named by where
it came from, and any other ValueError goes on."""
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.errors import DataError
from lnrnn.training.update import HostUpdate, nonfinite


class Stop(Exception):
    pass


def stand_in(grads):
    calls = {"diverged": [], "blown": [], "steps": 0}

    def diverged(what, value):
        calls["diverged"].append(what)
        raise Stop(what)

    def step(p, g):
        calls["steps"] += 1
    t = NS(cfg=NS(task="adding", clip=1.0), batch_in_epoch=2, epoch=0, _diverged=diverged,
           _blown_up=calls["blown"].append, opt=NS(step=step),
           model=NS(flat=(NS(data=np.zeros(3)), NS(data=np.asarray(grads, np.float64)))))
    return t, calls


def update(t, loss, monkeypatch):
    up = HostUpdate(t)
    monkeypatch.setattr(up, "loss_and_grad", lambda *a, **k: {"loss": loss})
    return up(np.zeros((2, 1, 1)), None, None)


def test_a_finite_update_is_clipped_and_stepped(monkeypatch):
    t, calls = stand_in([3.0, 4.0, 0.0])
    update(t, 0.5, monkeypatch)
    assert calls == {"diverged": [], "blown": [0.5], "steps": 1}
    assert np.allclose(t.model.flat[1].data, [0.6, 0.8, 0.0])


@pytest.mark.parametrize("grads,loss,what", [([1.0, np.inf, 0.0], 0.5, "gradient norm"),
                                             ([1.0, np.nan, 0.0], 0.5, "gradient norm"),
                                             ([1.0, 0.0, 0.0], np.inf, "training loss")])
def test_a_nonfinite_norm_or_loss_stops_before_the_step(monkeypatch, grads, loss, what):
    t, calls = stand_in(grads)
    with pytest.raises(Stop):
        update(t, loss, monkeypatch)
    assert calls["diverged"] == [what] and calls["steps"] == 0 and calls["blown"] == []


def test_a_nan_error_blames_the_batch_only_when_it_holds_one():
    t, calls = stand_in([0.0])
    x = np.zeros((3, 2, 1))
    x[1, 1, 0] = np.nan
    with pytest.raises(DataError, match=r"training data of adding hold NaN or infinite values \(batch 3 of epoch 1\)"):
        nonfinite(t, ValueError("x holds NaN or infinite values"), x)
    assert calls["diverged"] == []
    for msg, what in (("dy holds NaN or infinite values", "gradient from the head"),
                      ("h holds NaN or infinite values", "recurrent activations")):
        with pytest.raises(Stop):
            nonfinite(t, ValueError(msg), np.zeros((3, 2, 1)))
        assert calls["diverged"][-1] == what
    with pytest.raises(ValueError, match="shapes disagree"):
        nonfinite(t, ValueError("shapes disagree"), x)
