"""The synchronized BatchNorm (lnrnn/kernels/bn_sync.py) split over ranks against the statistics of the
concatenated batch, written out here in NumPy (mean and biased variance over a step's active rows, x_hat =
(x - mean) / sqrt(var + eps); backward dx = gain rstd (dy - mean(dy) - x_hat mean(dy x_hat)) over the active
rows, 0 on a padded row), float64:

- one step's column sums of four ranks (2 rows, none at all, one row of length 0 as distributed.shard_batch
  gives a rank without rows, 4 rows), shifted by running means that differ per column, added over the ranks:
  the statistics from them are the concatenated active rows' mean and variance, and the running rows move to
  them (unbiased variance);
- one step's backward sums and dx on each rank, into buffers that still hold another step's sums (as the
  kernels reuse them) and dx buffers full of NaN, with dy nonzero on padded rows too: the added sums are the
  concatenated rows', each rank's dx the definition's on its rows;
- the x side over every step (_x_forward, _x_backward) on three ranks run on threads (1 + 2 + 4 rows, rank 0
  holding one row of length 0), T = 5 past Ts = 3 running rows: each rank's normalized values, the ranks'
  statistics and running rows are the concatenated batch's, each rank's dx the definition's, and the ranks'
  own dgain and dbias (before their reduction) add up to the sums over every active (step, row)."""
import numpy as np

from lnrnn.kernels import bn_sync
from thread_ranks import run_ranks

EPS, MOM = 1e-3, 0.3
F = 4
SHIFT = np.array([3.0, -2.0, 0.5, 7.0])   # running means far from each other and from 0
RANKS = [slice(0, 2), slice(2, 2), slice(2, 3), slice(3, 7)]
LENGTHS = np.array([3, 1, 0, 2, 3, 1, 2])   # step 2 runs rows 0 and 4 only


def problem(seed, T=3, B=7):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, F)) * np.array([1.0, 3.0, 0.5, 2.0]) + SHIFT
    dy = rng.standard_normal((T, B, F))
    gain = rng.uniform(0.5, 1.5, F)
    return x, dy, gain


def definition(x_t, dy_t, active, gain):
    """mean, var, x_hat, dx of one step's rows (dx 0 on inactive rows) and the sums of dy and dy x_hat."""
    a = x_t[active]
    mean, var = a.mean(0), a.var(0)
    rstd = 1 / np.sqrt(var + EPS)
    xhat = (x_t - mean) * rstd
    d = np.where(active[:, None], dy_t, 0.0)
    s1, s2 = d.sum(0), (d * xhat).sum(0)
    n = active.sum()
    dx = np.where(active[:, None], gain * rstd * (dy_t - s1 / n - xhat * s2 / n), 0.0)
    return mean, var, rstd, xhat, dx, s1, s2


def test_statistics_of_ranks_are_the_concatenated_batchs():
    x, _, _ = problem(1380)
    for t in range(3):
        active = t < LENGTHS
        total = np.zeros(2 * F)
        for sl in RANKS:
            out = np.full(2 * F, np.nan)
            bn_sync.col_sums(np.ascontiguousarray(x[t, sl]), LENGTHS[sl].copy(), t, SHIFT, out)
            total += out
        extra = np.full(2 * F, np.nan)   # the empty row of a rank without rows
        bn_sync.col_sums(np.ascontiguousarray(x[t, :1]), np.zeros(1, np.int64), t, SHIFT, extra)
        np.testing.assert_array_equal(extra, np.zeros(2 * F))
        mean_d, var_d, rstd_d, *_ = definition(x[t], x[t], active, np.ones(F))
        n = int(active.sum())
        mean, rstd = np.full(F, np.nan), np.full(F, np.nan)
        rm, rv = SHIFT.copy(), np.ones(F)
        bn_sync.stats_from_sums(total, n, SHIFT, True, rm, rv, MOM, EPS, mean, rstd)
        np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(rstd, rstd_d, rtol=1e-9)
        np.testing.assert_allclose(rm, (1 - MOM) * SHIFT + MOM * mean_d, rtol=1e-12)
        np.testing.assert_allclose(rv, (1 - MOM) + MOM * var_d * n / max(n - 1, 1), rtol=1e-9)


def test_backward_of_ranks_into_reused_buffers_is_the_concatenated_batchs():
    x, dy, gain = problem(1381)
    for t in (1, 2):
        active = t < LENGTHS
        mean, _, rstd, _, dx_d, s1_d, s2_d = definition(x[t], dy[t], active, gain)
        bufs = []
        for sl in RANKS:
            buf = np.full(2 * F, np.nan)   # the last step's sums first: the buffer is reused
            bn_sync.bwd_sums(np.ascontiguousarray(dy[t - 1, sl]), np.ascontiguousarray(x[t - 1, sl]),
                             LENGTHS[sl].copy(), t - 1, mean, rstd, buf)
            bn_sync.bwd_sums(np.ascontiguousarray(dy[t, sl]), np.ascontiguousarray(x[t, sl]), LENGTHS[sl].copy(),
                             t, mean, rstd, buf)
            bufs.append(buf)
        sums = np.sum(bufs, axis=0)
        np.testing.assert_allclose(sums[:F], s1_d, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(sums[F:], s2_d, rtol=1e-12, atol=1e-12)
        n = int(active.sum())
        for sl in RANKS:
            dx = np.full((sl.stop - sl.start, F), np.nan)
            bn_sync.bwd_dx(np.ascontiguousarray(dy[t, sl]), np.ascontiguousarray(x[t, sl]), LENGTHS[sl].copy(), t,
                           mean, rstd, gain, sums, n, dx)
            np.testing.assert_allclose(dx, dx_d[sl], rtol=1e-10, atol=1e-12)


XRANKS = [slice(0, 1), slice(1, 3), slice(3, 7)]
XLENGTHS = np.array([0, 5, 2, 3, 1, 4, 2])   # row 0 (rank 0's only row) never runs; step 4 runs row 1 alone
T, TS = 5, 3


def test_x_side_over_three_ranks_is_the_concatenated_batchs():
    rng = np.random.default_rng(1382)
    xw = rng.standard_normal((T, 7, F)) * 2.0 + SHIFT
    da = rng.standard_normal((T, 7, F))
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm0, rv0 = np.tile(SHIFT, (TS, 1)), np.ones((TS, F))

    def job(reduce, r):
        sl = XRANKS[r]
        lengths = XLENGTHS[sl].copy()
        x, rm, rv = np.ascontiguousarray(xw[:, sl]), rm0.copy(), rv0.copy()
        xn, mean, rstd, counts = bn_sync._x_forward(reduce, x, lengths, gain, bias, rm, rv, MOM, EPS)
        dxw, dgain, dbias = bn_sync._x_backward(reduce, np.ascontiguousarray(da[:, sl]), x, lengths, mean, rstd,
                                                gain, counts)
        return xn, mean, rstd, counts, rm, rv, dxw, dgain, dbias

    out = run_ranks(3, job)
    rm_d, rv_d = rm0.copy(), rv0.copy()
    dgain_d, dbias_d = np.zeros(F), np.zeros(F)
    for t in range(T):
        active = t < XLENGTHS
        mean, var, rstd, xhat, dx, s1, s2 = definition(xw[t], da[t], active, gain)
        n = int(active.sum())
        if t < TS:
            rm_d[t] = (1 - MOM) * rm_d[t] + MOM * mean
            rv_d[t] = (1 - MOM) * rv_d[t] + MOM * var * n / max(n - 1, 1)
        dbias_d += s1
        dgain_d += s2
        for r, sl in enumerate(XRANKS):
            xn, mean_r, rstd_r, counts = out[r][:4]
            assert counts[t] == n
            np.testing.assert_allclose(mean_r[t], mean, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(rstd_r[t], rstd, rtol=1e-9)
            act = active[sl]
            np.testing.assert_allclose(xn[t][act], (xhat[sl] * gain + bias)[act], rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(out[r][6][t], dx[sl], rtol=1e-9, atol=1e-12)
    for r in range(3):
        np.testing.assert_allclose(out[r][4], rm_d, rtol=1e-12)
        np.testing.assert_allclose(out[r][5], rv_d, rtol=1e-9)
    np.testing.assert_allclose(sum(o[7] for o in out), dgain_d, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sum(o[8] for o in out), dbias_d, rtol=1e-10, atol=1e-12)
