"""The LSTM twins' graph path (lstm_cuda._ForwardPlan/_BackwardPlan over graphs_cuda's providers) equals the CPU twin,
and matmul through a provider equals the definition.

Under the simulator the provider is "eager" (numba's GEMM; a replay runs the recorded launches again), so what
is checked here is the plans' buffer handling: what is copied in, what the loop reads and writes, what is copied
out, and that a plan reused for a second call (or evicted) gives each call its own results. On a GPU the same
tests also run PyTorch's and CuPy's cuBLAS and graphs, where installed.
"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend, config  # noqa: E402

from test_cuda_kernels import (CELL_SHAPES, EPS, LSTM_FWD, NORM, TOL64, assert_twins, close, host, problem,  # noqa: E402
                               run_lstm, run_rnn, small_blocks)  # noqa: F401  (small_blocks: the autouse geometry fixture)

from lnrnn.kernels import lstm, lstm_cuda, rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda, graphs_cuda  # noqa: E402

PROVIDERS = ["eager"] + ([] if backend.simulator_enabled() else ["torch", "cupy"])


@pytest.fixture(params=PROVIDERS)
def blas(request, monkeypatch):
    """One provider, with a fresh plan cache; skips a library that is not installed here."""
    monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
    monkeypatch.setattr(config, "CUDA_BLAS", request.param)
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    monkeypatch.setattr(graphs_cuda, "PLANS", type(graphs_cuda.PLANS)())
    prov = graphs_cuda.provider()
    if prov is None:
        pytest.skip(f"{request.param} cannot serve here: {graphs_cuda.describe()}")
    assert prov.name == request.param
    return prov


@pytest.fixture
def graphs(blas):
    """The graph path on one provider that captures graphs (CuPy does not: asked for, the loop falls back)."""
    if not blas.graphs:
        assert lstm_cuda.lstm_path(5, np.float64) != "graph"
        pytest.skip(f"{blas.name} serves no graphs")
    return blas


def _set_threads(monkeypatch, tpb):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", tpb)


# cell -> (CPU twin, CUDA twin, the run helper of test_cuda_kernels, the CUDA twin's path choice, a seed)
TWINS = {"lstm": (lstm, lstm_cuda, run_lstm, lstm_cuda.lstm_path, 40),
         "rnn": (rnn, rnn_cuda, run_rnn, rnn_cuda.rnn_path, 48)}


@pytest.mark.parametrize("cell", list(TWINS))
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("shape", CELL_SHAPES)
def test_graph_path_matches_cpu(cell, norm, shape, graphs, monkeypatch):
    T, B, I, H, tpb = shape
    cpu, gpu, run, path, seed = TWINS[cell]
    _set_threads(monkeypatch, tpb)
    assert path(H, np.float64) == "graph"
    p, dy = problem(np.random.default_rng(seed), cell, T, B, I, H)
    assert_twins(run(gpu, p, dy, norm), run(cpu, p, dy, norm), TOL64)
    assert {k[0] for k in graphs_cuda.PLANS} == {f"{cell} forward", f"{cell} backward"}


def test_wide_input_keeps_xhat(graphs, monkeypatch):
    """I > FOLD_MAX_I: the LN-LSTM saves xhat_x, which the backward plan reads from the saved tuple."""
    _set_threads(monkeypatch, 8)
    I = config.FOLD_MAX_I + 1
    p, dy = problem(np.random.default_rng(41), "lstm", 3, 2, I, 3)
    assert_twins(run_lstm(lstm_cuda, p, dy, "ln"), run_lstm(lstm, p, dy, "ln"), TOL64)


def test_a_reused_plan_leaves_earlier_results_alone(graphs, monkeypatch):
    """Two problems of one shape: the second call replays the first's plans, and the first call's outputs,
    saved arrays and gradients (copied out) still hold its own values."""
    _set_threads(monkeypatch, 8)
    rng = np.random.default_rng(42)
    (p1, dy1), (p2, dy2) = problem(rng, "lstm", 3, 3, 2, 5), problem(rng, "lstm", 3, 3, 2, 5)
    first = run_lstm(lstm_cuda, p1, dy1, "ln")
    plans = dict(graphs_cuda.PLANS)
    second = run_lstm(lstm_cuda, p2, dy2, "ln")
    assert dict(graphs_cuda.PLANS) == plans, "the same plans serve the second call"
    assert_twins(first, run_lstm(lstm, p1, dy1, "ln"), TOL64)
    assert_twins(second, run_lstm(lstm, p2, dy2, "ln"), TOL64)


def test_dc_seed_and_clip(graphs, monkeypatch):
    """A dL/dc_n seed (dcT) and Graves's clip reach the backward plan: against the CPU twin with the same
    seed and clip; two clips are two plans, each right."""
    _set_threads(monkeypatch, 8)
    rng = np.random.default_rng(43)
    p, dy = problem(rng, "lstm", 3, 2, 2, 5)
    dcT = rng.standard_normal((2, 5))
    for clip in (0.05, 0.2):
        _, _, _, saved = lstm_cuda.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS)
        got = lstm_cuda.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                      p["gc"], NORM["ln"], clip=clip, dcT=dcT)
        _, _, _, saved_c = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 1)
        want = lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                  p["gc"], NORM["ln"], 1, clip=clip, dcT=dcT)
        for k, (a, e) in enumerate(zip(host(got), want)):
            assert close(a, e) < TOL64, (clip, k)
    assert sum(k[0] == "lstm backward" for k in graphs_cuda.PLANS) == 2


def test_oldest_plan_evicted(graphs, monkeypatch):
    _set_threads(monkeypatch, 8)
    monkeypatch.setattr(config, "CUDA_GRAPH_PLANS", 2)
    rng = np.random.default_rng(44)
    for T in (1, 2, 3):
        p, _ = problem(rng, "lstm", T, 2, 2, 3)
        y, _, _, _ = lstm_cuda.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["none"], EPS)
        assert close(host(y), lstm.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["none"], EPS, 1)[0]) < TOL64
    assert [k[2] for k in graphs_cuda.PLANS] == [2, 3]


@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("trans_b", [False, True])
def test_matmul_through_the_provider(trans_a, trans_b, blas):
    rng = np.random.default_rng(45)
    M, K, N = 5, 7, 6
    A = rng.standard_normal((K, M) if trans_a else (M, K))
    B = rng.standard_normal((N, K) if trans_b else (K, N))
    C0 = rng.standard_normal((M, N))
    want = (A.T if trans_a else A) @ (B.T if trans_b else B)
    got = gemm_cuda.matmul(arrays_cuda.to_device(A), arrays_cuda.to_device(B), trans_a=trans_a, trans_b=trans_b)
    assert close(host(got), want) < TOL64
    acc = arrays_cuda.to_device(C0)
    gemm_cuda.matmul(arrays_cuda.to_device(A), arrays_cuda.to_device(B), out=acc, trans_a=trans_a, trans_b=trans_b,
                     accumulate=True)
    assert close(host(acc), C0 + want) < TOL64


def test_matmul_with_no_inner_dimension(blas):
    """K = 0: C = 0, or C unchanged when accumulating (no product reaches the library)."""
    C0 = np.arange(6.0).reshape(2, 3) + 1
    A, B = arrays_cuda.to_device(np.zeros((2, 0))), arrays_cuda.to_device(np.zeros((0, 3)))
    out = arrays_cuda.to_device(C0)
    assert np.all(host(gemm_cuda.matmul(A, B, out=out)) == 0)
    out = arrays_cuda.to_device(C0)
    assert np.array_equal(host(gemm_cuda.matmul(A, B, out=out, accumulate=True)), C0)


def test_choice_and_description(monkeypatch):
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "cuBLAS")
    with pytest.raises(ValueError, match="auto, torch, cupy, eager, off"):
        graphs_cuda.choice()
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "off")
    assert graphs_cuda.provider() is None and "LNRNN_CUDA_BLAS=off" in graphs_cuda.describe()
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "auto")
    assert lstm_cuda.lstm_path(5, np.float64) == "seq"  # no library: the sequence kernels where they fit
    assert lstm_cuda.lstm_path(5, np.float64, dcT=True) == "step"
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    assert graphs_cuda.provider().name == "eager" and lstm_cuda.lstm_path(5, np.float64) == "graph"
    n = config.CUDA_GRAPH_MIN_STEPS
    assert lstm_cuda.lstm_path(5, np.float64, T=n) == "graph" and lstm_cuda.lstm_path(5, np.float64, T=n - 1) == "seq"
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    assert lstm_cuda.lstm_path(5, np.float64, T=1) == "graph"  # asked for, whatever T
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "seq")
    assert lstm_cuda.lstm_path(5, np.float64) == "seq"
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "fast")
    with pytest.raises(ValueError, match="auto, graph, seq, step"):
        lstm_cuda.lstm_path(5, np.float64)
    if backend.simulator_enabled():
        monkeypatch.setenv("LNRNN_CUDA_BLAS", "auto")
        assert graphs_cuda.provider() is None and "simulator" in graphs_cuda.describe()


def test_a_longer_plan_serves_a_shorter_call(graphs, monkeypatch):
    """A plan of 17 steps serves a call of 16 (within T // CUDA_GRAPH_SLACK): the extra step runs first in the
    backward on zero dL/dh and leaves the gradients exactly what 16 steps give; after a call of 17 steps
    wrote its own dy there. A dL/dc_n seed takes a plan of exactly T steps."""
    _set_threads(monkeypatch, 8)
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 16)
    rng = np.random.default_rng(46)
    p17, dy17 = problem(rng, "lstm", 17, 2, 2, 3)
    p16, dy16 = problem(rng, "lstm", 16, 2, 2, 3)
    for norm in ("ln", "none"):
        assert_twins(run_lstm(lstm_cuda, p17, dy17, norm), run_lstm(lstm, p17, dy17, norm), TOL64)
        plans = dict(graphs_cuda.PLANS)
        assert_twins(run_lstm(lstm_cuda, p16, dy16, norm), run_lstm(lstm, p16, dy16, norm), TOL64)
        assert dict(graphs_cuda.PLANS).keys() == plans.keys(), "no plan of 16 steps was made"
    _, _, _, saved = lstm_cuda.lstm_forward(*[p16[k] for k in LSTM_FWD], NORM["ln"], EPS)
    lstm_cuda.lstm_backward(dy16, saved, p16["x"], p16["h0"], p16["c0"], p16["Wx"], p16["Wh"], p16["gx"], p16["gh"],
                            p16["gc"], NORM["ln"], dcT=rng.standard_normal((2, 3)))
    assert ("lstm backward", graphs.name, 16, 2, 3, 2, "<f8", True, 0.0) in graphs_cuda.PLANS  # (B, H, I, ...)


def test_ragged_lengths_share_bucketed_plans(graphs, monkeypatch):
    """A first length gets a plan of its own; other lengths with the same key then make plans of _bucket(T)
    steps (a multiple of a quarter of T's power of two) that the lengths below them reuse: calls of 9, 21, 23
    and 22 steps make plans of 9 and 24 steps, and each call equals the CPU twin."""
    _set_threads(monkeypatch, 8)
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 16)
    assert [graphs_cuda.bucket(T) for T in (1, 7, 8, 9, 20, 21, 24, 25, 300, 784)] == [1, 7, 8, 10, 20, 24, 24, 28,
                                                                                     320, 896]
    rng = np.random.default_rng(47)
    for T in (9, 21, 23, 22):
        p, dy = problem(rng, "lstm", T, 2, 2, 3)
        assert_twins(run_lstm(lstm_cuda, p, dy, "ln"), run_lstm(lstm, p, dy, "ln"), TOL64)
    assert sorted(k[2] for k in graphs_cuda.PLANS if k[0] == "lstm forward") == [9, 24]
    assert sorted(k[2] for k in graphs_cuda.PLANS if k[0] == "lstm backward") == [9, 24]


def test_rnn_plans_reused_and_shared_by_a_shorter_call(graphs, monkeypatch):
    """The RNN's plans: a second call of one shape replays them, a call one step shorter runs on them too (its
    backward's extra step on dL/dh = 0), and every call equals the CPU twin, the first's results kept."""
    _set_threads(monkeypatch, 8)
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 16)
    rng = np.random.default_rng(49)
    problems = [problem(rng, "rnn", T, 2, 2, 3) for T in (17, 17, 16)]
    for norm in ("ln", "none"):
        outs = []
        for k, (p, dy) in enumerate(problems):
            outs.append(run_rnn(rnn_cuda, p, dy, norm))
            if k == 0:
                plans = dict(graphs_cuda.PLANS)
        assert graphs_cuda.PLANS.keys() == plans.keys(), "the first call's plans served all three"
        for out, (p, dy) in zip(outs, problems):
            assert_twins(out, run_rnn(rnn, p, dy, norm), TOL64)


class _CountingPool:
    """A stand-in provider whose ``empty`` hands out numba's arrays and counts the bytes asked for."""
    name, blas, graphs = "eager", False, True

    def __init__(self):
        self.asked = []

    def empty(self, shape, dtype):
        from numba import cuda
        self.asked.append((tuple(np.atleast_1d(shape)), np.dtype(dtype)))
        return cuda.device_array(shape, dtype=dtype)


def test_arrays_come_from_the_pool(monkeypatch):
    """arrays_cuda.empty, copy and to_device take their memory from graphs_cuda.pool() when it serves one (the
    provider's ``empty``), numba's when CUDA_POOL is off or the provider has none; a bad setting is refused."""
    fake = _CountingPool()
    monkeypatch.delenv("LNRNN_CUDA_POOL", raising=False)
    monkeypatch.setattr(graphs_cuda, "provider", lambda: fake)
    monkeypatch.setattr(config, "CUDA_POOL", "auto")
    a = arrays_cuda.empty((2, 3), np.float64)
    b = arrays_cuda.to_device(np.arange(4.0))
    c = arrays_cuda.copy(b)
    assert fake.asked == [((2, 3), np.dtype(np.float64)), ((4,), np.dtype(np.float64)), ((4,), np.dtype(np.float64))]
    assert a.shape == (2, 3) and np.array_equal(host(c), np.arange(4.0))
    p, dy = problem(np.random.default_rng(44), "lstm", 3, 2, 2, 3)
    n = len(fake.asked)
    assert_twins(run_lstm(lstm_cuda, p, dy, "ln"), run_lstm(lstm, p, dy, "ln"), TOL64)
    assert len(fake.asked) > n + 10  # the twin's results and scratch arrays
    monkeypatch.setenv("LNRNN_CUDA_POOL", "off")
    n = len(fake.asked)
    arrays_cuda.copy(arrays_cuda.empty(5, np.float32))
    assert len(fake.asked) == n and graphs_cuda.pool() is None
    monkeypatch.setenv("LNRNN_CUDA_POOL", "torch")
    with pytest.raises(ValueError, match="use auto or off"):
        graphs_cuda.pool()
    monkeypatch.setenv("LNRNN_CUDA_POOL", "auto")
    monkeypatch.setattr(graphs_cuda, "provider", lambda: None)
    assert graphs_cuda.pool() is None


def test_torch_pool_takes_and_returns_memory(monkeypatch):
    """On a GPU with torch: the pool's arrays live in PyTorch's caching allocator (memory_allocated grows by their
    size and shrinks when they die), hold what is copied in, and a zero-size array needs none."""
    monkeypatch.delenv("LNRNN_CUDA_POOL", raising=False)
    monkeypatch.setattr(config, "CUDA_BLAS", "torch")
    monkeypatch.setattr(config, "CUDA_POOL", "auto")
    prov = graphs_cuda.provider()
    if prov is None or prov.name != "torch":
        pytest.skip(f"torch serves no pool here: {graphs_cuda.describe()}")
    torch = prov.torch
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    x = np.arange(3 * 5 * 7, dtype=np.float32).reshape(3, 5, 7)
    d = arrays_cuda.to_device(x)
    assert torch.cuda.memory_allocated() - before >= x.nbytes
    assert np.array_equal(d.copy_to_host(), x) and np.array_equal(host(arrays_cuda.copy(d)[1]), x[1])
    assert np.array_equal(torch.as_tensor(d, device="cuda").cpu().numpy(), x)  # a torch view of the same memory
    del d
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == before
    assert arrays_cuda.empty((0, 4), np.float64).shape == (0, 4)


def test_step_threads_and_a_wider_block(graphs, monkeypatch):
    """The graph plans' step kernels take H rounded up to a power of two threads, within THREADS_PER_BLOCK ..
    CUDA_SEQ_MAX_THREADS; a block wider than the default (16 threads for H = 9, 4 by default) gives the CPU's
    results."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 128)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 512)
    assert [lstm_cuda.step_threads(H) for H in (1, 5, 128, 129, 256, 400, 1000)] == [128, 128, 128, 256, 256, 512, 512]
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 32)
    assert [lstm_cuda.step_threads(H) for H in (1, 3, 4, 5, 9, 16, 17, 40)] == [4, 4, 4, 8, 16, 16, 32, 32]
    p, dy = problem(np.random.default_rng(45), "lstm", 3, 2, 2, 9)
    assert_twins(run_lstm(lstm_cuda, p, dy, "ln"), run_lstm(lstm, p, dy, "ln"), TOL64)


def test_copies_by_bytes_and_rows():
    """arrays_cuda.copy_bytes copies the bytes asked for, at both offsets, and refuses to leave either array;
    take_row and head copy a row and leading rows; load refuses arrays of another row shape or more rows."""
    a = arrays_cuda.to_device(np.arange(12.0).reshape(4, 3))
    b = arrays_cuda.to_device(np.zeros((4, 3)))
    arrays_cuda.copy_bytes(b, a, 2 * 8, dst_at=7 * 8, src_at=4 * 8)
    want = np.zeros(12)
    want[7:9] = [4.0, 5.0]
    assert np.array_equal(host(b).ravel(), want)
    for bad in ((13 * 8, 0, 0), (8, 12 * 8, 0), (8, 0, 12 * 8), (-8, 0, 0)):
        with pytest.raises(ValueError, match="copy_bytes"):
            arrays_cuda.copy_bytes(b, a, bad[0], dst_at=bad[1], src_at=bad[2])
    assert np.array_equal(host(arrays_cuda.take_row(a, 2)), [6.0, 7.0, 8.0])
    assert np.array_equal(host(arrays_cuda.head(a, 3)), np.arange(9.0).reshape(3, 3))
    dst = arrays_cuda.to_device(np.full((5, 3), -1.0))
    arrays_cuda.load([(dst, a)])
    assert np.array_equal(host(dst)[:4], host(a)) and np.all(host(dst)[4] == -1)
    for bad in (np.zeros((4, 2)), np.zeros((6, 3)), np.zeros((4, 3), np.float32)):
        with pytest.raises(ValueError, match="load"):
            arrays_cuda.load([(dst, arrays_cuda.to_device(bad))])
    z = arrays_cuda.to_device(np.ones((2, 3)))
    arrays_cuda.fill_zeros(z)
    assert np.all(host(z) == 0)


@pytest.mark.parametrize("cell", list(TWINS))
def test_backward_plan_with_no_input_columns_and_after_a_nan_call(cell, graphs, monkeypatch):
    """The captured calls (the input's product before the loop; the backward's products and column sums after
    it) with I = 0 equal the CPU's; and a plan of 17 steps whose last step held NaN in an earlier call serves a
    clean call of 16 steps with the CPU's finite gradients (the extra step runs on zeros, not on what the
    earlier call left there)."""
    cpu, gpu, run, _, seed = TWINS[cell]
    _set_threads(monkeypatch, 8)
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 16)
    rng = np.random.default_rng(seed + 7)
    for norm in ("ln", "none"):
        p, dy = problem(rng, cell, 4, 2, 0, 3)
        assert_twins(run(gpu, p, dy, norm), run(cpu, p, dy, norm), TOL64)
    p17, dy17 = problem(rng, cell, 17, 2, 2, 3)
    p17["x"][16] = np.nan
    dy17[16] = np.nan
    run(gpu, p17, dy17, "ln")
    p16, dy16 = problem(rng, cell, 16, 2, 2, 3)
    got = run(gpu, p16, dy16, "ln")
    assert all(np.all(np.isfinite(host(v))) for v in got[2].values())
    assert_twins(got, run(cpu, p16, dy16, "ln"), TOL64)
