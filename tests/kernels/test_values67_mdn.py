"""lnrnn/kernels/mdn.py in float64 against Graves 2013 (sec. 4, eqs. 18-26) written out here in NumPy: the
end-of-stroke probability by a sigmoid, pi by a softmax, sigma by exp of the clipped s_hat, rho by RHO tanh;
the loss of each valid row as -log of the mixture's density (every component's bivariate Gaussian written
from its correlation) minus the Bernoulli log-likelihood of the pen; the backward's every column against
central differences of that loss; mdn_split's biased parameters (Graves 2013, eqs. 61-62) and mdn_sample's
draws against the distribution they come from (component frequencies, each component's means, standard
deviations and correlation, the pen's frequency) over many rows."""
import numpy as np
import pytest

from lnrnn.kernels.codes import MDN_RHO, MDN_SMAX
from lnrnn.kernels.mdn import mdn_backward, mdn_forward, mdn_sample, mdn_split
from gradcheck_util import numeric_grad

M = 3
K = 6 * M + 1


def params(yh, bias=0.0):
    """Graves's eqs. 18-23 (with the sampling bias of eqs. 61-62) for one row yh (K,)."""
    e = 1.0 / (1.0 + np.exp(-yh[0]))
    ph = yh[1:1 + M] * (1.0 + bias)
    pi = np.exp(ph) / np.exp(ph).sum()
    mu1, mu2 = yh[1 + M:1 + 2 * M], yh[1 + 2 * M:1 + 3 * M]
    s1 = np.exp(np.clip(yh[1 + 3 * M:1 + 4 * M], -MDN_SMAX, MDN_SMAX) - bias)
    s2 = np.exp(np.clip(yh[1 + 4 * M:1 + 5 * M], -MDN_SMAX, MDN_SMAX) - bias)
    rho = MDN_RHO * np.tanh(yh[1 + 5 * M:1 + 6 * M])
    return e, pi, mu1, mu2, s1, s2, rho


def bivariate(x1, x2, mu1, mu2, s1, s2, rho):
    """N(x | mu, sigma, rho), eqs. 24-25."""
    z = ((x1 - mu1) / s1) ** 2 + ((x2 - mu2) / s2) ** 2 - 2 * rho * (x1 - mu1) * (x2 - mu2) / (s1 * s2)
    return np.exp(-z / (2 * (1 - rho ** 2))) / (2 * np.pi * s1 * s2 * np.sqrt(1 - rho ** 2))


def loss(yhat, target, valid):
    """eq. 26 per row, 0 where not valid."""
    out = np.zeros(yhat.shape[0])
    for n in range(yhat.shape[0]):
        if valid[n]:
            e, pi, mu1, mu2, s1, s2, rho = params(yhat[n])
            x1, x2, pen = target[n]
            dens = sum(pi[k] * bivariate(x1, x2, mu1[k], mu2[k], s1[k], s2[k], rho[k]) for k in range(M))
            out[n] = -np.log(dens) - (np.log(e) if pen == 1 else np.log(1.0 - e))
    return out


def problem(seed=0):
    rng = np.random.default_rng(seed)
    N = 6
    yhat = rng.normal(0.0, 0.7, (N, K))
    yhat[:, 1:1 + M] *= 3.0                                          # uneven mixture weights
    yhat[:, 1 + 5 * M:] = rng.uniform(-1.5, 1.5, (N, M))             # strong correlations of both signs
    yhat[2, 1 + 3 * M] = MDN_SMAX + 1.0                              # a clipped log-sigma (sigma e^10)
    target = np.column_stack([rng.normal(0.0, 1.0, N), rng.normal(0.0, 1.0, N),
                              np.array([1, 0, 0, 1, 0, 1], float)])
    valid = np.array([1, 1, 1, 0, 1, 1], float)
    return yhat, target, valid


def test_forward_against_graves_equations():
    yhat, target, valid = problem()
    nll, saved = mdn_forward(yhat, target, valid, M)
    np.testing.assert_allclose(nll, loss(yhat, target, valid), rtol=1e-11, atol=1e-12)
    assert nll[3] == 0.0
    pi = saved[4]
    for n in np.flatnonzero(valid):
        np.testing.assert_allclose(pi[n], params(yhat[n])[1], rtol=1e-12)
        np.testing.assert_allclose(saved[3][n], params(yhat[n])[0], rtol=1e-12)


def test_pen_term_by_hand():
    """One component at the target itself, unit sigmas, no correlation: the loss is log(2 pi) minus the
    Bernoulli's log-likelihood of the pen, log(1 + exp(-e_hat)) for a lift, log(1 + exp(e_hat)) otherwise."""
    yh = np.zeros((2, K))
    yh[:, 0] = 1.3
    yh[:, 1] = 50.0                                                  # pi_0 = 1
    target = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    nll, _ = mdn_forward(yh, target, np.ones(2), M)
    np.testing.assert_allclose(nll, np.log(2 * np.pi) + np.log1p(np.exp([-1.3, 1.3])), rtol=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_backward_against_central_differences(seed):
    yhat, target, valid = problem(seed)
    g = np.linspace(0.5, 1.5, yhat.shape[0])                        # dL/dnll per row
    _, saved = mdn_forward(yhat, target, valid, M)
    d = mdn_backward(g, saved, yhat, target, M)
    num = numeric_grad(lambda: g @ loss(yhat, target, valid), yhat, eps=1e-6, order=2)
    assert np.all(d[3] == 0.0)
    np.testing.assert_allclose(d, num, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("bias", [0.0, 0.8])
def test_split_against_the_biased_parameters(bias):
    yhat, _, _ = problem(2)
    got = mdn_split(yhat, M, bias)
    for n in range(yhat.shape[0]):
        for a, b in zip(got, params(yhat[n], bias)):
            np.testing.assert_allclose(a[n], b, rtol=1e-12)


@pytest.mark.parametrize("bias", [0.0, 0.5])
def test_sample_draws_from_the_mixture(bias):
    """Components 100 apart: each draw is told to its component by its position. Frequencies against pi,
    each component's mean, standard deviations and correlation against its mu, sigma and rho; the pen's
    frequency against e."""
    row = np.zeros(K)
    row[0] = -0.4
    row[1:1 + M] = [0.3, -0.2, 0.9]
    row[1 + M:1 + 2 * M] = [0.0, 100.0, 200.0]
    row[1 + 2 * M:1 + 3 * M] = [5.0, -3.0, 1.0]
    row[1 + 3 * M:1 + 4 * M] = [0.2, -0.3, 0.5]
    row[1 + 4 * M:1 + 5 * M] = [-0.1, 0.4, 0.0]
    row[1 + 5 * M:] = [0.7, -0.9, 0.0]
    N = 40000
    x = mdn_sample(np.tile(row, (N, 1)), M, np.random.default_rng(5), bias)
    e, pi, mu1, mu2, s1, s2, rho = params(row, bias)
    comp = np.rint(x[:, 0] / 100.0).astype(int)
    assert set(np.unique(comp)) <= set(range(M))
    np.testing.assert_allclose(np.bincount(comp, minlength=M) / N, pi, atol=0.015)
    for k in range(M):
        a, b = x[comp == k, 0], x[comp == k, 1]
        assert a.mean() == pytest.approx(mu1[k], abs=0.05 * s1[k] + 1e-9)
        assert b.mean() == pytest.approx(mu2[k], abs=0.05 * s2[k] + 1e-9)
        assert a.std() == pytest.approx(s1[k], rel=0.05)
        assert b.std() == pytest.approx(s2[k], rel=0.05)
        assert np.corrcoef(a, b)[0, 1] == pytest.approx(rho[k], abs=0.05)
    assert set(np.unique(x[:, 2])) == {0.0, 1.0}
    assert x[:, 2].mean() == pytest.approx(e, abs=0.015)
