"""batchnorm_cuda's bn_forward and bn_backward against BatchNorm written here by hand in NumPy (and lnrnn/reference.py
where it says the same), in float64 under Numba's simulator (or on a GPU): the statistics of each step over the rows
that run at it only (lengths 3, 0, 1, 3, 2: a row without steps set far off, the last row running at steps 0 and 1
and an empty step 3 that folds nothing), running statistics given as host arrays (updated in place, as the CPU
twin's: mean and unbiased variance, folded with momentum), dgain and dbias kept apart, lengths=None as every row
for all T steps, and inference with running row min(t, Ts - 1).

T = 4, B = 5, F = 5 over tiles of 4 x 4 (neither a multiple), small_blocks' geometry."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference as ref  # noqa: E402
from lnrnn.kernels import batchnorm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from test_cuda_kernels import close, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)

T, B, F, TS = 4, 5, 5, 4
LENGTHS = np.array([3, 0, 1, 3, 2], np.int64)
EPS, MOM = 0.5, 0.3
TOL = 1e-12


def problem():
    rng = np.random.default_rng(207)
    x = rng.standard_normal((T, B, F)) * 1.5 + 0.8
    x[:, 1] += 40.0  # no steps: counting it moves every statistic
    x[:, 4] -= 5.0   # the last row: leaving it out moves steps 0 and 1
    return (x, rng.uniform(0.5, 2.0, F), rng.standard_normal(F), rng.standard_normal((TS, F)),
            rng.uniform(0.5, 1.5, (TS, F)), rng.standard_normal((T, B, F)))


def by_hand(x, gain, bias, rm, rv, dy, lengths):
    """Training BatchNorm step by step over the rows with t < lengths[b]: y, mean, rstd, running rows, dx, dgain,
    dbias (an empty step: mean 0, rstd 1 / sqrt(eps), nothing folded, dx 0)."""
    rm, rv = rm.copy(), rv.copy()
    y, dx = np.zeros_like(x), np.zeros_like(x)
    mean, rstd = np.zeros((T, F)), np.full((T, F), 1 / np.sqrt(EPS))
    dgain, dbias = np.zeros(F), np.zeros(F)
    for t in range(T):
        on = np.flatnonzero(lengths > t)
        if not on.size:
            continue
        rows = x[t, on]
        n, m, var = len(on), rows.mean(0), ((rows - rows.mean(0)) ** 2).mean(0)
        mean[t], rstd[t] = m, 1 / np.sqrt(var + EPS)
        if t < TS:
            rm[t] = (1 - MOM) * rm[t] + MOM * m
            rv[t] = (1 - MOM) * rv[t] + MOM * var * n / max(n - 1, 1)
        xhat = (rows - m) * rstd[t]
        y[t, on] = xhat * gain + bias
        g = dy[t, on]
        dx[t, on] = gain * rstd[t] * (g - g.mean(0) - xhat * (g * xhat).mean(0))
        dgain += (g * xhat).sum(0)
        dbias += g.sum(0)
    return y, mean, rstd, rm, rv, dx, dgain, dbias


def test_train_with_host_running_statistics_and_an_empty_step():
    x, gain, bias, rm, rv, dy = problem()
    y_w, mean_w, rstd_w, rm_w, rv_w, dx_w, dgain_w, dbias_w = by_hand(x, gain, bias, rm, rv, dy, LENGTHS)
    rm_h, rv_h = rm.copy(), rv.copy()  # host arrays: updated in place
    y, mean, rstd = to_host(batchnorm_cuda.bn_forward(x, gain, bias, rm_h, rv_h, True, MOM, EPS, LENGTHS))
    active = np.arange(T)[:, None] < LENGTHS[None, :]
    assert close(mean, mean_w) < TOL
    assert close(rstd, rstd_w) < TOL
    assert close(y[active], y_w[active]) < TOL
    assert close(rm_h, rm_w) < TOL, "running mean"
    assert close(rv_h, rv_w) < TOL, "running var"
    assert np.array_equal(rm_h[3], rm[3]) and np.array_equal(rv_h[3], rv[3])  # the empty step folds nothing
    dx, dgain, dbias = to_host(batchnorm_cuda.bn_backward(dy, x, mean, rstd, gain, True, LENGTHS))
    assert close(dx, dx_w) < TOL
    assert close(dgain, dgain_w) < TOL, "dgain"
    assert close(dbias, dbias_w) < TOL, "dbias"
    assert not dx[~active].any()
    dx_r, dgain_r, dbias_r = ref.batchnorm_backward(dy, x, mean_w, rstd_w, gain, True, LENGTHS)
    assert close(dx, dx_r) < TOL and close(dgain, dgain_r) < TOL and close(dbias, dbias_r) < TOL


def test_lengths_none_is_every_row_for_all_steps():
    x, gain, bias, rm, rv, dy = problem()
    full = np.full(B, T, np.int64)
    y_w, mean_w, rstd_w, rm_w, rv_w, dx_w, dgain_w, dbias_w = by_hand(x, gain, bias, rm, rv, dy, full)
    rm_h, rv_h = rm.copy(), rv.copy()
    y, mean, rstd = to_host(batchnorm_cuda.bn_forward(x, gain, bias, rm_h, rv_h, True, MOM, EPS))
    assert close(y, y_w) < TOL and close(mean, mean_w) < TOL and close(rstd, rstd_w) < TOL
    assert close(rm_h, rm_w) < TOL and close(rv_h, rv_w) < TOL
    dx, dgain, dbias = to_host(batchnorm_cuda.bn_backward(dy, x, mean, rstd, gain, True))
    assert close(dx, dx_w) < TOL and close(dgain, dgain_w) < TOL and close(dbias, dbias_w) < TOL


def test_inference_uses_running_row_min_t_ts_minus_1():
    x, gain, bias, rm, rv, _ = problem()
    rm, rv = rm[:2], rv[:2]  # Ts = 2 < T: steps 2 and 3 use row 1
    y = to_host(batchnorm_cuda.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS))
    rows = np.minimum(np.arange(T), 1)
    want = (x - rm[rows][:, None]) / np.sqrt(rv[rows][:, None] + EPS) * gain + bias
    assert close(y, want) < TOL
