"""The per-step product and the BLAS wrappers (lnrnn/kernels/cpu/rgemm.py, blas.py) against NumPy's float64
products and definitions written out here: rgemm_mul and rgemm_mul_fetch at rows 1, 3, 4, 5, 7, 13, 16 and 33,
K of 1 and 17, columns not a multiple of the tile, with W packed once and reused across calls, into outputs
that held NaN; pack's panels element by element (NR = two vectors, zero past G) in float32 and float64;
rgemm_rowstats' C overwritten and its row sums and sums of squares against NumPy; rgemm_add and grad_t_add
accumulating into what the output held; fetch_schedule's tiles walked out by hand from its docstring; gemm
overwriting and gemm_add accumulating, with and without A transposed; blas_mul on strided rows with a packed
buffer; the products chosen by REC against the names the module documents."""
import numpy as np
import pytest

from lnrnn.kernels.cpu import blas
from lnrnn.kernels.cpu import rgemm as rg

DTYPES = [np.float64, np.float32]
ROWS = (1, 3, 4, 5, 7, 13, 16, 33)


def _tol(dtype):
    return dict(rtol=1e-12, atol=1e-12) if dtype == np.float64 else dict(rtol=2e-5, atol=2e-5)


def _nr(dtype):
    return 2 * rg.VEC_BYTES // np.dtype(dtype).itemsize   # two vector registers of the tile row


def _ref(A, W):
    return np.asarray(A, np.float64) @ np.asarray(W, np.float64)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("K", [1, 17])
def test_rgemm_mul_packed_once_at_awkward_sizes(dtype, K):
    rng = np.random.default_rng(3)
    for N in (13, 2 * _nr(dtype) + 3):
        W = rng.standard_normal((K, N)).astype(dtype)
        P = blas.rgemm_pack(W, 7)   # packed once, reused for every row count
        for m in ROWS:
            A = rng.standard_normal((m, K)).astype(dtype)
            out = np.full((m, N), np.nan, dtype)
            blas.rgemm_mul(A, W, P, out)
            np.testing.assert_allclose(out, _ref(A, W), **_tol(dtype))
            buf = np.zeros(300, np.float64)
            plan = np.array([[buf.ctypes.data, buf.nbytes], [buf.ctypes.data + 64, 100]], np.int64)
            out2 = np.full((m, N), np.nan, dtype)
            blas.rgemm_mul_fetch(A, W, P, out2, plan)
            np.testing.assert_allclose(out2, _ref(A, W), **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_pack_panels_by_definition(dtype):
    NR = _nr(dtype)
    H, G = 5, NR + 3
    Wh = (np.arange(H * G).reshape(H, G) + 1).astype(dtype)
    Wp = rg.pack(Wh)
    assert Wp.shape == (2, H, NR) and Wp.dtype == dtype
    for p in range(2):
        for k in range(H):
            for jj in range(NR):
                j = p * NR + jj
                assert Wp[p, k, jj] == (Wh[k, j] if j < G else 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rowstats_overwrites_c_and_sums_rows(dtype):
    rng = np.random.default_rng(5)
    K = 17
    G = _nr(dtype) + 5
    W = rng.standard_normal((K, G)).astype(dtype)
    Wp = rg.pack(W)
    for b in (1, 5, 7, 13):
        A = rng.standard_normal((b, K)).astype(dtype)
        C = np.full((b, G), 7.0, dtype)
        s1 = np.full(b, 3.0, dtype)
        s2 = np.full(b, 3.0, dtype)
        rg.rgemm_rowstats(A, Wp, C, G, s1, s2)
        ref = _ref(A, W)
        np.testing.assert_allclose(C, ref, **_tol(dtype))
        np.testing.assert_allclose(s1, ref.sum(1), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(s2, (ref ** 2).sum(1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("K", [1, 17])
def test_rgemm_add_accumulates_into_c(dtype, K):
    rng = np.random.default_rng(7)
    for G in (13, 2 * _nr(dtype) + 3):
        W = rng.standard_normal((K, G)).astype(dtype)
        Wp = rg.pack(W)
        for b in (1, 3, 7, 13):
            A = rng.standard_normal((b, K)).astype(dtype)
            C0 = rng.standard_normal((b, G)).astype(dtype)
            C = C0.copy()
            rg.rgemm_add(A, Wp, C, G)
            np.testing.assert_allclose(C, C0 + _ref(A, W), **_tol(dtype))
            AT = np.ascontiguousarray(A.T).T   # the same values read through transposed strides
            C = C0.copy()
            rg.rgemm_add(AT, Wp, C, G)
            np.testing.assert_allclose(C, C0 + _ref(A, W), **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_grad_t_add_adds_d_transposed_times_a(dtype):
    rng = np.random.default_rng(11)
    for K, M, N in ((1, 5, 13), (17, 3, 2 * _nr(dtype) + 3), (13, 7, 12)):
        A = rng.standard_normal((K, M)).astype(dtype)
        D = rng.standard_normal((K, N)).astype(dtype)
        CT0 = rng.standard_normal((N, M)).astype(dtype)
        CT = CT0.copy()
        blas.grad_t_add(A, D, CT)
        np.testing.assert_allclose(CT, CT0 + _ref(D.T, A), **_tol(dtype))


def test_fetch_schedule_walked_by_hand():
    """Regions of 128 and 100 bytes (2 + 2 lines), 10 tiles of K = 17: sh = 2 (per = ceil(17/4) = 5, 2 tiles
    suffice), share ceil(4/10) = 1 line a tile: lines at 1000, 1064, then 5000, 5064, then nothing."""
    plan = np.array([[1000, 128], [5000, 100]], np.int64)
    sh, pa, pn = rg.fetch_schedule(plan, 10, 17)
    assert sh == 2
    assert pa.tolist() == [1000, 1064, 5000, 5064, 0, 0, 0, 0, 0, 0]
    assert pn.tolist() == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    # 640 bytes (10 lines) over 3 tiles: share ceil(10/3) = 4 (3 tiles of 4 have room): 4, 4 and 2 lines
    sh, pa, pn = rg.fetch_schedule(np.array([[0, 640]], np.int64), 3, 17)
    assert (sh, pa.tolist(), pn.tolist()) == (2, [0, 256, 512], [4, 4, 2])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("K", [1, 17])
def test_gemm_overwrites_and_gemm_add_accumulates(dtype, K):
    rng = np.random.default_rng(13)
    for M, N in ((1, 13), (5, 7), (13, 33)):
        A = rng.standard_normal((M, K)).astype(dtype)
        AT = np.ascontiguousarray(A.T)   # (K,M): A^T @ W with trans_a
        W = rng.standard_normal((K, N)).astype(dtype)
        out0 = rng.standard_normal((M, N)).astype(dtype)
        for a, trans in ((A, False), (AT, True)):
            out = out0.copy()
            blas.gemm(a, W, out, trans)
            np.testing.assert_allclose(out, _ref(A, W), **_tol(dtype))
            out = out0.copy()
            blas.gemm_add(a, W, out, trans)
            np.testing.assert_allclose(out, out0 + _ref(A, W), **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_blas_mul_packed_once_and_strided_rows(dtype):
    rng = np.random.default_rng(17)
    m, K, N = 5, 17, 13
    W = rng.standard_normal((K, N)).astype(dtype)
    P = blas.blas_pack(W, m)
    for _ in range(2):
        A = rng.standard_normal((m, K)).astype(dtype)
        out = np.full((m, N), np.nan, dtype)
        blas.blas_mul(A, W, P, out)
        np.testing.assert_allclose(out, _ref(A, W), **_tol(dtype))
        wide = rng.standard_normal((m, 2 * K)).astype(dtype)
        As = wide[:, ::2]   # strided rows: the packed product must not read them as contiguous
        out = np.full((m, N), np.nan, dtype)
        blas.blas_mul(As, W, P, out)
        np.testing.assert_allclose(out, _ref(As, W), **_tol(dtype))


def test_products_chosen_by_rec_are_the_documented_ones():
    b = blas
    want = {"rgemm": dict(rec_pack=b.rgemm_pack, rec_mul=b.rgemm_mul, rec_mul_fetch=b.rgemm_mul_fetch,
                          rows_mul_fetch=b.rgemm_mul_fetch, rows_pack=b.rgemm_rows_pack, rows_mul=b.rgemm_mul),
            "blas": dict(rec_pack=b.blas_pack, rec_mul=b.blas_mul, rec_mul_fetch=b.blas_mul_fetch,
                         rows_mul_fetch=b.gemm_mul_fetch, rows_pack=b.gemm_pack, rows_mul=b.gemm_mul)}[b.REC]
    for name, fn in want.items():
        assert getattr(b, name) is fn, name
