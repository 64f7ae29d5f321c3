"""rgemm (lnrnn/kernels/cpu/rgemm.py) and the BLAS wrappers (lnrnn/kernels/cpu/blas.py) against np.dot and sums
in float64 worked out here: products on shapes that are not multiples of the MR x NR tile into an out holding
values (all of it written), a Wp packed from a Wh of more rows refused, the row statistics over several panels;
fetch_schedule covering every line of regions of three lines where only the one-tile-a-region spacing has
room; grad_t_add with K != N; grad_blocks' budget by the
config's rule (the large one only where both products are rgemm); LNRNN_DWH_GEMM taken as it says and
LNRNN_REC_GEMM's note on a value that is neither rgemm nor blas."""
import numpy as np
import pytest

from lnrnn.config import DWH_BIG_BYTES, DWH_BLOCK_ROWS, DWH_L2_BYTES
from lnrnn.kernels.cpu import blas, rec_choice
from lnrnn.kernels.cpu.rgemm import MR, fetch_schedule, nr_of, pack, rgemm, rgemm_rowstats

DTYPES = [np.float64, np.float32]


def tol(dtype, K, ref):
    return (1e-12 if dtype == np.float64 else 2e-6) * np.sqrt(K) * max(1.0, float(np.abs(ref).max()))


def problem(b, K, G, dtype, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((b, K)).astype(dtype)  # (b,K)
    W = rng.standard_normal((K, G)).astype(dtype)  # (K,G)
    return A, W, np.dot(A.astype(np.float64), W.astype(np.float64))


@pytest.mark.parametrize("dtype", DTYPES)
def test_rgemm_on_ragged_shapes_writes_the_product_over_old_values(dtype):
    """b, K, G around the tile (G = NR - 1, NR + 1, 2 NR + 5: the last panel partial, its last column
    included); out full of 7.0 beforehand: every element np.dot's."""
    NR = nr_of(dtype)
    for b, K, G in [(MR - 1, 3, NR - 1), (MR + 2, 5, NR + 1), (2 * MR + 1, 9, 2 * NR + 5), (1, 1, 3)]:
        A, W, ref = problem(b, K, G, dtype, 10660 + b + G)
        C = np.full((b, G), 7.0, dtype)
        rgemm(A, pack(W), C, G)
        assert np.abs(C - ref).max() <= tol(dtype, K, ref), (b, K, G)


@pytest.mark.parametrize("dtype", DTYPES)
def test_pack_is_the_columns_in_panels_zero_past_g(dtype):
    """pack(W) (P,K,NR): Wp[p, k, j] = W[k, p NR + j] where that column exists, else 0."""
    NR = nr_of(dtype)
    K, G = 3, 2 * NR + 3
    W = np.arange(1, K * G + 1, dtype=dtype).reshape(K, G)
    Wp = pack(W)
    want = np.zeros((3, K, NR), dtype)
    for p in range(3):
        for k in range(K):
            for j in range(NR):
                if p * NR + j < G:
                    want[p, k, j] = W[k, p * NR + j]
    np.testing.assert_array_equal(Wp, want)


def test_a_pack_of_a_taller_w_is_refused():
    """A (4,6) with Wp packed from a (8,G) W: refused (its panels are 8 rows, not A's 6)."""
    A, _, _ = problem(4, 6, 10, np.float64, 10661)
    W8 = np.random.default_rng(10662).standard_normal((8, 10))
    with pytest.raises(ValueError):
        rgemm(A, pack(W8), np.empty((4, 10)), 10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rowstats_over_several_panels(dtype):
    """G = 2 NR + 3 (three panels), b ragged: s1, s2 (old values in them) the row sums and sums of squares of
    np.dot's product, C the product."""
    NR = nr_of(dtype)
    b, K, G = MR + 3, 7, 2 * NR + 3
    A, W, ref = problem(b, K, G, dtype, 10663)
    C = np.full((b, G), np.nan, dtype)
    s1, s2 = np.full(b, 5.0, dtype), np.full(b, -5.0, dtype)
    rgemm_rowstats(A, pack(W), C, G, s1, s2)
    assert np.abs(C - ref).max() <= tol(dtype, K, ref)
    np.testing.assert_allclose(s1, ref.sum(axis=1), rtol=0, atol=G * tol(dtype, K, ref))
    np.testing.assert_allclose(s2, (ref ** 2).sum(axis=1), rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_fetch_schedule_covers_every_line_when_one_tile_a_region_fits():
    """Four regions of three 64-byte lines each, 6 tiles, K = 8: one line every 4 steps of k (2 a tile) needs 8
    tiles, one every 2 steps (4 a tile) one tile a region: every line asked for, once, in order, and no tile
    asks for more lines than it has steps for (K >> sh)."""
    regions = np.array([[64 * 100, 3 * 64], [64 * 300, 3 * 64], [64 * 500, 3 * 64], [64 * 700, 3 * 64]], np.int64)
    every = [a // 64 + j for a, _ in regions for j in range(3)]
    sh, pa, pn = fetch_schedule(regions, 6, 8)
    asked = [(int(pa[f]) + 64 * j) // 64 for f in range(6) for j in range(int(pn[f]))]
    assert asked == every, (sh, list(pa), list(pn))
    assert all(0 <= n <= 8 >> sh for n in pn), (sh, list(pn))


@pytest.mark.parametrize("dtype", DTYPES)
def test_grad_t_add_with_k_not_n(dtype):
    """grad_t_add(A (K,N), D (K,M), CT (M,N)): CT + D^T A, K = 5, N = 11, M = MR + 2."""
    K, N, M = 5, 11, MR + 2
    rng = np.random.default_rng(10665)
    A = rng.standard_normal((K, N)).astype(dtype)
    D = rng.standard_normal((K, M)).astype(dtype)
    CT0 = rng.standard_normal((M, N)).astype(dtype)
    CT = CT0.copy()
    blas.grad_t_add(A, D, CT)
    ref = CT0.astype(np.float64) + D.T.astype(np.float64) @ A.astype(np.float64)
    assert np.abs(CT - ref).max() <= tol(dtype, K, ref)


@pytest.mark.parametrize("rec,dwh", [("rgemm", "rgemm"), ("rgemm", "blas"), ("blas", "rgemm"), ("blas", "blas")])
def test_grad_blocks_take_the_large_budget_only_on_rgemm_twice(rec, dwh, monkeypatch):
    """K = 512, N = 1024 in float32: a 2 MB partial, over DWH_L2_BYTES, within DWH_BIG_BYTES. With rgemm per step
    and for dWh: blocks of a quarter of DWH_BIG_BYTES (DWH_BIG_BYTES / 4 / (N * 4) rows) on rgemm; otherwise
    DWH_BLOCK_ROWS rows on the BLAS (rows * N * 4 bytes is over half of DWH_L2_BYTES)."""
    K, N, item = 512, 1024, 4
    assert DWH_L2_BYTES < K * N * item <= DWH_BIG_BYTES
    monkeypatch.setattr(blas, "REC", rec)
    monkeypatch.setattr(blas, "DWH", dwh)
    monkeypatch.setattr(blas, "GRAD", "rgemm")
    if rec == dwh == "rgemm":
        want = (DWH_BIG_BYTES // 4 // (N * item), True)
    else:
        want = (DWH_BLOCK_ROWS, False)
    assert DWH_BLOCK_ROWS * N * item > DWH_L2_BYTES // 2
    assert blas.grad_blocks(K, N, item) == want


@pytest.mark.parametrize("asked,measured", [("blas", "rgemm"), ("rgemm", "blas"), ("RGemm ", "blas")])
def test_lnrnn_dwh_gemm_chooses_with_rgemm_per_step(asked, measured, monkeypatch):
    """With rgemm per step, LNRNN_DWH_GEMM (any case, spaces) is the dWh product, whatever was measured, and the
    reason names it; with the BLAS per step it is ignored (rec_choice.decide_dwh of no ratio)."""
    monkeypatch.setenv("LNRNN_DWH_GEMM", asked)
    name = asked.strip().lower()
    got = blas._asked_dwh("rgemm", "why", measured, "measured")
    assert got == ("rgemm", "why", name, f"LNRNN_DWH_GEMM={name} asks for it")
    assert blas._asked_dwh("blas", "why", measured, "measured") == ("blas", "why",
                                                                     *rec_choice.decide_dwh(None, "blas"))


@pytest.mark.parametrize("asked", ["", "gpu"])
def test_an_unknown_lnrnn_rec_gemm_is_noted_only_when_set(asked, monkeypatch):
    """LNRNN_BLAS=numpy chooses np.dot per step; an LNRNN_REC_GEMM of 'gpu' adds a note that it was ignored,
    an unset one adds nothing."""
    monkeypatch.setenv("LNRNN_BLAS", "numpy")
    monkeypatch.delenv("LNRNN_DWH_GEMM", raising=False)
    if asked:
        monkeypatch.setenv("LNRNN_REC_GEMM", asked)
    else:
        monkeypatch.delenv("LNRNN_REC_GEMM", raising=False)
    why = "LNRNN_BLAS=numpy asks for np.dot"
    if asked:
        why += " (LNRNN_REC_GEMM=gpu is neither rgemm nor blas: ignored)"
    assert blas._choose_rec(True) == ("blas", why, *rec_choice.decide_dwh(None, "blas"))
