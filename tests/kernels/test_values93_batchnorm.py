"""BatchNorm per step (lnrnn/kernels/batchnorm.py) against its definition written out in NumPy here: at step t
the mean and biased variance over the active rows only (t < lengths[b]), a step with no active row normalized
with mean 0 and variance 0; the running rows blended with momentum and the unbiased variance n/(n-1) (n = 1: the
biased one) for t < Ts, a step with no active row leaving its row alone; inference reading row min(t, Ts-1).
Gradients against central differences of the loss over the active (row, step)s in float64. The definition and
the loss are shared with test_values93_bn_parts, _bn_sync and _bn_cell_x."""
import numpy as np

from lnrnn.kernels import batchnorm
from gradcheck_util import numeric_grad

MOM, EPS = 0.2, 1e-3
# T = 5 steps, B = 6 rows: step 0 all active; steps 1-3 masked (a padded row before a run, a run after it);
# step 3 has one active row; step 4 none
LENGTHS = np.array([1, 4, 3, 1, 3, 2], np.int64)


def bn_definition(x, lengths, gain, bias, rm, rv, training, mom=MOM, eps=EPS):
    """y (T,B,F), mean, rstd (T,F) by the definition; rm, rv (Ts,F) updated in place in training."""
    T, B, F = x.shape
    Ts = rm.shape[0]
    y = np.empty_like(x)
    mean, rstd = np.empty((T, F)), np.empty((T, F))
    for t in range(T):
        act = np.arange(B)[t < lengths]
        if training:
            n = len(act)
            if n == 0:
                m, v = np.zeros(F), np.zeros(F)
            else:
                m = x[t, act].sum(axis=0) / n
                v = ((x[t, act] - m) ** 2).sum(axis=0) / n
                if t < Ts:
                    rm[t] = (1 - mom) * rm[t] + mom * m
                    rv[t] = (1 - mom) * rv[t] + mom * v * (n / (n - 1) if n > 1 else 1.0)
        else:
            m, v = rm[min(t, Ts - 1)], rv[min(t, Ts - 1)]
        mean[t], rstd[t] = m, 1.0 / np.sqrt(v + eps)
        y[t] = (x[t] - m) / np.sqrt(v + eps) * gain + bias
    return y, mean, rstd


def active_loss(y, dy, lengths):
    """sum over the active (row, step)s of dy * y."""
    mask = np.arange(y.shape[0])[:, None] < lengths[None, :]
    return float((dy * y * mask[:, :, None]).sum())


def central(f, a, h=1e-6):
    """Central differences (order 2, step h) of the scalar f() in every entry of a (changed in place, restored)."""
    return numeric_grad(f, a, eps=h, order=2)


def problem(seed, T=5, B=6, F=3, Ts=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, F)) * np.array([1.0, 3.0, 0.5]) + np.array([0.5, -2.0, 4.0])
    gain = 1.0 + 0.5 * rng.standard_normal(F)
    bias = rng.standard_normal(F)
    rm = rng.standard_normal((Ts, F))
    rv = 0.5 + rng.random((Ts, F))
    dy = rng.standard_normal((T, B, F))
    return x, gain, bias, rm, rv, dy


def test_training_forward_with_masks_against_the_definition():
    x, gain, bias, rm, rv, _ = problem(930)
    rm_d, rv_d = rm.copy(), rv.copy()
    y_d, mean_d, rstd_d = bn_definition(x, LENGTHS, gain, bias, rm_d, rv_d, True)
    y, mean, rstd = batchnorm.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS, lengths=LENGTHS)
    np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rstd, rstd_d, rtol=1e-12)
    np.testing.assert_allclose(y, y_d, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(rm, rm_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rv, rv_d, rtol=1e-12)
    # by hand: step 2's rows 1, 2, 4 (lengths > 2), column 0
    act = x[2, [1, 2, 4], 0]
    m = act.mean()
    assert abs(mean[2, 0] - m) < 1e-12
    assert abs(rstd[2, 0] - 1 / np.sqrt(((act - m) ** 2).mean() + EPS)) < 1e-10


def test_running_rows_use_the_unbiased_variance_and_skip_empty_steps():
    T, B, F, Ts = 5, 6, 3, 5
    x, gain, bias, rm, rv, _ = problem(931, T, B, F, Ts)
    rm0, rv0 = rm.copy(), rv.copy()
    batchnorm.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS, lengths=LENGTHS)
    for t in range(T):
        act = x[t, t < LENGTHS]
        n = len(act)
        if n == 0:  # step 4: no row runs, its running row is left alone
            np.testing.assert_array_equal(rm[t], rm0[t])
            np.testing.assert_array_equal(rv[t], rv0[t])
            continue
        unbiased = act.var(axis=0, ddof=1) if n > 1 else act.var(axis=0)
        np.testing.assert_allclose(rm[t], (1 - MOM) * rm0[t] + MOM * act.mean(axis=0), rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(rv[t], (1 - MOM) * rv0[t] + MOM * unbiased, rtol=1e-12, atol=1e-13)


def test_gradients_against_central_differences():
    x, gain, bias, rm, rv, dy = problem(932)
    _, mean, rstd = batchnorm.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS,
                                                      lengths=LENGTHS)
    dx, dgain, dbias = batchnorm.batchnorm_backward(dy, x, mean, rstd, gain, lengths=LENGTHS)

    def loss():
        return active_loss(bn_definition(x, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)[0], dy, LENGTHS)

    for name, g, a in (("x", dx, x), ("gain", dgain, gain), ("bias", dbias, bias)):
        num = central(loss, a)
        assert np.abs(num).max() > 1e-2, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
    mask = np.arange(5)[:, None] < LENGTHS[None, :]
    assert np.all(dx[~mask] == 0.0)  # padded (row, step)s: exactly zero


def test_inference_reads_the_running_rows_past_ts():
    x, gain, bias, rm, rv, dy = problem(933, T=5, Ts=2)
    x = x + 3.0  # far from the running means: batch statistics would differ
    rm0, rv0 = rm.copy(), rv.copy()
    y = batchnorm.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)
    np.testing.assert_array_equal(rm, rm0)
    np.testing.assert_array_equal(rv, rv0)
    for t in range(5):
        r = min(t, 1)
        np.testing.assert_allclose(y[t], (x[t] - rm0[r]) / np.sqrt(rv0[r] + EPS) * gain + bias, rtol=1e-12)
    # the inference backward: statistics are constants, so dx = dy * gain * rstd of the running row
    y2, mean, rstd = batchnorm.bn_forward(x, gain, bias, rm, rv, False, 0.0, EPS)
    np.testing.assert_allclose(y2, y, rtol=1e-14)
    dx, dgain, dbias = batchnorm.bn_backward(dy, x, mean, rstd, gain, False)
    rows = np.minimum(np.arange(5), 1)
    np.testing.assert_allclose(dx, dy * gain / np.sqrt(rv0[rows][:, None, :] + EPS), rtol=1e-12)
    np.testing.assert_allclose(dbias, dy.sum(axis=(0, 1)), rtol=1e-12)
