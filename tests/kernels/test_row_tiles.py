"""rgemm_fetch's row tiles (lnrnn/kernels/cpu/rgemm.py: row_tiles): tiles of MR rows, then of 4, then one
clamped tile of 4 for the rows left, so that the batch blocks lnrnn uses (powers of two: threads.batch_blocks)
compute no clamped rows where MR is 6 (AVX2; 16 = 2 x 6 + 4, 32 = 4 x 6 + 2 x 4). Checked against the
definition (every row in exactly one tile) and the product against float64 and against itself row by row:
an element's sum over k runs in one order whatever its tile, so its bits cannot depend on b."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.rgemm import MR, nr_of, pack, rgemm_fetch, row_tiles


def covered(b):
    """The rows row_tiles(b)'s tiles start at and how many each computes, laid end to end."""
    n, m, e = row_tiles(b)
    return [(t * MR, MR) for t in range(n)] + [(n * MR + 4 * t, 4) for t in range(m + (e > 0))]


@pytest.mark.parametrize("b", range(1, 71))
def test_every_row_in_one_tile_and_at_most_three_clamped(b):
    n, m, e = row_tiles(b)
    assert n >= 0 and m >= 0 and 0 <= e < 4
    assert n * MR + 4 * m + e == b
    tiles = covered(b)
    starts = [s for s, _ in tiles]
    assert starts == sorted(starts) and starts[0] == 0
    for (s, k), (s2, _) in zip(tiles, tiles[1:]):
        assert s + k == s2  # tiles adjoin: no row twice, none skipped
    computed = sum(k for _, k in tiles)
    assert b <= computed <= b + 3


@pytest.mark.parametrize("b", [4, 8, 16, 32, 64, 128, 256])
def test_the_blocks_lnrnn_uses_compute_no_clamped_row(b):
    assert sum(k for _, k in covered(b)) == b


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_product_at_every_b_equals_float64_and_each_row_alone(dtype):
    """b = 1 .. 3 MR + 5 (every tiling: MR tiles, tiles of 4, the clamped edge, with a column edge too): C
    written whole and nothing past it, within float32's rounding of the float64 product, and each row the same
    bits as that row multiplied alone (b = 1)."""
    rng = np.random.default_rng(17)
    H, G = 9, 2 * nr_of(dtype) + 3
    Wh = rng.standard_normal((H, G)).astype(dtype)  # (H,G)
    Wp = pack(Wh)
    plan = np.zeros((0, 2), np.int64)
    for b in range(1, 3 * MR + 6):
        A = rng.standard_normal((b, H)).astype(dtype)  # (b,H)
        buf = np.full((b + 1, G), np.nan, dtype)       # (b+1,G) C and a guard row after it
        C = buf[:b]
        rgemm_fetch(A, Wp, C, G, plan)
        assert np.isnan(buf[b]).all()
        ref = A.astype(np.float64) @ Wh.astype(np.float64)
        tol = 1e-12 if dtype == np.float64 else 1e-5
        assert np.abs(C - ref).max() <= tol * np.sqrt(H) * np.abs(ref).max(), b
        for i in range(b):
            one = np.empty((1, G), dtype)
            rgemm_fetch(A[i:i + 1].copy(), Wp, one, G, plan)
            assert np.array_equal(one[0], C[i]), (b, i)
