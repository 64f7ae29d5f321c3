"""The row helpers of the CPU kernels (lnrnn/kernels/cpu/rows.py) against NumPy formulas written out here,
at widths no vector unit divides (1, 7, 17, 33): sigmoid_row in float64 (libm's 1 / (1 + exp(-a))) and in
float32 (its own exp, judged against the float64 formula to a relative 1e-6, arguments from -30 to 30 so
that exp's reduction runs with k from -43 to 43), ln_row_stats / ln_row_forward (the biased variance),
ln_row_backward (rstd (d - mean d - xhat mean(d xhat))), copy_rows and input_row_grads (dx = dz W^T,
pW += x^T dz with fewer inputs than outputs)."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.rows import copy_rows, input_row_grads, ln_row_backward, ln_row_forward, sigmoid_row

WIDTHS = [1, 7, 17, 33]
EPS = 1e-5


def args(n, seed):
    rng = np.random.default_rng(seed)
    return np.concatenate([[-30.0, 30.0, -9.5, -0.4], rng.uniform(-30.0, 30.0, 40)])[rng.permutation(44)][:n]


@pytest.mark.parametrize("n", WIDTHS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sigmoid_row_against_the_formula(n, dtype):
    a = args(n, 26880 + n).astype(dtype)
    want = 1.0 / (1.0 + np.exp(-a.astype(np.float64)))
    y = np.full(n, np.nan, dtype)
    sigmoid_row(y, a, np.zeros(2 * n, np.int32))
    assert y.dtype == dtype
    tol = 1e-15 if dtype == np.float64 else 1e-6
    assert np.max(np.abs(y - want) / want) < tol
    b = a.copy()
    sigmoid_row(b, b, np.zeros(2 * n, np.int32))  # in place (y is a)
    assert np.array_equal(b, y)


@pytest.mark.parametrize("n", WIDTHS)
def test_float32_sigmoid_row_of_a_single_reduction_step(n):
    # -a = k ln2 + r with k = 1 .. 3: the reduction's low part of ln2 must be subtracted (k * 2.1e-4 in r)
    a = -np.linspace(0.8, 2.3, n).astype(np.float32) if n > 1 else np.array([-1.4], np.float32)
    y = np.empty(n, np.float32)
    sigmoid_row(y, a, np.empty(2 * n, np.int32))
    want = 1.0 / (1.0 + np.exp(-a.astype(np.float64)))
    assert np.max(np.abs(y - want) / want) < 1e-6


@pytest.mark.parametrize("F", WIDTHS)
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-13), (np.float32, 1e-5)])
def test_ln_row_forward_and_backward_against_numpy(F, dtype, tol):
    rng = np.random.default_rng(26890 + F)
    x = (3.0 + 2.0 * rng.standard_normal(F)).astype(dtype)
    x64 = x.astype(np.float64)
    m = x64.sum() / F
    rstd = 1.0 / np.sqrt(((x64 - m) ** 2).sum() / F + EPS)  # biased variance
    xhat = np.full(F, np.nan, dtype)
    gm, gr = ln_row_forward(xhat, x, dtype(EPS))
    assert abs(gm - m) <= tol * max(1.0, abs(m)) and abs(gr - rstd) <= tol * rstd
    assert np.max(np.abs(xhat - (x64 - m) * rstd)) <= tol * 10
    d = rng.standard_normal(F).astype(dtype)
    d64, xh = d.astype(np.float64), (x64 - m) * rstd
    want = rstd * (d64 - d64.mean() - xh * (d64 * xh).mean())
    dx = np.full(F, np.nan, dtype)
    ln_row_backward(dx, d, xhat, gr)
    assert np.max(np.abs(dx - want)) <= tol * 10 * max(1.0, float(np.max(np.abs(want))))


@pytest.mark.parametrize("F", WIDTHS)
def test_copy_rows_every_column(F):
    src = np.arange(3 * F, dtype=np.float64).reshape(3, F) + 0.5
    dst = np.full((3, F), np.nan)
    copy_rows(dst, src)
    assert np.array_equal(dst, src)


@pytest.mark.parametrize("N", [7, 17, 33])
def test_input_row_grads_with_fewer_inputs_than_outputs(N):
    rng = np.random.default_rng(26900 + N)
    I = 3
    x, W, dz = rng.standard_normal(I), rng.standard_normal((I, N)), rng.standard_normal(N)
    pW0 = rng.standard_normal((I, N))
    pW, dx = pW0.copy(), np.full(I, np.nan)
    input_row_grads(dx, pW, dz, x, W)
    want_dx = np.array([sum(dz[j] * W[i, j] for j in range(N)) for i in range(I)])
    assert np.max(np.abs(dx - want_dx)) < 1e-13
    assert np.max(np.abs(pW - (pW0 + np.outer(x, dz)))) < 1e-13
