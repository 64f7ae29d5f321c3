"""BN_t's statistics split over row blocks (lnrnn/kernels/bn_parts.py) against one pass over the whole batch
written here in NumPy: B = 7 rows in the four blocks chunk_bounds(7, 4, k) gives (1, 2, 2 and 2 rows, not a
multiple of any block size), lengths 3, 0, 1, 3, 2, 3, 1 in one batch (an empty row, rows of one step and of
every step), so a step has a block with every row active, one with some and one with none. Each block's
moments against its active rows' count, mean and sum of squared deviations; the combined mean, rstd (biased
variance, eps inside the root) against the whole batch's; the running rows against the momentum formula
(1 - m) r + m s with the unbiased variance n/(n - 1), and left alone when not asked to update; the backward's
dx in inference against gain * rstd * dy written out (zero on padded rows)."""
import numpy as np
import pytest

from lnrnn.kernels import bn_parts
from lnrnn.kernels.cpu.threads import chunk_bounds

T, B, F, NBLK = 3, 7, 3, 4
LENGTHS = np.array([3, 0, 1, 3, 2, 3, 1], np.int64)
MOM, EPS = 0.3, 0.05
BLOCKS = [(0, 1), (1, 3), (3, 5), (5, 7)]  # chunk_bounds(7, 4, k), written out
assert [chunk_bounds(B, NBLK, k) for k in range(NBLK)] == BLOCKS


def slab(seed):
    rng = np.random.default_rng(seed)
    # columns of different means and spreads, so a slip in one moment shows in every column differently
    return rng.standard_normal((B, F)) * np.array([0.5, 2.0, 1.0]) + np.array([3.0, -1.0, 0.25])


def parts_of(x, t):
    """Every block's exchange row (count, mean, M2), as the kernel's time loop fills them."""
    ex = np.full((NBLK, 2 * F + 3), np.nan)
    for k, (r0, r1) in enumerate(BLOCKS):
        bn_parts.rows_moments(x, LENGTHS, t, r0, r1, ex[k])
    return ex


@pytest.mark.parametrize("t", [0, 1, 2])
def test_each_blocks_moments_are_its_active_rows(t):
    x = slab(t)
    ex = parts_of(x, t)
    for k, (r0, r1) in enumerate(BLOCKS):
        rows = x[r0:r1][t < LENGTHS[r0:r1]]
        assert ex[k, 0] == len(rows)
        if len(rows) == 0:
            np.testing.assert_array_equal(ex[k, 1:2 * F + 1], 0.0)
            continue
        m = rows.sum(axis=0) / len(rows)
        np.testing.assert_allclose(ex[k, 1:F + 1], m, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(ex[k, F + 1:2 * F + 1], ((rows - m) ** 2).sum(axis=0), rtol=1e-12, atol=1e-13)
    if t == 0:  # block 2 (rows 3, 4) has both rows active, block 1 (rows 1, 2) one of two
        assert ex[2, 0] == 2 and ex[1, 0] == 1


@pytest.mark.parametrize("t", [0, 1, 2])
def test_blocks_combined_in_order_are_one_pass_over_the_batch_and_the_momentum_update(t):
    x = slab(10 + t)
    rng = np.random.default_rng(20 + t)
    rm0, rv0 = rng.uniform(-2.0, 2.0, F), rng.uniform(0.5, 3.0, F)
    active = x[t < LENGTHS]
    n = len(active)
    assert n == [6, 4, 3][t]
    mean = active.sum(axis=0) / n
    var = ((active - mean) ** 2).sum(axis=0) / n            # biased
    ex = parts_of(x, t)
    got_m, got_r = np.empty(F), np.empty(F)
    rm, rv = rm0.copy(), rv0.copy()
    bn_parts.parts_stats(ex, True, True, rm, rv, MOM, EPS, got_m, got_r)
    np.testing.assert_allclose(got_m, mean, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(got_r, 1.0 / np.sqrt(var + EPS), rtol=1e-12)
    np.testing.assert_allclose(rm, (1 - MOM) * rm0 + MOM * mean, rtol=1e-13)
    np.testing.assert_allclose(rv, (1 - MOM) * rv0 + MOM * var * n / (n - 1), rtol=1e-12)
    # the same step without the update (another part, or a step past the running rows): rows untouched
    rm, rv = rm0.copy(), rv0.copy()
    bn_parts.parts_stats(ex, True, False, rm, rv, MOM, EPS, got_m, got_r)
    np.testing.assert_array_equal(rm, rm0)
    np.testing.assert_array_equal(rv, rv0)
    np.testing.assert_allclose(got_r, 1.0 / np.sqrt(var + EPS), rtol=1e-12)


def test_inference_dx_is_gain_rstd_dy_and_zero_on_padded_rows():
    rng = np.random.default_rng(3)
    t = 1
    x, dy = slab(4), rng.standard_normal((B, F))
    mean, rstd, gain = rng.standard_normal(F), rng.uniform(0.5, 2.0, F), rng.uniform(0.5, 2.0, F)
    s1, s2 = np.empty(F), np.empty(F)
    bn_parts.rows_bwd_sums(dy, x, LENGTHS, t, 0, B, mean, rstd, s1, s2)
    want = np.where((t < LENGTHS)[:, None], gain * rstd * dy, 0.0)
    dx = np.full((B, F), np.nan)
    for r0, r1 in BLOCKS:
        bn_parts.rows_bwd_dx(dy, x, LENGTHS, t, r0, r1, mean, rstd, gain, s1, s2, 4, False, dx)
    np.testing.assert_allclose(dx, want, rtol=1e-14, atol=0.0)
