"""CUDA twins equal their CPU twins: GEMM and column reductions, LayerNorm, LSTM/LN-LSTM, RNN/LN-RNN.

Runs under Numba's CUDA simulator (tests/conftest.py sets NUMBA_ENABLE_CUDASIM=1 before numba is
imported) or on a GPU (NUMBA_ENABLE_CUDASIM=0). The simulator runs one OS thread per CUDA thread, so
blocks are shrunk (GEMM tiles of 4x4, rows of 8 threads) and shapes are tiny but chosen so that
sizes are not multiples of the block and several blocks run. float64 must agree to rounding level.
"""
import contextlib
import sys
import threading

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem  # noqa: E402
from lnrnn import backend, config  # noqa: E402

from lnrnn.kernels.cpu import gemm
from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda
from lnrnn.kernels import batchnorm, batchnorm_cuda, layernorm, layernorm_cuda, lstm, lstm_cuda, rnn, rnn_cuda
from lnrnn.kernels import bn_lstm, bn_lstm_cuda, bn_rnn, bn_rnn_cuda  # noqa: E402

BN_CPU = {"lstm": bn_lstm, "rnn": bn_rnn}  # the recurrent-BN cells' twins, by cell
BN_CUDA = {"lstm": bn_lstm_cuda, "rnn": bn_rnn_cuda}

EPS = 1e-5
TOL64 = 1e-12  # float64: max |cuda - cpu| / max |cpu|
TOL32 = 2e-5   # float32 CUDA against the float64 CPU twin


def _locked_shared_array(lock):
    """FakeCUDAShared.array without its race: the simulator looks a block's shared array up by the
    caller's (file, line) and creates it when missing, with no lock, so under a short GIL switch
    interval two threads of one block can create (and write) different arrays. Same lookup, locked."""
    from numba.cuda.simulator.kernelapi import numpy_support, types

    def array(self, shape, dtype, alignment=None):
        if shape == 0 or alignment is not None:
            raise NotImplementedError("lnrnn's kernels use static, unaligned shared arrays only")
        if isinstance(dtype, types.Type):
            dtype = numpy_support.as_dtype(dtype)
        frame = sys._getframe(1)
        key = (frame.f_code.co_filename, frame.f_lineno)
        with lock:
            res = self._allocations.get(key)
            if res is None:
                res = self._allocations[key] = np.empty(shape, dtype)
        return res

    return array


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Tiny launch geometry so that several blocks run and the simulator stays quick. Under the
    simulator also: a short GIL switch interval (its block manager busy-polls its threads: about 5x
    faster than the 5 ms default) and a race-free shared-array lookup (see _locked_shared_array)."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 8)
    monkeypatch.setattr(gemm_cuda, "TILE", 4)
    with simulator_race_free(monkeypatch):
        yield


@contextlib.contextmanager
def simulator_race_free(monkeypatch):
    """Under the simulator: a short GIL switch interval and the locked shared-array lookup (nothing
    on a GPU). Shared with the other CUDA test modules."""
    if not backend.simulator_enabled():
        yield
        return
    from numba.cuda.simulator.kernelapi import FakeCUDAShared
    monkeypatch.setattr(FakeCUDAShared, "array", _locked_shared_array(threading.Lock()))
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def close(a, b, floor=1e-30):
    """Max abs difference scaled by the magnitude of b (b: the CPU twin), or by floor when that is
    larger (an exact zero on the CPU may come out as rounding noise from a GPU's fused multiply-add)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape
    return float(np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), floor))


host = arrays_cuda.to_host


# ------------------------------------------------------------------------------------------------
# GEMM and column reductions
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("trans_b", [False, True])
def test_matmul_all_transposes(trans_a, trans_b):
    rng = np.random.default_rng(0)
    M, K, N = 9, 6, 7  # 3x2 blocks of 4x4 threads, K over two slabs, none a multiple of 4
    A = rng.standard_normal((K, M) if trans_a else (M, K))
    B = rng.standard_normal((N, K) if trans_b else (K, N))
    want = (A.T if trans_a else A) @ (B.T if trans_b else B)
    got = gemm_cuda.matmul(arrays_cuda.to_device(A), arrays_cuda.to_device(B), trans_a=trans_a, trans_b=trans_b)
    assert arrays_cuda.is_device(got)
    assert close(host(got), want) < TOL64


def test_matmul_accumulate_and_cpu_twins():
    rng = np.random.default_rng(1)
    X, W, D = rng.standard_normal((13, 5)), rng.standard_normal((5, 6)), rng.standard_normal((13, 6))
    assert close(host(gemm_cuda.matmul(arrays_cuda.to_device(X), arrays_cuda.to_device(W))), gemm.matmul(X, W, 2)) < TOL64
    assert close(host(gemm_cuda.matmul(arrays_cuda.to_device(X), arrays_cuda.to_device(D), trans_a=True)), gemm.matmul_tn(X, D, 2)) < TOL64
    C0 = rng.standard_normal((5, 6))
    out = arrays_cuda.to_device(C0)
    gemm_cuda.matmul(arrays_cuda.to_device(X), arrays_cuda.to_device(D), out=out, trans_a=True, accumulate=True)
    assert close(host(out), C0 + X.T @ D) < TOL64
    with pytest.raises(ValueError, match="inner dimensions"):
        gemm_cuda.matmul(arrays_cuda.to_device(X), arrays_cuda.to_device(X))


def test_column_reductions():
    rng = np.random.default_rng(2)
    D, X = rng.standard_normal((3, 11, 6)), rng.standard_normal((3, 11, 6))  # 33 rows: 3 row ranges
    D2, X2 = D.reshape(33, 6), X.reshape(33, 6)
    assert close(host(gemm_cuda.colsum(arrays_cuda.to_device(D))), D2.sum(0)) < TOL64
    assert close(host(gemm_cuda.colsum_prod(arrays_cuda.to_device(D), arrays_cuda.to_device(X))), (D2 * X2).sum(0)) < TOL64
    m, r = X2.mean(1), 1 / X2.std(1)
    got = gemm_cuda.colsum_ln(arrays_cuda.to_device(D2), arrays_cuda.to_device(X2), arrays_cuda.to_device(m), arrays_cuda.to_device(r))
    assert close(host(got), (D2 * (X2 - m[:, None]) * r[:, None]).sum(0)) < TOL64


def test_fill_and_float32():
    z = arrays_cuda.zeros((5, 3), np.float32)
    assert z.dtype == np.float32 and not host(z).any()
    with pytest.raises(TypeError, match="float32 and float64"):
        arrays_cuda.nbtype(np.int32)


# ------------------------------------------------------------------------------------------------
# LayerNorm op
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("N,F,tpb", [(5, 19, 8), (3, 70, 32), (1, 1, 8)])
def test_layernorm_matches_cpu(N, F, tpb, monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
    rng = np.random.default_rng(N)
    x, g, b, dy = (rng.standard_normal((N, F)) * 3 + 1, rng.standard_normal(F), rng.standard_normal(F),
                   rng.standard_normal((N, F)))
    y, m, r = layernorm_cuda.layernorm_forward(x, g, b, EPS, 2)
    yc, mc, rc = layernorm.layernorm_forward(x, g, b, EPS, 2)
    for a, e in zip(host((y, m, r)), (yc, mc, rc)):
        assert close(a, e) < TOL64
    grads = layernorm_cuda.layernorm_backward(dy, x, m, r, g, 2)  # saved stats passed as device arrays
    for a, e in zip(host(grads), layernorm.layernorm_backward(dy, x, mc, rc, g, 2)):
        # F = 1: dx is exactly 0 on the CPU and rounding noise (3e-14, FMA) on a GPU: scale by dy's O(1)
        assert close(a, e, floor=1.0) < TOL64


def test_layernorm_float32():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 13))
    g, b = rng.standard_normal(13), rng.standard_normal(13)
    y, _, _ = host(layernorm_cuda.layernorm_forward(x.astype(np.float32), g.astype(np.float32),
                                                     b.astype(np.float32), EPS))
    assert y.dtype == np.float32
    assert close(y, layernorm.layernorm_forward(x, g, b, EPS, 1)[0]) < TOL32


# ------------------------------------------------------------------------------------------------
# Cells
# ------------------------------------------------------------------------------------------------
NORM = {"none": lstm.NORM_NONE, "ln": lstm.NORM_LN}
LSTM_FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
LSTM_GRADS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
RNN_FWD = ("x", "h0", "Wx", "Wh", "b", "g")
RNN_GRADS = ("x", "h0", "Wx", "Wh", "b", "g")


def problem(rng, cell, T, B, I, H):
    G_ = 4 * H if cell == "lstm" else H

    def P(*s, scale=1.0, shift=0.0):
        return shift + scale * rng.standard_normal(s)

    p = dict(x=P(T, B, I), h0=P(B, H), Wx=P(I, G_, scale=0.5), Wh=P(H, G_, scale=0.5), b=P(G_))
    if cell == "lstm":
        p.update(c0=P(B, H), gx=P(G_, scale=0.2, shift=1), bx=P(G_, scale=0.2), gh=P(G_, scale=0.2, shift=1),
                 bh=P(G_, scale=0.2), gc=P(H, scale=0.2, shift=1), bc=P(H, scale=0.2))
    else:
        p["g"] = P(H, scale=0.2, shift=1)
    return p, rng.standard_normal((T, B, H))


def run_lstm(mod, p, dy, norm):
    y, hT, cT, saved = mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 2)
    grads = mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                              NORM[norm], 2)
    return (y, hT, cT), saved, dict(zip(LSTM_GRADS, grads))


def run_rnn(mod, p, dy, norm):
    y, hT, saved = mod.rnn_forward(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 2)
    grads = mod.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 2)
    return (y, hT), saved, dict(zip(RNN_GRADS, grads))


def assert_twins(cuda_out, cpu_out, tol):
    (outs, saved, grads), (outs_c, saved_c, grads_c) = cuda_out, cpu_out
    assert all(arrays_cuda.is_device(a) for a in outs + saved + tuple(grads.values())), "CUDA twins return device arrays"
    for k, (a, e) in enumerate(zip(host(outs), outs_c)):
        assert close(a, e) < tol, f"output {k}"
    assert len(saved) == len(saved_c)
    for k, (a, e) in enumerate(zip(host(saved), saved_c)):
        assert a.shape == e.shape and a.dtype == e.dtype, f"saved[{k}] layout"
        assert close(a, e) < tol, f"saved[{k}]"
    for k, a in host(grads).items():
        assert a.dtype == grads_c[k].dtype
        assert close(a, grads_c[k]) < tol, k


# (T, B, I, H, threads per block): H below and above the block, G = 4H above it, B blocks per step.
# Sequence kernels: H = 3 splits the recurrent sums over two thread groups (8 // 3), H = 5 over one,
# H = 9 > 4 threads takes the strided ("wide") path.
CELL_SHAPES = [(3, 3, 2, 5, 8), (2, 2, 3, 9, 4), (3, 2, 2, 3, 8)]
PATHS = {"sequence": True, "per-step": False}  # config.CUDA_SEQUENCE_KERNELS


def set_geometry(monkeypatch, tpb, path):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", tpb)
    monkeypatch.setattr(config, "CUDA_SEQUENCE_KERNELS", PATHS[path])


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("shape", CELL_SHAPES)
def test_lstm_matches_cpu(norm, shape, path, monkeypatch):
    T, B, I, H, tpb = shape
    set_geometry(monkeypatch, tpb, path)
    p, dy = problem(np.random.default_rng(4), "lstm", T, B, I, H)
    assert_twins(run_lstm(lstm_cuda, p, dy, norm), run_lstm(lstm, p, dy, norm), TOL64)


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("shape", CELL_SHAPES)
def test_rnn_matches_cpu(norm, shape, path, monkeypatch):
    T, B, I, H, tpb = shape
    set_geometry(monkeypatch, tpb, path)
    p, dy = problem(np.random.default_rng(5), "rnn", T, B, I, H)
    assert_twins(run_rnn(rnn_cuda, p, dy, norm), run_rnn(rnn, p, dy, norm), TOL64)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_infer_twins_match_cpu(cell, monkeypatch):
    """lstm_infer / rnn_infer: the CUDA twins return the CPU twins' outputs (device arrays)."""
    set_geometry(monkeypatch, 8, "sequence")
    p, _ = problem(np.random.default_rng(21), cell, 3, 3, 2, 5)
    if cell == "lstm":
        outs = lstm_cuda.lstm_infer(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 2)
        outs_c = lstm.lstm_infer(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 2)
    else:
        outs = rnn_cuda.rnn_infer(*[p[k] for k in RNN_FWD], NORM["ln"], EPS, 2)
        outs_c = rnn.rnn_infer(*[p[k] for k in RNN_FWD], NORM["ln"], EPS, 2)
    assert len(outs) == len(outs_c) and all(arrays_cuda.is_device(a) for a in outs)
    for a, e in zip(host(outs), outs_c):
        assert close(a, e) < TOL64


def test_device_inputs_single_step_single_row():
    """T = 1, B = 1, and inputs already on the device (no copy, same result). I = 2: with I = 1 the
    LayerNorm of x Wx does not depend on x, and dx is pure rounding noise."""
    p, dy = problem(np.random.default_rng(6), "lstm", 1, 1, 2, 3)
    pd = {k: arrays_cuda.to_device(v) for k, v in p.items()}
    assert_twins(run_lstm(lstm_cuda, pd, arrays_cuda.to_device(dy), "ln"), run_lstm(lstm, p, dy, "ln"), TOL64)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_float32_stays_float32(cell):
    p, dy = problem(np.random.default_rng(7), cell, 2, 3, 2, 5)
    p32 = {k: v.astype(np.float32) for k, v in p.items()}
    run = run_lstm if cell == "lstm" else run_rnn
    outs, saved, grads = run(lstm_cuda if cell == "lstm" else rnn_cuda, p32, dy.astype(np.float32), "ln")
    outs_c, _, grads_c = run(lstm if cell == "lstm" else rnn, p, dy, "ln")
    for a, e in zip(host(outs), outs_c):
        assert a.dtype == np.float32 and close(a, e) < TOL32
    for k, a in host(grads).items():
        assert a.dtype == np.float32 and close(a, grads_c[k]) < 10 * TOL32, k


# ------------------------------------------------------------------------------------------------
# BatchNorm op (per-step statistics)
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("T,B,F,Ts", [(3, 5, 6, 2), (2, 1, 3, 4)])  # 2 feature tiles x T steps; B = 1
def test_batchnorm_matches_cpu(T, B, F, Ts):
    rng = np.random.default_rng(T * 10 + B)
    x, g, b, dy = (rng.standard_normal((T, B, F)) * 2 + 1, rng.standard_normal(F), rng.standard_normal(F),
                   rng.standard_normal((T, B, F)))
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 1.5, (Ts, F))
    rm_g, rv_g, rm_c, rv_c = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    out = batchnorm_cuda.batchnorm_forward_train(x, g, b, rm_g, rv_g, 0.1, EPS)  # host running stats
    ref = batchnorm.batchnorm_forward_train(x, g, b, rm_c, rv_c, 0.1, EPS)
    for a, e in zip(host(out), ref):
        assert close(a, e) < TOL64
    assert close(rm_g, rm_c) < TOL64 and close(rv_g, rv_c) < TOL64  # updated in place, like the CPU twin
    for a, e in zip(host(batchnorm_cuda.batchnorm_backward(dy, x, out[1], out[2], g)),
                    batchnorm.batchnorm_backward(dy, x, ref[1], ref[2], g)):
        assert close(a, e) < TOL64
    rm_d, rv_d = arrays_cuda.to_device(rm), arrays_cuda.to_device(rv)  # device running stats: inference leaves them alone
    y = batchnorm_cuda.batchnorm_forward_infer(x, g, b, rm_d, rv_d, EPS)
    assert close(host(y), batchnorm.batchnorm_forward_infer(x, g, b, rm, rv, EPS)) < TOL64
    assert (host(rm_d) == rm).all() and (host(rv_d) == rv).all()
    _, m_i, r_i = batchnorm_cuda.bn_forward(x, g, b, rm, rv, False, 0.0, EPS)
    _, m_c, r_c = batchnorm.bn_forward(x, g, b, rm, rv, False, 0.0, EPS)
    for a, e in zip(host(batchnorm_cuda.bn_backward(dy, x, m_i, r_i, g, False)),
                    batchnorm.bn_backward(dy, x, m_c, r_c, g, False)):
        assert close(a, e) < TOL64


# ------------------------------------------------------------------------------------------------
# Recurrent BatchNorm cells
# ------------------------------------------------------------------------------------------------
def run_bn(mod, cell, a, run, dy, training):
    fwd = getattr(mod, f"bn_{cell}_forward")
    bwd = getattr(mod, f"bn_{cell}_backward")
    out = fwd(*a.values(), *run, training, 0.1, EPS)
    saved = out[-1]
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc") if cell == "lstm" else ("x", "h0", "Wx", "Wh", "gx", "gh")
    grads = bwd(dy, saved, *[a[k] for k in keys])
    return out[:-1], saved, grads


@pytest.fixture
def bn_wide_input_path(monkeypatch):
    """The CPU BN cells on their wide-input path at any I (x Wx saved, as the CUDA twins do), so that the
    twins' saved tuples compare slot by slot; the CPU narrow-input path (I <= config.FOLD_MAX_I, which saves
    the inputs' per-step statistics instead of x Wx) equals the wide one in tests/kernels/test_bn_cells.py."""
    for mod in BN_CPU.values():
        monkeypatch.setattr(mod, "FOLD_MAX_I", 0)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("training", [True, False])
def test_bn_cells_match_cpu(cell, training, bn_wide_input_path):
    """T > Ts (rows beyond Ts are not recorded / reuse the last one); H = 6: two tiles of hidden units
    (G = 24: six column tiles); B = 5 over four lanes."""
    a, run, dy = bn_problem(np.random.default_rng(8), cell, T=3, B=5, I=2, H=6, Ts=2)
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    outs, saved, grads = run_bn(BN_CUDA[cell], cell, a, run_g, dy, training)
    outs_c, saved_c, grads_c = run_bn(BN_CPU[cell], cell, a, run_c, dy, training)
    assert saved[-1] == saved_c[-1] == training and len(saved) == len(saved_c)
    for k, (x, e) in enumerate(zip(host(outs + saved[:-1] + grads), outs_c + saved_c[:-1] + grads_c)):
        assert x.shape == e.shape and close(x, e) < TOL64, k
    for x, e in zip(run_g, run_c):  # host running statistics updated in place exactly like the CPU twin's
        assert close(x, e) < TOL64


# ------------------------------------------------------------------------------------------------
# Masks (lengths (B,)): BatchNorm statistics of the active rows only, padded rows outside the backward
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("T,B,F,Ts,lengths", [(3, 5, 6, 2, [3, 0, 1, 3, 2]), (4, 7, 5, 4, [2, 0, 1, 2, 2, 1, 0])],
                         ids=["mixed", "gap"])  # B, F not multiples of the 4x4 tile; "gap": steps 2, 3 empty
def test_batchnorm_masked_matches_cpu(T, B, F, Ts, lengths):
    rng = np.random.default_rng(T * 10 + B)
    x, g, b, dy = (rng.standard_normal((T, B, F)) * 2 + 1, rng.standard_normal(F), rng.standard_normal(F),
                   rng.standard_normal((T, B, F)))
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 1.5, (Ts, F))
    rm_g, rv_g, rm_c, rv_c = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    lengths = np.array(lengths, np.int64)
    out = batchnorm_cuda.batchnorm_forward_train(x, g, b, rm_g, rv_g, 0.1, EPS, arrays_cuda.to_device(lengths))
    want = batchnorm.batchnorm_forward_train(x, g, b, rm_c, rv_c, 0.1, EPS, lengths)
    for a, e in zip(host(out), want):
        assert close(a, e) < TOL64
    assert close(rm_g, rm_c) < TOL64 and close(rv_g, rv_c) < TOL64
    got = host(batchnorm_cuda.batchnorm_backward(dy, x, out[1], out[2], g, lengths))
    for a, e in zip(got, batchnorm.batchnorm_backward(dy, x, want[1], want[2], g, lengths)):
        assert close(a, e) < TOL64
    assert np.all(got[0][~(np.arange(T)[:, None] < lengths)] == 0)  # padded rows: exactly zero dx


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("training", [True, False])
def test_bn_cells_masked_match_cpu(cell, training, bn_wide_input_path):
    """H = 6 (two tiles of hidden units), B = 5 over four lanes; rows of length 0, T and between, and a
    last step with no active row."""
    T = 4
    a, run, dy = bn_problem(np.random.default_rng(9), cell, T=T, B=5, I=2, H=6, Ts=3)
    lengths = np.array([3, 0, 1, 3, 2], np.int64)
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc") if cell == "lstm" else ("x", "h0", "Wx", "Wh", "gx", "gh")
    outs, outs_c = [], []
    for mod, rr, acc in ((BN_CUDA[cell], run_g, outs), (BN_CPU[cell], run_c, outs_c)):
        out = getattr(mod, f"bn_{cell}_forward")(*a.values(), *rr, training, 0.1, EPS, lengths=lengths)
        grads = getattr(mod, f"bn_{cell}_backward")(dy, out[-1], *[a[k] for k in keys])
        acc.extend(list(grads) + list(out[:-1]) + list(out[-1][:-1]))
    for k, (x, e) in enumerate(zip(host(outs), outs_c)):
        assert x.shape == e.shape and close(x, e) < TOL64, k
    for x, e in zip(run_g, run_c):
        assert close(x, e) < TOL64
    dx = host(outs[0])
    assert np.all(dx[~(np.arange(T)[:, None] < lengths)] == 0)
