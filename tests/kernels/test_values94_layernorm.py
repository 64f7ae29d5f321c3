"""lnrnn/kernels/layernorm.py in float64 against LayerNorm's definition written here, with gains and biases far from
1 and 0 (of both signs): y = gain (x - mean) / sqrt(var + eps) + bias, var biased; the backward's dgain = sum over
rows of dy xhat and dbias = sum of dy (told apart by a dy whose rows do not sum like its xhat-weighted rows), and
dx against central differences of sum(dy * y(x)); rows split over 1, 2 and more chunks than rows."""
import numpy as np
import pytest

from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward


def ln(x, gain, bias, eps):
    m = x.mean(axis=1, keepdims=True)
    var = ((x - m) ** 2).mean(axis=1, keepdims=True)
    return gain * (x - m) / np.sqrt(var + eps) + bias


def problem(N=5, F=7, seed=0):
    rng = np.random.default_rng(seed)
    x = 2.0 + 1.5 * rng.standard_normal((N, F))
    gain = rng.uniform(-3.0, 3.0, F)
    bias = rng.uniform(-2.0, 2.0, F)
    dy = rng.standard_normal((N, F)) + 0.7
    return x, gain, bias, dy


@pytest.mark.parametrize("nchunks", [1, 2, 9])
def test_forward_against_the_definition(nchunks):
    x, gain, bias, _ = problem()
    eps = 1e-2
    y, mean, rstd = layernorm_forward(x, gain, bias, eps, nchunks)
    np.testing.assert_allclose(y, ln(x, gain, bias, eps), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(mean, x.mean(axis=1), rtol=1e-13)
    np.testing.assert_allclose(rstd, 1.0 / np.sqrt(x.var(axis=1) + eps), rtol=1e-12)


@pytest.mark.parametrize("nchunks", [1, 2, 9])
def test_backward_against_the_definition(nchunks):
    x, gain, bias, dy = problem(seed=1)
    eps = 1e-2
    _, mean, rstd = layernorm_forward(x, gain, bias, eps, nchunks)
    dx, dgain, dbias = layernorm_backward(dy, x, mean, rstd, gain, nchunks)
    xhat = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + eps)
    np.testing.assert_allclose(dgain, (dy * xhat).sum(axis=0), rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(dbias, dy.sum(axis=0), rtol=1e-11, atol=1e-12)
    h = 1e-6
    num = np.empty_like(x)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            xp, xm = x.copy(), x.copy()
            xp[i, j] += h
            xm[i, j] -= h
            num[i, j] = ((dy * ln(xp, gain, bias, eps)).sum() - (dy * ln(xm, gain, bias, eps)).sum()) / (2 * h)
    np.testing.assert_allclose(dx, num, rtol=1e-6, atol=1e-7)
