"""The mixture density kernel (lnrnn/kernels/mdn.py), twelfth pass, at M = 1, 2 and 3: the loss against the
bivariate Gaussian written out here one component at a time with math (Graves 2013 eq. 23-26: pi the softmax of
pi_hat, sigma = exp of s_hat clipped to [-10, 10], rho = 0.9999 tanh(rho_hat), e = sigmoid(e_hat)) and against
lnrnn.reference.mdn_nll; log-sigmas at -10.5, -10, 10 and 10.5 (at and just past both bounds), pi_hats whose
largest is far from 0, different s1 and s2 columns; every gradient against central differences in float64 of
the reference loss (where a log-sigma is clipped, mu's gradient reads the clipped sigma); mdn_split's e and rho
against their formulas."""
import math

import numpy as np
import pytest

from test_values150_reference_heads import check_mdn_nll

from lnrnn import reference as ref
from lnrnn.kernels.mdn import mdn_backward, mdn_forward, mdn_split

SMAX, RHO = 10.0, 1.0 - 1e-4


def rows(M, seed):
    """Rows whose log-sigmas sit at and past the clip bounds, targets near mu in sigma's own units."""
    rng = np.random.default_rng(seed)
    N = 5
    y = np.zeros((N, 6 * M + 1))
    y[:, 0] = rng.uniform(-1.5, 1.5, N)
    y[:, 1:1 + M] = 3.0 + rng.uniform(-1.0, 1.0, (N, M))              # the largest pi_hat far from 0
    y[:, 1 + M:1 + 3 * M] = rng.standard_normal((N, 2 * M))
    bounds = np.array([-10.5, -10.0, 10.0, 10.5, 0.3])
    y[:, 1 + 3 * M:1 + 4 * M] = bounds[:, None]                     # s1 of every component, then k > 0 redrawn
    y[:, 1 + 4 * M:1 + 5 * M] = rng.uniform(-1.0, 1.0, (N, M))       # s2 unlike s1
    y[:, 1 + 5 * M:1 + 6 * M] = rng.uniform(-1.5, 1.5, (N, M))
    if M > 1:
        y[:, 1 + 3 * M + 1:1 + 4 * M] = rng.uniform(-0.8, 0.8, (N, M - 1))
    s1 = np.exp(np.clip(y[:, 1 + 3 * M], -SMAX, SMAX))
    tg = np.zeros((N, 3))
    tg[:, 0] = y[:, 1 + M] + s1 * rng.uniform(-1.2, 1.2, N)
    tg[:, 1] = y[:, 1 + 2 * M] + np.exp(y[:, 1 + 4 * M]) * rng.uniform(-1.2, 1.2, N)
    tg[:, 2] = [1.0, 0.0, 1.0, 0.0, 1.0]
    return y, tg


@pytest.mark.parametrize("M", [1, 2, 3])
def test_loss_against_the_gaussian_written_out(M):
    y, tg = rows(M, 26110 + M)
    valid = np.array([1, 1, 0, 1, 1], np.int64)
    nll, _ = mdn_forward(y, tg, valid, M)
    check_mdn_nll(nll, y, tg, valid, M, smax=SMAX, rho_max=RHO)   # Graves 2013's eqs. 23-26 written out
    np.testing.assert_allclose(nll, ref.mdn_nll(y, tg, valid, M), rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("M", [1, 2, 3])
def test_gradients_against_central_differences(M):
    y, tg = rows(M, 26120 + M)
    valid = np.array([1, 1, 1, 0, 1], np.int64)
    dnll = np.array([1.0, 0.7, 1.3, 2.0, 0.9])
    _, saved = mdn_forward(y, tg, valid, M)
    got = mdn_backward(dnll, saved, y, tg, M)
    want = np.zeros_like(y)
    for n in range(len(y)):
        for j in range(y.shape[1]):
            h = 1e-6
            if 1 + M <= j < 1 + 3 * M:                 # mu1_k, mu2_k: a step in units of its sigma (column + 2M)
                h = 1e-6 * math.exp(min(max(y[n, j + 2 * M], -SMAX), SMAX))
            if 1 + 3 * M <= j < 1 + 5 * M and abs(abs(y[n, j]) - SMAX) < 1e-9:
                want[n, j] = np.nan                    # a log-sigma on the clip's kink: not differentiable there
                continue
            yp, ym = y.copy(), y.copy()
            yp[n, j] += h
            ym[n, j] -= h
            f = (ref.mdn_nll(yp[n:n + 1], tg[n:n + 1], valid[n:n + 1], M)[0]
                 - ref.mdn_nll(ym[n:n + 1], tg[n:n + 1], valid[n:n + 1], M)[0]) / (2 * h)
            want[n, j] = dnll[n] * f
    keep = ~np.isnan(want)
    np.testing.assert_allclose(got[keep], want[keep], rtol=1e-6, atol=1e-7)
    assert not got[3].any()                                              # the row not scored


def test_split_e_and_rho_against_their_formulas():
    M = 2
    y = np.array([[1.3, 0.2, -0.4, 0.1, 0.5, -0.3, 0.7, 12.0, -11.0, 0.4, -0.6, 3.0, -0.25],
                  [-2.1, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, -10.0, 10.0, 0.0, 0.0, -9.0, 0.0]])
    e, pi, mu1, mu2, s1, s2, rho = mdn_split(y, M)
    np.testing.assert_allclose(e, [1.0 / (1.0 + math.exp(-1.3)), 1.0 / (1.0 + math.exp(2.1))], rtol=1e-14)
    np.testing.assert_allclose(rho, [[0.9999 * math.tanh(3.0), 0.9999 * math.tanh(-0.25)],
                                     [0.9999 * math.tanh(-9.0), 0.0]], rtol=1e-14)
    np.testing.assert_allclose(s1, [[math.exp(10.0), math.exp(-10.0)], [math.exp(-10.0), math.exp(10.0)]],
                               rtol=1e-14)
    np.testing.assert_allclose(pi[1], [0.5, 0.5], rtol=1e-14)
