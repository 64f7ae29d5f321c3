"""bn_lstm_cuda and bn_rnn_cuda (the recurrent-BN cells' CUDA twins) against their CPU twins (bn_lstm, bn_rnn) and
the definitions, float64, under the simulator: T = 3 steps, B = 3 rows of lengths (2, 3, 1) (step 2 has one active
row), I = 2, H = 5 hidden units over tiles of 4; running rows x 3, h 2 and cell 1 (both h and cell run out before
the last step); eps 0.2 and momentum 0.6, away from the defaults; training and evaluation; every output, saved
statistic, running row and the gradient of every input and parameter. The RNN's captured plan (the stand-in
library's graph path) replayed twice and then serving a call of fewer steps equals fresh CPU calls.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from bn_problems import bn_problem, bn_step  # noqa: E402
from lnrnn.kernels import bn_lstm, bn_lstm_cuda, bn_rnn, bn_rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401

T, B, I, H = 3, 3, 2, 5
ROWS = (3, 2, 1)  # running rows of the x side, the h side, the LSTM's cell
LENGTHS = np.array([2, 3, 1], np.int64)
EPS, MOM = 0.2, 0.6
LSTM_BWD = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
RNN_BWD = ("x", "h0", "Wx", "Wh", "gx", "gh")
LSTM_GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc")
RNN_GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh")


def twin_run(mod, cell, a, run, dy, training, lengths):
    """Outputs, saved arrays (statistics and activations, not lengths/training) and gradients, host arrays."""
    fwd, bwd = getattr(mod, f"bn_{cell}_forward"), getattr(mod, f"bn_{cell}_backward")
    keys = LSTM_BWD if cell == "lstm" else RNN_BWD
    out = fwd(*a.values(), *run, training, MOM, EPS, lengths=lengths)
    saved = out[-1]
    grads = bwd(dy, saved, *[a[k] for k in keys])
    arrays = [v for v in saved[:-2] if not isinstance(v, tuple)]
    return [host(v) for v in out[:-1]], [host(v) for v in arrays], [host(v) for v in grads]


def check_same(cell, seed, training, lengths=LENGTHS, T_=T):
    rows = ROWS if cell == "lstm" else ROWS[:2]
    a, run, dy = bn_problem(np.random.default_rng(seed), cell, T_, B, I, H, rows, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    mod = bn_lstm_cuda if cell == "lstm" else bn_rnn_cuda
    cpu = bn_lstm if cell == "lstm" else bn_rnn
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    got = twin_run(mod, cell, a, run_g, dy, training, lengths)
    want = twin_run(cpu, cell, a, run_c, dy, training, lengths)
    names = LSTM_GRADS if cell == "lstm" else RNN_GRADS
    for part, (gs, ws) in enumerate(zip(got, want)):
        if part == 1:  # saved[0] is each twin's own record of the x side: compare the rest
            gs, ws = gs[1:], ws[1:]
        assert len(gs) == len(ws)
        for k, (g, w) in enumerate(zip(gs, ws)):
            name = names[k] if part == 2 else f"{('output', 'saved')[part]} {k}"
            assert g.shape == w.shape, name
            assert close(g, w) < TOL64, f"{cell} {name}: {close(g, w):.2e}"
    for k, (g, w) in enumerate(zip(run_g, run_c)):
        assert close(host(g), w) < TOL64, f"{cell} running row {k}"
    return a, run, got, run_g


@pytest.mark.parametrize("training", [True, False])
def test_lstm_equals_the_cpu_twin(training):
    """Everything equals the CPU twin's; by the definitions, the h side's saved statistics are BN_t's (active
    rows' mean and biased variance in training, the running row min(t, 1) in evaluation)."""
    a, run, got, run_g = check_same("lstm", 11301, training)
    hw, mean_h, rstd_h = got[1][3], got[1][4], got[1][5]
    for t in range(T):
        z = hw[t]
        rm, rv = run[2].copy(), run[3].copy()
        want = bn_step(z, LENGTHS > t, rm, rv, t, training, MOM, EPS)
        got_n = (z - mean_h[t]) * rstd_h[t]
        assert close(got_n[LENGTHS > t], want[LENGTHS > t]) < 1e-12, f"BN_t(hw), step {t}"
    if not training:
        for g, r in zip(run_g, run):
            assert np.array_equal(host(g), r)
    assert all(np.abs(g).max() > 1e-8 for g in got[2])


@pytest.mark.parametrize("training", [True, False])
def test_rnn_equals_the_cpu_twin(training):
    """Everything equals the CPU twin's; the saved h-side statistics are BN_t's by the definition."""
    a, run, got, run_g = check_same("rnn", 11302, training)
    hw, mean_h, rstd_h = got[1][-4], got[1][-3], got[1][-2]
    for t in range(T):
        rm, rv = run[2].copy(), run[3].copy()
        want = bn_step(hw[t], LENGTHS > t, rm, rv, t, training, MOM, EPS)
        got_n = (hw[t] - mean_h[t]) * rstd_h[t]
        assert close(got_n[LENGTHS > t], want[LENGTHS > t]) < 1e-12, f"BN_t(hw), step {t}"
    assert all(np.abs(g).max() > 1e-8 for g in got[2])


def test_rnn_plan_replayed_and_shortened_equals_fresh_cpu_calls(monkeypatch):
    """On the graph path: one captured plan of 3 steps serves two calls of 3 steps and then one of 2 steps (rows of
    lengths (2, 2, 1)); each call's outputs, saved arrays, gradients and running rows equal a fresh CPU call's."""
    monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
    monkeypatch.setattr(config, "CUDA_BLAS", "eager")
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 1)  # a plan of S steps serves T <= S <= 2T
    monkeypatch.setattr(graphs_cuda, "PLANS", type(graphs_cuda.PLANS)())
    check_same("rnn", 11303, True)
    check_same("rnn", 11304, True)
    n = len(graphs_cuda.PLANS)
    assert n == 2, "the forward and backward plans, captured once"
    check_same("rnn", 11305, True, lengths=np.array([2, 2, 1], np.int64), T_=2)
    assert len(graphs_cuda.PLANS) == n, "the 2-step call made a plan of its own"
