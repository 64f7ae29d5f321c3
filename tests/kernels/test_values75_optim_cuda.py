"""The optimizers' CUDA twin (lnrnn/kernels/optim_cuda.py) over three updates, each on a gradient first clipped
on the flat buffer by the twin's clip_grad_norm, against the rules written out here in NumPy from their
definitions: the norm sqrt(sum g^2) and the factor max_norm / (norm + CLIP_EPS) above the limit; RMSProp with
momentum, plain and centred (Graves 2013: n = a n + (1-a) g^2, m = a m + (1-a) g, v = mu v - lr g /
sqrt(n - m^2 + eps)); Adam with its bias corrections spelled out (m_hat = m / (1 - b1^k), v_hat = v / (1 - b2^k),
p -= lr m_hat / (sqrt(v_hat) + eps)).

P = 13 parameters, blocks of 4 threads, the grid capped at 2 blocks (every thread strides), under Numba's CUDA
simulator. Gradients of norm 20, 0.2 and 20 (clipped, kept, clipped); eps 1e-3 and momentum 0.8 off their
defaults so every term shows. float64 to 1e-12."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import optim_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.kernels.optim import CLIP_EPS  # noqa: E402

P = 13
MAX_NORM = 1.0
LR, ALPHA, MOMENTUM, EPS = 0.01, 0.9, 0.8, 1e-3
BETA1, BETA2 = 0.9, 0.999
TOL = 1e-12


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(arrays_cuda, "GRID_MAX_BLOCKS", 2)


def gradients(seed=75, norms=(20.0, 0.2, 20.0)):
    """One gradient of P entries per norm, drawn from the seed and scaled to that norm."""
    rng = np.random.default_rng(seed)
    out = []
    for scale in norms:
        g = rng.standard_normal(P)
        out.append(g * scale / np.linalg.norm(g))
    return out


def clipped(g):
    """The gradient as clipping leaves it and its norm, here: the factor only above the limit."""
    n = np.sqrt(np.sum(g * g))
    return (g * (MAX_NORM / (n + CLIP_EPS)) if n > MAX_NORM else g), n


def device_clip(g):
    d, norm = arrays_cuda.to_device(g.copy()), arrays_cuda.to_device(np.zeros(1))
    optim_cuda.clip_grad_norm(d, MAX_NORM, norm)
    return d, float(norm.copy_to_host()[0])


def test_clipping_on_the_flat_buffer():
    for g in gradients():
        d, norm = device_clip(g)
        want, want_norm = clipped(g)
        assert norm == pytest.approx(want_norm, rel=TOL)
        np.testing.assert_allclose(d.copy_to_host(), want, rtol=TOL, atol=0)


@pytest.mark.parametrize("centred", [False, True])
def test_rmsprop_with_momentum_three_updates(centred):
    rng = np.random.default_rng(7)
    p = rng.standard_normal(P)
    n, m, v = np.zeros(P), np.zeros(P), np.zeros(P)
    dev = [arrays_cuda.to_device(a.copy()) for a in (p, n, m, v)]
    dp, dn, dm, dv = dev
    for g in gradients():
        dg, _ = device_clip(g)
        optim_cuda.rmsprop_momentum_update(dp, dn, dm if centred else None, dv, dg, LR, ALPHA, MOMENTUM, EPS)
        g, _ = clipped(g)
        n = ALPHA * n + (1 - ALPHA) * g ** 2
        m = ALPHA * m + (1 - ALPHA) * g if centred else m
        v = MOMENTUM * v - LR * g / np.sqrt(n - m ** 2 + EPS)
        p = p + v
        for name, d, want in (("p", dp, p), ("n", dn, n), ("m", dm, m), ("v", dv, v)):
            np.testing.assert_allclose(d.copy_to_host(), want, rtol=TOL, atol=TOL, err_msg=name)


def test_adam_three_updates_with_bias_corrections():
    rng = np.random.default_rng(8)
    p = rng.standard_normal(P)
    m, v = np.zeros(P), np.zeros(P)
    dp, dm, dv = (arrays_cuda.to_device(a.copy()) for a in (p, m, v))
    for k, g in enumerate(gradients(), start=1):
        dg, _ = device_clip(g)
        optim_cuda.adam_update(dp, dm, dv, dg, LR, BETA1, BETA2, EPS, k)
        g, _ = clipped(g)
        m = BETA1 * m + (1 - BETA1) * g
        v = BETA2 * v + (1 - BETA2) * g ** 2
        m_hat, v_hat = m / (1 - BETA1 ** k), v / (1 - BETA2 ** k)
        p = p - LR * m_hat / (np.sqrt(v_hat) + EPS)
        for name, d, want in (("p", dp, p), ("m", dm, m), ("v", dv, v)):
            np.testing.assert_allclose(d.copy_to_host(), want, rtol=TOL, atol=TOL, err_msg=name)
