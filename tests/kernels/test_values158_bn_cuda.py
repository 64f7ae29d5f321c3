"""bn_lstm_cuda and bn_rnn_cuda (the recurrent-BN cells' CUDA twins) against lnrnn/reference.py, the NumPy spec, in
float64 under the simulator: T = 4 steps, B = 6 rows (not a multiple of the 4-row lanes) of lengths
(3, 0, 1, 2, 3, 1): an empty row, one-step rows, and a last step where no row runs; H = 5 hidden units over tiles
of 4; initial states h0 and c0 given (and different); eps 0.2 and momentum 0.6, away from the defaults. Running
rows x 2 (past max_steps from step 2), h 4 and cell 4 (the empty step 3 has a row of its own, which it must leave
alone), or h 2 and cell 2 (steps 2 and 3 past max_steps, rows running at step 2). Training and evaluation (step t
reads the running row min(t, Ts-1)); Graves's gate clip 0.05 and off. Every output, saved statistic, running row
and the gradient of every input and parameter. A device lengths array of int32 is refused.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem  # noqa: E402
from lnrnn import reference as ref  # noqa: E402
from lnrnn.kernels import batchnorm_cuda, bn_lstm_cuda, bn_rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)

T, B, I, H = 4, 6, 2, 5
LENGTHS = np.array([3, 0, 1, 2, 3, 1], np.int64)  # step 3: no row runs
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]  # (T,B)
EPS, MOM = 0.2, 0.6
ROWS_LONG = (2, 4, 4)   # x past max_steps; h and cell reach the empty step 3
ROWS_SHORT = (2, 2, 2)  # every side past max_steps from step 2, where row 0 and row 4 still run
LSTM_GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc")
RNN_GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh")


def problem(cell, seed, rows):
    a, run, dy = bn_problem(np.random.default_rng(seed), cell, T, B, I, H, rows if cell == "lstm" else rows[:2],
                            var_lo=0.4, var_hi=2.5, mean_sc=0.6)
    return a, run, dy


def check(name, got, want, tol=TOL64):
    got = host(got)
    assert got.shape == want.shape, name
    assert np.all(np.isfinite(got)), f"{name}: not finite"
    assert close(got, want, floor=1e-3) < tol, f"{name}: {close(got, want, floor=1e-3):.2e}"


@pytest.mark.parametrize("training, rows, clip", [(True, ROWS_LONG, 0.0), (True, ROWS_SHORT, 0.05),
                                                  (False, ROWS_SHORT, 0.05)])
def test_bn_lstm_equals_the_spec(training, rows, clip):
    a, run, dy = problem("lstm", 15801, rows)
    run_g, run_r = [r.copy() for r in run], [r.copy() for r in run]
    y, hT, cT, saved = bn_lstm_cuda.bn_lstm_forward(*a.values(), *run_g, training, MOM, EPS, lengths=LENGTHS)
    y_r, hT_r, cT_r, sv = ref.bn_lstm_forward(*a.values(), *run_r, training, MOM, EPS, lengths=LENGTHS)
    check("y", y, y_r)
    check("hT", hT, hT_r)
    check("cT", cT, cT_r)
    steps = sv["steps"]
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc = saved[:11]
    for name, got, key in (("mean_x", mean_x, "mx"), ("rstd_x", rstd_x, "sx"), ("hw", hw, "hw"),
                           ("mean_h", mean_h, "mh"), ("rstd_h", rstd_h, "sh"), ("c", c, "c"),
                           ("mean_c", mean_c, "mc"), ("rstd_c", rstd_c, "sc"), ("tc", tc, "tc")):
        check(name, got, np.stack([s[key] for s in steps]))
    check("gates", gates, np.stack([np.concatenate([s[k] for k in "ifgo"], axis=1) for s in steps]))
    for k, (g, w) in enumerate(zip(run_g, run_r)):
        check(f"running row {k}", g, w)
    if not training:
        assert all(np.array_equal(host(g), r) for g, r in zip(run_g, run))
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
    grads = bn_lstm_cuda.bn_lstm_backward(dy, saved, *[a[k] for k in keys], clip=clip)
    want = ref.bn_lstm_backward(dy, sv, *[a[k] for k in keys], clip=clip)
    for name, g, w in zip(LSTM_GRADS, grads, want):
        check(name, g, w)
        assert np.abs(w).max() > 1e-6, name


@pytest.mark.parametrize("training, rows", [(True, ROWS_LONG), (True, ROWS_SHORT), (False, ROWS_SHORT)])
def test_bn_rnn_equals_the_spec(training, rows):
    a, run, dy = problem("rnn", 15802, rows)
    run_g, run_r = [r.copy() for r in run], [r.copy() for r in run]
    y, hT, saved = bn_rnn_cuda.bn_rnn_forward(*a.values(), *run_g, training, MOM, EPS, lengths=LENGTHS)
    y_r, hT_r, sv = ref.bn_rnn_forward(*a.values(), *run_r, training, MOM, EPS, lengths=LENGTHS)
    check("y", y, y_r)
    check("hT", hT, hT_r)
    steps = sv["steps"]
    xw, mean_x, rstd_x, hw, mean_h, rstd_h = saved[:6]
    for name, got, key in (("mean_x", mean_x, "mx"), ("rstd_x", rstd_x, "sx"), ("hw", hw, "hw"),
                           ("mean_h", mean_h, "mh"), ("rstd_h", rstd_h, "sh")):
        check(name, got, np.stack([s[key] for s in steps]))
    for k, (g, w) in enumerate(zip(run_g, run_r)):
        check(f"running row {k}", g, w)
    keys = ("x", "h0", "Wx", "Wh", "gx", "gh")
    grads = bn_rnn_cuda.bn_rnn_backward(dy, saved, *[a[k] for k in keys])
    want = ref.bn_rnn_backward(dy, sv, *[a[k] for k in keys])
    for name, g, w in zip(RNN_GRADS, grads, want):
        check(name, g, w)
        assert np.abs(w).max() > 1e-6, name


def test_the_empty_step_folds_nothing_and_past_max_steps_folds_nothing():
    """By the definition, without the spec: the running rows of a step where no row runs (h and cell row 3 of
    ROWS_LONG) and every running row in evaluation come back as they went in; x's rows 0 and 1 (the only ones)
    take each step's active rows' mean and unbiased variance with momentum 0.6."""
    a, run, _ = problem("lstm", 15803, ROWS_LONG)
    run_g = [r.copy() for r in run]
    bn_lstm_cuda.bn_lstm_forward(*a.values(), *run_g, True, MOM, EPS, lengths=LENGTHS)
    for k in (2, 3, 4, 5):
        assert np.array_equal(host(run_g[k])[3], run[k][3]), f"running row {k}, step 3"
    xw = np.einsum("tbi,ig->tbg", a["x"], a["Wx"])
    for t in range(2):
        rows = xw[t][ACTIVE[t]]
        n = rows.shape[0]
        m, v = rows.mean(0), rows.var(0) * n / max(n - 1, 1)
        assert close(host(run_g[0])[t], (1 - MOM) * run[0][t] + MOM * m) < 1e-12
        assert close(host(run_g[1])[t], (1 - MOM) * run[1][t] + MOM * v) < 1e-12


def test_device_lengths_of_another_dtype_are_refused():
    x = np.random.default_rng(15804).standard_normal((T, B, H))
    g, b = np.ones(H), np.zeros(H)
    rm, rv = np.zeros((2, H)), np.ones((2, H))
    for bad in (LENGTHS.astype(np.int32), LENGTHS[:4]):
        with pytest.raises(ValueError, match="lengths"):
            batchnorm_cuda.bn_forward(x, g, b, rm, rv, True, MOM, EPS, lengths=arrays_cuda.to_device(bad))
    y, _, _ = batchnorm_cuda.bn_forward(x, g, b, rm.copy(), rv.copy(), True, MOM, EPS,
                                        lengths=arrays_cuda.to_device(LENGTHS))
    want = ref.batchnorm_forward_train(x, g, b, rm.copy(), rv.copy(), MOM, EPS, lengths=LENGTHS)[0]
    check("bn y", y, want)
