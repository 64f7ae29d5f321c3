"""The fold path's BN_t(x_t W) (lnrnn/kernels/bn_cell_x.py) driven piece by piece as a cell's parts drive it, on
rows split into three parts of unequal sizes (1, 2 and 4 rows) and the columns into as many chunks, against the
closed form of BatchNorm written out here in NumPy on z = x_t W: the active rows' mean and biased covariance of
x_t (fold_stats), the output of every part's rows (fold_rows_forward, untouched rows stay NaN), and the backward
(fold_v, fold_rows_sums, fold_step_backward, fold_rows_dx) against dz = rstd (g dy - mean(g dy) - zhat
mean(g dy zhat)) over the active rows, dW = x^T dz, dx = dz W^T, dgain = sum dy zhat and dbias = sum dy, and in
inference dz = g rstd dy with the running rows. Rows of their own lengths with the last row active, a step with one
active row and one with none; means of x far from zero, momentum 0.3, eps 1e-3, float64."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_cell_x
from lnrnn.kernels.cpu.threads import chunk_bounds

T, B, I, F, Ts = 5, 7, 3, 4, 3
LENGTHS = np.array([0, 1, 4, 2, 2, 3, 3], np.int64)  # active rows per step: 6, 5, 3, 1, 0
PARTS = [(0, 1), (1, 3), (3, 7)]
MOM, EPS = 0.3, 1e-3
assert I <= FOLD_MAX_I


def problem(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)) * np.array([1.0, 2.0, 0.5]) + np.array([1.5, -1.0, 2.0])
    W = rng.standard_normal((I, F))
    gain, bias = rng.uniform(0.5, 1.8, F), 0.5 * rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.4, 2.0, (Ts, F))
    return x, W, gain, bias, rm, rv, rng.standard_normal((T, B, F))


def stats(x, training):
    xs = np.full((T, I + I * I), np.nan)
    bn_cell_x.fold_stats(x, LENGTHS, training, xs)
    return xs


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_fold_stats(training):
    x = problem(11100)[0]
    xs = stats(x, training)
    for t in range(T):
        act = x[t, t < LENGTHS]
        if not training or len(act) == 0:
            np.testing.assert_array_equal(xs[t], 0.0, err_msg=f"step {t}")
            continue
        m = act.mean(axis=0)
        C = (act - m).T @ (act - m) / len(act)
        np.testing.assert_allclose(xs[t, :I], m, rtol=1e-13, atol=1e-14, err_msg=f"step {t}: mean")
        np.testing.assert_allclose(xs[t, I:].reshape(I, I), C, rtol=1e-12, atol=1e-13, err_msg=f"step {t}: cov")


def run_fold(x, W, gain, bias, rm, rv, dy, training):
    """Every step through the fold pieces, rows in PARTS -> y, mean, rstd, dx, dW, dgain, dbias."""
    xs = stats(x, training)
    y = np.full((T, B, F), np.nan)
    mean, rstd = np.full((T, F), np.nan), np.full((T, F), np.nan)
    dx = np.full((T, B, I), np.nan)
    dW, dgain, dbias = np.zeros((I, F)), np.zeros(F), np.zeros(F)
    for t in range(T):
        n = int((t < LENGTHS).sum())
        r = min(t, Ts - 1)
        bn_cell_x.fold_step_stats(xs[t], W, n, training, t < Ts, rm[r], rv[r], MOM, EPS, mean[t], rstd[t])
        for r0, r1 in PARTS:
            before = y[t].copy()
            bn_cell_x.fold_rows_forward(x[t], xs[t], W, gain, bias, mean[t], rstd[t], training, r0, r1, y[t])
            outside = np.ones(B, bool)
            outside[r0:r1] = False
            np.testing.assert_array_equal(y[t][outside], before[outside], err_msg=f"step {t}: rows {r0}:{r1}")
        V = np.empty((I, F))
        bn_cell_x.fold_v(W, gain, rstd[t], V)
        Ps = np.empty((len(PARTS), I, F))
        for q, (r0, r1) in enumerate(PARTS):
            bn_cell_x.fold_rows_sums(dy[t], x[t], xs[t], LENGTHS, t, r0, r1, V, Ps[q], dx[t])
        P = Ps.sum(axis=0)
        s1 = (dy[t] * (t < LENGTHS)[:, None]).sum(axis=0)
        for q, (r0, r1) in enumerate(PARTS):
            k0, k1 = chunk_bounds(F, len(PARTS), q)
            M, cv = np.empty((I, I)), np.empty(I)
            bn_cell_x.fold_step_backward(s1, P, xs[t], W, V, mean[t], rstd[t], gain, k0, k1, training, dW, dgain,
                                         dbias, M, cv)
            if training:
                bn_cell_x.fold_rows_dx(x[t], xs[t], LENGTHS, t, r0, r1, M, cv, n, dx[t])
    return y, mean, rstd, dx, dW, dgain, dbias


def closed_form(x, W, gain, bias, rm, rv, dy, training):
    """BatchNorm of z = x_t W over the active rows, forward and backward in closed form."""
    y = np.empty((T, B, F))
    dx, dW, dgain, dbias = np.zeros((T, B, I)), np.zeros((I, F)), np.zeros(F), np.zeros(F)
    rm, rv = rm.copy(), rv.copy()
    for t in range(T):
        z, act = x[t] @ W, t < LENGTHS
        n = int(act.sum())
        if training:
            mean = z[act].mean(axis=0) if n else np.zeros(F)
            var = z[act].var(axis=0) if n else np.zeros(F)
            if n and t < Ts:
                rm[t] = (1 - MOM) * rm[t] + MOM * mean
                rv[t] = (1 - MOM) * rv[t] + MOM * var * n / max(n - 1, 1)
        else:
            mean, var = rm[min(t, Ts - 1)], rv[min(t, Ts - 1)]
        rstd = 1 / np.sqrt(var + EPS)
        zhat = (z - mean) * rstd
        y[t] = gain * zhat + bias
        if n == 0:
            continue
        g, zh = (gain * dy[t])[act], zhat[act]
        dz = rstd * (g - g.mean(0) - zh * (g * zh).mean(0)) if training else rstd * g
        dx[t][act] = dz @ W.T
        dW += x[t][act].T @ dz
        dgain += (dy[t][act] * zh).sum(axis=0)
        dbias += dy[t][act].sum(axis=0)
    return y, dx, dW, dgain, dbias, rm, rv


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_fold_pieces_against_the_closed_form(training):
    x, W, gain, bias, rm, rv, dy = problem(11101 + training)
    y_d, dx_d, dW_d, dg_d, db_d, rm_d, rv_d = closed_form(x, W, gain, bias, rm, rv, dy, training)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, mean, rstd, dx, dW, dgain, dbias = run_fold(x, W, gain, bias, rm_k, rv_k, dy, training)
    np.testing.assert_allclose(y, y_d, rtol=1e-10, atol=1e-10, err_msg="y")
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-11, atol=1e-12, err_msg="running mean")
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-10, atol=1e-12, err_msg="running var")
    for name, g, w in (("x", dx, dx_d), ("W", dW, dW_d), ("gain", dgain, dg_d), ("bias", dbias, db_d)):
        assert np.abs(w).max() > 1e-3, name
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-10, err_msg=f"d{name}")
