"""The MDN kernel (lnrnn/kernels/mdn.py), thirteenth pass, float64, at K 1 and 3 components: the loss against
the mixture density written out (test_values282_mdn's nll_by_hand: softmax over pi_hat, sigma = exp(sigma_hat),
rho = (1 - 1e-4) tanh(rho_hat), one bivariate Gaussian per component, a Bernoulli end of stroke) with
correlations near +1 and -1 (tanh(+-4)), sigma1 != sigma2, end of stroke 0 and 1; the gradient against central
differences of that written-out loss; one component takes the whole weight (pi = 1) whatever its pi_hat, even
800 nats from e_hat, so its loss is the same row's with pi_hat 0 and its dL/dpi_hat is 0."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn.kernels.mdn import mdn_backward, mdn_forward
from test_values282_mdn import nll_by_hand


def rows(M):
    """Four rows: rho near +1 and -1 in the first component, sigma1 and sigma2 apart, pen 1, 0, 1, 0."""
    rng = np.random.default_rng(28530 + M)
    y = np.empty((4, 1 + 6 * M))
    y[:, 0] = [0.6, -1.4, 2.2, -0.3]
    y[:, 1:1 + M] = rng.normal(0.0, 1.2, (4, M))
    y[:, 1 + M:1 + 3 * M] = rng.normal(0.0, 0.4, (4, 2 * M))
    y[:, 1 + 3 * M:1 + 4 * M] = rng.normal(0.3, 0.3, (4, M))      # sigma1 above 1
    y[:, 1 + 4 * M:1 + 5 * M] = rng.normal(-0.6, 0.3, (4, M))     # sigma2 below 1
    y[:, 1 + 5 * M:] = rng.normal(0.0, 0.6, (4, M))
    y[0, 1 + 5 * M] = 4.0                                        # rho ~ +0.9992
    y[1, 1 + 5 * M] = -4.0                                       # rho ~ -0.9992
    mu1, mu2 = y[:, 1 + M], y[:, 1 + 2 * M]
    tg = np.array([[mu1[0] + 0.5, mu2[0] + 0.2, 1.0], [mu1[1] + 0.4, mu2[1] - 0.15, 0.0],
                   [0.3, -0.7, 1.0], [-0.9, 0.6, 0.0]])
    return y, tg


@pytest.mark.parametrize("M", [1, 3])
def test_loss_near_unit_correlation_is_the_density_written_out(M):
    y, tg = rows(M)
    nll, saved = mdn_forward(y, tg, np.ones(4, np.int64), M)
    np.testing.assert_allclose(nll, nll_by_hand(y, tg, M), rtol=1e-11, atol=1e-12)
    w = np.exp(y[:, 1:1 + M] - y[:, 1:1 + M].max(axis=1, keepdims=True))
    np.testing.assert_allclose(saved[4], w / w.sum(axis=1, keepdims=True), rtol=1e-13)   # pi


@pytest.mark.parametrize("M", [1, 3])
def test_gradient_near_unit_correlation_against_central_differences(M):
    y, tg = rows(M)
    g = np.array([1.1, -0.6, 0.8, 1.7])
    _, saved = mdn_forward(y, tg, np.ones(4, np.int64), M)
    got = mdn_backward(g, saved, y, tg, M)
    want = numeric_grad(lambda: float(g @ nll_by_hand(y, tg, M)), y, eps=1e-5)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_one_component_takes_the_whole_weight_whatever_its_pi_hat():
    y, tg = rows(1)
    at_zero = y.copy()
    at_zero[:, 1] = 0.0
    y[:, 1] = [-800.0, 750.0, -30.0, 800.0]
    nll, saved = mdn_forward(y, tg, np.ones(4, np.int64), 1)
    np.testing.assert_allclose(saved[4], np.ones((4, 1)), rtol=0)
    np.testing.assert_allclose(nll, nll_by_hand(at_zero, tg, 1), rtol=1e-12)
    d = mdn_backward(np.ones(4), saved, y, tg, 1)
    assert not d[:, 1].any()
