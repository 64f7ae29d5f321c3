"""lnrnn/kernels/layernorm.py in float64 against LayerNorm's definition written here (Ba et al. 2016: the
mean and biased variance of each row, eps inside the square root, then gain times xhat plus shift), with a
gain and shift far from 1 and 0, rows of very different scales and several row chunks; its backward
against central differences of that definition for a loss sum(w * y) with random w."""
import numpy as np
import pytest

from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward

N, F = 5, 6


def definition(x, gain, shift, eps):
    """LayerNorm of each row of x (N,F), written out element by element."""
    y = np.empty_like(x)
    for r in range(x.shape[0]):
        mu = sum(x[r]) / F
        var = sum((v - mu) ** 2 for v in x[r]) / F
        for j in range(F):
            y[r, j] = gain[j] * (x[r, j] - mu) / np.sqrt(var + eps) + shift[j]
    return y


def problem(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, (N, F)) * np.array([0.2, 1.0, 3.0, 0.05, 7.0])[:, None] + 2.0
    gain = rng.uniform(-2.0, 3.0, F)
    shift = rng.normal(0.0, 2.0, F)
    return x, gain, shift


@pytest.mark.parametrize("eps,nchunks", [(1e-5, 1), (0.3, 2), (2.0, 5)])
def test_forward_against_the_definition(eps, nchunks):
    x, gain, shift = problem(1)
    y, mean, rstd = layernorm_forward(x, gain, shift, eps, nchunks)
    np.testing.assert_allclose(y, definition(x, gain, shift, eps), rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(mean, x.mean(axis=1), rtol=1e-12)
    np.testing.assert_allclose(rstd, 1.0 / np.sqrt(x.var(axis=1) + eps), rtol=1e-12)


@pytest.mark.parametrize("eps,nchunks", [(1e-5, 1), (0.3, 3)])
def test_backward_against_central_differences_of_the_definition(eps, nchunks):
    x, gain, shift = problem(2)
    w = np.random.default_rng(3).normal(0.0, 1.0, (N, F))           # dL/dy of L = sum(w * y)
    _, mean, rstd = layernorm_forward(x, gain, shift, eps, nchunks)
    dx, dgain, dshift = layernorm_backward(w, x, mean, rstd, gain, nchunks)

    def numeric(arr):
        g = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            keep = arr[i]
            h = 1e-6 * max(1.0, abs(keep))
            arr[i] = keep + h
            up = np.sum(w * definition(x, gain, shift, eps))
            arr[i] = keep - h
            down = np.sum(w * definition(x, gain, shift, eps))
            arr[i] = keep
            g[i] = (up - down) / (2 * h)
        return g

    for name, got, arr in (("dx", dx, x), ("dgain", dgain, gain), ("dshift", dshift, shift)):
        num = numeric(arr)
        np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-7 * np.abs(num).max(), err_msg=name)
