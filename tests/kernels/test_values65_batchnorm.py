"""BatchNorm per step (lnrnn/kernels/batchnorm.py) against its definition written here in NumPy, float64: rows
of their own lengths with a step where one row is active and a step where none is, running rows updated over
several batches with momentum and then used in inference (row min(t, Ts-1)), eps inside the square root (an eps
of 0.3, far from rounding), and the backward against central differences of the loss over the active (row,
step)s (dy at padded ones is set and must be ignored: it adds nothing to dgain or dbias), for T = 3 (three
chunks of one step) and T = 11 (more steps than config.BN_TIME_CHUNKS: chunks of one and two steps)."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn.config import BN_TIME_CHUNKS
from lnrnn.kernels.batchnorm import batchnorm_backward, batchnorm_forward_infer, batchnorm_forward_train

MOM = 0.25


def lengths_for(T, B):
    """Rows of their own lengths: at step T-2 only row 0 is active, at step T-1 none is."""
    lengths = np.array([T - 1, 2, 0, T - 2, 1, 3][:B], np.int64)
    lengths = np.minimum(lengths, T - 1)
    lengths[0] = T - 1
    lengths[1:][lengths[1:] >= T - 1] = T - 2
    return lengths


def definition(x, gain, bias, rm, rv, eps, lengths, training=True):
    """y (T,B,F), mean, var (T,F); rm, rv (Ts,F) updated in place in training (rows t < Ts, steps with an
    active row), read at row min(t, Ts-1) in inference."""
    T, B, F = x.shape
    y = np.empty_like(x)
    mean, var = np.zeros((T, F)), np.zeros((T, F))
    for t in range(T):
        if training:
            rows = x[t][t < lengths]
            n = rows.shape[0]
            if n:
                mean[t] = rows.sum(axis=0) / n
                var[t] = ((rows - mean[t]) ** 2).sum(axis=0) / n
                if t < rm.shape[0]:
                    rm[t] = (1 - MOM) * rm[t] + MOM * mean[t]
                    rv[t] = (1 - MOM) * rv[t] + MOM * var[t] * n / max(n - 1, 1)
        else:
            r = min(t, rm.shape[0] - 1)
            mean[t], var[t] = rm[r], rv[r]
        y[t] = (x[t] - mean[t]) / np.sqrt(var[t] + eps) * gain + bias
    return y, mean, var


def problem(seed, T, B, F, Ts):
    rng = np.random.default_rng(seed)
    x = 0.8 * rng.standard_normal((T, B, F)) + 0.4
    gain, bias = rng.uniform(0.5, 2.0, F), rng.standard_normal(F)
    rm, rv = 0.2 * rng.standard_normal((Ts, F)), rng.uniform(0.3, 1.5, (Ts, F))
    return x, gain, bias, rm, rv, rng.standard_normal((T, B, F))


@pytest.mark.parametrize("eps", [1e-5, 0.3])
@pytest.mark.parametrize("T", [3, BN_TIME_CHUNKS + 3])
def test_masked_training_against_the_definition(T, eps):
    """y, mean, rstd = 1/sqrt(var + eps) of each step's active rows (one at step T-2, none at T-1: mean 0,
    variance 0), and the running rows of the steps t < Ts with an active row; Ts < T."""
    B, F, Ts = 6, 4, T - 1
    x, gain, bias, rm, rv, _ = problem(6500 + T, T, B, F, Ts)
    lengths = lengths_for(T, B)
    assert (np.arange(T)[:, None] < lengths).sum(axis=1)[-2:].tolist() == [1, 0]
    rm_d, rv_d, rm_k, rv_k = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    y_d, mean_d, var_d = definition(x, gain, bias, rm_d, rv_d, eps, lengths)
    y, mean, rstd = batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, eps, lengths=lengths)
    np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(var_d + eps), rtol=1e-12)
    np.testing.assert_allclose(y, y_d, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-12, atol=1e-14)
    # the last running row (Ts-1 = T-2) by hand: only row 0 runs there (n = 1: its value, variance 0)
    np.testing.assert_allclose(rm_k[T - 2], (1 - MOM) * rm[T - 2] + MOM * x[T - 2, 0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rv_k[T - 2], (1 - MOM) * rv[T - 2], rtol=1e-12)


@pytest.mark.parametrize("eps", [1e-5, 0.3])
@pytest.mark.parametrize("T", [3, BN_TIME_CHUNKS + 3])
def test_masked_backward_against_central_differences(T, eps):
    """dx, dgain, dbias of the loss sum(dy * y) over the active (row, step)s: central differences of the
    definition. Padded (row, step)s get dx = 0; their dy (set here) adds nothing."""
    B, F = 5, 3
    x, gain, bias, rm, rv, dy = problem(6510 + T, T, B, F, T)
    lengths = lengths_for(T, B)
    active = np.arange(T)[:, None] < lengths[None, :]
    y, mean, rstd = batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, eps, lengths=lengths)
    dx, dgain, dbias = batchnorm_backward(dy, x, mean, rstd, gain, lengths=lengths)
    p = dict(x=x.copy(), gain=gain.copy(), bias=bias.copy())

    def loss():
        yd = definition(p["x"], p["gain"], p["bias"], rm.copy(), rv.copy(), eps, lengths)[0]
        return float((dy * yd)[active].sum())

    num = {k: numeric_grad(loss, p[k], eps=1e-5, order=2) for k in p}
    np.testing.assert_array_equal(dx[~active], 0.0)
    for name, got in [("x", dx), ("gain", dgain), ("bias", dbias)]:
        assert np.abs(num[name]).max() > 1e-2, name
        np.testing.assert_allclose(got, num[name], rtol=1e-6, atol=1e-7, err_msg=name)
    # dbias by hand: the sum of dy over the active (row, step)s
    np.testing.assert_allclose(dbias, (dy * active[:, :, None]).sum(axis=(0, 1)), rtol=1e-12)


@pytest.mark.parametrize("T", [3, BN_TIME_CHUNKS + 3])
def test_running_rows_over_three_batches_then_inference(T):
    """Three training batches with momentum 0.25 (each of its own rows' lengths), then inference with the
    running rows they left: row min(t, Ts-1) serves the steps past Ts; the running rows are not touched."""
    B, F, Ts = 5, 3, 2
    rng = np.random.default_rng(6520 + T)
    _, gain, bias, rm, rv, _ = problem(6520 + T, T, B, F, Ts)
    rm_d, rv_d, rm_k, rv_k = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    for k in range(3):
        x = 1.5 * rng.standard_normal((T, B, F)) + k
        lengths = rng.integers(0, T + 1, B)
        definition(x, gain, bias, rm_d, rv_d, 1e-5, lengths)
        batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, 1e-5, lengths=lengths)
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-12, atol=1e-14)
    x = rng.standard_normal((T, B, F))
    frozen = rm_k.copy(), rv_k.copy()
    y = batchnorm_forward_infer(x, gain, bias, rm_k, rv_k, 0.3)
    y_d = definition(x, gain, bias, rm_d, rv_d, 0.3, None, training=False)[0]
    np.testing.assert_allclose(y, y_d, rtol=1e-12, atol=1e-13)
    np.testing.assert_array_equal(rm_k, frozen[0])
    np.testing.assert_array_equal(rv_k, frozen[1])
