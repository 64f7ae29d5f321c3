"""The mixture density kernel's CUDA twin (lnrnn/kernels/mdn_cuda.py) where the log-sigmas leave
[-SMAX, SMAX] on either side, each of the two on its own: the negative log-likelihood equals the NumPy spec
(reference.mdn_nll, which clips them) and the CPU twin's, and the gradient equals the CPU twin's (zero for a
clipped log-sigma) and, where no log-sigma is clipped, central differences of the spec. Float64, under the
simulator, a few rows."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.gradcheck import numeric_grad, rel_error  # noqa: E402
from lnrnn.kernels import mdn, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from lnrnn.reference import mdn_nll  # noqa: E402

M = 2
SMAX = mdn.SMAX


def problem(seed):
    """Rows whose log-sigmas (column blocks s1 = 1+3M.., s2 = 1+4M..) are pushed past -SMAX, past +SMAX, or not
    at all, one block at a time; targets near the means so that every density stays finite; a padded row."""
    rng = np.random.default_rng(seed)
    N = 7
    y = 0.5 * rng.standard_normal((N, 6 * M + 1))
    t = np.zeros((N, 3))
    t[:, 2] = rng.integers(0, 2, N)
    s1, s2 = slice(1 + 3 * M, 1 + 4 * M), slice(1 + 4 * M, 1 + 5 * M)
    y[0, s1] = -SMAX - 3.0
    y[1, s2] = -SMAX - 3.0
    y[2, s1] = SMAX + 2.0
    y[3, s2] = SMAX + 2.0
    y[4, s1], y[4, s2] = -SMAX - 1.0, SMAX + 1.0
    # targets within a few (clipped) sigmas of component 0's mean
    mu1, mu2 = y[:, 1 + M], y[:, 1 + 2 * M]
    sig1 = np.exp(np.clip(y[:, 1 + 3 * M], -SMAX, SMAX))
    sig2 = np.exp(np.clip(y[:, 1 + 4 * M], -SMAX, SMAX))
    t[:, 0] = mu1 + 0.7 * sig1
    t[:, 1] = mu2 - 0.4 * sig2
    v = np.ones(N)
    v[6] = 0.0
    return y, t, v


def test_clipped_log_sigmas_on_either_side_equal_the_spec_and_the_cpu_twin():
    y, t, v = problem(2241)
    want = mdn_nll(y, t, v, M, smax=SMAX)
    assert np.all(np.isfinite(want))
    nll_c, saved_c = mdn.mdn_forward(y, t, v, M)
    nll_g, saved_g = mdn_cuda.mdn_forward(y, t, v, M)
    np.testing.assert_allclose(nll_c, want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(to_host(nll_g), want, rtol=1e-10, atol=1e-10)
    g = np.random.default_rng(1).standard_normal(len(v))
    d_c = mdn.mdn_backward(g, saved_c, y, t, M)
    d_g = to_host(mdn_cuda.mdn_backward(g, saved_g, y, t, M))
    np.testing.assert_allclose(d_g, d_c, rtol=1e-10, atol=1e-10)
    s1, s2 = slice(1 + 3 * M, 1 + 4 * M), slice(1 + 4 * M, 1 + 5 * M)
    for r, block in ((0, s1), (1, s2), (2, s1), (3, s2), (4, s1), (4, s2)):
        assert np.all(d_g[r, block] == 0.0), (r, block)  # the clip's derivative outside [-SMAX, SMAX]
    free = [5]  # no log-sigma clipped: the spec's central differences
    yf, tf, vf = y[free].copy(), t[free], v[free]
    num = numeric_grad(lambda: float(np.dot(g[free], mdn_nll(yf, tf, vf, M, smax=SMAX))), yf)
    assert rel_error(d_g[free], num) < 1e-6
