"""BLAS wrappers and threaded GEMMs at awkward operands: gemm and gemm_add with A or W a strided view (the
np.dot path) or both C-contiguous (MKL where loaded), plain and transposed, K != M != N, against sums by
hand; and matmul with as many chunks as rows (one row a chunk) or more, against A @ W."""
import numpy as np
import pytest

from lnrnn.kernels.cpu import blas, gemm


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaPerformanceWarning")  # np.dot on strided views: meant
@pytest.mark.parametrize("dtype, tol", [(np.float32, 1e-5), (np.float64, 1e-12)])
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("strided", ["A", "W", "neither"])
def test_products_of_strided_and_transposed_operands_by_hand(dtype, tol, trans_a, strided):
    """K != M != N: a transposed A read with the wrong leading dimension, or A used untransposed, cannot agree."""
    rng = np.random.default_rng(3)
    M, K, N = 3, 5, 4
    shape = (K, M) if trans_a else (M, K)
    A = rng.standard_normal((shape[0], 2 * shape[1])).astype(dtype)[:, ::2] if strided == "A" else \
        rng.standard_normal(shape).astype(dtype)
    W = rng.standard_normal((K, 2 * N)).astype(dtype)[:, 1::2] if strided == "W" else \
        rng.standard_normal((K, N)).astype(dtype)
    op = A.T if trans_a else A
    want = np.array([[sum(float(op[i, k]) * float(W[k, j]) for k in range(K)) for j in range(N)] for i in range(M)])
    out = np.full((M, N), 9.0, dtype)
    blas.gemm(A, W, out, trans_a)
    np.testing.assert_allclose(out, want, rtol=tol, atol=tol * 10)
    blas.gemm_add(A, W, out, trans_a)
    np.testing.assert_allclose(out, 2 * want, rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("N", [1, 2, 3, 5])
@pytest.mark.parametrize("nchunks", [1, 5, 8])
def test_matmul_with_one_row_chunks(dtype, N, nchunks):
    rng = np.random.default_rng(N)
    A = rng.standard_normal((N, 7)).astype(dtype)
    W = rng.standard_normal((7, 6)).astype(dtype)
    got = gemm.matmul(A, W, nchunks)
    np.testing.assert_allclose(got, A.astype(np.float64) @ W, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-5 if dtype == np.float32 else 1e-12)
