"""The optimizer rules (lnrnn/kernels/optim.py, through lnrnn.training.optim) against NumPy updates written
here, 3 steps on a flat array with hyper-parameters that all differ (so a swapped or dropped one shows) and
an eps large enough to matter: Adam's bias corrections and eps on the corrected v, both RMSProp forms
(eps under the root, centred or not), SGD with and without momentum; clipping at the limit, its scale
with CLIP_EPS, and its norm summed in float64 for float32 gradients."""
import math

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.training.optim import SGD, Adam, GravesRMSProp, MomentumRMSProp, RMSProp, clip_grad_norm

P = 7


def grads(k):
    """A gradient per step k (1..3) of mixed signs and sizes (float64)."""
    return np.sin(1.7 * k + np.arange(P)) * (0.05 + 0.3 * np.arange(P))


def run(opt, steps=3):
    p = np.linspace(-1.0, 1.0, P)
    for k in range(1, steps + 1):
        opt.step(p, grads(k))
    return p


def test_adam_bias_corrections_and_eps_on_the_corrected_v():
    lr, b1, b2, eps = 0.1, 0.7, 0.8, 0.05
    p, m, v = np.linspace(-1.0, 1.0, P), np.zeros(P), np.zeros(P)
    for k in range(1, 4):
        g = grads(k)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr * (m / (1 - b1 ** k)) / (np.sqrt(v / (1 - b2 ** k)) + eps)
    np.testing.assert_allclose(run(Adam(lr, beta1=b1, beta2=b2, eps=eps)), p, rtol=1e-13, atol=1e-15)


def test_rmsprop_eps_outside_the_root():
    lr, alpha, eps = 0.05, 0.6, 0.03
    p, sq = np.linspace(-1.0, 1.0, P), np.zeros(P)
    for k in range(1, 4):
        g = grads(k)
        sq = alpha * sq + (1 - alpha) * g * g
        p = p - lr * g / (np.sqrt(sq) + eps)
    np.testing.assert_allclose(run(RMSProp(lr, alpha=alpha, eps=eps)), p, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("cls, centred", [(GravesRMSProp, True), (MomentumRMSProp, False)])
def test_rmsprop_with_momentum_centred_or_not(cls, centred):
    """Graves (2013) eqs. 38-41: eps under the root, the running mean's square taken off when centred."""
    lr, alpha, mu, eps = 0.02, 0.6, 0.45, 0.01
    p, sq, avg, v = np.linspace(-1.0, 1.0, P), np.zeros(P), np.zeros(P), np.zeros(P)
    for k in range(1, 4):
        g = grads(k)
        sq = alpha * sq + (1 - alpha) * g * g
        if centred:
            avg = alpha * avg + (1 - alpha) * g
        v = mu * v - lr * g / np.sqrt(sq - avg * avg + eps)
        p = p + v
    got = run(cls(lr, alpha=alpha, momentum=mu, eps=eps))
    np.testing.assert_allclose(got, p, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("mu", [0.0, 0.6])
def test_sgd_with_and_without_momentum(mu):
    lr = 0.3
    p, buf = np.linspace(-1.0, 1.0, P), np.zeros(P)
    for k in range(1, 4):
        buf = mu * buf + grads(k)
        p = p - lr * buf
    opt = SGD(lr, momentum=mu)
    np.testing.assert_allclose(run(opt), p, rtol=1e-13, atol=1e-15)
    assert (opt.slots["momentum"] == {}) == (mu == 0)                # no buffer without momentum


def test_clipping_at_the_limit_and_its_scale():
    g = np.array([3.0, 0.0, -4.0])
    assert clip_grad_norm(g, 5.0) == 5.0 and g.tolist() == [3.0, 0.0, -4.0]       # at the limit: untouched
    assert clip_grad_norm(g, 2.0) == 5.0
    scale = 2.0 / (5.0 + CLIP_EPS)
    np.testing.assert_array_equal(g, np.array([3.0, 0.0, -4.0]) * scale)
    assert math.sqrt(float(g @ g)) < 2.0


def test_clipping_norm_of_float32_gradients_is_summed_in_float64():
    """Each square (about 1e39) overflows float32; the float64 norm is 5e19 and the clip brings it to 1."""
    g = np.array([3e19, 4e19], np.float32)
    assert clip_grad_norm(g, 1.0) == pytest.approx(5e19, rel=1e-6)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, [0.6, 0.8], rtol=1e-6)


def test_the_flat_kernel_clips_as_the_optimizers_do():
    """lnrnn.kernels.optim.clip_grad_norm (the device path's CPU twin): norm (1,) float64 before clipping,
    g scaled in place, float32 squares summed in float64, untouched at the limit."""
    from lnrnn.kernels import optim as rules
    norm = np.zeros(1)
    g = np.array([3e19, 4e19], np.float32)
    rules.clip_grad_norm(g, 1.0, norm)
    assert norm[0] == pytest.approx(5e19, rel=1e-6)
    np.testing.assert_allclose(g, [0.6, 0.8], rtol=1e-6)
    g = np.array([3.0, -4.0])
    rules.clip_grad_norm(g, 5.0, norm)
    assert norm[0] == 5.0 and g.tolist() == [3.0, -4.0]
    rules.clip_grad_norm(g, 1.0, norm)
    np.testing.assert_array_equal(g, np.array([3.0, -4.0]) * (1.0 / (5.0 + CLIP_EPS)))
