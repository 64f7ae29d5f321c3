"""The mixture density kernel's CUDA twin (lnrnn/kernels/mdn_cuda.py) against the NumPy spec
(reference.mdn_nll: the density evaluated directly, log-sigmas clipped to [-SMAX, SMAX]), its central
differences, and the CPU twin (lnrnn/kernels/mdn.py): rows with a negative and a positive end-of-stroke logit,
a padded row (nll and gradient 0), a far point (20 sigmas from every mean: log-density near -200), and a row
whose log-sigma 1 sits exactly on the clip's edges (+SMAX for one component, -SMAX for the other: the
derivative there is the CPU twin's 0). M = 2, N = 6 rows, blocks of 4 threads (two blocks), float64."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.gradcheck import numeric_grad, rel_error  # noqa: E402
from lnrnn.kernels import mdn, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from lnrnn.reference import mdn_nll  # noqa: E402

M, N = 2, 6
SMAX = mdn.SMAX
S1, S2 = slice(1 + 3 * M, 1 + 4 * M), slice(1 + 4 * M, 1 + 5 * M)
FREE = [0, 1, 3, 5]  # rows with every log-sigma strictly inside the clip


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def problem():
    rng = np.random.default_rng(159)
    y = 0.5 * rng.standard_normal((N, 6 * M + 1))
    t = np.zeros((N, 3))
    t[:, 2] = [1, 0, 1, 0, 1, 0]
    y[0, 0], y[1, 0], y[5, 0] = -3.0, 2.0, -0.5
    mu1, mu2 = y[:, 1 + M], y[:, 1 + 2 * M]
    sig1, sig2 = np.exp(np.clip(y[:, 1 + 3 * M], -SMAX, SMAX)), np.exp(np.clip(y[:, 1 + 4 * M], -SMAX, SMAX))
    t[:, 0] = mu1 + 0.6 * sig1
    t[:, 1] = mu2 - 0.3 * sig2
    s_big = np.exp(np.clip(y[3, S1.start:S1.stop], -SMAX, SMAX)).max()
    t[3, 0] = max(y[3, 1 + M:1 + 2 * M]) + 20.0 * s_big * 1.5   # far from every component's mean
    y[4, S1.start], y[4, S1.start + 1] = SMAX, -SMAX              # exactly on the clip's edges
    t[4, 0] = y[4, 1 + M] + 0.5 * np.exp(SMAX)
    v = np.ones(N)
    v[2] = 0.0
    return y, t, v


def test_nll_equals_the_spec_and_the_cpu_twin():
    y, t, v = problem()
    want = mdn_nll(y, t, v, M, smax=SMAX)
    assert np.all(np.isfinite(want)) and want[2] == 0.0 and want[3] > 100.0
    nll_g, _ = mdn_cuda.mdn_forward(y, t, v, M)
    nll_c, _ = mdn.mdn_forward(y, t, v, M)
    np.testing.assert_allclose(to_host(nll_g), want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(to_host(nll_g), nll_c, rtol=1e-12, atol=1e-12)


def test_gradient_equals_differences_and_the_cpu_twin():
    y, t, v = problem()
    g = np.array([1.3, -0.6, 2.0, 0.7, 1.1, -0.9])
    _, saved_g = mdn_cuda.mdn_forward(y, t, v, M)
    _, saved_c = mdn.mdn_forward(y, t, v, M)
    d_g = to_host(mdn_cuda.mdn_backward(g, saved_g, y, t, M))
    d_c = mdn.mdn_backward(g, saved_c, y, t, M)
    np.testing.assert_allclose(d_g, d_c, rtol=1e-10, atol=1e-12)
    assert np.all(d_g[2] == 0.0)                  # the padded row
    assert np.all(d_g[4, S1] == 0.0)              # log-sigma 1 on the clip's edges: the CPU twin's 0
    yf, tf, vf = y[FREE].copy(), t[FREE], v[FREE]
    num = numeric_grad(lambda: float(np.dot(g[FREE], mdn_nll(yf, tf, vf, M, smax=SMAX))), yf)
    assert rel_error(d_g[FREE], num) < 1e-6
