"""lnrnn/kernels/cpu/blas.py's GEMM wrappers and gemm.py's row-chunked products against NumPy: gemm overwrites
out with A @ W or A^T @ W and gemm_add adds it (float64 and float32, out full of other values first, a strided
view of A); matmul against np.dot with more chunks asked than rows; sum_rows against part.sum(axis=0) for
more columns than partials; grad_blocks' block rows and tw against the rule in grad_budget's docstring, worked
out here for a few (K, N, itemsize)."""
import numpy as np
import pytest

from lnrnn import config
from lnrnn.kernels.cpu import blas
from lnrnn.kernels.cpu.gemm import matmul, sum_rows


def operands(dtype, trans_a, rng):
    A = rng.standard_normal((5, 3) if trans_a else (3, 5)).astype(dtype)   # (K,M) or (M,K)
    W = rng.standard_normal((5, 4)).astype(dtype)                          # (K,N)
    return A, W


@pytest.mark.parametrize("dtype,trans_a", [(np.float64, False), (np.float32, True)])
def test_gemm_overwrites_and_gemm_add_adds(dtype, trans_a):
    rng = np.random.default_rng(178)
    A, W = operands(dtype, trans_a, rng)
    want = (A.T.astype(np.float64) if trans_a else A.astype(np.float64)) @ W.astype(np.float64)   # (3,4)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    out = np.full((3, 4), 7.0, dtype)
    blas.gemm(A, W, out, trans_a)
    np.testing.assert_allclose(out, want, rtol=tol, atol=tol)
    blas.gemm_add(A, W, out, trans_a)
    np.testing.assert_allclose(out, 2 * want, rtol=tol, atol=tol)


def test_gemm_of_a_strided_view():
    rng = np.random.default_rng(1)
    big = rng.standard_normal((10, 7))
    A = big[::2, 1:6]                                  # (5,5), rows 2 apart: not C-contiguous
    W = rng.standard_normal((5, 4))
    out = np.full((5, 4), -3.0)
    blas.gemm(A, W, out, True)
    np.testing.assert_allclose(out, np.ascontiguousarray(A).T @ W, rtol=1e-12, atol=1e-12)
    blas.gemm(A, W, out, False)
    np.testing.assert_allclose(out, np.ascontiguousarray(A) @ W, rtol=1e-12, atol=1e-12)


def test_matmul_with_more_chunks_than_rows():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((3, 6))
    W = rng.standard_normal((6, 5))
    for nchunks in (8, 3, 2, 1):
        np.testing.assert_allclose(matmul(A, W, nchunks), A @ W, rtol=1e-12, atol=1e-12)


def test_sum_rows_over_more_columns_than_partials():
    part = np.random.default_rng(3).standard_normal((3, 7))
    np.testing.assert_allclose(sum_rows(part), part[0] + part[1] + part[2], rtol=1e-14, atol=1e-14)
    one = part[:1].copy()
    np.testing.assert_array_equal(sum_rows(one), one[0])


L2, ROWS = config.DWH_L2_BYTES, config.DWH_BLOCK_ROWS


@pytest.mark.parametrize("rec", ["blas", "rgemm"])
@pytest.mark.parametrize("K,N,itemsize", [(8, 1000, 4), (1000, 8, 4), (100, 300, 8), (1000, 1000, 8)])
def test_grad_blocks_by_the_rule(monkeypatch, rec, K, N, itemsize):
    monkeypatch.setattr(blas, "REC", rec)
    monkeypatch.setattr(blas, "DWH", "blas")            # big partials stay on the BLAS: the L2 rule alone
    monkeypatch.setattr(blas, "GRAD", "rgemm")          # and within L2, rgemm's blocks where it runs per step
    if K * N * itemsize <= L2:                          # the K x N partial fits in L2: a quarter of it holds D's rows
        rows = min(ROWS, max(1, L2 // 4 // (N * itemsize)))
    else:
        rows = ROWS
    tw = rec == "rgemm" and rows * N * itemsize <= L2 // 2
    assert blas.grad_blocks(K, N, itemsize) == (rows, tw)
    if (K, N) == (8, 1000) and L2 == 2 ** 20 and ROWS == 4096:
        assert rows == 65                               # 2^18 // 4000 by hand
