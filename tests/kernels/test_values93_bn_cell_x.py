"""BN_t(x_t W) of a narrow input without forming x_t W (lnrnn/kernels/bn_cell_x.py, the fold path), piece by
piece as a cell's parts run it, against the definition written out in NumPy (test_values93_batchnorm) applied to
z = x W: fold_stats' mean and covariance of the active rows (a step with one active row, a step with none, zeros
in inference); the statistics, running rows and output of fold_step_stats and fold_rows_forward; and the backward
(fold_v, fold_rows_sums, fold_step_backward, fold_rows_dx), its rows split into 1, 2 and 3 parts and its columns
into as many chunks, against central differences in float64 of the loss over the active (row, step)s, with dx
buffers filled with NaN beforehand (a padded row's dx is exactly zero). Training and inference."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_cell_x
from lnrnn.kernels.cpu.threads import chunk_bounds
from test_values93_batchnorm import EPS, LENGTHS, MOM, active_loss, bn_definition, central

T, B, I, F, Ts = 5, 6, 3, 4, 3
SPLITS = {"one part": [(0, 6)], "two parts": [(0, 2), (2, 6)], "three parts": [(0, 1), (1, 4), (4, 6)]}


def fold_problem(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)) * np.array([1.0, 2.0, 0.5]) + np.array([1.0, -0.5, 2.0])
    W = rng.standard_normal((I, F))
    gain = 1.0 + 0.5 * rng.standard_normal(F)
    bias = rng.standard_normal(F)
    rm = rng.standard_normal((Ts, F))
    rv = 0.5 + rng.random((Ts, F))
    dy = rng.standard_normal((T, B, F))
    return x, W, gain, bias, rm, rv, dy


def fold_run(x, W, gain, bias, rm, rv, dy, training, split):
    """The fold path over every step, its rows split into parts -> y, mean, rstd, dx, dW, dgain, dbias."""
    assert I <= FOLD_MAX_I
    xs = np.full((T, I + I * I), np.nan)
    bn_cell_x.fold_stats(x, LENGTHS, training, xs)
    y = np.full((T, B, F), np.nan)
    mean, rstd = np.full((T, F), np.nan), np.full((T, F), np.nan)
    dx = np.full((T, B, I), np.nan)
    dW, dgain, dbias = np.zeros((I, F)), np.zeros(F), np.zeros(F)
    nparts = len(split)
    for t in range(T):
        n = int((t < LENGTHS).sum())
        r = min(t, Ts - 1)
        bn_cell_x.fold_step_stats(xs[t], W, n, training, t < Ts, rm[r], rv[r], MOM, EPS, mean[t], rstd[t])
        for r0, r1 in split:
            bn_cell_x.fold_rows_forward(x[t], xs[t], W, gain, bias, mean[t], rstd[t], training, r0, r1, y[t])
        V = np.empty((I, F))
        bn_cell_x.fold_v(W, gain, rstd[t], V)
        Ps = np.empty((nparts, I, F))
        for p, (r0, r1) in enumerate(split):
            bn_cell_x.fold_rows_sums(dy[t], x[t], xs[t], LENGTHS, t, r0, r1, V, Ps[p], dx[t])
        P = Ps.sum(axis=0)
        s1 = (dy[t] * (t < LENGTHS)[:, None]).sum(axis=0)
        for q, (r0, r1) in enumerate(split):
            k0, k1 = chunk_bounds(F, nparts, q)
            M, cv = np.empty((I, I)), np.empty(I)
            bn_cell_x.fold_step_backward(s1, P, xs[t], W, V, mean[t], rstd[t], gain, k0, k1, training, dW, dgain,
                                         dbias, M, cv)
            if training:
                bn_cell_x.fold_rows_dx(x[t], xs[t], LENGTHS, t, r0, r1, M, cv, n, dx[t])
    return xs, y, mean, rstd, dx, dW, dgain, dbias


def test_fold_stats_are_the_active_rows_mean_and_covariance():
    x, *_ = fold_problem(950)
    xs = np.full((T, I + I * I), np.nan)
    bn_cell_x.fold_stats(x, LENGTHS, True, xs)
    for t in range(T):
        act = x[t, t < LENGTHS]
        if len(act) == 0:
            np.testing.assert_array_equal(xs[t], 0.0)
            continue
        np.testing.assert_allclose(xs[t, :I], act.mean(0), rtol=1e-13)
        C = np.cov(act.T, bias=True) if len(act) > 1 else np.zeros((I, I))
        np.testing.assert_allclose(xs[t, I:].reshape(I, I), C, rtol=1e-12, atol=1e-14)
    bn_cell_x.fold_stats(x, LENGTHS, False, xs)
    np.testing.assert_array_equal(xs, 0.0)


@pytest.mark.parametrize("split", list(SPLITS), ids=list(SPLITS))
def test_fold_training_against_the_definition_and_central_differences(split):
    x, W, gain, bias, rm, rv, dy = fold_problem(951)
    rm_d, rv_d = rm.copy(), rv.copy()
    y_d, mean_d, rstd_d = bn_definition(x @ W, LENGTHS, gain, bias, rm_d, rv_d, True)
    rm_f, rv_f = rm.copy(), rv.copy()
    _, y, mean, rstd, dx, dW, dgain, dbias = fold_run(x, W, gain, bias, rm_f, rv_f, dy, True, SPLITS[split])
    np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rstd, rstd_d, rtol=1e-10)
    np.testing.assert_allclose(y, y_d, rtol=1e-10, atol=1e-11)
    np.testing.assert_allclose(rm_f, rm_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rv_f, rv_d, rtol=1e-10)

    def loss():
        return active_loss(bn_definition(x @ W, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)[0], dy, LENGTHS)

    for name, g, a in (("x", dx, x), ("W", dW, W), ("gain", dgain, gain), ("bias", dbias, bias)):
        num = central(loss, a)
        assert np.abs(num).max() > 1e-2, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
    mask = np.arange(T)[:, None] < LENGTHS[None, :]
    assert np.all(dx[~mask] == 0.0)


def test_fold_inference_reads_the_running_rows():
    x, W, gain, bias, rm, rv, dy = fold_problem(952)
    rm = rm + 2.0  # far running means: the output's offset o_k is felt
    rm0, rv0 = rm.copy(), rv.copy()
    y_d = bn_definition(x @ W, LENGTHS, gain, bias, rm.copy(), rv.copy(), False)[0]
    _, y, mean, rstd, dx, dW, dgain, dbias = fold_run(x, W, gain, bias, rm, rv, dy, False, SPLITS["two parts"])
    np.testing.assert_array_equal(rm, rm0)
    np.testing.assert_array_equal(rv, rv0)
    np.testing.assert_allclose(y, y_d, rtol=1e-11, atol=1e-12)

    def loss():
        return active_loss(bn_definition(x @ W, LENGTHS, gain, bias, rm0.copy(), rv0.copy(), False)[0], dy,
                           LENGTHS)

    for name, g, a in (("x", dx, x), ("W", dW, W), ("gain", dgain, gain), ("bias", dbias, bias)):
        num = central(loss, a)
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
