"""The BN cells' CUDA twins (bn_lstm_cuda, bn_rnn_cuda) with every option at once, under the simulator, against
the CPU twins: the x side, the h side and the cell holding different numbers of running rows; ragged lengths
(a row of 0, rows ending early); Graves's clip tight enough that every gate derivative meets both bounds; a
plan of more steps than a call (the graph path's bucket) answering the call's own final state.

The LSTM and RNN twins' graph plans (lstm_cuda, rnn_cuda) cached for one eps and called with another.
"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from test_cuda_graphs import blas, graphs  # noqa: E402,F401  (the provider fixtures)
from test_cuda_kernels import (BN_CPU, BN_CUDA, LSTM_FWD, NORM, RNN_FWD, TOL64, close, host,  # noqa: E402,F401
                               problem, small_blocks)  # small_blocks: the autouse geometry fixture
from test_values22_bn_cells import problem as bn_problem_rows  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda, rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402

KEYS = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"), "rnn": ("x", "h0", "Wx", "Wh", "gx", "gh")}


def run_cell(mod, cell, a, run, dy, training, lengths=None, clip=None, momentum=0.1, eps=1e-5):
    """(outputs, gradients) of one forward and backward; run folded in place."""
    out = getattr(mod, f"bn_{cell}_forward")(*a.values(), *run, training, momentum, eps, lengths=lengths)
    kw = {} if clip is None else {"clip": clip}
    grads = getattr(mod, f"bn_{cell}_backward")(dy, out[-1], *[a[k] for k in KEYS[cell]], **kw)
    return list(out[:-1]), list(grads)


def assert_same(cell, a, run, dy, training, **kw):
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    got = run_cell(BN_CUDA[cell], cell, a, run_g, dy, training, **kw)
    want = run_cell(BN_CPU[cell], cell, a, run_c, dy, training, **kw)
    for part, (g, w) in enumerate(zip(got, want)):
        assert len(g) == len(w)
        for k, (x, e) in enumerate(zip(host(g), w)):
            assert x.shape == e.shape and close(x, e) < TOL64, (part, k)
    for k, (x, e) in enumerate(zip(run_g, run_c)):
        assert close(host(x), e) < TOL64, f"running rows {k}"
    return got, want


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_every_option_with_own_running_rows(cell):
    """T = 5 steps; running rows (Tsx, Tsh, Tsc) = (2, 7, 4), then (7, 2, 3): each side folds and reads its own;
    lengths with a row of 0; training and inference; the LSTM with a tight clip."""
    import test_values22_bn_cells as cpu
    for rows in ((2, 7, 4), (7, 2, 3)):
        a, run, dy = bn_problem_rows(np.random.default_rng(2211), cell, 2, rows if cell == "lstm" else rows[:2])
        lengths = np.array([cpu.T, 0, 3, 1], np.int64)
        for training in (True, False):
            assert_same(cell, a, run, dy, training, lengths=lengths, clip=0.02 if cell == "lstm" else None)


def test_bn_lstm_clip_meets_both_bounds(monkeypatch):
    """A clip of 0.01 where the unclipped derivatives of each gate (the cell input g's included) run past both
    bounds (what the NumPy reference's backward clips, recorded): the twin's gradients equal the reference's."""
    from lnrnn import reference as ref
    from test_cuda_kernels import bn_problem
    a, run, dy = bn_problem(np.random.default_rng(2212), "lstm", T=3, B=3, I=2, H=3, Ts=3)
    dy = 20 * dy
    H, clip, seen = 3, 0.01, []
    spec = ref.clip_gate_grads
    monkeypatch.setattr(ref, "clip_gate_grads", lambda da, c: (seen.append(da.copy()), spec(da, c))[1])
    r = [x.copy() for x in run]
    out = ref.bn_lstm_forward(*a.values(), *r, True, 0.1, 1e-5)
    want = ref.bn_lstm_backward(dy, out[-1], *[a[k] for k in KEYS["lstm"]], clip=clip)
    da = np.concatenate(seen)
    for q in range(4):
        block = da[:, q * H:(q + 1) * H]
        assert block.min() < -clip and block.max() > clip, f"gate {q} does not meet both bounds"
    run_g = [x.copy() for x in run]
    got = run_cell(BN_CUDA["lstm"], "lstm", a, run_g, dy, True, clip=clip)[1]
    for k, (g, w) in enumerate(zip(host(got), want)):
        assert close(g, w) < 1e-10, f"gradient {k}"


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_a_longer_plan_answers_the_calls_final_state(cell, graphs, monkeypatch):
    """Calls of 6 steps after one of 7 with the same key: the plan of 7 steps serves them (bucket), and the final
    state (hT, and cT) is step 5's, each row's as the CPU twin's."""
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 4)
    rng = np.random.default_rng(2213)
    a7, run7, dy7 = bn_problem_rows(rng, cell, 2, (3, 3, 3) if cell == "lstm" else (3, 3))
    a7["x"] = rng.standard_normal((7, 4, 2))
    dy7 = rng.standard_normal((7, 4, 3))
    run_cell(BN_CUDA[cell], cell, a7, [r.copy() for r in run7], dy7, True)
    a6, run6, dy6 = bn_problem_rows(rng, cell, 2, (3, 3, 3) if cell == "lstm" else (3, 3))
    a6["x"] = rng.standard_normal((6, 4, 2))
    dy6 = rng.standard_normal((6, 4, 3))
    got, want = assert_same(cell, a6, run6, dy6, True)
    assert {k[2] for k in graphs_cuda.PLANS} == {7}, "the plans of 7 steps served the call of 6"
    n = 2 if cell == "lstm" else 1
    for g, w in zip(host(got[0][1:1 + n]), want[0][1:1 + n]):
        assert close(g, w) < TOL64


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_graph_plans_keep_their_eps(cell, graphs):
    """The LSTM's and RNN's forward plans (LN) with eps 1e-5, then 0.5, then 1e-5 again: each call equals the CPU
    twin's at its own eps (outputs and the saved tuple), a large eps changes the output, and two plans are made."""
    mod, twin, names = (lstm, lstm_cuda, LSTM_FWD) if cell == "lstm" else (rnn, rnn_cuda, RNN_FWD)
    p, _ = problem(np.random.default_rng(2214), cell, 3, 3, 2, 3)
    ys = []
    for eps in (1e-5, 0.5, 1e-5):
        out_g = getattr(twin, f"{cell}_forward")(*[p[k] for k in names], NORM["ln"], eps, 2)
        out_c = getattr(mod, f"{cell}_forward")(*[p[k] for k in names], NORM["ln"], eps, 2)
        for k, (g, w) in enumerate(zip(host(out_g[:-1]), out_c[:-1])):
            assert close(g, w) < TOL64, (eps, k)
        ys.append(out_c[0])
    assert not np.allclose(ys[0], ys[1])
    assert sum(k[0] == f"{cell} forward" for k in graphs_cuda.PLANS) == 2
