"""lnrnn/kernels/mdn.py in float64 against Graves 2013 (eqs. 18-26) written out here in NumPy, in log space: each
component's -log N = log 2pi + log s1 + log s2 + log(1 - rho^2) / 2 + Z / (2 (1 - rho^2)), the mixture by a
log-sum-exp, the pen's Bernoulli term, with rho = RHO tanh(rho_hat) and sigma = exp(clip(s_hat, -SMAX, SMAX)); the
backward against central differences of that loss. Rows at the edges: correlations near their bound (rho_hat 4
and 30, where tanh is 1 in float64 and only RHO keeps 1 - rho^2 above 0), log sigmas below the floor -SMAX (their
gradient is 0) and above the ceiling, a masked step (loss and gradient exactly 0), the end-of-stroke bit 0 and 1."""
import numpy as np
import pytest

from lnrnn.kernels.codes import MDN_RHO, MDN_SMAX
from lnrnn.kernels.mdn import mdn_backward, mdn_forward

M = 2
K = 6 * M + 1


def row_loss(yh, tg):
    """eq. 26 for one row yh (K,), tg (3,) (dx, dy, pen)."""
    lpi = yh[1:1 + M] - np.log(np.exp(yh[1:1 + M]).sum())
    mu1, mu2 = yh[1 + M:1 + 2 * M], yh[1 + 2 * M:1 + 3 * M]
    ls1 = np.clip(yh[1 + 3 * M:1 + 4 * M], -MDN_SMAX, MDN_SMAX)
    ls2 = np.clip(yh[1 + 4 * M:1 + 5 * M], -MDN_SMAX, MDN_SMAX)
    rho = MDN_RHO * np.tanh(yh[1 + 5 * M:1 + 6 * M])
    z1, z2 = (tg[0] - mu1) / np.exp(ls1), (tg[1] - mu2) / np.exp(ls2)
    Z = z1 ** 2 + z2 ** 2 - 2 * rho * z1 * z2
    omr = 1.0 - rho ** 2
    logn = -np.log(2 * np.pi) - ls1 - ls2 - 0.5 * np.log(omr) - Z / (2 * omr)
    comp = lpi + logn
    top = comp.max()
    lmix = top + np.log(np.exp(comp - top).sum())
    e = 1.0 / (1.0 + np.exp(-yh[0]))
    return -lmix - (np.log(e) if tg[2] == 1 else np.log(1.0 - e))


def problem():
    rng = np.random.default_rng(94)
    N = 6
    yhat = rng.normal(0.0, 0.5, (N, K))
    target = np.column_stack([rng.normal(0.0, 0.8, N), rng.normal(0.0, 0.8, N), [1, 0, 1, 0, 0, 1]]).astype(float)
    yhat[0, 1 + 5 * M] = 4.0                  # rho = RHO tanh 4, 1 - rho^2 about 1.5e-3
    yhat[1, 1 + 5 * M + 1] = -3.5
    yhat[2, 1 + 3 * M] = -MDN_SMAX - 1.5      # log sigma1 below the floor: sigma1 = e^-10
    yhat[2, 1 + M] = target[2, 0] + 2e-5      # ... near its mean, so that the component counts
    yhat[3, 1 + 4 * M + 1] = MDN_SMAX + 2.0   # log sigma2 above the ceiling
    yhat[5, 1 + 3 * M + 1] = -MDN_SMAX - 0.5  # below the floor, on the component far from the point
    valid = np.array([1, 1, 1, 1, 0, 1], float)  # row 4 masked
    return yhat, target, valid


def test_loss_against_graves():
    yhat, target, valid = problem()
    nll, _ = mdn_forward(yhat, target, valid, M)
    want = [row_loss(yhat[n], target[n]) if valid[n] else 0.0 for n in range(yhat.shape[0])]
    np.testing.assert_allclose(nll, want, rtol=1e-10, atol=1e-10)
    assert nll[4] == 0.0


def test_gradient_against_central_differences():
    yhat, target, valid = problem()
    nll, saved = mdn_forward(yhat, target, valid, M)
    g = np.array([1.0, -0.5, 2.0, 0.7, 3.0, 1.3])
    d = mdn_backward(g, saved, yhat, target, M)
    assert np.all(d[4] == 0.0)
    h = 1e-6
    for n in np.nonzero(valid)[0]:
        for j in range(K):
            yp, ym = yhat[n].copy(), yhat[n].copy()
            yp[j] += h
            ym[j] -= h
            num = g[n] * (row_loss(yp, target[n]) - row_loss(ym, target[n])) / (2 * h)
            assert abs(d[n, j] - num) <= 1e-5 * max(1.0, abs(num)), (n, j, d[n, j], num)
    # the clipped log sigmas: exactly 0 (beyond the floor and the ceiling the loss does not move)
    assert d[2, 1 + 3 * M] == 0.0 and d[5, 1 + 3 * M + 1] == 0.0 and d[3, 1 + 4 * M + 1] == 0.0


def test_saturated_correlation_stays_inside_its_bound():
    """rho_hat = +-30: tanh is +-1 in float64, rho = +-RHO and 1 - rho^2 about 2e-4; the loss is finite and
    Graves's, and the gradient finite."""
    yhat, target, valid = problem()
    yhat = yhat[:2].copy()
    target, valid = target[:2], valid[:2]
    yhat[0, 1 + 5 * M + 1] = 30.0
    yhat[1, 1 + 5 * M] = -30.0
    nll, saved = mdn_forward(yhat, target, valid, M)
    assert np.all(np.isfinite(nll))
    np.testing.assert_allclose(nll, [row_loss(yhat[n], target[n]) for n in range(2)], rtol=1e-9)
    d = mdn_backward(np.ones(2), saved, yhat, target, M)
    assert np.all(np.isfinite(d))
