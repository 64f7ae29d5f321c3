"""A BN cell's x side on the fold path (lnrnn/kernels/bn_cell_x.py), float64, driven piece by piece as a cell's
time loop does: B = 3 rows of lengths 3, 1, 2 in two parts (row 0, rows 1-2), I = 2, F = 5 columns in two
chunks, T = 4 past Ts = 2 running rows (a step of rows 0 and 2, a step of row 0 alone, an empty last step).
Each step's output against BatchNorm of z = x_t W written here in NumPy (the mean and biased variance of z over
the step's active rows in training, the running rows in inference), the running rows against the momentum rule
with the unbiased variance, and dx, dW, dgain, dbias against central differences (numeric_grad) of that NumPy
forward on a loss that weights the active (step, row)s only."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from gradcheck_util import numeric_grad
from test_values172_bn_cell_x import run_fold

T, Ts, B, I, F = 4, 2, 3, 2, 5
LENGTHS = np.array([3, 1, 2], np.int64)
ROWS = [(0, 1), (1, 3)]
COLS = [(0, 2), (2, 5)]
MOM, EPS = 0.25, 0.5   # eps near the variances: a BN over one or two rows still passes a gradient
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]
assert I <= FOLD_MAX_I and list(ACTIVE.sum(1)) == [3, 2, 1, 0]


def problem(seed):
    rng = np.random.default_rng(seed)
    p = dict(x=rng.standard_normal((T, B, I)) * np.array([0.8, 1.6]) + np.array([-1.5, 2.5]),
             W=rng.standard_normal((I, F)), gain=rng.uniform(0.5, 1.5, F), bias=0.5 * rng.standard_normal(F))
    rm, rv = rng.uniform(-2.0, 2.0, (Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    return p, rm, rv, rng.standard_normal((T, B, F)) * ACTIVE[:, :, None]


def numpy_forward(p, rm, rv, training):
    rm, rv = rm.copy(), rv.copy()
    y = np.empty((T, B, F))
    for t in range(T):
        z = p["x"][t] @ p["W"]
        a = z[ACTIVE[t]]
        n = len(a)
        if training:
            mean = a.sum(0) / n if n else np.zeros(F)
            var = ((a - mean) ** 2).sum(0) / n if n else np.zeros(F)
            if n and t < Ts:
                rm[t] = (1 - MOM) * rm[t] + MOM * mean
                rv[t] = (1 - MOM) * rv[t] + MOM * var * n / (n - 1 if n > 1 else 1)
        else:
            mean, var = rm[min(t, Ts - 1)], rv[min(t, Ts - 1)]
        y[t] = (z - mean) / np.sqrt(var + EPS) * p["gain"] + p["bias"]
    return y, rm, rv


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_fold_pieces_against_numpy_and_central_differences(training):
    p, rm, rv, R = problem(1950 + training)
    y_d, rm_d, rv_d = numpy_forward(p, rm, rv, training)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, grads = run_fold(p, rm_k, rv_k, R, training, LENGTHS, ROWS, COLS, MOM, EPS)
    np.testing.assert_allclose(y[ACTIVE], y_d[ACTIVE], rtol=1e-9, atol=1e-10, err_msg="y")
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-11, atol=1e-12, err_msg="running mean")
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-10, atol=1e-12, err_msg="running variance")
    for name, g in grads.items():
        num = numeric_grad(lambda: float((numpy_forward(p, rm, rv, training)[0] * R).sum()), p[name], eps=1e-6,
                           order=2)
        assert np.abs(num).max() > 1e-2, name
        np.testing.assert_allclose(g[ACTIVE] if name == "x" else g, num[ACTIVE] if name == "x" else num,
                                   rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
