"""The MDN kernel (lnrnn/kernels/mdn.py, its constants in lnrnn/kernels/codes.py), thirteenth pass, float64:
the loss of each row against the mixture density written out here (Graves 2013, eqs. 23-26: a softmax over
pi_hat, sigma = exp(sigma_hat), rho = (1 - 1e-4) tanh(rho_hat), a bivariate Gaussian per component and a
Bernoulli end of stroke), with K 1 and 3 components, pi_hat far apart, dx != dy targets, correlations near +1
and -1, and end of stroke 0 and 1; the gradient against central differences of that written-out loss."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn.kernels.mdn import mdn_backward, mdn_forward

RHO_MAX = 1.0 - 1e-4          # the documented bound on |rho| (codes.py's MDN_RHO), written out here


def nll_by_hand(y, tg, M):
    """-log sum_k pi_k N(x1, x2 | mu_k, s_k, rho_k) - log Bernoulli(pen | e), one row at a time."""
    out = []
    for row, (x1, x2, pen) in zip(y, tg):
        e = 1.0 / (1.0 + np.exp(-row[0]))
        w = np.exp(row[1:1 + M])
        pi = w / w.sum()
        total = 0.0
        for k in range(M):
            mu1, mu2 = row[1 + M + k], row[1 + 2 * M + k]
            s1, s2 = np.exp(row[1 + 3 * M + k]), np.exp(row[1 + 4 * M + k])
            r = RHO_MAX * np.tanh(row[1 + 5 * M + k])
            z = ((x1 - mu1) / s1) ** 2 + ((x2 - mu2) / s2) ** 2 - 2 * r * (x1 - mu1) * (x2 - mu2) / (s1 * s2)
            dens = np.exp(-z / (2 * (1 - r * r))) / (2 * np.pi * s1 * s2 * np.sqrt(1 - r * r))
            total += pi[k] * dens
        out.append(-np.log(total) - (np.log(e) if pen == 1.0 else np.log(1.0 - e)))
    return np.array(out)


def rows(M):
    """Four rows: rho near +1 and near -1, end of stroke 1 and 0, pi_hat far apart, dx != dy."""
    rng = np.random.default_rng(282 + M)
    y = np.empty((4, 1 + 6 * M))
    y[:, 0] = [1.3, -0.7, 0.4, -2.1]                              # e_hat
    y[:, 1:1 + M] = rng.normal(0.0, 1.5, (4, M))                  # pi_hat
    y[:, 1 + M:1 + 3 * M] = rng.normal(0.0, 0.5, (4, 2 * M))      # mu1, mu2
    y[:, 1 + 3 * M:1 + 5 * M] = rng.normal(-0.3, 0.4, (4, 2 * M))  # log sigma (inside the clip)
    y[:, 1 + 5 * M:] = rng.normal(0.0, 0.5, (4, M))
    y[0, 1 + 5 * M] = 2.5                                         # rho ~ +0.987
    y[1, 1 + 5 * M] = -3.0                                        # rho ~ -0.995
    tg = np.array([[0.8, -0.3, 1.0], [-0.6, 0.9, 0.0], [0.2, 0.5, 1.0], [-1.1, -0.4, 0.0]])
    return y, tg


@pytest.mark.parametrize("M", [1, 3])
def test_loss_is_the_mixture_density_written_out(M):
    y, tg = rows(M)
    nll, _ = mdn_forward(y, tg, np.ones(4, np.int64), M)
    np.testing.assert_allclose(nll, nll_by_hand(y, tg, M), rtol=1e-11, atol=1e-12)


def test_end_of_stroke_term_by_hand():
    # one component at the target with sigma 1 and rho 0: the Gaussian term is log(2 pi) exactly
    y = np.zeros((2, 7))
    y[:, 0] = 0.9
    tg = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    nll, saved = mdn_forward(y, tg, np.ones(2, np.int64), 1)
    e = 1.0 / (1.0 + np.exp(-0.9))
    np.testing.assert_allclose(nll, [np.log(2 * np.pi) - np.log(e), np.log(2 * np.pi) - np.log(1.0 - e)],
                               rtol=1e-13)
    np.testing.assert_allclose(saved[3], [e, e], rtol=1e-14)   # the saved e is sigmoid(e_hat)


@pytest.mark.parametrize("M", [1, 3])
def test_gradient_against_central_differences_of_the_written_out_loss(M):
    y, tg = rows(M)
    g = np.array([0.7, -1.3, 2.0, 0.4])                            # dL/dnll per row
    _, saved = mdn_forward(y, tg, np.ones(4, np.int64), M)
    got = mdn_backward(g, saved, y, tg, M)
    want = numeric_grad(lambda: float(g @ nll_by_hand(y, tg, M)), y, eps=1e-5)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
