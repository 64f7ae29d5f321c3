"""Graves's clip of the LSTM derivatives: dL/d(gate preactivations) clipped to [-V, V] at every
step of BPTT, in every LSTM backward (lstm, ln-lstm, bn-lstm; CPU and CUDA twins), ``clip_gates`` of the
layers and ``--clip-gates`` of ``lnrnn train``.

A clipped gradient is not the gradient of any loss, so finite differences cannot judge it: the NumPy
reference with the same clip (reference.clip_gate_grads) is the check, in float64, with a loss scale
large enough that clipping really happens (asserted: the reference sees derivatives beyond V, and
the clipped gradients differ from the unclipped ones). Off (0, inf, or a bound nothing reaches) must
be the unclipped arithmetic bit for bit.
"""
import json
import os

import numpy as np
import pytest

from lnrnn import backend
from lnrnn import reference as R
from lnrnn.kernels import bn_lstm, lstm
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.model import cells
from lnrnn.model.layers import RecurrentLayer, RecurrentStack

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
LSTM_FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
BN_FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")
SCALE = 40.0  # dL/dy ~ N(0, SCALE^2): large enough that |dL/da| exceeds V below at many entries
V = 2.0


def close(a, b):
    return float(np.max(np.abs(np.asarray(a) - b)) / max(np.max(np.abs(b)), 1e-30))


def problem(rng, T, B, I, H, dtype=np.float64):
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return (shift + scale * rng.standard_normal(s)).astype(dtype)

    p = dict(x=P(T, B, I), h0=P(B, H), c0=P(B, H), Wx=P(I, G, scale=0.5), Wh=P(H, G, scale=0.5), b=P(G),
             gx=P(G, scale=0.2, shift=1), bx=P(G, scale=0.2), gh=P(G, scale=0.2, shift=1), bh=P(G, scale=0.2),
             gc=P(H, scale=0.2, shift=1), bc=P(H, scale=0.2))
    return p, (SCALE * rng.standard_normal((T, B, H))).astype(dtype)


def bn_running(rng, T, H):
    G = 4 * H
    return [0.3 * rng.standard_normal((T, w)) if k % 2 == 0 else rng.uniform(0.5, 1.5, (T, w))
            for k, w in enumerate([G, G, G, G, H, H])]


@pytest.fixture
def seen(monkeypatch):
    """Records, for every call of reference.clip_gate_grads with the clip on, the largest |dL/da| it got
    and the fraction of entries beyond the bound: the proof that clipping really happened."""
    calls = []
    real = R.clip_gate_grads

    def spy(da, clip):
        if 0 < clip < np.inf:
            calls.append((float(np.abs(da).max()), float(np.mean(np.abs(da) > clip))))
        return real(da, clip)

    monkeypatch.setattr(R, "clip_gate_grads", spy)
    return calls


def assert_clipping_happened(calls, clip):
    assert calls, "the reference never clipped"
    assert max(m for m, _ in calls) > clip
    frac = np.mean([f for _, f in calls])
    assert 0.02 < frac < 0.9, frac  # some entries clipped, and not all: the bound matters and is not a sign


def lstm_grads(p, norm, dy, clip=None, nchunks=2):
    _, _, _, saved = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, nchunks)
    args = (dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm], nchunks)
    return lstm.lstm_backward(*args) if clip is None else lstm.lstm_backward(*args, clip=clip)


def lstm_ref(p, norm, dy, clip):
    _, _, _, cache = R.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    return R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)


def bn_grads(p, run, dy, training, clip=None, lengths=None):
    run = [r.copy() for r in run]
    out = bn_lstm.bn_lstm_forward(*[p[k] for k in BN_FWD], *run, training, 0.1, EPS, lengths=lengths)
    args = (dy, out[-1], p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"])
    return bn_lstm.bn_lstm_backward(*args) if clip is None else bn_lstm.bn_lstm_backward(*args, clip=clip)


def bn_ref(p, run, dy, training, clip, lengths=None):
    run = [r.copy() for r in run]
    out = R.bn_lstm_forward(*[p[k] for k in BN_FWD], *run, training, 0.1, EPS, lengths=lengths)
    return R.bn_lstm_backward(dy, out[-1], p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                              clip=clip)


# ------------------------------------------------------------------------------------------------
# Off is the unclipped backward, bit for bit
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_off_and_never_biting_equal_no_clip(norm, dtype, seen):
    """clip=0, clip=inf and a bound above every |dL/da| give exactly the gradients of a call without
    clip, which (float64) are the reference's unclipped ones."""
    rng = np.random.default_rng(1)
    p, dy = problem(rng, T=5, B=4, I=3, H=3, dtype=dtype)
    if norm == "bn":
        run = [r.astype(dtype) for r in bn_running(rng, 5, 3)]
        grads = lambda clip=None: bn_grads(p, run, dy, True, clip)  # noqa: E731
        ref = lambda clip: bn_ref(p, run, dy, True, clip)  # noqa: E731
    else:
        grads = lambda clip=None: lstm_grads(p, norm, dy, clip)  # noqa: E731
        ref = lambda clip: lstm_ref(p, norm, dy, clip)  # noqa: E731
    base = grads()
    huge = 1e6  # far above any |dL/da| of this problem (checked below through the reference)
    for clip in (0.0, np.inf, huge):
        assert all(np.array_equal(a, b) for a, b in zip(grads(clip), base)), clip
    if dtype == np.float64:
        want = ref(huge)
        assert seen and max(m for m, _ in seen) < huge
        assert all(close(a, b) < 1e-11 for a, b in zip(base, want) if np.any(b))


# ------------------------------------------------------------------------------------------------
# Clipping on: CPU kernels against the reference
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I,nchunks", [(1, 2), (6, 3)])  # I <= FOLD_MAX_I: dx, dWx inside the time loop
def test_lstm_clipped_matches_reference(norm, I, nchunks, seen):
    p, dy = problem(np.random.default_rng(2), T=6, B=5, I=I, H=4)
    got = lstm_grads(p, norm, dy, V, nchunks)
    want = lstm_ref(p, norm, dy, V)
    assert_clipping_happened(seen, V)
    names = ("x", "h0", "c0", "Wx", "Wh", "b") + (("gx", "bx", "gh", "bh", "gc", "bc") if norm == "ln" else ())
    for k, a, b in zip(names, got, want):
        assert close(a, b) < 1e-11, k
    unclipped = lstm_grads(p, norm, dy, None, nchunks)
    assert all(close(a, b) > 1e-3 for a, b in zip(got[:6], unclipped[:6]))  # the clip changed every gradient


@pytest.mark.parametrize("training", [True, False])
def test_bn_lstm_clipped_matches_reference_with_masks(training, seen):
    """Rows of length 0, T and between (padded rows are outside the loss, clipped or not)."""
    rng = np.random.default_rng(3)
    T, B, H = 5, 6, 3
    p, dy = problem(rng, T=T, B=B, I=2, H=H)
    run = bn_running(rng, T, H)
    lengths = np.array([5, 0, 2, 5, 3, 1], np.int64)
    got = bn_grads(p, run, dy, training, V, lengths)
    want = bn_ref(p, run, dy, training, V, lengths)
    assert_clipping_happened(seen, V)
    for k, a, b in zip(("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"), got, want):
        assert close(a, b) < 1e-11, k
    assert close(got[0], bn_grads(p, run, dy, training, None, lengths)[0]) > 1e-3


def _layer_ref(layer, x, dy, lengths, buffers, clip):
    """One layer's forward and backward by the reference: its parameters, the BN statistics it started
    from, dy dropped at padded steps (plain/LN cells: what the layer does; BN: the reference's masks)."""
    p = layer.params
    B, H = x.shape[1], layer.H
    G = 4 * H
    h0 = c0 = np.zeros((B, H))
    if layer.norm == "bn":
        run = [buffers[k].copy() for k in ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")]
        y, _, _, saved = R.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                           *run, True, layer.momentum, EPS, lengths=lengths)
        g = R.bn_lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], clip=clip)
        return y, g[0], dict(zip(("Wx", "Wh", "b", "gx", "gh", "gc", "bc"), g[3:]))
    one, zero = np.ones(G), np.zeros(G)
    ln = layer.norm == "ln"
    q = {k: p.get(k, one if k[0] == "g" else zero) for k in ("gx", "bx", "gh", "bh")}
    gc, bc = (p["gc"], p["bc"]) if ln else (np.ones(H), np.zeros(H))
    y, _, _, cache = R.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], q["gx"], q["bx"], q["gh"], q["bh"], gc, bc,
                                    layer.norm, EPS)
    mask = (np.arange(x.shape[0])[:, None] < lengths[None, :])[:, :, None]
    g = R.lstm_backward(dy * mask, cache, p["Wx"], p["Wh"], q["gx"], q["gh"], gc, layer.norm, clip=clip)
    names = ("Wx", "Wh", "b") + (("gx", "bx", "gh", "bh", "gc", "bc") if ln else ())
    return y, g[0], dict(zip(names, g[3:]))


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_two_layer_stack_with_masks_matches_reference(norm, seen):
    """The layers' clip_gates reaches every layer's kernel; lengths as the layers apply them."""
    rng = np.random.default_rng(4)
    T, B, I, H = 5, 4, 2, 3
    stack = RecurrentStack("lstm", norm, I, H, num_layers=2, dtype=np.float64, seed=5, max_steps=T, clip_gates=V)
    for layer in stack.layers:  # away from the initial values (unit gains, zero LN biases)
        for v in layer.params.values():
            v += 0.3 * rng.standard_normal(v.shape)
    x = rng.standard_normal((T, B, I))
    dy = SCALE * rng.standard_normal((T, B, H))
    lengths = np.array([5, 2, 0, 4], np.int64)
    buffers = [{k: v.copy() for k, v in layer.buffers.items()} for layer in stack.layers]
    y, _ = stack.forward(x, lengths=lengths)
    stack.zero_grad()
    dx = stack.backward(dy)
    y0, _, _ = _layer_ref(stack.layers[0], x, np.zeros((T, B, H)), lengths, buffers[0], V)
    y1, dh1, g1 = _layer_ref(stack.layers[1], y0, dy, lengths, buffers[1], V)
    _, dx0, g0 = _layer_ref(stack.layers[0], x, dh1, lengths, buffers[0], V)
    assert_clipping_happened(seen, V)
    assert close(y, y1) < 1e-12
    assert close(dx, dx0) < 1e-11
    for layer, want in zip(stack.layers, (g0, g1)):
        for k, b in want.items():
            assert close(layer.grads[k], b) < 1e-11, k


def test_layer_refuses_bad_bounds_and_cells_without_gates():
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="clip_gates must be 0"):
            RecurrentLayer("lstm", "ln", 2, 3, clip_gates=bad)
    with pytest.raises(ValueError, match="has no gates"):
        RecurrentLayer("rnn", "ln", 2, 3, clip_gates=10)
    assert RecurrentLayer("lstm", "none", 2, 3, clip_gates=np.inf).clip_gates == 0.0
    assert RecurrentLayer("rnn", "none", 2, 3, clip_gates=0).clip_gates == 0.0


# ------------------------------------------------------------------------------------------------
# CUDA twins (simulator: tiny blocks, shapes that are not multiples of them)
# ------------------------------------------------------------------------------------------------
@pytest.fixture
def cuda_twins(monkeypatch):
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA kernels cannot run here: {why}")
    from test_cuda_kernels import simulator_race_free
    from lnrnn import config
    from lnrnn.kernels import bn_lstm_cuda, lstm_cuda
    from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda
    monkeypatch.setattr(gemm_cuda, "TILE", 4)
    with simulator_race_free(monkeypatch):
        yield config, lstm_cuda, bn_lstm_cuda, arrays_cuda.to_host


@pytest.mark.parametrize("sequence", [True, False], ids=["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_cuda_lstm_clipped_equals_cpu(norm, sequence, cuda_twins, monkeypatch):
    config, lstm_cuda, _, host = cuda_twins
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 8)
    monkeypatch.setattr(config, "CUDA_SEQUENCE_KERNELS", sequence)
    p, dy = problem(np.random.default_rng(6), T=3, B=3, I=2, H=5)  # G = 20 over blocks of 8 threads
    _, _, _, saved = lstm_cuda.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 2)
    got = host(lstm_cuda.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                       p["gc"], NORM[norm], 2, clip=V))
    want = lstm_grads(p, norm, dy, V)
    assert close(want[0], lstm_grads(p, norm, dy)[0]) > 1e-3  # clipping is active
    for k, (a, b) in enumerate(zip(got, want)):
        assert close(a, b) < 1e-12 if np.any(b) else not np.any(a), k


def test_cuda_bn_lstm_clipped_equals_cpu_with_masks(cuda_twins):
    _, _, bn_lstm_cuda, host = cuda_twins
    rng = np.random.default_rng(7)
    T, B, H = 4, 5, 6  # two tiles of 4 hidden units, B = 5 over four lanes
    p, dy = problem(rng, T=T, B=B, I=2, H=H)
    run = bn_running(rng, T, H)
    lengths = np.array([4, 0, 1, 4, 2], np.int64)
    out = bn_lstm_cuda.bn_lstm_forward(*[p[k] for k in BN_FWD], *[r.copy() for r in run], True, 0.1, EPS,
                                       lengths=lengths)
    got = host(bn_lstm_cuda.bn_lstm_backward(dy, out[-1], p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                             p["gh"], p["gc"], clip=V))
    want = bn_grads(p, run, dy, True, V, lengths)
    assert close(want[0], bn_grads(p, run, dy, True, None, lengths)[0]) > 1e-3
    for k, (a, b) in enumerate(zip(got, want)):
        assert close(a, b) < 1e-12, k


# ------------------------------------------------------------------------------------------------
# lnrnn train --clip-gates
# ------------------------------------------------------------------------------------------------
@pytest.fixture
def kernel_clips(monkeypatch):
    """The clip every CPU LSTM backward is called with, as layers call them."""
    k = cells.LSTM_CPU  # the CPU LSTM kernels of the registry's rows
    clips = []
    real = k.backward

    def spy(*args, **kw):
        clips.append(kw.get("clip"))
        return real(*args, **kw)

    monkeypatch.setattr(k, "backward", spy)
    return clips


STROKES = ["--task", "strokes-synthetic", "--split", "16/8", "--hidden", "6", "--layers", "2", "--batch-size", "8",
           "--eval-batch-size", "8", "-q"]


def test_cli_trains_and_resumes_with_clip_gates(tmp_path, kernel_clips):
    from test_cli import assert_ok, invoke
    out = tmp_path / "run"
    assert_ok(invoke("train", *STROKES, "--clip-gates", 10, "--max-steps", 2, "--out", out))
    assert kernel_clips and set(kernel_clips) == {10.0}
    meta = json.loads((out / "checkpoint.json").read_text())
    assert meta["train"]["clip_gates"] == 10.0 and meta["step"] == 2
    kernel_clips.clear()
    assert_ok(invoke("train", "--out", out, "--resume", "--max-steps", 3, "-q"))  # the setting comes back
    assert kernel_clips and set(kernel_clips) == {10.0}
    assert json.loads((out / "checkpoint.json").read_text())["step"] == 3
    # a checkpoint written before --clip-gates existed resumes with the clip off
    meta = json.loads((out / "checkpoint.json").read_text())
    del meta["train"]["clip_gates"]
    (out / "checkpoint.json").write_text(json.dumps(meta))
    kernel_clips.clear()
    assert_ok(invoke("train", "--out", out, "--resume", "--max-steps", 4, "-q"))
    assert kernel_clips and set(kernel_clips) == {0.0}
    assert os.path.exists(out / "checkpoint.json")


@pytest.mark.parametrize("args,words", [
    (["--clip-gates", "-1"], "--clip-gates must be 0 (off) or a positive number, not -1.0."),
    (["--clip-gates", "nan"], "--clip-gates must be 0 (off) or a positive number, not nan."),
    (["--clip-gates", "inf"], "--clip-gates must be 0 (off) or a positive number, not inf."),
    (["--clip-gates", "ten"], "'ten' is not a valid float"),
    (["--cell", "ln-rnn", "--clip-gates", "10"], "--clip-gates clips the LSTM gates' derivatives; --cell ln-rnn"),
])
def test_cli_bad_clip_gates_is_one_line(tmp_path, args, words):
    from test_cli import assert_clean_error, invoke
    assert_clean_error(invoke("train", *args, "--out", tmp_path / "run", "-q"), words)
    assert not os.path.exists(tmp_path / "run" / "checkpoint.json")
