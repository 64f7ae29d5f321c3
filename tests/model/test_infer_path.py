"""Inference forwards save nothing: a forward that no backward follows (``keep=False``:
the model's evaluation, ``last_outputs``, ``step``) runs the plain and LN cells' infer kernels
(lstm_infer, rnn_infer) instead of lstm_forward/rnn_forward, returns the same y and final states,
allocates none of the saved (T,B,*) arrays, and leaves nothing for a backward, which raises. "The
same" is to float64 rounding here (rtol 1e-12): the kernels promise bit for bit and test_kernels
holds them to it; these tests check the wiring (which kernel, which state, which rows), which a
rounding-level difference inside a kernel should not fail.
A masked LSTM (lengths given) runs the full forward: its final state reads c at each row's last step,
which lstm_infer does not keep; a masked RNN reads h = y and stays on the infer kernel. The BN cells
have no infer kernel and run their forward. Which kernel ran is counted by wrapping the functions of
the registry's kernel records, which every layer's row looks up at call time (``lnrnn.model.cells``)."""
import os
import tracemalloc
from collections import Counter

import numpy as np
import pytest

from lnrnn import backend
from lnrnn.config import FOLD_MAX_I
from lnrnn.model import cells
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from lnrnn.model.models import build_model, head_config

PLAIN_LN = [("lstm", "none"), ("lstm", "ln"), ("rnn", "none"), ("rnn", "ln")]
ALL = PLAIN_LN + [("lstm", "bn"), ("rnn", "bn")]
T, B, I, H = 9, 4, 3, 5
LENGTHS = np.array([9, 4, 0, 7])  # a full row, an empty one


@pytest.fixture
def calls(monkeypatch):
    """Counter of the recurrent kernels called through the CPU (and CUDA, where usable) namespaces."""
    return count_kernels(monkeypatch)


def count_kernels(monkeypatch):
    seen = Counter()
    records = [(cells.LSTM_CPU, "lstm"), (cells.RNN_CPU, "rnn"), (cells.BN_LSTM_CPU, "bn_lstm"),
               (cells.BN_RNN_CPU, "bn_rnn")]
    if backend.cuda_usable()[0]:
        records += [(cells.lstm_cuda(), "lstm"), (cells.rnn_cuda(), "rnn"), (cells.bn_lstm_cuda(), "bn_lstm"),
                    (cells.bn_rnn_cuda(), "bn_rnn")]
    for k, family in records:
        for op in ("forward", "infer"):
            fn = getattr(k, op)
            if fn is None:  # the BN cells have no infer kernel
                continue

            def counted(*a, _fn=fn, _name=f"{family}_{op}", **kw):
                seen[_name] += 1
                return _fn(*a, **kw)
            monkeypatch.setattr(k, op, counted)
    return seen


def stack_and_data(cell, norm, layers=2, skip=False, device="cpu", seed=0):
    s = RecurrentStack(cell, norm, I, H, num_layers=layers, dtype=np.float64, seed=seed, max_steps=T,
                       device=device, skip=skip)
    rng = np.random.default_rng(seed + 1)
    for layer in s.layers:  # BN population statistics that differ from the initial ones
        for k, v in layer.buffers.items():
            layer.buffers[k] = rng.uniform(0.5, 2.0, v.shape) if k.startswith("rv") else rng.normal(0, 0.5, v.shape)
    x = rng.standard_normal((T, B, I))
    state = [tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate)) for layer in s.layers]
    return s, x, state


def assert_same(a, b):
    """(y, states) of two float64 stack forwards, equal to rounding (module docstring)."""
    np.testing.assert_allclose(a[0], b[0], rtol=1e-12, atol=1e-14)
    assert len(a[1]) == len(b[1])
    for sa, sb in zip(a[1], b[1]):
        assert len(sa) == len(sb)
        for u, v in zip(sa, sb):
            np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("skip", [False, True], ids=["stack", "skip"])
@pytest.mark.parametrize("masked", [False, True], ids=["full", "masked"])
@pytest.mark.parametrize("cell,norm", ALL)
def test_infer_forward_equals_forward_and_keeps_nothing(cell, norm, masked, skip, calls):
    s, x, state = stack_and_data(cell, norm, skip=skip)
    lengths = LENGTHS if masked else None
    want = s.forward(x, state, training=False, lengths=lengths)
    calls.clear()
    got = s.forward(x, state, training=False, lengths=lengths, keep=False)
    assert_same(want, got)
    infer = f"{cell}_infer"
    if norm == "bn":
        assert calls == {f"bn_{cell}_forward": 2}
    elif masked and cell == "lstm":
        assert calls == {"lstm_forward": 2}
    else:
        assert calls == {infer: 2}
    assert all(layer._saved is None for layer in s.layers)
    with pytest.raises(RuntimeError, match=r"inference forward \(keep=False\)"):
        s.backward(np.zeros_like(got[0]))


@pytest.mark.parametrize("cell,norm", PLAIN_LN)
def test_backward_after_training_forward_still_works(cell, norm, calls):
    """keep=True (the default) is the training forward: forward kernel, backward runs; a keep=False
    forward in between makes the next backward raise rather than use the older forward's state."""
    s, x, state = stack_and_data(cell, norm)
    y, _ = s.forward(x, state)
    assert calls == {f"{cell}_forward": 2}
    dx = s.backward(np.ones_like(y))
    assert dx.shape == x.shape and np.isfinite(dx).all()
    s.forward(x, state)
    s.forward(x, state, keep=False)
    with pytest.raises(RuntimeError, match="keep=False"):
        s.backward(np.ones_like(y))


def held_by_kernels(monkeypatch):
    """-> list receiving, for each time loop the LSTM and RNN kernels start (``run_chunks``), the bytes
    that the kernel modules' own allocations hold at that moment (tracemalloc's live traces filtered
    to lnrnn/kernels/: the saved tuple or its one-step buffers, y, x Wx, the chunks' scratch). A
    snapshot of live arrays at a fixed point, not a peak: nothing another thread or an earlier test
    allocates (threadpoolctl's scans, the part threads' queues) enters it, so it cannot flake."""
    from lnrnn.kernels import lstm, rnn
    held = []
    for mod in (lstm, rnn):
        real = mod.run_chunks

        def spy(*a, _real=real, **kw):
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(True, os.path.join("*", "lnrnn", "kernels", "*"))])
            held.append(sum(t.size for t in snap.traces))
            return _real(*a, **kw)
        monkeypatch.setattr(mod, "run_chunks", spy)
    return held


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("lstm", "none"), ("rnn", "ln")])
def test_infer_forward_allocates_no_saved_arrays(cell, norm, monkeypatch):
    """What the kernels hold while the time loop runs: keep=True holds the saved arrays besides y
    (ahat alone for the LN-RNN; gates (T,B,4H) and more for the LSTMs), keep=False at most y and a
    few steps' buffers: a bound derived from those sizes, below the saved arrays. (The
    plain RNN saves nothing besides y: nothing to tell apart.)"""
    rng = np.random.default_rng(0)
    Tm, Bm, Hm = 200, 8, 16
    layer = RecurrentLayer(cell, norm, I, Hm, dtype=np.float64, seed=0)
    x = rng.standard_normal((Tm, Bm, I))
    y, _ = layer.forward(x, keep=True)
    saved_bytes = sum(a.nbytes for a in layer._saved[2] if a is not y)
    G = layer.params["Wx"].shape[1]
    assert I <= FOLD_MAX_I  # a narrow input: x_t Wx row by row, no (T,B,G) projection either way
    room = y.nbytes + 16 * Bm * (G + 64) * 8   # y and 16 steps' (B,G) buffers
    assert saved_bytes > 0.5 * room  # a saved tuple cannot hide in that room
    held = held_by_kernels(monkeypatch)
    tracemalloc.start()
    try:
        for keep in (True, False):
            layer._saved = None
            layer.forward(x, keep=keep)
    finally:
        tracemalloc.stop()
    kept, infer = held
    assert kept >= saved_bytes + y.nbytes, (kept, saved_bytes)
    assert infer <= room < saved_bytes + y.nbytes, (infer, room, saved_bytes)


def make_model(cell, norm, per_step, layers=2, device="cpu"):
    m = build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
                         forget_bias=1.0, head=head_config("ce", 3, per_step)), seed=0, device=device)
    return m


@pytest.mark.parametrize("per_step", [False, True], ids=["last", "per-step"])
@pytest.mark.parametrize("masked", [False, True], ids=["full", "masked"])
@pytest.mark.parametrize("cell,norm", PLAIN_LN)
def test_model_evaluation_runs_infer_kernels(cell, norm, masked, per_step, calls):
    """evaluate/loss_sums (in time chunks), last_outputs and step call the infer kernel (the forward
    kernel only for a masked LSTM), with the figures of the keep=True forward; training calls the
    forward kernel."""
    m = make_model(cell, norm, per_step)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, 3, (B, T) if per_step else B)
    lengths = LENGTHS if masked else None
    full = "lstm_forward" if masked and cell == "lstm" else f"{cell}_infer"
    calls.clear()
    sums, count = m.loss_sums(x, labels, lengths)
    assert set(calls) == {full} and calls[full] >= 2
    # the same figures through the stack's keep=True forward, whole sequence
    y, _ = m.stack.forward(x, training=False, lengths=lengths)
    L = np.full(B, T) if lengths is None else lengths
    if per_step:
        want, want_count, _ = m.head.forward(y, labels, np.arange(T)[:, None] < L[None, :])
    else:
        want, want_count, _ = m.head.forward(y[np.clip(L - 1, 0, T - 1), np.arange(B)], labels, L > 0)
    assert count == want_count
    for k in want:
        assert sums[k] == pytest.approx(want[k], rel=1e-12, abs=1e-12), k
    calls.clear()
    h = m.last_outputs(x, lengths=lengths)
    assert set(calls) == {full}
    if not per_step:
        np.testing.assert_allclose(h[L > 0], y[L[L > 0] - 1, np.nonzero(L > 0)[0]], rtol=1e-12, atol=1e-14)
    calls.clear()
    o, state = m.step(x[0])
    assert calls == {f"{cell}_infer": 2}
    np.testing.assert_allclose(o, m.head.linear(y[0]), rtol=1e-12, atol=1e-12)  # step 0 from zeros, every row
    calls.clear()
    m.loss_and_grad(x, labels, lengths)
    assert calls == {f"{cell}_forward": 2}


def test_sampler_steps_run_infer_kernels(calls):
    """The mixture-density sampler (``sample_strokes``) steps through the infer kernels."""
    from lnrnn.sample import sample_strokes
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, head={"kind": "mdn", "components": 2}), seed=0)
    lines = sample_strokes(m, steps=3, count=2, seed=0)
    assert len(lines) == 2 and lines[0].shape == (3, 3)
    assert calls == {"lstm_infer": 6}
