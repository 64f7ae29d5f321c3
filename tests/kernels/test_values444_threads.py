"""Every compiled time loop that lnrnn runs on its threads releases the GIL (lnrnn/config.py's ROWS: nogil=True):
threads.run_chunks and run_synced are watched in each kernel module while every cell x norm, the synchronized
BatchNorm of a data-parallel group, and the synthesis network's window layer run a forward and a backward; each
function they were handed must be a Numba dispatcher compiled with nogil=True, else the chunks of one call would
take turns on one core instead of running side by side (the same numbers, twice the time)."""
import numpy as np
import pytest

import lnrnn.kernels.bn_lstm
import lnrnn.kernels.bn_rnn
import lnrnn.kernels.bn_sync
import lnrnn.kernels.cpu.gemm
import lnrnn.kernels.lstm
import lnrnn.kernels.rnn
import lnrnn.kernels.window
from lnrnn.model.layers import RecurrentLayer
from lnrnn.model.window import WindowLayer

MODULES = (lnrnn.kernels.lstm, lnrnn.kernels.rnn, lnrnn.kernels.bn_lstm, lnrnn.kernels.bn_rnn, lnrnn.kernels.bn_sync,
           lnrnn.kernels.window, lnrnn.kernels.cpu.gemm)
T, B, I, H, C, K = 3, 4, 2, 5, 3, 2


@pytest.fixture
def handed(monkeypatch):
    """{(module, function name): function} of what run_chunks and run_synced were handed, as they ran."""
    seen = {}
    for mod in MODULES:
        for runner in ("run_chunks", "run_synced"):
            if hasattr(mod, runner):
                def watch(fn, *args, _real=getattr(mod, runner), _mod=mod.__name__):
                    seen[(_mod, fn.__name__)] = fn
                    return _real(fn, *args)
                monkeypatch.setattr(mod, runner, watch)
    return seen


def run_layer(layer, rng, synced=False):
    if synced:
        layer.set_batch_reduce(lambda buf: None)  # a group of one process: bn_sync's kernels
    x = rng.standard_normal((T, B, layer.I))
    y, _ = layer.forward(x)
    layer.backward(rng.standard_normal(y.shape))


def test_every_time_loop_on_the_threads_releases_the_gil(handed):
    rng = np.random.default_rng(0)
    for cell in ("lstm", "rnn"):
        for norm in ("none", "ln", "bn"):
            run_layer(RecurrentLayer(cell, norm, I, H, dtype=np.float64, seed=1, max_steps=T), rng)
        run_layer(RecurrentLayer(cell, "bn", I, H, dtype=np.float64, seed=1, max_steps=T), rng, synced=True)
    window = WindowLayer("lstm", "ln", I, H, C, K, np.random.default_rng(2), dtype=np.float64, max_steps=T + 1)
    text = (rng.integers(0, C, (B, 4)), np.array([4, 3, 2, 1]))
    h, w, _ = window.forward_text(rng.standard_normal((T, B, I)), text)
    window.backward_text(rng.standard_normal(h.shape), rng.standard_normal(w.shape))
    names = {name for _, name in handed}
    for module, name in [("lnrnn.kernels.lstm", "_forward_rows"), ("lnrnn.kernels.lstm", "_backward_rows"),
                         ("lnrnn.kernels.rnn", "_forward_rows"), ("lnrnn.kernels.rnn", "_backward_rows"),
                         ("lnrnn.kernels.bn_lstm", "_forward_part"), ("lnrnn.kernels.bn_lstm", "_backward_part"),
                         ("lnrnn.kernels.bn_rnn", "_forward_part"), ("lnrnn.kernels.bn_rnn", "_backward_part"),
                         ("lnrnn.kernels.window", "_forward_chunk"), ("lnrnn.kernels.window", "_backward_chunk")]:
        assert (module, name) in handed, f"{module}.{name} was not run on the threads"
    assert any(m == "lnrnn.kernels.bn_sync" for m, _ in handed), names
    for (module, name), fn in handed.items():
        assert fn.targetoptions.get("nogil") is True, f"{module}.{name} holds the GIL while it runs"
