"""A BN cell's x side (lnrnn/kernels/bn_cell_x.py), float64, rows of their own lengths (a row that never runs, a
step of one active row, a last step of none), T = 5 past Ts = 2 running rows, means of x far from zero:

- the fold path driven piece by piece, rows in two parts (2 and 3 rows) and the columns in two chunks (so that a
  chunk starts past column 0): the output of every step against BatchNorm of z = x_t W written here in NumPy
  (statistics over the active rows in training, the running rows in inference), the running rows against
  momentum and the unbiased variance, and dx, dW, dgain, dbias against central differences of that NumPy
  forward on a loss that weights the active (step, row)s only;
- the unfolded path (cell_x_forward, cell_x_backward) against the same NumPy forward's central differences for
  dx, dWx, dbias and dgain, and dWh against (h0, y_0, ..., y_{T-2})^T dhw."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_cell_x
from gradcheck_util import numeric_grad

T, Ts, B, I, F, H = 5, 2, 5, 2, 4, 3
LENGTHS = np.array([0, 1, 4, 2, 3], np.int64)   # active rows per step: 4, 3, 2, 1, 0
ROWS = [(0, 2), (2, 5)]
COLS = [(0, 1), (1, 4)]
MOM, EPS = 0.3, 1e-3
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]
assert I <= FOLD_MAX_I


def problem(seed):
    rng = np.random.default_rng(seed)
    p = dict(x=rng.standard_normal((T, B, I)) * np.array([1.0, 2.0]) + np.array([2.0, -1.5]),
             W=rng.standard_normal((I, F)), gain=rng.uniform(0.5, 1.5, F), bias=0.4 * rng.standard_normal(F))
    rm, rv = rng.uniform(1.0, 3.0, (Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    return p, rm, rv, rng.standard_normal((T, B, F)) * ACTIVE[:, :, None]


def numpy_forward(p, rm, rv, training):
    """BN_t(x_t W) in NumPy -> y (T,B,F), running rows after the call."""
    rm, rv = rm.copy(), rv.copy()
    y = np.empty((T, B, F))
    for t in range(T):
        z, act = p["x"][t] @ p["W"], ACTIVE[t]
        n = int(act.sum())
        r = min(t, Ts - 1)
        if training:
            mean = z[act].mean(0) if n else np.zeros(F)
            var = z[act].var(0) if n else np.zeros(F)
            if n and t < Ts:
                rm[t] = (1 - MOM) * rm[t] + MOM * mean
                rv[t] = (1 - MOM) * rv[t] + MOM * var * n / max(n - 1, 1)
        else:
            mean, var = rm[r], rv[r]
        y[t] = (z - mean) / np.sqrt(var + EPS) * p["gain"] + p["bias"]
    return y, rm, rv


def central_differences(p, rm, rv, R, training, h=1e-6):
    return {name: numeric_grad(lambda: (numpy_forward(p, rm, rv, training)[0] * R).sum(), v, eps=h, order=2)
            for name, v in p.items()}


def run_fold(p, rm, rv, R, training, lengths=LENGTHS, rows=ROWS, cols=COLS, mom=MOM, eps=EPS):
    """The fold path piece by piece, rows in the parts `rows`, columns in the chunks `cols` -> y, dict of the
    gradients by name; the sizes come from the arrays (also used by test_values195_bn_cell_x)."""
    x, W, gain, bias = p["x"], p["W"], p["gain"], p["bias"]
    (T, B, I), F, Ts = x.shape, W.shape[1], rm.shape[0]
    active = np.arange(T)[:, None] < lengths[None, :]
    xs = np.full((T, I + I * I), np.nan)
    bn_cell_x.fold_stats(x, lengths, training, xs)
    y = np.full((T, B, F), np.nan)
    dx = np.full((T, B, I), np.nan)
    dW, dgain, dbias = np.zeros((I, F)), np.zeros(F), np.zeros(F)
    for t in range(T):
        n = int(active[t].sum())
        r = min(t, Ts - 1)
        mean, rstd = np.full(F, np.nan), np.full(F, np.nan)
        bn_cell_x.fold_step_stats(xs[t], W, n, training, t < Ts, rm[r], rv[r], mom, eps, mean, rstd)
        for r0, r1 in rows:
            bn_cell_x.fold_rows_forward(x[t], xs[t], W, gain, bias, mean, rstd, training, r0, r1, y[t])
        V = np.full((I, F), np.nan)
        bn_cell_x.fold_v(W, gain, rstd, V)
        P = np.zeros((I, F))
        for r0, r1 in rows:
            Pq = np.full((I, F), np.nan)
            bn_cell_x.fold_rows_sums(R[t], x[t], xs[t], lengths, t, r0, r1, V, Pq, dx[t])
            P += Pq
        s1 = R[t][active[t]].sum(0)
        M, cv = np.full((I, I), np.nan), np.full(I, np.nan)
        for k0, k1 in cols:
            bn_cell_x.fold_step_backward(s1, P, xs[t], W, V, mean, rstd, gain, k0, k1, training, dW, dgain, dbias,
                                         M, cv)
        if training:
            for r0, r1 in rows:
                bn_cell_x.fold_rows_dx(x[t], xs[t], lengths, t, r0, r1, M, cv, n, dx[t])
    return y, dict(x=dx, W=dW, gain=dgain, bias=dbias)


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_fold_pieces_against_numpy_and_central_differences(training):
    p, rm, rv, R = problem(17200 + training)
    y_d, rm_d, rv_d = numpy_forward(p, rm, rv, training)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, grads = run_fold(p, rm_k, rv_k, R, training)
    np.testing.assert_allclose(y, y_d, rtol=1e-9, atol=1e-9, err_msg="y")
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-11, atol=1e-12, err_msg="running mean")
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-10, atol=1e-12, err_msg="running variance")
    num = central_differences(p, rm, rv, R, training)
    for name, g in grads.items():
        assert np.abs(num[name]).max() > 1e-3, name
        np.testing.assert_allclose(g, num[name], rtol=1e-5, atol=1e-6, err_msg=f"d{name}")


def test_unfolded_x_side_against_numpy_and_central_differences():
    p, rm, rv, R = problem(17202)
    rng = np.random.default_rng(17203)
    h0, yh, dhw = rng.standard_normal((B, H)), rng.standard_normal((T, B, H)), rng.standard_normal((T, B, F))
    rm_k, rv_k = rm.copy(), rv.copy()
    xs, xn, mean_x, rstd_x, xw = bn_cell_x.cell_x_forward(p["x"], p["W"], p["gain"], p["bias"], rm_k, rv_k, True,
                                                          MOM, EPS, LENGTHS, False)
    y_d, rm_d, rv_d = numpy_forward(p, rm, rv, True)
    np.testing.assert_allclose(xn[ACTIVE], y_d[ACTIVE], rtol=1e-9, atol=1e-10, err_msg="y")
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-11, atol=1e-12, err_msg="running mean")
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-10, atol=1e-12, err_msg="running variance")
    dx, dWx, dWh, db, dgain = bn_cell_x.cell_x_backward(False, None, R, xw, mean_x, rstd_x, p["gain"], True,
                                                        LENGTHS, dhw, p["x"], h0, yh, p["W"])
    num = central_differences(p, rm, rv, R, True)
    for name, g in (("x", dx), ("W", dWx), ("bias", db), ("gain", dgain)):
        assert np.abs(num[name]).max() > 1e-3, name
        np.testing.assert_allclose(g, num[name], rtol=1e-5, atol=1e-6, err_msg=f"d{name}")
    hprev = np.concatenate([h0[None], yh[:-1]])
    np.testing.assert_allclose(dWh, np.einsum("tbh,tbf->hf", hprev, dhw), rtol=1e-12, atol=1e-12, err_msg="dWh")
