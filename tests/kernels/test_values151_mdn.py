"""lnrnn/kernels/mdn.py in float64 against Graves 2013 (eqs. 18-26) written out here in NumPy: mixture weights by
a softmax, standard deviations by exp (clipped to [-SMAX, SMAX]), correlations RHO tanh, the bivariate density
of each component and the end-of-stroke Bernoulli e = sigmoid(e_hat). Checked here: each row's loss (pen up and
down, s1 and s2 apart, rho away from 0), the saved e and responsibilities (the posterior of each component, which
sums to 1), a point fifty deviations from every component (its loss finite: the log-sum-exp shifts by the
largest term, whatever its sign), masked rows (loss and gradient exactly 0), the gradient against central
differences, and mdn_split / mdn_sample against the definitions with the sampling bias (pi from softmax((1 + b)
pi_hat), sigma = exp(s_hat - b))."""
import numpy as np

from lnrnn.kernels.codes import MDN_RHO, MDN_SMAX
from lnrnn.kernels.mdn import mdn_backward, mdn_forward, mdn_sample, mdn_split
from gradcheck_util import numeric_grad

M = 3
K = 6 * M + 1


def parts(yh):
    lpi = yh[1:1 + M] - np.log(np.exp(yh[1:1 + M]).sum())
    mu1, mu2 = yh[1 + M:1 + 2 * M], yh[1 + 2 * M:1 + 3 * M]
    ls1 = np.clip(yh[1 + 3 * M:1 + 4 * M], -MDN_SMAX, MDN_SMAX)
    ls2 = np.clip(yh[1 + 4 * M:1 + 5 * M], -MDN_SMAX, MDN_SMAX)
    rho = MDN_RHO * np.tanh(yh[1 + 5 * M:1 + 6 * M])
    return lpi, mu1, mu2, ls1, ls2, rho


def log_components(yh, tg):
    """log pi_k + log N(dx, dy | mu_k, sigma_k, rho_k) for each k (eqs. 24-25)."""
    lpi, mu1, mu2, ls1, ls2, rho = parts(yh)
    z1, z2 = (tg[0] - mu1) / np.exp(ls1), (tg[1] - mu2) / np.exp(ls2)
    Z = z1 ** 2 + z2 ** 2 - 2 * rho * z1 * z2
    omr = 1.0 - rho ** 2
    return lpi - np.log(2 * np.pi) - ls1 - ls2 - 0.5 * np.log(omr) - Z / (2 * omr)


def row_loss(yh, tg):
    comp = log_components(yh, tg)
    top = comp.max()
    lmix = top + np.log(np.exp(comp - top).sum())
    e = 1.0 / (1.0 + np.exp(-yh[0]))
    return -lmix - (np.log(e) if tg[2] == 1 else np.log(1.0 - e))


def problem(seed=151):
    rng = np.random.default_rng(seed)
    N = 7
    yhat = rng.normal(0.0, 0.6, (N, K))
    yhat[:, 1 + 3 * M:1 + 4 * M] += 0.5       # s1 about e^0.5, s2 about e^-0.5: never the same
    yhat[:, 1 + 4 * M:1 + 5 * M] -= 0.5
    yhat[:, 1 + 5 * M:] += 0.4                 # correlations away from 0
    yhat[:, 0] = rng.normal(0.0, 1.5, N)       # e_hat well away from 0
    target = np.column_stack([rng.normal(0.0, 1.0, N), rng.normal(0.0, 1.0, N),
                              [1, 0, 1, 1, 0, 0, 1]]).astype(float)
    valid = np.array([1, 1, 0, 1, 1, 0, 1], float)
    return yhat, target, valid


def test_loss_e_and_responsibilities_against_the_definitions():
    yhat, target, valid = problem()
    nll, (gamma, z1, z2, e, pi, _) = mdn_forward(yhat, target, valid, M)
    for n in range(len(valid)):
        if valid[n] == 0:
            assert nll[n] == 0.0
            continue
        np.testing.assert_allclose(nll[n], row_loss(yhat[n], target[n]), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(e[n], 1.0 / (1.0 + np.exp(-yhat[n, 0])), rtol=1e-12)
        comp = log_components(yhat[n], target[n])
        post = np.exp(comp - comp.max())
        np.testing.assert_allclose(gamma[n], post / post.sum(), rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(gamma[n].sum(), 1.0, rtol=1e-12)
        np.testing.assert_allclose(pi[n], np.exp(parts(yhat[n])[0]), rtol=1e-12)


def test_a_point_far_from_every_component_has_a_finite_loss():
    yhat = np.zeros((2, K))
    yhat[:, 1 + M:1 + 3 * M] = 0.1 * np.arange(2 * M)     # means near 0, sigmas 1
    target = np.array([[50.0, -50.0, 0.0], [-60.0, 45.0, 1.0]])  # every log N below -2000: exp underflows
    nll, (gamma, *_rest) = mdn_forward(yhat, target, np.ones(2), M)
    assert np.all(np.isfinite(nll))
    for n in range(2):
        assert row_loss(yhat[n], target[n]) > 2000.0
        np.testing.assert_allclose(nll[n], row_loss(yhat[n], target[n]), rtol=1e-12)
        np.testing.assert_allclose(gamma[n].sum(), 1.0, rtol=1e-12)


def test_gradient_against_central_differences():
    yhat, target, valid = problem(1510)
    dnll = np.array([0.7, 1.3, 2.0, 1.0, -0.5, 1.0, 0.25])
    _, saved = mdn_forward(yhat, target, valid, M)
    d = mdn_backward(dnll, saved, yhat, target, M)
    for n in range(len(valid)):
        if valid[n] == 0:
            assert np.all(d[n] == 0.0)
            continue
        y = yhat[n].copy()
        num = dnll[n] * numeric_grad(lambda: row_loss(y, target[n]), y, eps=1e-6, order=2)
        np.testing.assert_allclose(d[n], num, rtol=1e-5, atol=1e-7)


def test_split_against_the_definitions_with_a_bias():
    rng = np.random.default_rng(15)
    yhat = rng.normal(0.0, 1.0, (4, K))
    for bias in (0.0, 0.8):
        e, pi, mu1, mu2, s1, s2, rho = mdn_split(yhat, M, bias)
        np.testing.assert_allclose(e, 1.0 / (1.0 + np.exp(-yhat[:, 0])), rtol=1e-12)
        p = np.exp((1.0 + bias) * yhat[:, 1:1 + M])
        np.testing.assert_allclose(pi, p / p.sum(axis=1, keepdims=True), rtol=1e-12)
        for k in range(M):
            np.testing.assert_allclose(mu1[:, k], yhat[:, 1 + M + k], rtol=1e-15)
            np.testing.assert_allclose(mu2[:, k], yhat[:, 1 + 2 * M + k], rtol=1e-15)
            np.testing.assert_allclose(s1[:, k], np.exp(yhat[:, 1 + 3 * M + k] - bias), rtol=1e-12)
            np.testing.assert_allclose(s2[:, k], np.exp(yhat[:, 1 + 4 * M + k] - bias), rtol=1e-12)
            np.testing.assert_allclose(rho[:, k], MDN_RHO * np.tanh(yhat[:, 1 + 5 * M + k]), rtol=1e-12)


def test_sample_lands_on_the_chosen_components_mean():
    """One component holds all the weight (pi_hat 40 above the others) and every sigma is e^-9: each sample is
    that component's (mu1, mu2) within a few 1e-4; the pen follows e = sigmoid(+-30), 1 or 0."""
    N = 6
    yhat = np.zeros((N, K))
    yhat[:, 1 + 3 * M:1 + 5 * M] = -9.0
    yhat[:, 1 + M:1 + 2 * M] = [1.0, 2.0, 3.0]
    yhat[:, 1 + 2 * M:1 + 3 * M] = [-4.0, -5.0, -6.0]
    pick = np.array([0, 1, 2, 2, 1, 0])
    yhat[np.arange(N), 1 + pick] = 40.0
    yhat[:, 0] = np.where(np.arange(N) % 2 == 0, 30.0, -30.0)
    out = mdn_sample(yhat, M, np.random.default_rng(3))
    np.testing.assert_allclose(out[:, 0], 1.0 + pick, atol=1e-2)
    np.testing.assert_allclose(out[:, 1], -4.0 - pick, atol=1e-2)
    np.testing.assert_array_equal(out[:, 2], (np.arange(N) % 2 == 0).astype(float))
