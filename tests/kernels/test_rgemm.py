"""rgemm (lnrnn/kernels/cpu/rgemm.py) against np.dot in float64: ragged b, H, G (not multiples of the
MR x NR tile, one row, one column, one k), pack's layout and zero padding, and the row statistics."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.rgemm import MR, fetch_schedule, nr_of, pack, rgemm, rgemm_fetch, rgemm_rowstats

NR32 = nr_of(np.float32)
# (b, H, G): ragged around the tile (MR rows, NR columns), single rows/columns/k, and the S1-S3 block shapes
SHAPES = [(1, 1, 1), (1, 7, 1), (1, 3, 5), (MR + 1, 5, NR32 + 1), (MR - 1, 9, 2 * NR32 - 1), (2 * MR + 3, 17, 3 * NR32 + 7),
          (3, 1, NR32), (MR, 11, NR32), (13, 33, 70), (16, 128, 512), (32, 400, 1600), (5, 2, 1)]
# float32: a sum of H products of O(1) values rounded at every FMA; relative to sqrt(H) * max|A||Wh|
RTOL32 = 1e-5


def problem(b, H, G, dtype, seed=0):
    rng = np.random.default_rng(seed + 31 * b + 7 * H + G)
    A = rng.standard_normal((b, H)).astype(dtype)   # (b,H)
    Wh = rng.standard_normal((H, G)).astype(dtype)  # (H,G)
    return A, Wh, A.astype(np.float64) @ Wh.astype(np.float64)  # (b,G) reference in float64


def check(C, ref, dtype, H):
    if dtype == np.float64:
        np.testing.assert_allclose(C, ref, rtol=0, atol=1e-12 * max(1, H))
    else:
        np.testing.assert_allclose(C, ref, rtol=0, atol=RTOL32 * np.sqrt(H) * max(1.0, np.abs(ref).max()) / 4)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("b,H,G", SHAPES)
def test_rgemm_equals_the_product(b, H, G, dtype):
    A, Wh, ref = problem(b, H, G, dtype)
    C = np.full((b, G), np.nan, dtype)  # (b,G) every element must be written
    rgemm(A, pack(Wh), C, G)
    check(C, ref, dtype, H)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rgemm_overwrites_and_is_repeatable(dtype):
    A, Wh, ref = problem(2 * MR + 1, 20, 2 * nr_of(dtype) + 3, dtype)
    Wp = pack(Wh)
    C = np.full(ref.shape, 1e30, dtype)
    rgemm(A, Wp, C, ref.shape[1])
    first = C.copy()
    rgemm(A, Wp, C, ref.shape[1])
    assert np.array_equal(C, first)
    check(C, ref, dtype, 20)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pack_layout_and_zero_padding(dtype):
    H, G = 5, 2 * nr_of(dtype) + 3
    nr = nr_of(dtype)
    Wh = np.arange(1, H * G + 1, dtype=dtype).reshape(H, G)
    Wp = pack(Wh)
    assert Wp.shape == (3, H, nr) and Wp.dtype == dtype and Wp.flags.c_contiguous
    for p in range(3):
        for k in range(H):
            for jj in range(nr):
                j = p * nr + jj
                assert Wp[p, k, jj] == (Wh[k, j] if j < G else 0)
    assert np.all(Wp[2, :, 3:] == 0) and np.all(Wp[2, :, :3] != 0)
    assert pack(np.ones((4, nr), dtype)).shape == (1, 4, nr)  # G a multiple of nr: no padded panel


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rgemm_fetch_is_the_product_whatever_it_fetches(dtype):
    """rgemm_fetch (the product, asking for a plan's cache lines while it runs; rgemm is it with an empty
    plan) gives the same bits with plans of real arrays' regions, an empty plan and more lines than its tiles
    have room for, and the product itself, at ragged sizes (rows not a multiple of MR, columns not of NR:
    edge tiles, which ask for nothing)."""
    rng = np.random.default_rng(6)
    nr = nr_of(dtype)
    big = rng.standard_normal((4, 50, 300)).astype(dtype)  # the regions the plans name
    for b, H, G in [(MR, 4 * MR, nr), (2 * MR + 3, 37, 3 * nr - 5), (1, 5, 2), (5 * MR, 64, 2 * nr)]:
        A = rng.standard_normal((b, H)).astype(dtype)
        Wh = rng.standard_normal((H, G)).astype(dtype)
        Wp = pack(Wh)
        want = np.empty((b, G), dtype)
        rgemm(A, Wp, want, G)
        tol = 1e-12 if dtype == np.float64 else 1e-4
        assert np.abs(want - A.astype(np.float64) @ Wh).max() <= tol * np.sqrt(H) * np.abs(A).max() * np.abs(Wh).max()
        plans = [np.zeros((0, 2), np.int64),
                 np.array([[big[1, 3:9].ctypes.data, big[1, 3:9].nbytes], [big[2].ctypes.data, 77]], np.int64),
                 np.array([[big.ctypes.data, big.nbytes]], np.int64)]
        for plan in plans:
            C = np.full((b, G), np.nan, dtype)
            rgemm_fetch(A, Wp, C, G, plan)
            assert np.array_equal(C, want)


def _schedule_lines(plan, ntiles, K):
    """fetch_schedule's tiles as the sets of cache lines (address // 64) each asks for, checked on the way:
    every tile's lines lie in one region of the plan, its count at most K >> sh."""
    sh, pa, pn = fetch_schedule(plan, ntiles, K)
    assert 0 <= sh <= 2 and pa.shape == pn.shape == (ntiles,)
    tiles = []
    for f in range(ntiles):
        assert 0 <= pn[f] <= K >> sh
        if pn[f] == 0:
            tiles.append(set())
            continue
        first, last = pa[f], pa[f] + (pn[f] - 1) * 64
        assert any(a <= first and last < a + n for a, n in plan), (f, first, last)
        tiles.append({(pa[f] + 64 * j) // 64 for j in range(pn[f])})
    return sh, tiles


def test_fetch_schedule_asks_for_each_line_once_in_order():
    """fetch_schedule walks the plan's regions in order: the tiles' lines never repeat, follow one another,
    and cover every line of every region when the tiles have room (one every 4 steps of k where that is
    enough, every 2 or every step where not); with less room they cover a prefix of the stream."""
    regions = np.array([[64 * 1000, 64 * 40], [64 * 5000 + 12, 700], [64 * 9000, 64], [64 * 20000, 64 * 300]],
                       np.int64)
    lines = [set(range(a // 64, (a + n + 63) // 64)) for a, n in regions]
    lines[1] = {(regions[1, 0] + 64 * j) // 64 for j in range((700 + 63) // 64)}  # from an unaligned start
    every = set().union(*lines)
    for ntiles, K, want_sh in [(40, 64, 2), (40, 32, 1), (40, 16, 0), (5, 1024, 2), (4, 1024, 1), (64, 256, 2)]:
        sh, tiles = _schedule_lines(regions, ntiles, K)
        assert sh == want_sh, (ntiles, K, sh)
        got = [line for t in tiles for line in sorted(t)]
        assert len(got) == len(set(got)), "a line asked for twice"
        order = sorted(every)
        ranks = [order.index(line) for line in got]
        assert ranks == sorted(ranks), "the walk goes back"
        assert set(got) == every, (ntiles, K, len(every - set(got)))
    _, tiles = _schedule_lines(regions, 4, 8)  # room for 32 of 396 lines: the start of the stream
    got = set().union(*tiles)
    assert got and got < every and min(every) in got
    sh, pa, pn = fetch_schedule(np.zeros((0, 2), np.int64), 5, 64)
    assert not pn.any()


def test_wrong_panel_width_or_shapes_are_refused():
    A, Wh, _ = problem(4, 6, 10, np.float64)
    with pytest.raises(ValueError):
        rgemm(A, pack(Wh, nr=4), np.empty((4, 10)), 10)
    with pytest.raises(ValueError):
        rgemm(A, pack(Wh), np.empty((4, 11)), 10)  # C wider than G
    with pytest.raises(ValueError):
        G = 2 * nr_of(np.float64) + 1            # more columns than Wp's panels hold
        rgemm(A, pack(Wh), np.empty((4, G)), G)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("b,H,G", [(1, 1, 1), (MR + 1, 5, NR32 + 1), (2 * MR + 3, 17, 3 * NR32 + 7), (16, 128, 512)])
def test_rowstats_are_the_rows_sums_and_sums_of_squares(b, H, G, dtype):
    A, Wh, ref = problem(b, H, G, dtype)
    C = np.full((b, G), np.nan, dtype)
    s1 = np.full(b, np.nan, dtype)  # (b,)
    s2 = np.full(b, np.nan, dtype)  # (b,)
    rgemm_rowstats(A, pack(Wh), C, G, s1, s2)
    check(C, ref, dtype, H)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(s1, ref.sum(axis=1), rtol=0, atol=tol * np.sqrt(G) * np.sqrt(H) * 10)
    np.testing.assert_allclose(s2, (ref ** 2).sum(axis=1), rtol=tol * 10)


# --- the products over many rows (blas.rows_pack/rows_mul, gemm.matmul), gemm_add, gemm.transposed ----------
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("b,K,N", [(1, 1, 1), (7, 3, 5), (MR * 4 + 5, 28, NR32 - 4), (100, 70, 2 * NR32 + 3),
                                   (33, 1024, 28)])
def test_products_over_many_rows(b, K, N, dtype):
    """rows_mul (rgemm where it runs the per-step products, gemm otherwise) and matmul over ragged
    chunks (the x Wx and dx products of the cells) equal the product."""
    from lnrnn.kernels.cpu.blas import rows_mul, rows_pack
    from lnrnn.kernels.cpu.gemm import matmul
    A, W, ref = problem(b, K, N, dtype, seed=5)
    C = np.full((b, N), np.nan, dtype)
    rows_mul(A, W, rows_pack(W), C)
    check(C, ref, dtype, K)
    check(matmul(A, W, 3), ref, dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("strided", [False, True])
def test_gemm_add_adds_the_product(dtype, trans_a, strided):
    """gemm_add(A, W, out, trans_a): out += A @ W (or A^T @ W), on MKL's path (contiguous operands) and on
    np.dot's (a strided A); gemm overwrites."""
    from lnrnn.kernels.cpu.blas import gemm, gemm_add
    rng = np.random.default_rng(3)
    M, K, N = 9, 37, 2 * NR32 + 3
    A = rng.standard_normal((K, 2 * M) if trans_a else (M, 2 * K)).astype(dtype)
    A = A[:, ::2] if strided else np.ascontiguousarray(A[:, :M] if trans_a else A[:, :K])
    W = rng.standard_normal((K, N)).astype(dtype)
    out0 = rng.standard_normal((M, N)).astype(dtype)
    prod = (A.T if trans_a else A).astype(np.float64) @ W.astype(np.float64)
    out = out0.copy()
    gemm_add(A, W, out, trans_a)
    check(out, out0.astype(np.float64) + prod, dtype, K)
    gemm(A, W, out, trans_a)
    check(out, prod, dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("K,N", [(1, 1), (1, 9), (9, 1), (7, 33), (9, 40), (17, 65), (256, 1024)])
def test_transposed_is_the_transpose(K, N, dtype):
    from lnrnn.kernels.cpu.gemm import transposed
    W = np.random.default_rng(K * N).standard_normal((K, N)).astype(dtype)
    Wt = transposed(W)
    assert Wt.flags.c_contiguous and Wt.shape == (N, K)
    np.testing.assert_array_equal(Wt, W.T)
    np.testing.assert_array_equal(transposed(W[:, ::2]), W[:, ::2].T)  # a strided view


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("K,M,N", [(1, 1, 1), (3, MR + 1, NR32 + 1), (17, 2 * MR + 3, 3 * NR32 + 7), (128, 512, 128),
                                   (5, 33, 70), (40, 7, NR32 - 4)])
def test_grad_t_add_adds_the_transposed_weight_gradient(K, M, N, dtype):
    """grad_t_add: CT (M,N) += D^T A for A (K,N) (packed) and D (K,M) read through its strides (a block
    of a longer gathered buffer), at ragged shapes around the tile; CT keeps what it held (added to,
    not written over)."""
    from lnrnn.kernels.cpu.blas import grad_t_add
    rng = np.random.default_rng(K + 7 * M + 31 * N)
    A = rng.standard_normal((K + 2, N)).astype(dtype)[:K]       # (K,N) the packed side (its N columns: H of dWh)
    D = rng.standard_normal((K + 3, M)).astype(dtype)[:K]       # (K,M) read as D.T
    CT0 = rng.standard_normal((M, N)).astype(dtype)             # (M,N) = D^T A's shape
    CT = CT0.copy()
    grad_t_add(A, D, CT)
    ref = CT0.astype(np.float64) + D.T.astype(np.float64) @ A.astype(np.float64)
    check(CT, ref, dtype, K)
    grad_t_add(A, D, CT)  # twice: the sum again
    check(CT, ref + D.T.astype(np.float64) @ A.astype(np.float64), dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["transposed", "rows", "strided"])
def test_rgemm_add_with_rows_of_any_stride(layout, dtype):
    """rgemm_add's full tiles take A's rows one element apart (a transposed block, rgemm._tile_unit_add)
    only where they are: A C-contiguous and A a view with both strides over one element give the same
    sums as a transposed A, over several full row tiles and a ragged one."""
    from lnrnn.kernels.cpu.rgemm import rgemm_add
    rng = np.random.default_rng(11)
    K, b, G = 19, 3 * MR + 2, 2 * NR32 + 3
    A0 = rng.standard_normal((b, K)).astype(dtype)              # (b,K)
    A = {"transposed": np.ascontiguousarray(A0.T).T, "rows": A0,
         "strided": np.repeat(A0, 2, axis=1)[:, ::2]}[layout]  # the same values, three layouts
    W = rng.standard_normal((K, G)).astype(dtype)               # (K,G)
    C0 = rng.standard_normal((b, G)).astype(dtype)
    C = C0.copy()
    rgemm_add(A, pack(W), C, G)
    check(C, C0.astype(np.float64) + A0.astype(np.float64) @ W.astype(np.float64), dtype, K)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rgemm_add_reads_the_first_rows_of_longer_panels(dtype):
    """rgemm_add with the panels of a longer W (rows past K never read: NaN there) and A a transposed
    view; a C of another shape is refused."""
    from lnrnn.kernels.cpu.rgemm import rgemm_add
    rng = np.random.default_rng(3)
    K, b, G = 9, 2 * MR + 1, NR32 + 5
    A = rng.standard_normal((K, b)).astype(dtype).T             # (b,K) a transposed view
    W = rng.standard_normal((K, G)).astype(dtype)               # (K,G)
    Wp = pack(np.concatenate([W, np.full((4, G), np.nan, dtype)]))  # (P,K+4,NR)
    C = np.zeros((b, G), dtype)
    rgemm_add(A, Wp, C, G)
    check(C, A.astype(np.float64) @ W.astype(np.float64), dtype, K)
    with pytest.raises(ValueError):
        rgemm_add(A, Wp, np.zeros((b, G - 1), dtype), G)
