"""BN_t over blocks of batch rows (lnrnn/kernels/bn_parts.py) in float64 against NumPy written here: a block's
count, mean and M2 when every row is active and when it holds one row; the step's mean and biased variance
combined from blocks of unequal counts and different means; inference centring on the running mean and
scaling by the running variance (the two kept apart); the BN backward's dL/dx by its formula and by central
differences; add_cols on a column range that starts past 0 (a later part's columns)."""
import numpy as np

from lnrnn.kernels import bn_parts
from gradcheck_util import numeric_grad

B, F = 7, 4
MOM, EPS = 0.3, 1e-3


def data(seed):
    rng = np.random.default_rng(seed)
    return 1.3 * rng.standard_normal((B, F)) + rng.uniform(-2, 2, F), rng.standard_normal((B, F)), rng


def numpy_moments(rows):
    m = rows.mean(0)
    return len(rows), m, ((rows - m) ** 2).sum(0)


def test_rows_moments_full_block_and_one_row_block():
    """Every row of [1, 5) active (the unmasked path): count 4, NumPy's mean and M2 over all four rows; a
    one-row block [5, 6): count 1, that row as mean, M2 0; a block with one active row among padded ones."""
    x, _, _ = data(1)
    lengths = np.array([1, 3, 3, 3, 3, 2, 0], np.int64)
    for (r0, r1), t in (((1, 5), 2), ((5, 6), 1), ((4, 7), 1), ((0, 2), 0)):
        out = np.full(2 * F + 1, np.nan)
        bn_parts.rows_moments(x, lengths, t, r0, r1, out)
        rows = x[r0:r1][t < lengths[r0:r1]]
        n, m, m2 = numpy_moments(rows)
        assert out[0] == n, (r0, r1)
        np.testing.assert_allclose(out[1:F + 1], m, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(out[F + 1:], m2, rtol=1e-12, atol=1e-13)


def test_parts_stats_blocks_of_unequal_counts():
    """Blocks of 1, 4 and 2 active rows with different means: the combined mean and 1/sqrt(var + eps) equal the
    whole batch's (biased variance), the running row (1 - m) old + m (mean, unbiased variance)."""
    x, _, rng = data(2)
    x[1:5] += 3.0  # the second block's mean far from the others'
    blocks = [(0, 1), (1, 5), (5, 7)]
    parts = np.zeros((3, 2 * F + 1))
    for p, (r0, r1) in enumerate(blocks):
        n, m, m2 = numpy_moments(x[r0:r1])
        parts[p, 0], parts[p, 1:F + 1], parts[p, F + 1:] = n, m, m2
    rm0, rv0 = rng.standard_normal(F), rng.uniform(0.5, 2, F)
    rm, rv = rm0.copy(), rv0.copy()
    mean, rstd = np.empty(F), np.empty(F)
    bn_parts.parts_stats(parts, True, True, rm, rv, MOM, EPS, mean, rstd)
    np.testing.assert_allclose(mean, x.mean(0), rtol=1e-12)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(x.var(0) + EPS), rtol=1e-12)
    np.testing.assert_allclose(rm, (1 - MOM) * rm0 + MOM * x.mean(0), rtol=1e-12)
    np.testing.assert_allclose(rv, (1 - MOM) * rv0 + MOM * x.var(0, ddof=1), rtol=1e-12)


def test_parts_stats_inference_reads_mean_and_variance_apart():
    x, _, rng = data(3)
    parts = np.zeros((2, 2 * F + 1))
    parts[:, 0] = 3.0
    rm, rv = rng.standard_normal(F) - 1.0, rng.uniform(2.0, 3.0, F)  # never equal
    rm0, rv0 = rm.copy(), rv.copy()
    mean, rstd = np.empty(F), np.empty(F)
    bn_parts.parts_stats(parts, False, True, rm, rv, MOM, EPS, mean, rstd)
    assert np.array_equal(mean, rm0)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(rv0 + EPS), rtol=1e-14)
    assert np.array_equal(rm, rm0) and np.array_equal(rv, rv0)


def bn_loss(x, dy, gain, act):
    """sum(dy * gain (x - mean) rstd) over the active rows, the statistics taken from those rows (NumPy)."""
    a = x[act]
    return float((dy[act] * gain * (a - a.mean(0)) / np.sqrt(a.var(0) + EPS)).sum())


def test_rows_bwd_dx_against_formula_and_central_differences():
    """Training: dL/dx = gain rstd (dy - mean(dy) - xhat mean(dy xhat)) over the active rows, 0 on padded
    ones, with the sums from rows_bwd_sums; the same by central differences of the NumPy loss."""
    x, dy, rng = data(4)
    gain = rng.uniform(0.5, 1.8, F)
    lengths = np.array([2, 2, 0, 2, 2, 1, 2], np.int64)
    t = 1
    act = t < lengths
    a = x[act]
    mean, rstd = a.mean(0), 1 / np.sqrt(a.var(0) + EPS)
    s1, s2 = np.empty(F), np.empty(F)
    bn_parts.rows_bwd_sums(dy, x, lengths, t, 0, B, mean, rstd, s1, s2)
    xhat = (a - mean) * rstd
    np.testing.assert_allclose(s1, dy[act].sum(0), rtol=1e-12)
    np.testing.assert_allclose(s2, (dy[act] * xhat).sum(0), rtol=1e-12)
    dx = np.full((B, F), np.nan)
    bn_parts.rows_bwd_dx(dy, x, lengths, t, 0, B, mean, rstd, gain, s1, s2, int(act.sum()), True, dx)
    want = np.zeros((B, F))
    want[act] = gain * rstd * (dy[act] - dy[act].mean(0) - xhat * (dy[act] * xhat).mean(0))
    np.testing.assert_allclose(dx, want, rtol=1e-11, atol=1e-12)
    z = x.copy()
    num = numeric_grad(lambda: bn_loss(z, dy, gain, act), z, eps=1e-5, order=2)
    np.testing.assert_allclose(dx, num, rtol=1e-6, atol=1e-7)


def test_add_cols_past_column_0():
    """acc[k0:k1] += v[k0:k1], the other columns untouched."""
    rng = np.random.default_rng(5)
    acc, v = rng.standard_normal(9), rng.standard_normal(9)
    want = acc.copy()
    want[3:7] += v[3:7]
    bn_parts.add_cols(acc, v, 3, 7)
    assert np.array_equal(acc, want)
