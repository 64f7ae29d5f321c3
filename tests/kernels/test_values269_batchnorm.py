"""BatchNorm's CPU op (lnrnn/kernels/batchnorm.py) in float64 against the per-step statistics written out here:
lengths 4, 0, 1, 2, 3 in one batch of T = 4 (active rows 4, 3, 2, 1; the last row active on three steps, a row of
length 0 in the middle), the mean and biased variance of the active rows only, padded rows normalized with them;
the running rows after one and after two training calls against (1 - m) old + m (mean, unbiased variance) at
momentum 0.3 with Ts = 3 < T (step 3 records nothing, its one row gives a biased variance of 0); inference with
Ts = 2 rows over T = 4 steps (row 1 serves steps 1, 2 and 3, nothing written); the training backward against
central differences of the loss over the active (row, step)s, and the inference backward against gain rstd dy."""
import numpy as np

from lnrnn.kernels import batchnorm
from gradcheck_util import numeric_grad

T, B, F = 4, 5, 3
LENGTHS = np.array([4, 0, 1, 2, 3], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]  # (T,B): rows 4, 3, 2, 1 per step
MOM, EPS = 0.3, 1e-3


def data(seed, Ts=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, F)) * np.array([1.0, 2.5, 0.4]) + np.array([0.3, -1.2, 2.0])
    return (x, rng.uniform(0.5, 1.5, F), 0.4 * rng.standard_normal(F), 0.5 * rng.standard_normal((Ts, F)),
            rng.uniform(0.5, 2.0, (Ts, F)))


def stats_by_hand(x_t, active):
    """Mean, biased variance and unbiased variance of the active rows, column by column, as sums."""
    rows = [x_t[b] for b in range(B) if active[b]]
    n = len(rows)
    mean = sum(rows) / n
    m2 = sum((r - mean) ** 2 for r in rows)
    return n, mean, m2 / n, m2 / max(n - 1, 1)


def test_per_step_statistics_over_the_active_rows_and_two_momentum_updates():
    assert ACTIVE.sum(1).tolist() == [4, 3, 2, 1] and ACTIVE[:3, B - 1].all()
    x1, gain, bias, rm0, rv0 = data(1)
    x2 = data(2)[0]
    rm, rv = rm0.copy(), rv0.copy()
    want_rm, want_rv = rm0.copy(), rv0.copy()
    for x in (x1, x2):
        y, mean, rstd = batchnorm.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS, lengths=LENGTHS)
        for t in range(T):
            n, m, var, uvar = stats_by_hand(x[t], ACTIVE[t])
            assert n == T - t
            assert np.allclose(mean[t], m, rtol=0, atol=1e-13), t
            assert np.allclose(rstd[t], 1.0 / np.sqrt(var + EPS), rtol=1e-12, atol=0), t
            assert np.allclose(y[t], (x[t] - m) / np.sqrt(var + EPS) * gain + bias, rtol=0, atol=1e-12), t
            if t < 3:
                want_rm[t] = 0.7 * want_rm[t] + 0.3 * m
                want_rv[t] = 0.7 * want_rv[t] + 0.3 * uvar
        assert np.allclose(rm, want_rm, rtol=0, atol=1e-13) and np.allclose(rv, want_rv, rtol=0, atol=1e-13)
    assert not np.allclose(want_rm, rm0)  # two updates moved every row


def test_inference_reuses_the_last_running_row():
    x, gain, bias, rm, rv = data(3, Ts=2)
    rm0, rv0 = rm.copy(), rv.copy()
    y = batchnorm.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)
    for t in range(T):
        row = 0 if t == 0 else 1
        assert np.allclose(y[t], (x[t] - rm0[row]) / np.sqrt(rv0[row] + EPS) * gain + bias, rtol=0, atol=1e-12)
    assert np.array_equal(rm, rm0) and np.array_equal(rv, rv0)


def masked_loss(x, gain, bias, rm, rv, dy):
    y, _, _ = batchnorm.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS, lengths=LENGTHS)
    return float((dy * y)[ACTIVE].sum())


def test_training_backward_against_central_differences():
    x, gain, bias, rm, rv = data(4)
    dy = np.random.default_rng(5).standard_normal((T, B, F))
    _, mean, rstd = batchnorm.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS,
                                                      lengths=LENGTHS)
    dx, dgain, dbias = batchnorm.batchnorm_backward(dy, x, mean, rstd, gain, lengths=LENGTHS)
    for name, arr, got in (("x", x, dx), ("gain", gain, dgain), ("bias", bias, dbias)):
        num = numeric_grad(lambda: masked_loss(x, gain, bias, rm, rv, dy), arr, eps=1e-5, order=2)
        assert np.allclose(got, num, rtol=1e-6, atol=1e-7), name
    assert np.all(dx[~ACTIVE] == 0.0)
    assert np.allclose(dbias, dy[ACTIVE].sum(0), rtol=0, atol=1e-12)


def test_inference_backward_is_gain_rstd_dy_on_active_rows():
    x, gain, bias, rm, rv = data(6)
    dy = np.random.default_rng(7).standard_normal((T, B, F))
    mean = np.repeat(rm[:1], T, 0) + 0.1 * np.arange(T)[:, None]
    rstd = 1.0 / np.sqrt(np.repeat(rv[:1], T, 0) + EPS)
    dx, dgain, dbias = batchnorm.bn_backward(dy, x, mean, rstd, gain, False, lengths=LENGTHS)
    want = np.where(ACTIVE[:, :, None], gain * rstd[:, None, :] * dy, 0.0)
    assert np.allclose(dx, want, rtol=0, atol=1e-12)
    xhat = (x - mean[:, None, :]) * rstd[:, None, :]
    assert np.allclose(dgain, (dy * xhat)[ACTIVE].sum(0), rtol=0, atol=1e-12)
    assert np.allclose(dbias, dy[ACTIVE].sum(0), rtol=0, atol=1e-12)
