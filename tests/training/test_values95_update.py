"""The host update's order (clip the flat gradient by its global norm, then one optimizer step) against the
rule computed here, and nonfinite's sorting of a ValueError from the layers: the data's NaN (DataError
naming the batch), a NaN from the head or the stack (a diverged run), anything else raised unchanged."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import DataError
from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.training import optim
from lnrnn.training.update import HostUpdate, nonfinite


class Diverged(Exception):
    pass


def _trainer(grad, loss=0.5, clip=1.0, lr=0.1, error=None):
    calls = []

    def loss_and_grad(x, y, lengths, tbptt=None, noise_key=None, text=None):
        calls.append(noise_key)
        if error is not None:
            raise error
        model.flat[1].data[:] = grad
        return {"loss": loss}

    def diverged(what, value):
        raise Diverged(f"{what}: {value}")

    model = SimpleNamespace(flat=(SimpleNamespace(data=np.linspace(-1.0, 1.0, grad.size)),
                                  SimpleNamespace(data=np.zeros(grad.size))),
                            loss_and_grad=loss_and_grad)
    t = SimpleNamespace(model=model, cfg=SimpleNamespace(clip=clip, tbptt=None, reproducible=False, task="digits"),
                        opt=optim.SGD(lr=lr, momentum=0.0), group=SimpleNamespace(size=1), first_update_s=1.0,
                        step=3, batch_in_epoch=4, epoch=1, _diverged=diverged, _blown_up=lambda loss: None,
                        calls=calls)
    return t


@pytest.mark.parametrize("clip", [0.5, 5.0, 13.0, 100.0])
def test_host_update_clips_by_the_global_norm_then_steps(clip):
    g = np.array([3.0, 4.0, 0.0, 12.0])  # norm 13
    t = _trainer(g, clip=clip, lr=0.1)
    p0 = t.model.flat[0].data.copy()
    HostUpdate(t)(np.zeros((2, 1, 1)), None, None)
    scale = clip / (13.0 + CLIP_EPS) if 13.0 > clip else 1.0
    np.testing.assert_allclose(t.model.flat[0].data, p0 - 0.1 * g * scale, rtol=1e-12)
    np.testing.assert_allclose(t.model.flat[1].data, g * scale, rtol=1e-12)
    assert t.calls == [3]


def test_host_update_stops_on_a_nan_gradient_before_stepping():
    t = _trainer(np.array([1.0, np.nan, 2.0]))
    p0 = t.model.flat[0].data.copy()
    with pytest.raises(Diverged, match="gradient norm"):
        HostUpdate(t)(np.zeros((2, 1, 1)), None, None)
    np.testing.assert_array_equal(t.model.flat[0].data, p0)


def test_nonfinite_blames_the_data_when_the_batch_holds_a_nan():
    t = _trainer(np.zeros(2))
    x = np.zeros((2, 3, 1))
    x[1, 2, 0] = np.nan
    with pytest.raises(DataError, match=r"batch 5 of epoch 2"):
        nonfinite(t, ValueError("h: NaN or infinite values at step 1"), x)


@pytest.mark.parametrize("message,what", [("dy: NaN or infinite values", "gradient from the head"),
                                          ("h: NaN or infinite values", "recurrent activations")])
def test_nonfinite_with_finite_data_is_a_diverged_run(message, what):
    with pytest.raises(Diverged, match=what):
        nonfinite(_trainer(np.zeros(2)), ValueError(message), np.zeros((2, 3, 1)))


def test_other_value_errors_pass_through_unchanged():
    e = ValueError("shapes (3, 2) and (4,) do not match")
    with pytest.raises(ValueError) as got:
        nonfinite(_trainer(np.zeros(2)), e, np.zeros((2, 3, 1)))
    assert got.value is e
    t = _trainer(np.zeros(2), error=ValueError("x must be 3-D"))
    with pytest.raises(ValueError, match="x must be 3-D"):
        HostUpdate(t)(np.zeros((2, 1, 1)), None, None)


def test_host_update_refuses_a_nan_loss():
    t = _trainer(np.ones(2), loss=math.nan)
    with pytest.raises(Diverged, match="training loss"):
        HostUpdate(t)(np.zeros((2, 1, 1)), None, None)
