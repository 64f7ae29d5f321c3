"""The BN cells' graph path (bn_lstm_cuda's and bn_rnn_cuda's _ForwardPlan/_BackwardPlan) equals the CPU twins:
outputs, the saved tuple, every gradient and the running statistics folded in place, in training and in
inference, with ragged lengths, on plans reused by later calls and by shorter ones.

Under the simulator the provider is "eager" (numba's GEMM; a replay runs the recorded launches again), so what is
checked is the plans' buffer handling (what is copied in, what the loop reads and writes, what is copied out and
written back); on a GPU the same tests run PyTorch's cuBLAS and graphs too.
"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from bn_problems import bn_problem  # noqa: E402
from test_cuda_graphs import blas, graphs  # noqa: E402,F401  (the provider fixtures)
from test_cuda_kernels import (BN_CPU, BN_CUDA, EPS, TOL64, close, host, run_bn,  # noqa: E402,F401
                               small_blocks)  # small_blocks: the autouse geometry fixture

from lnrnn.kernels.cuda import arrays_cuda, graphs_cuda  # noqa: E402

KEYS = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"), "rnn": ("x", "h0", "Wx", "Wh", "gx", "gh")}


@pytest.fixture
def wide(monkeypatch):
    """The CPU BN cells on their wide-input path (x Wx saved, as the CUDA twins save it), so that the saved tuples
    compare slot by slot (test_cuda_kernels.bn_wide_input_path)."""
    for mod in BN_CPU.values():
        monkeypatch.setattr(mod, "FOLD_MAX_I", 0)


def run_cell(mod, cell, a, run, dy, training, lengths=None, clip=None, momentum=0.1, eps=EPS):
    """(outputs, saved without its mode, gradients) of one forward and backward; run folded in place."""
    out = getattr(mod, f"bn_{cell}_forward")(*a.values(), *run, training, momentum, eps, lengths=lengths)
    kw = {} if clip is None else {"clip": clip}
    grads = getattr(mod, f"bn_{cell}_backward")(dy, out[-1], *[a[k] for k in KEYS[cell]], **kw)
    return list(out[:-1]), list(out[-1][:-2]), list(grads)


def assert_same(cell, a, run, dy, training, lengths=None, clip=None, device_run=False, **kw):
    """The graph path (CUDA twin) against the CPU twin on copies of run; device_run: the running rows are device
    arrays, folded where they live."""
    run_g = [arrays_cuda.to_device(r) if device_run else r.copy() for r in run]
    run_c = [r.copy() for r in run]
    got = run_cell(BN_CUDA[cell], cell, a, run_g, dy, training, lengths, clip, **kw)
    want = run_cell(BN_CPU[cell], cell, a, run_c, dy, training, lengths, clip, **kw)
    for part, (g, w) in enumerate(zip(got, want)):
        assert len(g) == len(w), part
        for k, (x, e) in enumerate(zip(host(g), w)):
            assert x.shape == e.shape and close(x, e) < TOL64, (part, k)
    for x, e in zip(run_g, run_c):
        assert close(host(x), e) < TOL64
    return got


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("training", [True, False])
def test_bn_graph_path_matches_cpu(cell, training, graphs, wide):
    """T > Ts (steps past the running rows reuse the last), H = 6 over two tiles of units, B = 5 over four lanes;
    then ragged lengths (rows of 0, T and between; a last step with no active row); then running rows held on the
    device. One plan of each kind serves all three calls."""
    a, run, dy = bn_problem(np.random.default_rng(60), cell, T=4, B=5, I=2, H=6, Ts=3)
    assert_same(cell, a, run, dy, training)
    plans = set(graphs_cuda.PLANS)
    assert {k[0] for k in plans} == {f"bn-{cell} forward", f"bn-{cell} backward"}
    assert_same(cell, a, run, dy, training, lengths=np.array([3, 0, 1, 3, 2], np.int64))
    assert_same(cell, a, run, dy, training, device_run=True)
    assert set(graphs_cuda.PLANS) == plans


def test_bn_lstm_clip_and_no_input_columns(graphs, wide):
    """Graves's clip reaches the backward plan (two bounds: two plans, each right); I = 0: no input product."""
    a, run, dy = bn_problem(np.random.default_rng(61), "lstm", T=3, B=3, I=2, H=5, Ts=3)
    for clip in (0.05, 0.3):
        assert_same("lstm", a, run, dy, True, clip=clip)
    assert sum(k[0] == "bn-lstm backward" for k in graphs_cuda.PLANS) == 2
    for cell in ("lstm", "rnn"):
        a0, run0, dy0 = bn_problem(np.random.default_rng(62), cell, T=3, B=2, I=0, H=3, Ts=2)
        assert_same(cell, a0, run0, dy0, True)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_a_longer_plan_serves_shorter_calls_after_a_nan_call(cell, graphs, wide, monkeypatch):
    """A plan of 18 steps serves calls of 16 (within T // CUDA_GRAPH_SLACK): its two extra steps run first in the
    backward and last in the forward, count no row (lengths are at most 16), fold nothing into the running rows
    and add nothing to any gradient, even after a call of 18 steps that left NaN in both (x, dy, and so y and
    every saved row there: y of step 16 is a previous hidden state of step 17 in dWh's product); a second call of
    16 with ragged lengths is right too, and no plan of 16 steps is made."""
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 8)
    rng = np.random.default_rng(63)
    a18, run18, dy18 = bn_problem(rng, cell, T=18, B=3, I=2, H=3, Ts=18)
    a18["x"][16:] = np.nan
    dy18[16:] = np.nan
    run_cell(BN_CUDA[cell], cell, a18, [r.copy() for r in run18], dy18, True)
    plans = set(graphs_cuda.PLANS)
    a16, run16, dy16 = bn_problem(rng, cell, T=16, B=3, I=2, H=3, Ts=18)
    got = assert_same(cell, a16, run16, dy16, True)
    assert all(np.all(np.isfinite(host(g))) for g in got[2])
    assert_same(cell, a16, run16, dy16, True, lengths=np.array([16, 5, 0], np.int64))
    assert set(graphs_cuda.PLANS) == plans, "the plans of 18 steps served the calls of 16"


def test_earlier_results_survive_a_replay(graphs, wide):
    """A second call replays the first's plans; the first call's outputs, saved arrays and gradients (copied out of
    the plans) still hold its own values."""
    rng = np.random.default_rng(64)
    (a1, r1, dy1), (a2, r2, dy2) = (bn_problem(rng, "lstm", T=3, B=3, I=2, H=5, Ts=3) for _ in range(2))
    first = run_cell(BN_CUDA["lstm"], "lstm", a1, [r.copy() for r in r1], dy1, True)
    snap = [[host(x).copy() for x in part] for part in first]
    run_cell(BN_CUDA["lstm"], "lstm", a2, [r.copy() for r in r2], dy2, True)
    for part, s in zip(first, snap):
        for x, e in zip(host(part), s):
            assert np.array_equal(x, e)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_momentum_and_eps_reach_their_plans(cell, graphs, wide):
    """Calls with another momentum or eps take plans of their own (the two are captured as launch arguments), each
    equal to the CPU twin's, running rows included."""
    a, run, dy = bn_problem(np.random.default_rng(65), cell, T=3, B=3, I=2, H=3, Ts=3)
    for momentum, eps in ((0.1, EPS), (0.5, EPS), (0.5, 0.25)):
        assert_same(cell, a, run, dy, True, momentum=momentum, eps=eps)
    assert sum(k[0] == f"bn-{cell} forward" for k in graphs_cuda.PLANS) == 3


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_device_lengths_past_T_on_a_longer_plan(cell, graphs, wide, monkeypatch):
    """Device lengths are not checked on the host; one longer than the call's T steps means T, as on the per-step
    path: on a plan of 17 steps a call of 16 with a device row length of 20 equals the CPU twin with 16 (outputs,
    gradients and running rows: the plan's extra step counts no row)."""
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 16)
    rng = np.random.default_rng(66)
    a17, run17, dy17 = bn_problem(rng, cell, T=17, B=3, I=2, H=3, Ts=17)
    run_cell(BN_CUDA[cell], cell, a17, [r.copy() for r in run17], dy17, True)
    a, run, dy = bn_problem(rng, cell, T=16, B=3, I=2, H=3, Ts=17)
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    got = run_cell(BN_CUDA[cell], cell, a, run_g, dy, True, arrays_cuda.to_device(np.array([20, 5, 16], np.int64)))
    want = run_cell(BN_CPU[cell], cell, a, run_c, dy, True, np.array([16, 5, 16], np.int64))
    assert {k[2] for k in graphs_cuda.PLANS} == {17}
    for part, (g, w) in enumerate(zip(got, want)):
        for k, (x, e) in enumerate(zip(host(g[:-1] if part == 1 else g), w[:-1] if part == 1 else w)):
            assert close(x, e) < TOL64, (part, k)
    for x, e in zip(run_g, run_c):
        assert close(x, e) < TOL64
