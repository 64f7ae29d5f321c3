"""BN_t over a step's rows held by several parts (lnrnn/kernels/bn_parts.py): the batch split into 1, 2 and 3
parts of rows (a part whose rows are all padded at a step, a run of active rows crossing a part's end), each part's
moments (rows_moments) combined by parts_stats, and each part's backward sums (rows_bwd_sums) added by sum_parts
and finished by rows_bwd_dx, must equal the whole batch: the statistics and running rows of the definition written
out in NumPy (test_values93_batchnorm), and dx, dgain, dbias against its central differences in float64, with
every padded (row, step) exactly zero."""
import numpy as np
import pytest

from lnrnn.kernels import bn_parts
from test_values93_batchnorm import EPS, LENGTHS, MOM, active_loss, bn_definition, central, problem

SPLITS = {
    "one part": [(0, 6)],
    "two parts": [(0, 2), (2, 6)],
    "three parts": [(0, 1), (1, 4), (4, 6)],
    "three uneven parts": [(0, 3), (3, 5), (5, 6)],
}


def parts_forward(x, lengths, rm, rv, split):
    """mean, rstd (T,F) from the parts' moments; rm, rv (Ts,F) updated in place for t < Ts."""
    T, B, F = x.shape
    Ts = rm.shape[0]
    mean, rstd = np.empty((T, F)), np.empty((T, F))
    for t in range(T):
        ex = np.full((len(split), 2 * F + 1), np.nan)
        for p, (r0, r1) in enumerate(split):
            bn_parts.rows_moments(x[t], lengths, t, r0, r1, ex[p])
        r = min(t, Ts - 1)
        bn_parts.parts_stats(ex, True, t < Ts, rm[r], rv[r], MOM, EPS, mean[t], rstd[t])
    return mean, rstd


def parts_backward(dy, x, lengths, mean, rstd, gain, split, training=True):
    """dx (T,B,F), dgain, dbias (F,) from the parts' sums."""
    T, B, F = x.shape
    dx = np.full_like(x, np.nan)
    dgain, dbias = np.zeros(F), np.zeros(F)
    for t in range(T):
        ex = np.full((len(split), 2 * F), np.nan)
        for p, (r0, r1) in enumerate(split):
            bn_parts.rows_bwd_sums(dy[t], x[t], lengths, t, r0, r1, mean[t], rstd[t], ex[p, :F], ex[p, F:])
        s1, s2 = np.empty(F), np.empty(F)
        bn_parts.sum_parts(ex, 0, F, s1)
        bn_parts.sum_parts(ex, F, 2 * F, s2)
        n = int((t < lengths).sum())
        for r0, r1 in split:
            bn_parts.rows_bwd_dx(dy[t], x[t], lengths, t, r0, r1, mean[t], rstd[t], gain, s1, s2, n, training,
                                 dx[t])
        bn_parts.add_cols(dgain, s2, 0, F)
        bn_parts.add_cols(dbias, s1, 0, F)
    return dx, dgain, dbias


@pytest.mark.parametrize("split", list(SPLITS), ids=list(SPLITS))
def test_parts_statistics_equal_the_whole_batch(split):
    x, gain, bias, rm, rv, _ = problem(934)
    rm_d, rv_d = rm.copy(), rv.copy()
    _, mean_d, rstd_d = bn_definition(x, LENGTHS, gain, bias, rm_d, rv_d, True)
    mean, rstd = parts_forward(x, LENGTHS, rm, rv, SPLITS[split])
    np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rstd, rstd_d, rtol=1e-11)
    np.testing.assert_allclose(rm, rm_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rv, rv_d, rtol=1e-11)


def test_rows_moments_of_a_masked_part_by_hand():
    x, *_ = problem(935)
    out = np.full(2 * 3 + 1, np.nan)
    bn_parts.rows_moments(x[1], LENGTHS, 1, 0, 2, out)  # step 1, rows 0 (padded) and 1 (active)
    np.testing.assert_array_equal(out, np.concatenate([[1.0], x[1, 1], np.zeros(3)]))
    bn_parts.rows_moments(x[2], LENGTHS, 2, 1, 4, out)  # step 2, rows 1, 2 active, row 3 padded
    act = x[2, 1:3]
    np.testing.assert_allclose(out, np.concatenate([[2.0], act.mean(0), ((act - act.mean(0)) ** 2).sum(0)]),
                               rtol=1e-13)


@pytest.mark.parametrize("split", list(SPLITS), ids=list(SPLITS))
def test_parts_gradients_equal_central_differences_of_the_whole_batch(split):
    x, gain, bias, rm, rv, dy = problem(936)
    _, mean, rstd = bn_definition(x, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)
    dx, dgain, dbias = parts_backward(dy, x, LENGTHS, mean, rstd, gain, SPLITS[split])

    def loss():
        return active_loss(bn_definition(x, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)[0], dy, LENGTHS)

    for name, g, a in (("x", dx, x), ("gain", dgain, gain), ("bias", dbias, bias)):
        num = central(loss, a)
        assert np.abs(num).max() > 1e-2, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
    mask = np.arange(5)[:, None] < LENGTHS[None, :]
    assert np.all(dx[~mask] == 0.0)


def test_inference_parts_read_the_running_rows():
    x, gain, bias, rm, rv, dy = problem(937)
    mean, rstd = np.empty(3), np.empty(3)
    ex = np.full((2, 7), np.nan)  # not read in inference
    bn_parts.parts_stats(ex, False, False, rm[1], rv[1], MOM, EPS, mean, rstd)
    np.testing.assert_array_equal(mean, rm[1])
    np.testing.assert_allclose(rstd, 1 / np.sqrt(rv[1] + EPS), rtol=1e-14)
    T = x.shape[0]
    M, R = np.tile(mean, (T, 1)), np.tile(rstd, (T, 1))
    dx, _, dbias = parts_backward(dy, x, LENGTHS, M, R, gain, SPLITS["three parts"], training=False)
    mask = (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]
    np.testing.assert_allclose(dx, dy * gain * rstd * mask, rtol=1e-13, atol=0)
    np.testing.assert_allclose(dbias, (dy * mask).sum(axis=(0, 1)), rtol=1e-12)


def test_part_rows_cover_the_blocks_once():
    for B in (5, 7, 12):
        for nblk in (1, 2, 3, 4):
            for n in range(1, nblk + 1):
                got = [bn_parts.part_rows(B, nblk, n, q) for q in range(n)]
                assert got[0][0] == 0 and got[0][2] == 0 and got[-1][1] == nblk and got[-1][3] == B
                for (k0, k1, r0, r1), nxt in zip(got, got[1:] + [None]):
                    assert r0 == (k0 * B) // nblk and r1 == (k1 * B) // nblk
                    if nxt is not None:
                        assert nxt[0] == k1 and nxt[2] == r1
