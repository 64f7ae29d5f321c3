"""Round 302 on the row passes the cell kernels share (lnrnn/kernels/cpu/rows.py), at widths 1, 7 and 17 against
NumPy written out here or lnrnn/reference.py: rows_transposed against W[j0:j1].T, ln_row_stats and ln_row_forward
against the mean, the biased variance and reference.layernorm_forward, ln_row_backward against
reference.layernorm_backward with a gain of ones, input_row_grads against dz W^T and the outer product x^T dz,
sigmoid_row in float32 (its own exp) and float64 against 1 / (1 + exp(-a)) in float64."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.kernels.cpu.rows import (input_row_grads, ln_row_backward, ln_row_forward, ln_row_stats,
                                    rows_transposed, sigmoid_row)

WIDTHS = [1, 7, 17]
EPS = 1e-5


def row(seed, n, shift=0.0):
    """A row with a mean away from 0 and uneven spread."""
    rng = np.random.default_rng(seed)
    return shift + rng.standard_normal(n) * np.linspace(0.5, 2.5, n)


@pytest.mark.parametrize("n", WIDTHS)
def test_rows_transposed_is_the_transposed_slice(n):
    W = np.random.default_rng(30280 + n).standard_normal((9, n))
    for j0, j1 in ((0, 1), (2, 7), (3, 8), (0, 9)):
        got = rows_transposed(W, j0, j1)
        want = W[j0:j1].T
        assert got.shape == want.shape, (j0, j1)
        assert np.array_equal(got, want), (j0, j1)


@pytest.mark.parametrize("n", WIDTHS)
def test_ln_row_stats_and_forward_against_the_definition(n):
    x = row(30290 + n, n, shift=3.0)
    m, rstd = ln_row_stats(x, EPS)
    assert abs(m - x.sum() / n) < 1e-13 * 4
    var = ((x - x.sum() / n) ** 2).sum() / n  # biased
    assert abs(rstd - 1.0 / np.sqrt(var + EPS)) < 1e-12 * rstd
    xhat = np.full(n, np.nan)
    m2, r2 = ln_row_forward(xhat, x, EPS)
    want, mr, rr = R.layernorm_forward(x, np.ones(n), np.zeros(n), EPS)
    assert abs(m2 - mr) < 1e-13 * 4 and abs(r2 - rr) < 1e-12 * rr
    assert np.max(np.abs(xhat - want)) < 1e-12


@pytest.mark.parametrize("n", WIDTHS)
def test_ln_row_backward_against_the_reference(n):
    x = row(30300 + n, n, shift=-1.5)
    d = row(30310 + n, n, shift=0.7)
    want, mr, rr = R.layernorm_forward(x, np.ones(n), np.zeros(n), EPS)
    dx_want = R.layernorm_backward(d, x, mr, rr, np.ones(n))[0]
    dx = np.full(n, np.nan)
    ln_row_backward(dx, d, want, rr)
    assert np.max(np.abs(dx - dx_want)) < 1e-12 * max(1.0, float(np.max(np.abs(dx_want))))


@pytest.mark.parametrize("n", WIDTHS)
@pytest.mark.parametrize("I", [1, 3])
def test_input_row_grads_against_the_products(n, I):
    rng = np.random.default_rng(30320 + n + I)
    x, dz, W = rng.standard_normal(I), rng.standard_normal(n), rng.standard_normal((I, n))
    pW0 = rng.standard_normal((I, n))
    pW = pW0.copy()
    dx = np.full(I, np.nan)
    input_row_grads(dx, pW, dz, x, W)
    assert np.max(np.abs(dx - W @ dz)) < 1e-13 * n
    assert np.max(np.abs(pW - (pW0 + np.outer(x, dz)))) < 1e-14 * 4


@pytest.mark.parametrize("n", WIDTHS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sigmoid_row_against_the_float64_formula(n, dtype):
    a = (row(30330 + n, n) * 4.0).astype(dtype)
    if n == 7:  # the tails and 0: exp's argument clamped at +-87 in float32
        a[:] = [-90.0, -30.0, -3.3, 0.0, 2.7, 40.0, 95.0]
    want = 1.0 / (1.0 + np.exp(-a.astype(np.float64)))
    y = np.full(a.shape[0], np.nan, dtype)
    kb = np.zeros(2 * a.shape[0], np.int32)
    sigmoid_row(y, a, kb)
    tol = 2e-7 if dtype == np.float32 else 1e-15
    assert np.max(np.abs(y - want)) < tol
    big = want > 1e-30
    assert np.max(np.abs(y - want)[big] / want[big]) < 4 * tol
