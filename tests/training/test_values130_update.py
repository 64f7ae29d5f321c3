"""lnrnn/training/update.py's host update with a stand-in trainer and model (no kernels): the gradient is clipped on
the whole flat array (its norm the square root of the sum of every parameter's squared gradient, computed here) and
the optimizer steps the flat parameters (plain SGD: p - lr g, written here); a ValueError from the model that is no
NaN report (a shape mismatch) reaches the caller as it was; a NaN report is a diverged run naming where it came
from when the batch is finite, and the data's fault naming the batch and epoch (counted from 1) when the batch
holds a NaN."""
import math
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.errors import DataError
from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.training import optim
from lnrnn.training.update import HostUpdate

LR = 0.1


class Diverged(Exception):
    pass


def trainer(loss_and_grad, P=9, clip=1.0):
    rng = np.random.default_rng(4)
    p, g = rng.normal(size=P), np.zeros(P)

    def diverged(what, value):
        raise Diverged(what, value)

    model = NS(flat=(NS(data=p), NS(data=g)), loss_and_grad=lambda *a, **k: loss_and_grad(g))
    return NS(cfg=NS(task="npz", reproducible=False, tbptt=None, clip=clip), group=NS(size=1), first_update_s=1.0,
              step=3, batch_in_epoch=4, epoch=1, votes=np.zeros(3), model=model,
              opt=optim.SGD(lr=LR, momentum=0.0), _diverged=diverged, _blown_up=lambda loss: None)


@pytest.mark.parametrize("scale,clip", [(3.0, 1.0), (0.05, 1.0), (3.0, 0.0)])
def test_the_flat_gradient_is_clipped_by_its_norm_over_every_parameter(scale, clip):
    want_g = scale * np.linspace(-1.0, 1.0, 9) ** 3 + scale * 0.1

    def fill(g):
        g[:] = want_g
        return {"loss": 0.5}

    t = trainer(fill, clip=clip)
    p0 = t.model.flat[0].data.copy()
    HostUpdate(t)(np.zeros((2, 3, 1)), np.zeros(3), None)
    norm = math.sqrt(sum(v * v for v in want_g))
    step = want_g * (clip / (norm + CLIP_EPS)) if clip and norm > clip else want_g
    np.testing.assert_allclose(t.model.flat[0].data, p0 - LR * step, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(t.model.flat[1].data, step, rtol=1e-12, atol=1e-15)


def test_a_value_error_that_is_no_nan_report_reaches_the_caller():
    def bad(g):
        raise ValueError("x has 3 rows but y has 4")

    t = trainer(bad)
    p0 = t.model.flat[0].data.copy()
    with pytest.raises(ValueError, match="^x has 3 rows but y has 4$"):
        HostUpdate(t)(np.zeros((2, 3, 1)), np.zeros(4), None)
    assert np.array_equal(t.model.flat[0].data, p0)


@pytest.mark.parametrize("msg,where", [("dy holds NaN or infinite values", "gradient from the head"),
                                       ("h holds NaN or infinite values", "recurrent activations")])
def test_a_nan_report_on_a_finite_batch_is_a_diverged_run(msg, where):
    def nan(g):
        raise ValueError(msg)

    t = trainer(nan)
    with pytest.raises(Diverged) as e:
        HostUpdate(t)(np.zeros((2, 3, 1)), np.zeros(3), None)
    assert e.value.args == (where, "NaN or infinite")


def test_a_nan_in_the_batch_is_the_datas_fault():
    def nan(g):
        raise ValueError("h holds NaN or infinite values")

    t = trainer(nan)
    x = np.zeros((2, 3, 1))
    x[1, 2, 0] = np.nan
    with pytest.raises(DataError, match=r"training data of npz hold NaN or infinite values \(batch 5 of epoch 2\)"):
        HostUpdate(t)(x, np.zeros(3), None)
