"""lnrnn/kernels/layernorm.py against the formula written here: eps inside the square root (a large eps
shows it, a constant row needs it), and a backward judged by central differences of that formula."""
import numpy as np
import pytest

from lnrnn.gradcheck import numeric_grad, rel_error
from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward


def _ln(x, gain, bias, eps):
    mean = x.mean(1, keepdims=True)
    var = ((x - mean) ** 2).mean(1, keepdims=True)                 # biased
    return gain * (x - mean) / np.sqrt(var + eps) + bias


def _problem(N=5, F=4, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((N, F)), rng.uniform(0.5, 1.5, F), rng.standard_normal(F)


@pytest.mark.parametrize("eps,nchunks", [(0.5, 1), (0.5, 3), (1e-5, 2)])
def test_forward_is_the_formula_with_eps(eps, nchunks):
    x, gain, bias = _problem()
    x[1] *= 0.1                                                    # a row whose variance is near eps
    y, mean, rstd = layernorm_forward(x, gain, bias, eps, nchunks)
    np.testing.assert_allclose(y, _ln(x, gain, bias, eps), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(mean, x.mean(1), rtol=1e-12)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(x.var(1) + eps), rtol=1e-12)


def test_a_constant_row_gives_the_bias():
    x, gain, bias = _problem()
    x[2] = 3.0
    y, _, rstd = layernorm_forward(x, gain, bias, 1e-5, 2)
    assert np.all(np.isfinite(y)) and rstd[2] == pytest.approx(1 / np.sqrt(1e-5))
    np.testing.assert_allclose(y[2], bias, rtol=0, atol=1e-12)


@pytest.mark.parametrize("nchunks", [1, 2])
def test_backward_by_central_differences(nchunks):
    x, gain, bias = _problem(N=6, F=5, seed=1)
    gain = gain.copy()
    R = np.random.default_rng(2).standard_normal(x.shape)         # loss = sum(y * R)
    eps = 0.1
    _, mean, rstd = layernorm_forward(x, gain, bias, eps, nchunks)
    dx, dgain, dbias = layernorm_backward(R.copy(), x, mean, rstd, gain, nchunks)

    def loss():
        return float(np.sum(_ln(x, gain, bias, eps) * R))
    for name, analytic, arr in (("x", dx, x), ("gain", dgain, gain), ("bias", dbias, bias)):
        assert rel_error(analytic, numeric_grad(loss, arr)) < 1e-8, name
    np.testing.assert_allclose(dbias, R.sum(0), rtol=1e-12)        # dL/dbias: dy summed over rows
