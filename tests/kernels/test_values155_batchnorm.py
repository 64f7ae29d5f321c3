"""BatchNorm over time (lnrnn/kernels/batchnorm.py) against a per-element computation in float64 written out
here: each step's mean and biased variance over its valid rows only (t < lengths[b]), eps inside the square
root, a step with no valid row (mean 0, rstd 1/sqrt(eps), running row untouched) and a step with one valid row
(variance 0; the running variance takes the biased 0, n / max(n - 1, 1) = 1); the running rows with momentum
and the unbiased variance; the full batch without lengths (B rows each step). The backward against central
differences of the loss summed over the valid (step, row) pairs only: padded rows' dx exactly 0."""
import math

import numpy as np
import pytest

from lnrnn.kernels.batchnorm import batchnorm_backward, batchnorm_forward_train
from gradcheck_util import numeric_grad

EPS = 1e-5
MOM = 0.3


def by_hand(x, gain, bias, rm, rv, lengths):
    """Per-element BatchNorm in Python floats: -> y, mean, rstd; rm, rv (Ts,F) updated in place."""
    T, B, F = x.shape
    y = np.zeros((T, B, F))
    mean = np.zeros((T, F))
    rstd = np.zeros((T, F))
    for t in range(T):
        rows = [b for b in range(B) if t < lengths[b]]
        n = len(rows)
        for f in range(F):
            if n == 0:
                m, var = 0.0, 0.0
            else:
                m = sum(float(x[t, b, f]) for b in rows) / n
                var = sum((float(x[t, b, f]) - m) ** 2 for b in rows) / n
                if t < rm.shape[0]:
                    rm[t, f] = (1 - MOM) * rm[t, f] + MOM * m
                    rv[t, f] = (1 - MOM) * rv[t, f] + MOM * var * n / max(n - 1, 1)
            r = 1.0 / math.sqrt(var + EPS)
            mean[t, f], rstd[t, f] = m, r
            for b in range(B):
                y[t, b, f] = (float(x[t, b, f]) - m) * r * float(gain[f]) + float(bias[f])
    return y, mean, rstd


def problem(T, B, F, seed):
    rng = np.random.default_rng(seed)
    x = 1.5 + 2.0 * rng.standard_normal((T, B, F))
    gain = 1.0 + 0.5 * rng.standard_normal(F)
    bias = rng.standard_normal(F)
    rm = rng.standard_normal((T, F))
    rv = 1.0 + rng.random((T, F))
    return x, gain, bias, rm, rv


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-11), (np.float32, 2e-4)])
def test_forward_over_valid_rows_with_an_empty_and_a_one_step_row(dtype, tol):
    """lengths (3, 1, 0, 2) over T = 3: step 0 has three valid rows, step 1 two, step 2 one (row 0 alone)."""
    T, B, F = 3, 4, 3
    lengths = np.array([3, 1, 0, 2])
    x, gain, bias, rm, rv = problem(T, B, F, 1)
    rm_k, rv_k = rm.astype(dtype), rv.astype(dtype)
    y, mean, rstd = batchnorm_forward_train(x.astype(dtype), gain.astype(dtype), bias.astype(dtype), rm_k, rv_k,
                                            MOM, EPS, lengths)
    want_y, want_m, want_r = by_hand(x.astype(dtype).astype(np.float64), gain.astype(dtype), bias.astype(dtype),
                                     rm, rv, lengths)
    np.testing.assert_allclose(mean, want_m, rtol=tol, atol=tol)
    np.testing.assert_allclose(rstd, want_r, rtol=tol)
    np.testing.assert_allclose(y, want_y, rtol=tol, atol=tol * 10)
    np.testing.assert_allclose(rm_k, rm, rtol=tol, atol=tol)
    np.testing.assert_allclose(rv_k, rv, rtol=tol, atol=tol)
    # the one-row step: that row's value, variance 0, the running variance shrinks by (1 - m) only
    np.testing.assert_allclose(mean[2], x[2, 0].astype(dtype), rtol=tol)
    np.testing.assert_allclose(rstd[2], np.full(F, 1.0 / math.sqrt(EPS)), rtol=tol)


@pytest.mark.parametrize("B", [1, 2, 5])
def test_forward_without_lengths_uses_every_row(B):
    T, F = 2, 3
    x, gain, bias, rm, rv = problem(T, B, F, B)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, mean, rstd = batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, EPS)
    want_y, want_m, want_r = by_hand(x, gain, bias, rm, rv, [T] * B)
    np.testing.assert_allclose(mean, want_m, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rstd, want_r, rtol=1e-11)
    np.testing.assert_allclose(y, want_y, rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(rm_k, rm, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rv_k, rv, rtol=1e-12, atol=1e-12)
    y2, m2, r2 = batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS, np.full(B, T))
    assert np.array_equal(y2, y) and np.array_equal(m2, mean) and np.array_equal(r2, rstd)


@pytest.mark.parametrize("lengths", [(3, 1, 0, 2), (3, 3, 3, 3), (0, 0, 1, 0)])
def test_backward_against_central_differences_of_the_valid_rows(lengths):
    T, B, F = 3, 4, 2
    lengths = np.array(lengths)
    x, gain, bias, rm, rv = problem(T, B, F, 7)
    w = np.random.default_rng(8).standard_normal((T, B, F))
    valid = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]

    def loss(x_, g_, b_):
        y, _, _ = batchnorm_forward_train(x_, g_, b_, rm.copy(), rv.copy(), MOM, EPS, lengths)
        return float(np.sum(np.where(valid, w * y, 0.0)))

    _, mean, rstd = batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS, lengths)
    dx, dgain, dbias = batchnorm_backward(np.where(valid, w, 0.0) + np.where(valid, 0.0, 5.0), x, mean, rstd,
                                          gain, lengths)

    def central(arr, which):
        args = [x, gain, bias]
        args[which] = arr.copy()
        return numeric_grad(lambda: loss(*args), args[which], eps=1e-6, order=2)

    np.testing.assert_allclose(dx, central(x, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dgain, central(gain, 1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dbias, central(bias, 2), rtol=1e-5, atol=1e-6)
    assert np.all(dx[~np.broadcast_to(valid, dx.shape)] == 0.0)
