"""bn_lstm_cuda (the recurrent-BN LSTM's CUDA twin) against the CPU twin (bn_lstm) and the definitions, float64, under
the simulator: T = 3 steps, B = 3 rows of their own lengths (3, 1, 2: two rows at step 1, one at step 2), I = 2,
H = 5 hidden units over tiles of 4; running rows x 2, h 3 and cell 1 (the cell's run out after step 0 while the
h side's last to the end), distinct in every column; eps 0.3 and momentum 0.35; training and evaluation, each time
loop (the stand-in library's captured plans too), and a sequence run as two chunks from the first's final states.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from bn_problems import bn_problem  # noqa: E402
from lnrnn.kernels import bn_lstm, bn_lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401

T, B, I, H = 3, 3, 2, 5
ROWS = (2, 3, 1)  # running rows of the x side, the h side, the cell
LENGTHS = np.array([3, 1, 2], np.int64)
EPS, MOM = 0.3, 0.35
BWD_KEYS = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc")


def use_loop(monkeypatch, loop):
    if loop == "graph":  # the captured plans, replayed by the simulator's stand-in library
        monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
        monkeypatch.setattr(config, "CUDA_BLAS", "eager")
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
        monkeypatch.setattr(graphs_cuda, "PLANS", type(graphs_cuda.PLANS)())


def problem(seed):
    return bn_problem(np.random.default_rng(seed), "lstm", T, B, I, H, ROWS, var_lo=0.3, var_hi=3.0, mean_sc=0.5)


def run_twin(mod, a, run, dy, training, lengths=LENGTHS):
    """Outputs (y, hT, cT), the saved statistics, gates, c, tc, y, and the ten gradients; run folded in place."""
    out = mod.bn_lstm_forward(*a.values(), *run, training, MOM, EPS, lengths=lengths)
    grads = mod.bn_lstm_backward(dy, out[-1], *[a[k] for k in BWD_KEYS])
    return [host(v) for v in out[:3]], [host(v) for v in out[3][1:-2]], [host(v) for v in grads]


def same(a, run, dy, training):
    """The CUDA twin against the CPU twin: outputs, saved tuple, gradients and folded running rows."""
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    got = run_twin(bn_lstm_cuda, a, run_g, dy, training)
    want = run_twin(bn_lstm, a, run_c, dy, training)
    for part, (gs, ws) in enumerate(zip(got, want)):
        assert len(gs) == len(ws)
        for k, (g, w) in enumerate(zip(gs, ws)):
            name = GRADS[k] if part == 2 else f"{('output', 'saved')[part]} {k}"
            assert g.shape == w.shape and close(g, w) < TOL64, f"{name}: {close(g, w):.2e}"
    for k, (g, w) in enumerate(zip(run_g, run_c)):
        assert close(host(g), w) < TOL64, f"running row {k}: {close(host(g), w):.2e}"
    return got, run_g


@pytest.mark.parametrize("loop", ["plain", "graph"])
def test_training_ragged_equals_the_cpu_twin_and_the_definitions(loop, monkeypatch):
    """Training: everything equals the CPU twin's. By the definitions, from the twin's saved hw and c: each step's
    h-side mean and rstd are the active rows' mean and 1/sqrt(biased variance + eps); the cell's single running
    row is step 0's fold alone (momentum-weighted mean and unbiased variance of c_1 over the three rows)."""
    use_loop(monkeypatch, loop)
    a, run, dy = problem(8521)
    (_, saved, grads), run_g = same(a, run, dy, True)
    hw, mean_h, rstd_h, c = saved[2], saved[3], saved[4], saved[6]
    for t in range(T):
        v = hw[t][LENGTHS > t]
        assert close(mean_h[t], v.mean(0)) < 1e-12, f"mean_h, step {t}"
        assert close(rstd_h[t], 1 / np.sqrt(v.var(0) + EPS)) < 1e-12, f"rstd_h, step {t}"
    rmc, rvc = host(run_g[4]), host(run_g[5])
    assert close(rmc[0], (1 - MOM) * run[4][0] + MOM * c[0].mean(0)) < 1e-12
    assert close(rvc[0], (1 - MOM) * run[5][0] + MOM * c[0].var(0, ddof=1)) < 1e-12
    assert all(np.abs(g).max() > 1e-6 for g in grads)


@pytest.mark.parametrize("loop", ["plain", "graph"])
def test_evaluation_reads_each_columns_running_rows(loop, monkeypatch):
    """Evaluation: the running rows come back unchanged and everything equals the CPU twin's; each step's saved
    h-side rstd is 1/sqrt(rvh + eps) of its own column and row min(t, 2), its mean rmh's."""
    use_loop(monkeypatch, loop)
    a, run, dy = problem(8522)
    (_, saved, _), run_g = same(a, run, dy, False)
    for r, r0 in zip(run_g, run):
        assert np.array_equal(host(r), r0)
    for t in range(T):
        row = min(t, ROWS[1] - 1)
        assert close(saved[3][t], run[2][row]) < 1e-12
        assert close(saved[4][t], 1 / np.sqrt(run[3][row] + EPS)) < 1e-12, f"rstd_h, step {t}"


def test_chunks_carried_over_equal_the_cpu_twins():
    """Training over steps 0-1 with lengths (2, 1, 2), then step 2 of every row from that call's (hT, cT), the
    running rows carried too: each chunk's outputs and running rows equal the CPU twin's doing the same."""
    a, run, dy = problem(8523)
    first = dict(a, x=a["x"][:2])
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    ln1 = np.array([2, 1, 2], np.int64)
    out_g = bn_lstm_cuda.bn_lstm_forward(*first.values(), *run_g, True, MOM, EPS, lengths=ln1)
    out_c = bn_lstm.bn_lstm_forward(*first.values(), *run_c, True, MOM, EPS, lengths=ln1)
    second_g = dict(a, x=a["x"][2:], h0=host(out_g[1]), c0=host(out_g[2]))
    second_c = dict(a, x=a["x"][2:], h0=out_c[1], c0=out_c[2])
    y_g = bn_lstm_cuda.bn_lstm_forward(*second_g.values(), *run_g, True, MOM, EPS)
    y_c = bn_lstm.bn_lstm_forward(*second_c.values(), *run_c, True, MOM, EPS)
    for k in range(3):
        assert close(host(out_g[k]), out_c[k]) < TOL64 and close(host(y_g[k]), y_c[k]) < TOL64, f"output {k}"
    for k, (g, w) in enumerate(zip(run_g, run_c)):
        assert close(host(g), w) < TOL64, f"running row {k}"
