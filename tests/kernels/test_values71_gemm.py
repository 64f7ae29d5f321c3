"""The GEMM paths of lnrnn/kernels/cpu (blas.py's wrappers, rgemm.py, gemm.py's threaded products) against np.dot in
float64 on ragged shapes: rows, columns and inner sizes of 1, 7, 33 and 65, none a multiple of a tile (rgemm's MR x
NR, transposed's 8 x 32); plain, transposed and accumulating products, in float64 and float32, on both per-step
products whatever this process chose (rgemm's panels, rgemm_pack/rgemm_mul, and the BLAS's, blas_pack/blas_mul and
gemm_mul), outputs that start full of other values, and the gradients after a time loop (projection_grads) against
their definitions written here."""
import numpy as np
import pytest

from lnrnn.kernels.cpu import blas, gemm
from lnrnn.kernels.cpu.rgemm import pack, rgemm

SIZES = (1, 7, 33, 65)
RAGGED = [(1, 1, 1), (7, 33, 65), (65, 7, 33), (33, 65, 7), (7, 1, 33), (65, 33, 1)]  # (M, K, N)
TOL = {np.float64: 1e-12, np.float32: 2e-5}


def dot64(A, W):
    """A @ W in float64 (np.dot on float64 copies: the reference)."""
    return np.dot(A.astype(np.float64), W.astype(np.float64))


def close(got, want, dtype, K):
    """Equal to float rounding: relative to the largest product magnitude, growing with sqrt(K)."""
    scale = max(1.0, float(np.abs(want).max())) * np.sqrt(max(K, 1))
    assert np.abs(got.astype(np.float64) - want).max() <= TOL[dtype] * scale


def operands(M, K, N, dtype, seed=0):
    rng = np.random.default_rng(seed + 1000 * M + 10 * K + N)
    return rng.standard_normal((M, K)).astype(dtype), rng.standard_normal((K, N)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("M,K,N", RAGGED)
def test_the_per_step_products_of_both_kinds_are_the_product(M, K, N, dtype):
    """blas_mul (MKL's packed GEMM where MKL is loaded, np.dot otherwise), rgemm_mul on rgemm's panels and the
    products over many rows (gemm_mul and its fetching twin) write A @ W over an out full of 9s: whichever
    product this process chose per step, the other one is right too."""
    A, W = operands(M, K, N, dtype)
    want = dot64(A, W)
    runs = {"blas_mul": lambda out: blas.blas_mul(A, W, blas.blas_pack(W, M), out),
            "rgemm_mul": lambda out: blas.rgemm_mul(A, W, blas.rgemm_pack(W, M), out),
            "rgemm_rows": lambda out: blas.rgemm_mul(A, W, blas.rgemm_rows_pack(W), out),
            "gemm_mul": lambda out: blas.gemm_mul(A, W, blas.gemm_pack(W), out),
            "gemm_mul_fetch": lambda out: blas.gemm_mul_fetch(A, W, blas.gemm_pack(W), out, np.zeros((0, 2), np.int64)),
            "rgemm_mul_fetch": lambda out: blas.rgemm_mul_fetch(A, W, blas.rgemm_pack(W, M), out,
                                                                np.zeros((0, 2), np.int64))}
    for name, run in runs.items():
        for _ in range(2):  # twice into the same out: written, not added to
            out = np.full((M, N), 9.0, dtype) if _ == 0 else out
            run(out)
            close(out, want, dtype, K)


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaPerformanceWarning")  # np.dot on strided views: meant
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rgemm_mul_of_strided_rows_takes_np_dot(dtype):
    """rgemm_mul with A a view of every other column of a wider buffer (rgemm takes C-contiguous rows only):
    the product all the same, over an out of 9s."""
    M, K, N = 7, 33, 65
    A, W = operands(M, 2 * K, N, dtype, seed=3)
    A = A[:, ::2]
    out = np.full((M, N), 9.0, dtype)
    blas.rgemm_mul(A, W[:K], blas.rgemm_pack(np.ascontiguousarray(W[:K]), M), out)
    close(out, dot64(A, W[:K]), dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rgemm_refuses_a_c_that_is_a_column_block(dtype):
    """rgemm writes C's rows C.shape[1] values apart: a C whose rows lie further apart is refused, and the
    buffer around it is left alone."""
    A, W = operands(7, 33, 65, dtype, seed=4)
    buf = np.full((7, 70), -3.0, dtype)
    with pytest.raises(ValueError, match="C-contiguous"):
        rgemm(A, pack(W), buf[:, :65], 65)
    assert (buf == -3).all()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("M,K,N", RAGGED)
def test_gemm_and_gemm_add_plain_and_transposed(M, K, N, trans_a, dtype):
    """gemm writes A @ W (A^T @ W for A stored (K,M)) over an out of 9s; gemm_add adds it to what out holds."""
    A, W = operands(M, K, N, dtype, seed=5)
    if trans_a:  # the same values stored (K,M)
        A = np.ascontiguousarray(A.T)
    want = dot64(A.T if trans_a else A, W)
    out = np.full((M, N), 9.0, dtype)
    blas.gemm(A, W, out, trans_a)
    close(out, want, dtype, K)
    start = np.arange(M * N, dtype=dtype).reshape(M, N) / (M * N)
    out = start.copy()
    blas.gemm_add(A, W, out, trans_a)
    close(out, start + want, dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("N", SIZES)
@pytest.mark.parametrize("nchunks", [1, 2, 3, 70])
def test_matmul_over_chunks_of_ragged_rows(N, nchunks, dtype):
    """matmul (rows over chunks, the products over many rows this process chose) at 1, 7, 33, 65 rows by a
    33 x 7 and a 7 x 65 W, with fewer and more chunks than rows."""
    for K, M in ((33, 7), (7, 65)):
        A, W = operands(N, K, M, dtype, seed=6)
        close(gemm.matmul(A, W, nchunks), dot64(A, W), dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_transposed_at_every_ragged_shape(dtype):
    """transposed(W) == W.T exactly at every (K, N) of 1, 7, 33, 65, 9 and 17 (one past a tile of 8 rows)."""
    for K in SIZES + (9, 17):
        for N in SIZES:
            W = np.random.default_rng(K * 100 + N).standard_normal((K, N)).astype(dtype)
            Wt = gemm.transposed(W)
            assert Wt.shape == (N, K) and Wt.flags.c_contiguous
            assert np.array_equal(Wt, W.T), (K, N)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("rows", [1, 7, 65])
def test_weight_grad_both_ways_into_an_out_of_nans(rows, dtype):
    """weight_grad(A (n,K), D (n,M), out, rows, tw): out = A^T D in one GEMM, or with tw out = D^T A in blocks of
    `rows` rows; out starts full of NaN, so every element must be written (the partial starts at zero)."""
    n, K, M = 33, 7, 65
    rng = np.random.default_rng(rows)
    A = rng.standard_normal((n, K)).astype(dtype)
    D = rng.standard_normal((n, M)).astype(dtype)
    want = dot64(A.T, D)  # (K,M)
    out = np.full((K, M), np.nan, dtype)
    gemm.weight_grad(A, D, out, rows, False)
    close(out, want, dtype, n)
    outT = np.full((M, K), np.nan, dtype)
    gemm.weight_grad(A, D, outT, rows, True)
    close(outT, want.T, dtype, n)
    outT = np.full((M, K), np.nan, dtype)
    gemm.weight_grad(A[:0], D[:0], outT, rows, True)  # no rows: zeros
    assert (outT == 0).all()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("T,B,I,H,G", [(3, 7, 1, 7, 33), (2, 1, 33, 7, 65), (1, 7, 65, 1, 7)])
def test_projection_grads_are_their_definitions(T, B, I, H, G, dtype):
    """projection_grads: dx = dXW Wx^T, dWx = X^T dXW, dWh = Hprev^T dHW with Hprev = (h0, y_0, ..., y_{T-2}),
    each over all T*B rows, written here with loops over the steps."""
    rng = np.random.default_rng(T * 100 + I)
    dXW, dHW = (rng.standard_normal((T, B, G)).astype(dtype) for _ in range(2))
    x = rng.standard_normal((T, B, I)).astype(dtype)
    h0 = rng.standard_normal((B, H)).astype(dtype)
    y = rng.standard_normal((T, B, H)).astype(dtype)
    Wx = rng.standard_normal((I, G)).astype(dtype)
    dx, dWx, dWh = gemm.projection_grads(dXW, dHW, x, h0, y, Wx, 3)
    want_dx = np.stack([dot64(dXW[t], Wx.T) for t in range(T)])
    want_dWx = sum(dot64(x[t].T, dXW[t]) for t in range(T))
    want_dWh = dot64(h0.T, dHW[0]) + sum((dot64(y[t - 1].T, dHW[t]) for t in range(1, T)), np.zeros((H, G)))
    assert dx.shape == (T, B, I) and dWx.shape == (I, G) and dWh.shape == (H, G)
    close(dx, want_dx, dtype, G)
    close(dWx, want_dWx, dtype, T * B)
    close(dWh, want_dWh, dtype, T * B)
