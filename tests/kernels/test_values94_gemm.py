"""The products of lnrnn/kernels/cpu (rgemm.py's kernels and blas.py's wrappers) against np.dot of float64 copies,
on shapes that are not multiples of a tile (1, 5, 17, 33, 65 and a panel and a column past NR): C not square, A
a transposed view or every other row and column of a larger buffer, products added into outs that hold values,
row statistics into buffers that hold values, MKL's GEMM with a transposed A whose two sizes differ and with a
W that is every other column of a buffer, the packed per-step product into an out of 9s, rgemm_fetch with and without a plan;
and the per-step products' packing (rec_pack_once) and dWh's L2 budget against their definitions."""
import numpy as np
import pytest

from lnrnn.config import DWH_BIG_BYTES, DWH_L2_BYTES
from lnrnn.kernels.cpu import blas
from lnrnn.kernels.cpu.rgemm import MR, nr_of, pack, rgemm, rgemm_add, rgemm_fetch, rgemm_rowstats

TOL = {np.float64: 1e-12, np.float32: 3e-5}


def dot64(A, W):
    """A @ W over float64 copies: the reference."""
    return np.dot(np.asarray(A, np.float64), np.asarray(W, np.float64))


def close(got, want, dtype, K):
    """Equal to float rounding, relative to the largest value and sqrt of the inner size."""
    scale = max(1.0, float(np.abs(want).max())) * np.sqrt(max(K, 1))
    err = np.abs(np.asarray(got, np.float64) - want).max()
    assert err <= TOL[dtype] * scale, err


def rand(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("b,H,G", [(1, 5, 65), (5, 17, 33), (17, 1, 5), (33, 17, 1), (65, 5, 17)])
def test_rgemm_of_a_c_that_is_not_square(b, H, G, dtype):
    """rgemm and rgemm_fetch (with a plan of a real array's lines and with none) write A @ Wh over an out of
    NaNs, b rows and G columns none of them equal."""
    A, Wh = rand((b, H), dtype, b + H), rand((H, G), dtype, G)
    want = dot64(A, Wh)
    Wp = pack(Wh)
    C = np.full((b, G), np.nan, dtype)
    rgemm(A, Wp, C, G)
    close(C, want, dtype, H)
    region = np.zeros(4096, dtype)
    for plan in (np.zeros((0, 2), np.int64), np.array([[region.ctypes.data, region.nbytes]], np.int64)):
        C = np.full((b, G), np.nan, dtype)
        rgemm_fetch(A, Wp, C, G, plan)
        close(C, want, dtype, H)


def _views(b, K, dtype):
    """A (b,K) as a transposed view of a C-ordered (K,b) array and as every other row and column of a larger one."""
    base = rand((K, b), dtype, 7 * b + K)
    yield base.T
    big = rand((2 * b + 1, 3 * K), dtype, 11 * b + K)
    yield big[1::2, ::3]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("b,K", [(2 * MR, 5), (MR + 1, 17), (33, 33), (1, 7)])
def test_rgemm_add_of_strided_a_into_c_that_holds_values(b, K, dtype):
    """rgemm_add adds A @ W to C's values for A read through its strides, with G one panel and a column or two
    panels and a few columns wide, full row tiles and a short one."""
    nr = nr_of(dtype)
    for G in (nr + 1, 2 * nr + 5, nr):
        W = rand((K, G), dtype, G + K)
        for A in _views(b, K, dtype):
            assert not A.flags.c_contiguous or b == 1
            start = np.linspace(-1.0, 1.0, b * G).reshape(b, G).astype(dtype)
            C = start.copy()
            rgemm_add(A, pack(W), C, G)
            close(C, start + dot64(A, W), dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("K,M,N", [(5, 17, 33), (33, 1, 65), (17, 2 * MR, 5)])
def test_grad_t_add_is_the_transposed_weight_gradient(K, M, N, dtype):
    """grad_t_add adds D^T @ A to CT (N,M), which holds values."""
    A, D = rand((K, M), dtype, 3 + K), rand((K, N), dtype, 5 + N)
    start = np.full((N, M), 0.5, dtype)
    CT = start.copy()
    blas.grad_t_add(A, D, CT)
    close(CT, start + dot64(D.T, A), dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rowstats_into_buffers_that_hold_values(dtype):
    """rgemm_rowstats writes each row's sum and sum of squares over the G columns, whatever s1 and s2 held."""
    b, H, G = 17, 5, nr_of(dtype) + 3
    A, Wh = rand((b, H), dtype, 1), rand((H, G), dtype, 2)
    want = dot64(A, Wh)
    C = np.empty((b, G), dtype)
    s1, s2 = np.full(b, 7.0, dtype), np.full(b, -3.0, dtype)
    rgemm_rowstats(A, pack(Wh), C, G, s1, s2)
    close(C, want, dtype, H)
    close(s1, want.sum(axis=1), dtype, H * G)
    close(s2, (want ** 2).sum(axis=1), dtype, H * G)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("M,K,N", [(5, 17, 33), (65, 1, 5), (1, 33, 17)])
def test_gemm_of_a_stored_transposed_with_its_sizes_unequal(M, K, N, dtype):
    """gemm and gemm_add with trans_a: A stored (K,M), all operands C-contiguous (MKL's path where MKL is loaded)."""
    At, W = rand((K, M), dtype, M), rand((K, N), dtype, N)
    want = dot64(At.T, W)
    out = np.full((M, N), 9.0, dtype)
    blas.gemm(At, W, out, True)
    close(out, want, dtype, K)
    blas.gemm_add(At, W, out, True)
    close(out, 2 * want, dtype, K)


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaPerformanceWarning")  # np.dot on a strided W: meant
def test_gemm_of_a_strided_w():
    """gemm and gemm_add, plain and with trans_a, with W every other column of a wider C-ordered buffer and A and
    out C-contiguous: the product of the values W shows (one dtype: the layouts choose the path, not the dtype)."""
    M, K, N = 5, 17, 33
    W = rand((K, 2 * N), np.float64, 5)[:, ::2]
    for trans_a in (False, True):
        A = rand((K, M) if trans_a else (M, K), np.float64, 4)
        want = dot64(A.T if trans_a else A, W)
        out = np.full((M, N), 9.0)
        blas.gemm(A, W, out, trans_a)
        close(out, want, np.float64, K)
        blas.gemm_add(A, W, out, trans_a)
        close(out, 2 * want, np.float64, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("m,K,N", [(5, 17, 33), (17, 5, 65), (1, 33, 1)])
def test_both_per_step_products_write_the_product(m, K, N, dtype):
    """blas_mul on its packed W (MKL's packed GEMM where MKL is loaded) and rgemm_mul on rgemm's panels write A @ W
    over an out of 9s, whichever of them this process runs per step (blas.REC)."""
    A, W = rand((m, K), dtype, 8), rand((K, N), dtype, 9)
    want = dot64(A, W)
    for pk, mul in ((blas.blas_pack, blas.blas_mul), (blas.rgemm_pack, blas.rgemm_mul)):
        out = np.full((m, N), 9.0, dtype)
        mul(A, W, pk(W, m), out)
        close(out, want, dtype, K)


def test_rec_pack_once_packs_only_for_rgemm():
    """rec_pack_once: rgemm's panels (pack's layout) where rgemm runs the per-step products, else an empty buffer,
    with which a chunk packs its own (rec_pack); the chunk's product is A @ W either way."""
    m, K, N = 5, 17, 33
    A, W = rand((m, K), np.float64, 10), rand((K, N), np.float64, 11)
    P = blas.rec_pack_once(W, m)
    if blas.REC == "rgemm":
        assert P.dtype == W.dtype and np.array_equal(P, pack(W))
    else:
        assert P.size == 0
    P = P if P.size else blas.rec_pack(W, m)
    out = np.full((m, N), 9.0)
    blas.rec_mul(A, W, P, out)
    close(out, dot64(A, W), np.float64, K)


def test_dwh_budget_counts_the_input_beside_dwh():
    """dwh_budget(H, I, ...) by its rule (grad_budget's): the L2 budget where dWh (H,4H) fits in it and the input's
    dWx (I,4H) in a quarter of it; the big budget (where big) where both fit in that; else 0."""
    for H, I, size, big in [(128, 0, 4, False), (128, 128, 4, False), (128, 129, 4, False), (128, 1024, 4, True),
                            (128, 1024, 4, False), (128, 4096, 4, True), (64, 600, 8, True), (400, 0, 4, True)]:
        dwh, dwx = H * 4 * H * size, I * 4 * H * size
        if dwh <= DWH_L2_BYTES and dwx <= DWH_L2_BYTES // 4:
            want = DWH_L2_BYTES
        elif big and max(H, I) * 4 * H * size <= DWH_BIG_BYTES:
            want = DWH_BIG_BYTES
        else:
            want = 0
        assert blas.dwh_budget(H, I, size, big) == want, (H, I, size, big)
