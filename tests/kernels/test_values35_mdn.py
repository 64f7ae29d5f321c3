"""The mixture density kernel (lnrnn/kernels/mdn.py) at the edges of its transforms, against the loss
written out here in float64 with NumPy's own stable pieces (np.logaddexp for the log-softmax over
components, the log-sum-exp over them and both softplus terms; np.clip for the clipped log-sigmas), and its
gradient against central differences of that loss: rows where one mixture logit lies 1000 above the
others (each component in turn, the first and the last included), end-of-stroke logits of +-800 with
either pen, and every combination of the two log-sigmas below, inside and above the clip."""
import numpy as np
import pytest

from lnrnn.gradcheck import numeric_grad, rel_error
from lnrnn.kernels.mdn import RHO, SMAX, mdn_backward, mdn_forward


def nll_by_hand(y, t, M):
    """y (N,6M+1), t (N,3) -> (N,) the row losses, float64, stable at any output."""
    eh, ph = y[:, 0], y[:, 1:1 + M]
    mu1, mu2 = y[:, 1 + M:1 + 2 * M], y[:, 1 + 2 * M:1 + 3 * M]
    ls1 = np.clip(y[:, 1 + 3 * M:1 + 4 * M], -SMAX, SMAX)
    ls2 = np.clip(y[:, 1 + 4 * M:1 + 5 * M], -SMAX, SMAX)
    rho = RHO * np.tanh(y[:, 1 + 5 * M:1 + 6 * M])
    logpi = ph - np.logaddexp.reduce(ph, axis=1)[:, None]
    z1 = (t[:, :1] - mu1) / np.exp(ls1)
    z2 = (t[:, 1:2] - mu2) / np.exp(ls2)
    omr = 1.0 - rho ** 2
    logn = -np.log(2 * np.pi) - ls1 - ls2 - 0.5 * np.log(omr) - (z1 ** 2 + z2 ** 2 - 2 * rho * z1 * z2) / (2 * omr)
    mix = np.logaddexp.reduce(logpi + logn, axis=1)
    pen = t[:, 2]
    # -log e = softplus(-e_hat), -log(1 - e) = softplus(e_hat)
    return -mix + pen * np.logaddexp(0.0, -eh) + (1 - pen) * np.logaddexp(0.0, eh)


def base(rng, N, M):
    y = 0.5 * rng.standard_normal((N, 6 * M + 1))
    t = 0.5 * rng.standard_normal((N, 3))
    t[:, 2] = rng.integers(0, 2, N)
    return y, t


def check(y, t, M, cols=None):
    """Loss by hand to 1e-12; gradient (columns cols, default all) within 1e-7 of central differences (rel_error's
    measure: the array's scale floors each element's)."""
    N, K = y.shape
    v = np.ones(N)
    nll, saved = mdn_forward(y, t, v, M)
    want = nll_by_hand(y, t, M)
    assert np.all(np.isfinite(want))
    np.testing.assert_allclose(nll, want, rtol=1e-12, atol=1e-12)
    g = np.random.default_rng(9).uniform(0.5, 1.5, N)
    d = mdn_backward(g, saved, y, t, M)
    idx = np.arange(N * K).reshape(N, K)[:, cols if cols is not None else slice(None)].ravel()
    num = numeric_grad(lambda: float(np.dot(g, nll_by_hand(y, t, M))), y, idx=idx)
    assert rel_error(d.ravel()[idx], num) < 1e-7


@pytest.mark.parametrize("M", [1, 2, 3, 5])
def test_one_mixture_logit_far_above_the_others(M):
    """Row j: component j's pi_hat at +1000 (the others near 0), then the same with the others at -1000 and
    component j at 0: the log-softmax must shift by the largest logit, wherever it sits."""
    rng = np.random.default_rng(M)
    y, t = base(rng, 2 * M, M)
    for j in range(M):
        y[j, 1 + j] = 1000.0
        y[M + j, 1:1 + M] -= 1000.0
        y[M + j, 1 + j] = 0.0
    check(y, t, M)


@pytest.mark.parametrize("pen", [0.0, 1.0])
def test_end_of_stroke_logit_at_plus_and_minus_800(pen):
    M = 2
    y, t = base(np.random.default_rng(int(pen)), 4, M)
    y[:, 0] = [800.0, -800.0, 40.0, -40.0]
    t[:, 2] = pen
    check(y, t, M)
    nll, saved = mdn_forward(y, t, np.ones(4), M)
    d = mdn_backward(np.ones(4), saved, y, t, M)
    e = np.exp(-np.logaddexp(0.0, -y[:, 0]))                      # sigmoid, without overflow
    np.testing.assert_allclose(d[:, 0], e - pen, rtol=1e-12, atol=1e-300)


def test_each_log_sigma_clipped_on_its_own():
    """Nine rows: log sigma1 and log sigma2 of component 0 each below, inside or above [-SMAX, SMAX] (component 1
    inside): the clipped one's derivative is 0, the other's its own."""
    M = 2
    rng = np.random.default_rng(5)
    y, t = base(rng, 9, M)
    levels = (-SMAX - 2.0, 0.3, SMAX + 2.0)
    for r, (a, b) in enumerate((a, b) for a in levels for b in levels):
        y[r, 1 + 3 * M] = a
        y[r, 1 + 4 * M] = b
        y[r, 1 + M] = t[r, 0] + 0.2 * np.exp(np.clip(a, -SMAX, SMAX))   # the point within a few sigmas
        y[r, 1 + 2 * M] = t[r, 1] - 0.3 * np.exp(np.clip(b, -SMAX, SMAX))
        y[r, 1:1 + M] = [3.0, -3.0]                                      # component 0 carries the row
    check(y, t, M, cols=[1 + 3 * M, 1 + 4 * M, 1 + 3 * M + 1, 1 + 4 * M + 1])   # the log-sigmas (a mean's
    nll, saved = mdn_forward(y, t, np.ones(9), M)                             # difference step exceeds sigma e^-10)
    d = mdn_backward(np.ones(9), saved, y, t, M)
    inside = np.abs(y[:, 1 + 3 * M]) < SMAX, np.abs(y[:, 1 + 4 * M]) < SMAX
    for k, col in enumerate((1 + 3 * M, 1 + 4 * M)):
        assert np.all(d[~inside[k], col] == 0)
        assert np.all(d[inside[k], col] != 0)
