"""LayerNorm (lnrnn/kernels/layernorm.py) and the row helpers it and the cells share (lnrnn/kernels/cpu/rows.py)
against a per-element computation in Python floats: mean, biased variance (divided by F), eps inside the square
root, xhat = (x - mean) rstd, for every row of every chunk count (1, 2, 3 and more chunks than rows); the
backward against central differences of sum(w * y); input_row_grads' dx assigned (whatever dx held) and pW
added to, against the sums written out here."""
import math

import numpy as np
import pytest

from lnrnn.kernels.cpu.rows import input_row_grads, ln_row_backward, ln_row_forward
from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward
from gradcheck_util import numeric_grad

EPS = 1e-5


def ln_by_hand(x, gain, bias):
    N, F = x.shape
    y = np.zeros((N, F))
    mean = np.zeros(N)
    rstd = np.zeros(N)
    for r in range(N):
        m = sum(float(v) for v in x[r]) / F
        var = sum((float(v) - m) ** 2 for v in x[r]) / F
        s = 1.0 / math.sqrt(var + EPS)
        mean[r], rstd[r] = m, s
        for j in range(F):
            y[r, j] = (float(x[r, j]) - m) * s * float(gain[j]) + float(bias[j])
    return y, mean, rstd


def problem(N, F, seed):
    rng = np.random.default_rng(seed)
    return (2.0 + 3.0 * rng.standard_normal((N, F)), 1.0 + 0.5 * rng.standard_normal(F), rng.standard_normal(F))


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 2e-5)])
@pytest.mark.parametrize("nchunks", [1, 2, 3, 9])
def test_forward_every_row_of_every_chunk(nchunks, dtype, tol):
    x, gain, bias = problem(5, 4, nchunks)
    x, gain, bias = x.astype(dtype), gain.astype(dtype), bias.astype(dtype)
    y, mean, rstd = layernorm_forward(x, gain, bias, EPS, nchunks)
    want_y, want_m, want_r = ln_by_hand(x, gain, bias)
    np.testing.assert_allclose(mean, want_m, rtol=tol, atol=tol)
    np.testing.assert_allclose(rstd, want_r, rtol=tol)
    np.testing.assert_allclose(y, want_y, rtol=tol, atol=tol)


@pytest.mark.parametrize("nchunks", [1, 2])
def test_backward_against_central_differences(nchunks):
    N, F = 3, 4
    x, gain, bias = problem(N, F, 11)
    w = np.random.default_rng(12).standard_normal((N, F))
    _, mean, rstd = layernorm_forward(x, gain, bias, EPS, nchunks)
    dx, dgain, dbias = layernorm_backward(w, x, mean, rstd, gain, nchunks)

    def loss(x_, g_, b_):
        return float(np.sum(w * layernorm_forward(x_, g_, b_, EPS, nchunks)[0]))

    for which, (arr, got) in enumerate([(x, dx), (gain, dgain), (bias, dbias)]):
        args = [x, gain, bias]
        args[which] = arr.copy()
        want = numeric_grad(lambda: loss(*args), args[which], eps=1e-6, order=2)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("F", [1, 2, 6])
def test_row_forward_and_backward_by_hand(F):
    """ln_row_forward's xhat and statistics, and ln_row_backward's dx = rstd (dxhat - mean(dxhat) - xhat
    mean(dxhat xhat)), each term summed here; dx checked against central differences of sum(v * xhat)."""
    rng = np.random.default_rng(F)
    x = 1.0 + 2.0 * rng.standard_normal(F)
    v = rng.standard_normal(F)
    xhat = np.empty(F)
    m, rstd = ln_row_forward(xhat, x, EPS)
    want_m = sum(x) / F
    want_r = 1.0 / math.sqrt(sum((a - want_m) ** 2 for a in x) / F + EPS)
    assert m == pytest.approx(want_m, rel=1e-13, abs=1e-13) and rstd == pytest.approx(want_r, rel=1e-12)
    np.testing.assert_allclose(xhat, [(a - want_m) * want_r for a in x], rtol=1e-12, atol=1e-12)
    dx = np.empty(F)
    ln_row_backward(dx, v, xhat, rstd)
    s1 = sum(v) / F
    s2 = sum(v[j] * xhat[j] for j in range(F)) / F
    np.testing.assert_allclose(dx, [rstd * (v[j] - s1 - xhat[j] * s2) for j in range(F)], rtol=1e-12, atol=1e-12)
    z, zhat = x.copy(), np.empty(F)

    def loss():
        ln_row_forward(zhat, z, EPS)
        return v @ zhat

    fd = numeric_grad(loss, z, eps=1e-6, order=2)
    np.testing.assert_allclose(dx, fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_input_row_grads_assigns_dx_and_adds_to_pw(dtype):
    I, N = 3, 5
    rng = np.random.default_rng(4)
    x = rng.standard_normal(I).astype(dtype)
    W = rng.standard_normal((I, N)).astype(dtype)
    dz = rng.standard_normal(N).astype(dtype)
    pW0 = rng.standard_normal((I, N)).astype(dtype)
    pW = pW0.copy()
    dx = np.full(I, 7.0, dtype)  # whatever dx held before is overwritten
    input_row_grads(dx, pW, dz, x, W)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    want_dx = [sum(float(dz[j]) * float(W[i, j]) for j in range(N)) for i in range(I)]
    np.testing.assert_allclose(dx, want_dx, rtol=tol, atol=tol)
    want_pw = [[float(pW0[i, j]) + float(x[i]) * float(dz[j]) for j in range(N)] for i in range(I)]
    np.testing.assert_allclose(pW, want_pw, rtol=tol, atol=tol)
