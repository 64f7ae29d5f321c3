"""The window layer's graph path (window_cuda._ForwardPlan/_BackwardPlan over graphs_cuda's providers) equals its
per-launch path and the CPU twin (lnrnn/kernels/window.py).

Under the simulator the provider is "eager" (numba's GEMM; a replay runs the recorded launches again), so what is
checked here is the plans' buffer handling: what is copied in, what the replay reads and writes, what is copied
out, and that a plan reused by a later call (new inputs, a shorter T in the same bucket, after a call that left NaN
in its extra steps) gives each call its own results. A plan of exactly T steps runs the per-launch path's kernels in
its order, so the two agree bit for bit (the graph path's blocks are lstm_cuda.step_threads(H) wide: the tests make
that THREADS_PER_BLOCK); a longer plan's column sums split S*B rows, not T*B, so there the CPU twin's float64
tolerances judge. Shapes are tiny and no size is a multiple of a block: T=5 B=3 I=2 H=5 (G=20) K=2 C=7 U=5, row
kernels of 4 threads, tiles of 3.
"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from test_cuda_kernels import close, simulator_race_free  # noqa: E402
from test_window_cuda import (BWD_ARGS, CODES, EPS, FWD_OUT, GRADS, MOMENTUM, TOL_BWD, TOL_FWD, problem,  # noqa: E402
                              spec)

from lnrnn.kernels import window, window_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda, graphs_cuda  # noqa: E402

host = arrays_cuda.to_host
SHAPE = dict(T=5, B=3, I=2, H=5, K=2, C=7, U=5)
LENGTHS, ULEN = [5, 2, 4], [5, 3, 0]  # ragged points, a short text and none at all
SAVED = (0, 1, 9, 10, 11, 12, 13, 14, 15, 16, 17)  # the saved arrays either norm fills (window_cuda docstring)


@pytest.fixture(autouse=True)
def graphs(monkeypatch):
    """The "eager" provider with a fresh plan cache; blocks of 4 threads (graph and per-launch alike), tiles of 3."""
    monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
    monkeypatch.setattr(config, "CUDA_BLAS", "eager")
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    monkeypatch.setattr(graphs_cuda, "PLANS", type(graphs_cuda.PLANS)())
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 4)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield graphs_cuda.provider()


def make(seed, T=SHAPE["T"], lengths=LENGTHS, ulen=ULEN, I=SHAPE["I"]):
    shape = dict(SHAPE, T=T, I=I)
    a, _, lengths, dy, dw = problem(seed, lengths, ulen, **shape)
    return a, lengths, dy, dw


def run(path, monkeypatch, a, lengths, dy, dw, norm, clip=0.0, keep=True):
    """The CUDA twin on one loop path ("graph" or "step"): host copies of (outputs, the saved arrays, gradients)."""
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", path)
    assert window_cuda.window_path(CODES[norm], SHAPE["T"]) == path
    z = [np.zeros((0, 0))] * 6
    *outs, saved = window_cuda.window_lstm_forward(*a.values(), *z, CODES[norm], True, MOMENTUM, EPS, lengths, keep)
    assert all(arrays_cuda.is_device(o) for o in outs)
    if not keep:
        assert saved is None
        return host(outs), None, None
    grads = window_cuda.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], CODES[norm], clip)
    assert len(grads) == len(GRADS) and all(arrays_cuda.is_device(g) for g in grads)
    return host(outs), [host(saved[k]) for k in SAVED], host(grads)


def cpu(a, lengths, dy, dw, norm, clip=0.0):
    """The CPU twin: (outputs, gradients)."""
    *outs, saved = window.window_lstm_forward(*a.values(), *[np.zeros((0, 0))] * 6, CODES[norm], True, MOMENTUM, EPS,
                                              lengths, True)
    return outs, window.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], CODES[norm], clip)


def assert_equal(got, want):
    """Bit for bit: outputs, saved arrays, gradients."""
    for what, names, g, w in (("output", FWD_OUT, got[0], want[0]), ("saved", SAVED, got[1], want[1]),
                              ("gradient", GRADS, got[2], want[2])):
        for name, x, e in zip(names, g, w):
            assert x.shape == e.shape and np.array_equal(x, e), f"{what} {name}: {close(x, e):.2e}"


def assert_cpu(got, want):
    """To the float64 tolerances: outputs and gradients."""
    for name, x, e in zip(FWD_OUT, got[0], want[0]):
        assert x.shape == e.shape and close(x, e) < TOL_FWD, f"{name}: {close(x, e):.2e}"
    for name, x, e in zip(GRADS, got[2], want[1]):
        assert x.shape == e.shape and close(x, e) < TOL_BWD, f"d{name}: {close(x, e):.2e}"


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_graph_path_equals_per_launch_and_cpu(norm, monkeypatch):
    """Ragged lengths and texts, every output, saved array and gradient of every input and parameter: the graph
    path equals the per-launch path bit for bit and the CPU twin to float64 tolerance; keep=False returns the
    same outputs from the same plan."""
    a, lengths, dy, dw = make(11)
    got = run("graph", monkeypatch, a, lengths, dy, dw, norm)
    assert {k[0] for k in graphs_cuda.PLANS} == {"window forward", "window backward"}
    assert_equal(got, run("step", monkeypatch, a, lengths, dy, dw, norm))
    assert_cpu(got, cpu(a, lengths, dy, dw, norm))
    plans = dict(graphs_cuda.PLANS)
    infer = run("graph", monkeypatch, a, lengths, dy, dw, norm, keep=False)[0]
    assert graphs_cuda.PLANS.keys() == plans.keys(), "keep=False replays keep=True's forward plan"
    for name, x, e in zip(FWD_OUT, infer, got[0]):
        assert np.array_equal(x, e), name


def test_a_plan_serves_new_inputs_and_a_shorter_call(monkeypatch):
    """One LN plan pair serves three calls: a clean one of 5 steps, one of 5 steps with NaN in its last step's x,
    dy and dw and in the saved state there, then a clean one of 4 steps (other inputs, lengths and texts) in the
    same bucket. The first call's results (copied out) stay its own, the NaN call's last step does not reach the
    short call (its extra step runs on zeros), and every clean call equals the per-launch path and the CPU."""
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 4)  # a plan of 5 steps serves 4: 4 + 4 // 4
    first = make(12)
    r1 = run("graph", monkeypatch, *first, "ln")
    plans = dict(graphs_cuda.PLANS)
    a, lengths, dy, dw = make(13)
    a["x"][4] = np.nan
    dy[4], dw[4] = np.nan, np.nan
    bad = run("graph", monkeypatch, a, lengths, dy, dw, "ln")
    assert np.isnan(bad[0][0][4]).all(), "the NaN reached the plan's last step"
    a, lengths, dy, dw = make(14, T=4, lengths=[3, 4, 1], ulen=[2, 5, 4])
    r3 = run("graph", monkeypatch, a, lengths, dy, dw, "ln")
    assert graphs_cuda.PLANS.keys() == plans.keys(), "the first call's plans served all three"
    assert all(np.isfinite(g).all() for g in r3[2])
    assert_cpu(r3, cpu(a, lengths, dy, dw, "ln"))
    assert_cpu(run("step", monkeypatch, a, lengths, dy, dw, "ln"), cpu(a, lengths, dy, dw, "ln"))
    assert_equal(r1, run("step", monkeypatch, *first, "ln"))


def test_nan_left_in_the_saved_state_stays_in_its_step(monkeypatch):
    """A plan of 5 steps whose saved state at step 4 held NaN (a diverged forward) serves a clean backward of 4
    steps with the CPU's finite gradients: every per-step array the extra step reads is zeroed."""
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 4)
    a, lengths, dy, dw = make(15)
    a["Wp"][:] = np.nan  # every step's window NaN from the first: the whole saved state of the 5-step call
    a["bp"][:] = np.nan
    run("graph", monkeypatch, a, lengths, dy, dw, "none")
    a, lengths, dy, dw = make(16, T=4, lengths=[4, 4, 2], ulen=[5, 1, 3])
    got = run("graph", monkeypatch, a, lengths, dy, dw, "none")
    assert [k[2] for k in graphs_cuda.PLANS] == [5, 5]
    assert all(np.isfinite(g).all() for g in got[2])
    assert_cpu(got, cpu(a, lengths, dy, dw, "none"))


def test_clip_and_eps_are_plan_keys(monkeypatch):
    """Graves's clip reaches the backward plan (two clips: two plans, each the per-launch path's gradients bit for
    bit, the tight one different from the loose one), and another eps makes a forward plan of its own."""
    a, lengths, dy, dw = make(17)
    grads = []
    for clip in (0.05, 0.0):
        got = run("graph", monkeypatch, a, lengths, dy, dw, "ln", clip)
        assert_equal(got, run("step", monkeypatch, a, lengths, dy, dw, "ln", clip))
        grads.append(got[2])
    assert close(grads[0][5], grads[1][5]) > 1e-3, "the clip must change dWx for this test to judge it"
    assert sum(k[0] == "window backward" for k in graphs_cuda.PLANS) == 2
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    z = [np.zeros((0, 0))] * 6
    y = window_cuda.window_lstm_forward(*a.values(), *z, CODES["ln"], True, MOMENTUM, 0.5, lengths, False)[0]
    want = window.window_lstm_forward(*a.values(), *z, CODES["ln"], True, MOMENTUM, 0.5, lengths, False)[0]
    assert close(host(y), want) < TOL_FWD
    assert sum(k[0] == "window forward" for k in graphs_cuda.PLANS) == 2


def test_no_input_columns_and_a_wider_block(monkeypatch):
    """I = 0 (X_t is w_{t-1} alone: no product before the loop; the steps write xw whole, a second call's over
    the first's) equals the per-launch path; and blocks of step_threads(H) = 8 threads where the per-launch path
    runs 4 equal the CPU twin."""
    for seed in (18, 23):
        a, lengths, dy, dw = make(seed, I=0)
        assert_equal(run("graph", monkeypatch, a, lengths, dy, dw, "ln"), run("step", monkeypatch, a, lengths, dy, dw,
                                                                              "ln"))
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 8)
    a, lengths, dy, dw = make(19)
    assert_cpu(run("graph", monkeypatch, a, lengths, dy, dw, "ln"), cpu(a, lengths, dy, dw, "ln"))


def test_path_choice(monkeypatch):
    """window_path: every norm the graph path where loop_path gives it (a library that captures; auto: from
    CUDA_GRAPH_MIN_STEPS steps), else the per-launch loop (no sequence kernels), as LNRNN_CUDA_BLAS=off or
    CUDA_LOOP_PATH=step ask."""
    n = config.CUDA_GRAPH_MIN_STEPS
    for norm in ("none", "ln", "bn"):
        assert window_cuda.window_path(CODES[norm], 1) == "graph"
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", "auto")
        assert [window_cuda.window_path(CODES[norm], T) for T in (n - 1, n, None)] == ["step", "graph", "graph"]
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", "seq")
        assert window_cuda.window_path(CODES[norm], n) == "step"
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", "auto")
        monkeypatch.setenv("LNRNN_CUDA_BLAS", "off")
        assert window_cuda.window_path(CODES[norm], n) == "step"
        monkeypatch.delenv("LNRNN_CUDA_BLAS")
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")


def run_bn(path, monkeypatch, a, stats, lengths, dy, dw, training, device_stats=False, keep=True):
    """The NORM_BN twin on one loop path: host copies of (outputs, saved arrays, gradients) and the running rows
    after (folded in place: host arrays, or device arrays with device_stats)."""
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", path)
    run_ = [arrays_cuda.to_device(r) if device_stats else r.copy() for r in stats]
    *outs, saved = window_cuda.window_lstm_forward(*a.values(), *run_, CODES["bn"], training, MOMENTUM, EPS, lengths,
                                                   keep)
    after = [host(r) if device_stats else r for r in run_]
    if not keep:
        return host(outs), None, None, after
    grads = window_cuda.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], CODES["bn"], 0.0)
    return host(outs), [host(m) for m in saved[:18]], host(grads), after


@pytest.mark.parametrize("training", [True, False])
def test_bn_graph_path_equals_per_launch_and_cpu(training, monkeypatch):
    """NORM_BN on a plan of exactly T steps runs the per-launch path's launches in its order: the same bits in every
    output, saved array (the BN statistics and h_{t-1} Wh included), gradient and running row, with host and with
    device running rows; and equal to the NumPy spec's (reference.py) to float64 tolerance. Inference (keep False)
    gives the same outputs from the same plan."""
    a, stats, lengths, dy, dw = problem(31, [5, 2, 5], ULEN, **SHAPE)  # two rows or more a step: no zero variance
    step = run_bn("step", monkeypatch, a, stats, lengths, dy, dw, training)
    for device_stats in (False, True):
        graph = run_bn("graph", monkeypatch, a, stats, lengths, dy, dw, training, device_stats)
        for g, w in zip([*graph[0], *graph[1], *graph[2], *graph[3]], [*step[0], *step[1], *step[2], *step[3]]):
            assert np.array_equal(g, w)
    assert {k[0] for k in graphs_cuda.PLANS} == {"window forward", "window backward"}
    # the spec to rounding: batch statistics over two or three rows amplify it (1.3e-11 in y here, on the per-launch
    # path as before the plans; test_window_cuda holds that path to TOL_FWD on its own cases)
    outs_c, run_c, grads_c = spec(a, stats, lengths, dy, dw, "bn", training)
    for name, g, e in zip(FWD_OUT, step[0], outs_c):
        assert close(g, e) < TOL_BWD, name
    for name, g, e in zip(GRADS, step[2], grads_c):
        assert close(g, e) < TOL_BWD, name
    for r, e in zip(step[3], run_c):
        assert close(r, e) < TOL_BWD
    infer = run_bn("graph", monkeypatch, a, stats, lengths, dy, dw, training, keep=False)
    for g, w in zip(infer[0], step[0]):
        assert np.array_equal(g, w)


def test_bn_longer_plan_after_a_nan_call(monkeypatch):
    """NORM_BN: a plan of 8 steps serves a call of 6 (within T // CUDA_GRAPH_SLACK) after a call of 8 that left NaN
    in its last two steps, and device lengths longer than 6 (read as 6): its extra steps count no row, fold nothing
    into the running rows (8 of them: rows 6 and 7 stay as they were) and add nothing to any gradient; the call
    equals the NumPy spec's with lengths cut to 6."""
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 2)
    a8, stats8, lengths8, dy8, dw8 = problem(32, [8, 3, 8], ULEN, **dict(SHAPE, T=8), Ts=8)
    a8["x"][6:] = np.nan
    dy8[6:] = np.nan
    run_bn("graph", monkeypatch, a8, stats8, lengths8, dy8, dw8, True)
    plans = set(graphs_cuda.PLANS)
    a, stats, _, dy, dw = problem(33, [6, 2, 6], ULEN, **dict(SHAPE, T=6), Ts=8)
    got = run_bn("graph", monkeypatch, a, stats, arrays_cuda.to_device(np.array([9, 2, 6], np.int64)), dy, dw, True)
    assert set(graphs_cuda.PLANS) == plans, "the plans of 8 steps served the call of 6"
    outs_c, run_c, grads_c = spec(a, stats, np.array([6, 2, 6], np.int64), dy, dw, "bn", True)
    for name, g, e in zip(FWD_OUT, got[0], outs_c):
        assert close(g, e) < TOL_BWD, name
    for name, g, e in zip(GRADS, got[2], grads_c):
        assert np.all(np.isfinite(g)) and close(g, e) < TOL_BWD, name
    for r, e, r0 in zip(got[3], run_c, stats):
        assert close(r, e) < TOL_BWD and np.array_equal(r[6:], r0[6:])


def test_results_outlive_later_calls(monkeypatch):
    """Forward A, forward B, backward A, backward B on one plan pair: every output, saved array and gradient a call
    returns is its own (copied out of the plan), so B's calls leave A's alone; all equal the per-launch path."""
    z = [np.zeros((0, 0))] * 6
    problems = [make(21), make(22, lengths=[1, 5, 3], ulen=[4, 5, 2])]
    fwd = [window_cuda.window_lstm_forward(*a.values(), *z, CODES["ln"], True, MOMENTUM, EPS, lengths, True)
           for a, lengths, _, _ in problems]
    grads = [window_cuda.window_lstm_backward(dy, dw, f[-1], *[a[k] for k in BWD_ARGS], CODES["ln"], 0.0)
             for (a, _, dy, dw), f in zip(problems, fwd)]
    assert len(graphs_cuda.PLANS) == 2
    for f, g, p in zip(fwd, grads, problems):
        assert_equal((host(f[:-1]), [host(f[-1][k]) for k in SAVED], host(g)), run("step", monkeypatch, *p, "ln"))
