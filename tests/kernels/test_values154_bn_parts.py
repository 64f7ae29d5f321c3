"""BN_t over batch rows split into blocks (lnrnn/kernels/bn_parts.py) in float64 against NumPy written here:
each block's count, mean and M2 (rows_moments) on blocks of padded rows between active runs, an empty block and
a one-row block; their combination (parts_stats) against the mean and biased variance of all active rows at
once, the running row taken with momentum and the unbiased variance (untouched with no active row, or when not
told to update), inference reading the running row; the backward's two batch sums (rows_bwd_sums) and the rows'
dL/dx (rows_bwd_dx) against the BN backward's formula, with gains and rstd away from 1 and padded rows given
zeros; the same for a block inside the batch."""
import numpy as np
import pytest

from lnrnn.kernels import bn_parts
from gradcheck_util import numeric_grad

B, F = 9, 5
MOM, EPS = 0.3, 1e-3
# step 1: active rows 0, 1, 3, 5, 6 (two runs and gaps); block [2, 3) empty, block [3, 4) one row
LENGTHS = np.array([3, 2, 1, 4, 0, 2, 5, 1, 0], np.int64)
T_STEP = 1
BLOCKS = [(0, 2), (2, 3), (3, 4), (4, 9)]


def data(seed):
    rng = np.random.default_rng(seed)
    x = 1.5 * rng.standard_normal((B, F)) + rng.standard_normal(F)
    dy = rng.standard_normal((B, F))
    return x, dy, rng


def active(t=T_STEP, r0=0, r1=B):
    a = np.zeros(B, bool)
    a[r0:r1] = t < LENGTHS[r0:r1]
    return a


def moments(x, r0, r1):
    out = np.full(2 * F + 1, np.nan)
    bn_parts.rows_moments(x, LENGTHS, T_STEP, r0, r1, out)
    return out


@pytest.mark.parametrize("r0,r1", BLOCKS + [(0, B), (1, 7)])
def test_rows_moments_against_numpy(r0, r1):
    """Count, mean and M2 (sum of squared deviations) of the block's active rows; zeros for an empty block."""
    x, _, _ = data(1)
    rows = x[active(r0=r0, r1=r1)]
    out = moments(x, r0, r1)
    assert out[0] == len(rows)
    want_m = rows.mean(0) if len(rows) else np.zeros(F)
    want_s = ((rows - want_m) ** 2).sum(0) if len(rows) else np.zeros(F)
    np.testing.assert_allclose(out[1:F + 1], want_m, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(out[F + 1:], want_s, rtol=1e-13, atol=1e-13)


def test_rows_moments_every_row_active():
    """The unmasked path (every row of the block active) against NumPy."""
    x, _, _ = data(2)
    out = np.full(2 * F + 1, np.nan)
    bn_parts.rows_moments(x, np.full(B, 3, np.int64), 0, 2, 8, out)
    assert out[0] == 6
    np.testing.assert_allclose(out[1:F + 1], x[2:8].mean(0), rtol=1e-13)
    np.testing.assert_allclose(out[F + 1:], ((x[2:8] - x[2:8].mean(0)) ** 2).sum(0), rtol=1e-13)


def parts_of(x, blocks):
    """Each block's (count, mean, M2) taken by NumPy, one row a block."""
    parts = np.zeros((len(blocks), 2 * F + 1))
    for p, (r0, r1) in enumerate(blocks):
        rows = x[active(r0=r0, r1=r1)]
        parts[p, 0] = len(rows)
        if len(rows):
            parts[p, 1:F + 1] = rows.mean(0)
            parts[p, F + 1:] = ((rows - rows.mean(0)) ** 2).sum(0)
    return parts


@pytest.mark.parametrize("blocks", [BLOCKS, [(0, B)], [(0, 4), (4, 9)]], ids=["four", "one", "two"])
def test_parts_stats_training_against_the_whole_batch(blocks):
    """Mean and 1/sqrt(biased var + eps) of all active rows, however they are split; the running row takes
    (1 - m) old + m (mean, unbiased variance)."""
    x, _, rng = data(3)
    rows = x[active()]
    n = len(rows)
    rm0, rv0 = rng.standard_normal(F), rng.uniform(0.5, 2, F)
    rm, rv = rm0.copy(), rv0.copy()
    mean, rstd = np.empty(F), np.empty(F)
    bn_parts.parts_stats(parts_of(x, blocks), True, True, rm, rv, MOM, EPS, mean, rstd)
    np.testing.assert_allclose(mean, rows.mean(0), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(rows.var(0) + EPS), rtol=1e-12)
    np.testing.assert_allclose(rm, (1 - MOM) * rm0 + MOM * rows.mean(0), rtol=1e-12)
    np.testing.assert_allclose(rv, (1 - MOM) * rv0 + MOM * rows.var(0) * n / (n - 1), rtol=1e-12)
    rm2, rv2 = rm0.copy(), rv0.copy()
    bn_parts.parts_stats(parts_of(x, blocks), True, False, rm2, rv2, MOM, EPS, mean, rstd)
    assert np.array_equal(rm2, rm0) and np.array_equal(rv2, rv0)


def test_parts_stats_one_row_and_no_row():
    """One active row: variance 0 (rstd 1/sqrt(eps)), the running variance takes 0 (n / max(n-1, 1) = 1); no
    active row: mean 0, rstd 1/sqrt(eps), the running row untouched; inference reads the running row."""
    x, _, rng = data(4)
    rm0, rv0 = rng.standard_normal(F), rng.uniform(0.5, 2, F)
    mean, rstd = np.empty(F), np.empty(F)
    rm, rv = rm0.copy(), rv0.copy()
    bn_parts.parts_stats(parts_of(x, [(3, 4), (2, 3)]), True, True, rm, rv, MOM, EPS, mean, rstd)
    np.testing.assert_allclose(mean, x[3], rtol=1e-14)
    np.testing.assert_allclose(rstd, np.full(F, 1 / np.sqrt(EPS)), rtol=1e-12)
    np.testing.assert_allclose(rm, (1 - MOM) * rm0 + MOM * x[3], rtol=1e-13)
    np.testing.assert_allclose(rv, (1 - MOM) * rv0, rtol=1e-13)
    rm, rv = rm0.copy(), rv0.copy()
    bn_parts.parts_stats(parts_of(x, [(2, 3), (4, 5)]), True, True, rm, rv, MOM, EPS, mean, rstd)
    assert np.array_equal(mean, np.zeros(F)) and np.array_equal(rm, rm0) and np.array_equal(rv, rv0)
    np.testing.assert_allclose(rstd, np.full(F, 1 / np.sqrt(EPS)), rtol=1e-12)
    bn_parts.parts_stats(parts_of(x, BLOCKS), False, True, rm, rv, MOM, EPS, mean, rstd)
    assert np.array_equal(mean, rm0) and np.array_equal(rm, rm0)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(rv0 + EPS), rtol=1e-14)


def bn_backward_numpy(dy, x, gain, training):
    """dL/dx of y = gain (x - mean) rstd + bias over the active rows (zeros elsewhere), with mean and rstd the
    active rows' (training: their dependence on x included) or fixed (inference)."""
    a = active()
    rows, d = x[a], dy[a]
    n = len(rows)
    mean = rows.mean(0)
    rstd = 1 / np.sqrt(rows.var(0) + EPS)
    xhat = (rows - mean) * rstd
    if training:
        dx_a = gain * rstd * (d - d.mean(0) - xhat * (d * xhat).mean(0))
    else:
        dx_a = gain * rstd * d
    dx = np.zeros((B, F))
    dx[a] = dx_a
    return dx, mean, rstd, d.sum(0), (d * xhat).sum(0), n


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_bwd_sums_and_dx_against_the_formula(training):
    """The two batch sums over the active rows (split over blocks and added) and each row's dL/dx, padded rows
    zero, within the whole batch and a block inside it."""
    x, dy, rng = data(5)
    gain = rng.uniform(0.5, 2.0, F)
    want, mean, rstd, s1_w, s2_w, n = bn_backward_numpy(dy, x, gain, training)
    assert np.abs(rstd - 1).max() > 0.2
    s1, s2 = np.zeros(F), np.zeros(F)
    for r0, r1 in BLOCKS:
        a1, a2 = np.full(F, np.nan), np.full(F, np.nan)
        bn_parts.rows_bwd_sums(dy, x, LENGTHS, T_STEP, r0, r1, mean, rstd, a1, a2)
        m = active(r0=r0, r1=r1)
        np.testing.assert_allclose(a1, dy[m].sum(0), rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(a2, (dy[m] * (x[m] - mean) * rstd).sum(0), rtol=1e-12, atol=1e-13)
        s1 += a1
        s2 += a2
    np.testing.assert_allclose(s1, s1_w, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(s2, s2_w, rtol=1e-12, atol=1e-13)
    for r0, r1 in [(0, B), (2, 7)]:
        dx = np.full((B, F), np.nan)
        bn_parts.rows_bwd_dx(dy, x, LENGTHS, T_STEP, r0, r1, mean, rstd, gain, s1, s2, n, training, dx)
        np.testing.assert_allclose(dx[r0:r1], want[r0:r1], rtol=1e-11, atol=1e-12)
        assert np.isnan(dx[:r0]).all() and np.isnan(dx[r1:]).all()


def test_bwd_dx_against_central_differences():
    """rows_bwd_dx (training) against central differences of sum(dy * BN_t(x)) over the active rows."""
    x, dy, rng = data(6)
    gain = rng.uniform(0.5, 2.0, F)
    a = active()

    def loss(z):
        r = z[a]
        return float((dy[a] * gain * (r - r.mean(0)) / np.sqrt(r.var(0) + EPS)).sum())

    z = x.copy()
    num = numeric_grad(lambda: loss(z), z, eps=1e-6, order=2)
    _, mean, rstd, s1, s2, n = bn_backward_numpy(dy, x, gain, True)
    dx = np.empty((B, F))
    bn_parts.rows_bwd_dx(dy, x, LENGTHS, T_STEP, 0, B, mean, rstd, gain, s1, s2, n, True, dx)
    np.testing.assert_allclose(dx, num, rtol=1e-6, atol=1e-7)
