"""BatchNorm's and the BN-RNN's CUDA twins (batchnorm_cuda, bn_rnn_cuda) under the simulator against their CPU
twins (batchnorm, bn_rnn) and against BatchNorm written out here in NumPy, float64, with every option on: rows
of their own lengths with an empty one (lengths 3, 0, 2: two rows at step 0, one at step 2), training (the
running rows folded) and inference (read from them), gains and biases away from 1 and 0, eps and momentum off
their defaults, fewer running rows than steps. B = 3 rows over 4 lanes, H = F = 5 columns over tiles of 4 (a
second tile with one column).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import batchnorm, batchnorm_cuda, bn_rnn, bn_rnn_cuda  # noqa: E402
from test_cuda_kernels import close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from bn_problems import bn_problem  # noqa: E402

T, B, I, H = 3, 3, 4, 5
LENGTHS = np.array([3, 0, 2], np.int64)
EPS, MOM = 0.05, 0.3
TS = 2  # running rows: step 2 reads (and in training leaves alone) row 1's
TOL = 1e-12


def bn_problem_arrays(seed):
    rng = np.random.default_rng(seed)
    x = 1.5 * rng.standard_normal((T, B, H)) + 0.4
    gain, bias = rng.uniform(0.5, 2.0, H), 0.3 * rng.standard_normal(H)
    rm, rv = 0.3 * rng.standard_normal((TS, H)), rng.uniform(0.5, 2.0, (TS, H))
    return x, gain, bias, rm, rv, rng.standard_normal((T, B, H))


def bn_by_definition(x, gain, bias, rm, rv, training):
    """y (T,B,H) on the active rows (padded rows not compared), from each step's active rows or the running rows."""
    y = np.zeros_like(x)
    for t in range(T):
        on = LENGTHS > t
        if training:
            m, v = x[t][on].mean(0), x[t][on].var(0)
        else:
            r = min(t, TS - 1)
            m, v = rm[r], rv[r]
        y[t][on] = (x[t][on] - m) / np.sqrt(v + EPS) * gain + bias
    return y


def bn_grads_by_definition(dy, x, gain):
    """dx, dgain, dbias of sum(dy * y) over the active rows, training: the batch-statistics formula per step."""
    dx, dg, db = np.zeros_like(x), np.zeros(H), np.zeros(H)
    for t in range(T):
        on = LENGTHS > t
        xa, d = x[t][on], dy[t][on]
        xh = (xa - xa.mean(0)) / np.sqrt(xa.var(0) + EPS)
        dg += (d * xh).sum(0)
        db += d.sum(0)
        dxh = d * gain
        dx[t][on] = (dxh - dxh.mean(0) - xh * (dxh * xh).mean(0)) / np.sqrt(xa.var(0) + EPS)
    return dx, dg, db


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_batchnorm_twin_equals_cpu_twin_and_definition(training):
    """y, mean, rstd and the running rows of the CUDA twin equal the CPU twin's; y on the active rows equals the
    definition; dx, dgain and dbias equal the CPU twin's (and, training, the batch-statistics formula)."""
    x, gain, bias, rm, rv, dy = bn_problem_arrays(9701 + training)
    on = (np.arange(T)[:, None] < LENGTHS[None, :])                     # (T,B)
    dy = dy * on[:, :, None]
    rm_g, rv_g, rm_c, rv_c = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    got = batchnorm_cuda.bn_forward(x, gain, bias, rm_g, rv_g, training, MOM, EPS, LENGTHS)
    want = batchnorm.bn_forward(x, gain, bias, rm_c, rv_c, training, MOM, EPS, LENGTHS)
    y = host(got[0])
    np.testing.assert_allclose(y[on], bn_by_definition(x, gain, bias, rm, rv, training)[on], rtol=0, atol=TOL)
    for k, (g, w) in enumerate(zip(host(list(got)), want)):
        assert close(g, w) < TOL, f"forward output {k}: {close(g, w):.2e}"
    assert close(rm_g, rm_c) < TOL and close(rv_g, rv_c) < TOL, "running rows"
    g_mean, g_rstd = host(got[1]), host(got[2])
    gb = batchnorm_cuda.bn_backward(dy, x, got[1], got[2], gain, training, LENGTHS)
    wb = batchnorm.bn_backward(dy, x, want[1], want[2], gain, training, LENGTHS)
    for name, g, w in zip(("dx", "dgain", "dbias"), host(list(gb)), wb):
        assert close(g, w) < TOL, f"{name}: {close(g, w):.2e}"
    if training:
        for name, g, w in zip(("dx", "dgain", "dbias"), host(list(gb)), bn_grads_by_definition(dy, x, gain)):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-11, err_msg=name)
    else:
        np.testing.assert_allclose(host(gb[2]), dy.sum((0, 1)), rtol=0, atol=TOL, err_msg="dbias: sum of dy")
        rows = np.minimum(np.arange(T), TS - 1)
        xh = (x - rm[rows][:, None]) / np.sqrt(rv[rows][:, None] + EPS)
        np.testing.assert_allclose(host(gb[1]), (dy * xh).sum((0, 1)), rtol=0, atol=TOL, err_msg="dgain")
        np.testing.assert_allclose(g_mean, rm[rows], rtol=0, atol=TOL, err_msg="inference mean")
        np.testing.assert_allclose(g_rstd, 1 / np.sqrt(rv[rows] + EPS), rtol=0, atol=TOL, err_msg="inference rstd")


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_bn_rnn_twin_equals_cpu_twin(training):
    """Every output, saved array, gradient (dgx and dgh on gains that differ) and running row of the CUDA twin
    equals the CPU twin's over T = 3 steps (the carry through Wh runs twice)."""
    rng = np.random.default_rng(9710 + training)
    a, run, dy = bn_problem(rng, "rnn", T, B, I, H, (TS, TS), var_lo=0.3, var_hi=3.0, mean_sc=0.5)
    a["x"] = 2.0 * a["x"]  # batch variances far from 1: rstd shows
    outs = []
    for mod in (bn_rnn_cuda, bn_rnn):
        r = [v.copy() for v in run]
        out = mod.bn_rnn_forward(*a.values(), *r, training, MOM, EPS, lengths=LENGTHS)
        grads = mod.bn_rnn_backward(dy, out[-1], *[a[k] for k in ("x", "h0", "Wx", "Wh", "gx", "gh")])
        outs.append((list(out[:-1]), list(out[-1][1:-2]), list(grads), r))
    for part, name in enumerate(("output", "saved", "gradient", "running row")):
        for k, (g, w) in enumerate(zip(outs[0][part], outs[1][part])):
            g = host(g)
            assert g.shape == w.shape and close(g, w) < TOL, f"{name} {k}: {close(g, w):.2e}"
    dgx, dgh = outs[1][2][5], outs[1][2][6]
    assert close(dgx, dgh) > 1e-3, "the x and h sides' gain gradients differ"
