"""Row kernels of lnrnn/kernels/cpu/rows.py against NumPy: rows_transposed against W[j0:j1].T for blocks that do not
start at row 0; the float32 sigmoid against 1 / (1 + exp(-a)) in float64 over the whole range its exp reduces
(arguments from -30 to 30, where 2^k runs from 2^-43 to 2^43); a row's LayerNorm statistics and forward against
np.mean and the biased variance np.var (ddof 0) written out here."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.rows import ln_row_forward, ln_row_stats, rows_transposed, sigmoid_row


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rows_transposed_of_blocks_inside_w(dtype):
    W = np.arange(7 * 5, dtype=dtype).reshape(7, 5) / 3  # (K,N)
    for j0, j1 in [(0, 7), (2, 5), (6, 7), (1, 1), (3, 7)]:
        got = rows_transposed(W, j0, j1)
        assert got.shape == (5, j1 - j0) and got.flags.c_contiguous
        assert np.array_equal(got, W[j0:j1].T)


def test_float32_sigmoid_over_its_range():
    """Relative error below 1e-6 of the float64 sigmoid (the polynomial's terms to r^7/7!: truncation < 6e-9;
    float32 rounding ~1e-7), and absolute below 1e-7, in a separate output and written in place."""
    a = np.linspace(-30.0, 30.0, 2001).astype(np.float32)
    want = 1.0 / (1.0 + np.exp(-a.astype(np.float64)))
    y = np.empty_like(a)
    kb = np.empty(2 * a.size, np.int32)
    sigmoid_row(y, a, kb)
    assert np.max(np.abs(y - want) / want) < 1e-6
    assert np.max(np.abs(y - want)) < 1e-7
    z = a.copy()
    sigmoid_row(z, z, kb)
    assert np.array_equal(z, y)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("F", [1, 2, 5, 33])
def test_row_statistics_and_forward_are_biased(F, dtype):
    """mean, 1/sqrt(var + eps) with var = mean((x - mean)^2) (divided by F, not F - 1), and xhat = (x - mean) rstd."""
    rng = np.random.default_rng(F)
    x = (3.0 + 2.0 * rng.standard_normal(F)).astype(dtype)
    eps = 1e-3
    x64 = x.astype(np.float64)
    m = x64.sum() / F
    var = ((x64 - m) ** 2).sum() / F
    rstd = 1.0 / np.sqrt(var + eps)
    tol = 1e-12 if dtype == np.float64 else 2e-6
    got_m, got_r = ln_row_stats(x, dtype(eps))
    assert abs(got_m - m) <= tol * abs(m) and abs(got_r - rstd) <= tol * rstd
    xhat = np.empty_like(x)
    got_m, got_r = ln_row_forward(xhat, x, dtype(eps))
    assert abs(got_r - rstd) <= tol * rstd
    np.testing.assert_allclose(xhat, (x64 - m) * rstd, rtol=0, atol=10 * tol * max(1.0, rstd * np.abs(x64 - m).max()))
