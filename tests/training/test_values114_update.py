"""lnrnn/training/update.py: which update a run takes, and the host update's clipping and optimizer step
against NumPy.

make_update takes the device update exactly when the setup says the model runs on the device. The host update
of a small float64 LN-LSTM (truncated BPTT, masks, state noise) does, twice in a row: the plain loss and
gradient of the model (a twin built from the same seed), the gradient scaled by clip / (||g|| + CLIP_EPS) when
||g|| > clip, the norm over every parameter (clip 0: unscaled), then SGD with momentum 0.9
(v = 0.9 v + g; p -= lr v) or Adam (m, v moving averages, bias-corrected, p -= lr m_hat / (sqrt(v_hat) + eps))
written here; the loss it hands to the blow-up watch is the update's mean loss."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from lnrnn.training.optim import make_optimizer
from lnrnn.training.update import DeviceUpdate, HostUpdate, make_update
from test_values43_distributed_shards import LENGTHS, PER_STEP, batch, config


@pytest.mark.parametrize("on_device, kind", [(True, DeviceUpdate), (False, HostUpdate)])
def test_make_update_follows_the_setup(on_device, kind):
    trainer = SimpleNamespace(setup=SimpleNamespace(on_device=on_device))
    u = make_update(trainer)
    assert type(u) is kind and u.trainer is trainer


def numpy_step(kind, p, g, state, lr, k):
    if kind == "sgd":
        state["v"] = 0.9 * state.get("v", 0.0) + g
        return p - lr * state["v"]
    b1, b2, eps = 0.9, 0.999, 1e-8
    state["m"] = b1 * state.get("m", 0.0) + (1 - b1) * g
    state["v"] = b2 * state.get("v", 0.0) + (1 - b2) * g * g
    m_hat, v_hat = state["m"] / (1 - b1 ** k), state["v"] / (1 - b2 ** k)
    return p - lr * m_hat / (np.sqrt(v_hat) + eps)


@pytest.mark.parametrize("kind, lr", [("sgd", 0.05), ("adam", 0.01)])
@pytest.mark.parametrize("clip_share", [0.3, 0.0])    # clip at 0.3 of the first norm, or no clipping
def test_host_update_clips_and_steps_like_numpy(kind, lr, clip_share):
    cfg = config("ln-lstm", PER_STEP, "float64")
    x, y, _ = batch(PER_STEP, seed=4)
    model, twin = build_model(cfg, seed=2), build_model(cfg, seed=2)
    losses = []

    def diverged(what, value):
        raise AssertionError(f"{what} {value}")

    t = SimpleNamespace(model=model, opt=make_optimizer(kind, lr), group=distributed.SINGLE, first_update_s=1.0,
                        step=0, epoch=0, batch_in_epoch=0, votes=np.zeros(3), _diverged=diverged,
                        _blown_up=losses.append, setup=SimpleNamespace(on_device=False),
                        cfg=SimpleNamespace(clip=0.0, reproducible=False, tbptt=2, task="test"))
    update = make_update(t)
    state, p = {}, twin.flat[0].data.copy()
    for k in (1, 2):
        t.step = k
        twin.flat[0].data[...] = p
        means = twin.loss_and_grad(x, y, LENGTHS, tbptt=2, noise_key=k)
        g = twin.flat[1].data.copy()
        norm = math.sqrt(float(np.sum(g * g)))
        if k == 1:
            t.cfg.clip = clip_share * norm
        if 0 < t.cfg.clip < norm:
            g = g * (t.cfg.clip / (norm + CLIP_EPS))
        p = numpy_step(kind, p, g, state, lr, k)
        update(x, y, LENGTHS)
        np.testing.assert_allclose(model.flat[0].data - twin.flat[0].data, p - twin.flat[0].data,
                                   rtol=1e-7, atol=1e-13)
        assert losses[-1] == pytest.approx(means["loss"], rel=1e-9)
    assert len(losses) == 2
