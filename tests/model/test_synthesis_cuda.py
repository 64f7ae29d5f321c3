"""Graves's synthesis network (``lnrnn.model.window.WindowStack``) on device='cuda' equals it on 'cpu'.

Layer 1 and its window run on the window op's CUDA twin, layers 2..L on the LSTM twins, and the columns
between them ([x | h_{k-1} | w], y = [h1 | ... | hL], their gradients) are joined and split on the
device. In float64, with ragged point lengths and ragged text lengths: the stack's forward outputs, final
states and every gradient; a whole model's loss, every parameter gradient and BatchNorm statistics, and
the loss after two Adam updates; one sampling step (output, phi, the stop rule's phi past the text); how
many whole sequences crossed between host and device; the column moves against NumPy. Shapes are tiny and
none a multiple of a block: row kernels of 8 threads, tiles of 4, T=4 B=3 H=5 (G=20) K=2 C=5 U=4, a
3-layer stack and 2-layer models. The CLI trains a tiny strokes-hershey synthesis run with --device cuda
and samples a line from it (needs hershey-fonts).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0).
"""
import importlib.util
import json
import os

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend  # noqa: E402

from lnrnn.model.models import build_model  # noqa: E402
from lnrnn.model.window import WindowStack  # noqa: E402
from lnrnn.training.optim import Adam  # noqa: E402
from test_cuda_kernels import close, small_blocks  # noqa: E402,F401  (autouse fixture: blocks of 8, tiles of 4)

TOL = 1e-10  # float64, CPU twin against CUDA twin: max |cuda - cpu| / max |cpu|
T, B, I, H, K, C, U = 4, 3, 3, 5, 2, 5, 4
HEAD = {"kind": "mdn", "components": 2, "per_step": True, "scale": [1.0, 1.0]}


def batch(seed=0):
    """x (T,B,3), next points (B,T,3), ragged lengths (one row ends early, one runs all T), a ragged text
    (one row with a single character, one repeating a character)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, B, I))
    x[..., 2] = rng.random((T, B)) < 0.2
    y = rng.normal(size=(B, T, I))
    y[..., 2] = rng.random((B, T)) < 0.2
    codes = rng.integers(0, C, (B, U))
    codes[0, 2] = codes[0, 0]
    return x, y, np.array([4, 2, 3]), (codes, np.array([4, 1, 3]))


def model_pair(norm, layers=2):
    """The same synthesis model (same seed) on both devices. Window biases that move kappa about a
    character a step, so that phi and the text's padding matter within T steps."""
    cfg = dict(cell="lstm", norm=norm, input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
               forget_bias=1.0, head=HEAD, window=K, alphabet_size=C)
    out = {}
    for device in ("cpu", "cuda"):
        m = build_model(cfg, seed=2, device=device, max_steps=T)
        bp = m.stack.layers[0].params["bp"]
        bp[2 * K:] = -0.3
        bp[K:2 * K] = -0.5
        out[device] = m
    return out["cpu"], out["cuda"]


@pytest.mark.parametrize("norm, window_norm", [("ln", None), ("ln", "none")])
def test_stack_on_cuda_equals_cpu(norm, window_norm):
    """The stack alone, 3 layers, from given initial states: y, phi, each layer's final state (layer 1's
    kappa and w too), dx, every initial-state gradient and every parameter gradient; with the window
    layer's own norm too (an LN-LSTM's default on text tasks: none there, LN above)."""
    x, _, lengths, text = batch(1)
    rng = np.random.default_rng(5)
    dy = rng.normal(size=(T, B, 3 * H))
    out = {}
    for device in ("cpu", "cuda"):
        s = WindowStack("lstm", norm, I, H, 3, alphabet_size=C, window=K, dtype=np.float64, seed=4, max_steps=T,
                        device=device, window_norm=window_norm)
        assert [layer.norm for layer in s.layers] == [window_norm or norm, norm, norm]
        state = [tuple(0.3 * rng.normal(size=(B, H)) for _ in range(2)) for _ in s.layers] if device == "cpu" \
            else out["cpu"][-1]
        y, states = s.forward(x, state, lengths=lengths, text=text)
        dx = s.backward(dy)
        out[device] = (y, states, dx, s.dstate0, {k: v.copy() for k, v in s.grads.items()}, s.phi, state)
    (y0, s0, dx0, d0, g0, p0, _), (y1, s1, dx1, d1, g1, p1, _) = out["cpu"], out["cuda"]
    assert isinstance(y1, np.ndarray) and isinstance(dx1, np.ndarray)
    assert close(y1, y0) < TOL and close(dx1, dx0) < TOL and close(p1, p0) < TOL
    assert [len(a) for a in s1] == [4, 2, 2]
    for a, b in zip(s1 + d1, s0 + d0):
        for u, v in zip(a, b):
            assert close(u, v) < TOL
    assert g0.keys() == g1.keys()
    for k in g0:
        assert close(g1[k], g0[k]) < TOL, k


@pytest.mark.parametrize("norm", ["none"])
def test_model_training_on_cuda_equals_cpu(norm):
    """A whole synthesis model (2 layers, the MDN head on the host): the loss and every parameter gradient
    of two updates (BatchNorm's running statistics too, for norm 'bn': the kernels' own tests cover BN,
    and the simulator runs a BN model for minutes), then the inference loss after two Adam updates; a
    training step moves each whole sequence across once (x and dy up, y and dx down)."""
    x, y, lengths, text = batch(2)
    m0, m1 = model_pair(norm)
    res = {}
    for m in (m0, m1):
        opt = Adam(lr=0.01)
        losses, grads = [], []
        for i in range(2):
            losses.append(m.loss_and_grad(x, y, lengths, text=text)["loss"])
            grads.append({k: v.copy() for k, v in m.grads.items()})
            if m is m1 and i == 0:
                assert m1.stack.crossings == {"x to device": 1, "y to host": 1, "dy to device": 1,
                                              "dx to host": 1}
            opt.step(m.flat[0].data, m.flat[1].data)
        sums, count = m.loss_sums(x, y, lengths, text=text)
        losses.append(m.head.mean(sums, count)["loss"])
        res[m.stack.device] = (losses, grads, {k: v.copy() for k, v in m.buffers.items()})
    (l0, g0, b0), (l1, g1, b1) = res["cpu"], res["cuda"]
    assert np.all(np.abs(np.array(l1) - l0) <= TOL * np.abs(l0)), (l0, l1)
    assert l0[1] != l0[0]  # the update moved the parameters
    for a, b in zip(g1, g0):
        assert a.keys() == b.keys()
        for k in b:
            assert close(a[k], b[k]) < TOL, k
    assert b0.keys() == b1.keys() and (norm != "bn" or b0)  # BatchNorm's statistics, where it has them
    for k in b0:
        assert close(b1[k], b0[k]) < TOL, k


@pytest.mark.parametrize("tbptt", [None, 3])
def test_update_on_the_device_equals_the_host_head(monkeypatch, tbptt):
    """``loss_and_grad_on_device`` of a synthesis model (window, layers and the mixture density head on the
    device; ragged points and text; with truncated BPTT, the four-array window state carried between chunks on
    the device): every gradient and the two sums of the host head's path, and nothing copied to the host."""
    from numba import cuda

    from lnrnn.kernels.cuda import arrays_cuda
    x, y, lengths, text = batch(3)
    _, host = model_pair("ln")
    _, dev = model_pair("ln")
    assert dev.device_refusal() is None
    host.loss_and_grad(x, y, lengths, tbptt=tbptt, text=text)
    sums = arrays_cuda.zeros((2,), np.float64)
    DeviceArray = type(cuda.to_device(np.zeros(1)))
    copies, plain = [], DeviceArray.copy_to_host
    monkeypatch.setattr(DeviceArray, "copy_to_host", lambda self, *a, **k: copies.append(self.shape) or plain(
        self, *a, **k))
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=lengths, tbptt=tbptt, text=text)
    monkeypatch.setattr(DeviceArray, "copy_to_host", plain)  # (undo would also undo small_blocks' settings)
    assert copies == [] and count == host.last_count == lengths.sum()
    got = sums.copy_to_host()
    assert got[0] == pytest.approx(host.last_sums["loss"], rel=1e-12) and got[1] == pytest.approx(got[0])
    g_dev, g_host = dev.device_buffers()[1].data.copy_to_host(), host.flat[1].data
    assert np.count_nonzero(g_host) > 0.8 * g_host.size and close(g_dev, g_host) < TOL
    # a step of the parameters on both (the device's host copy left stale): the device reads its own
    host.flat[0].data -= 0.5 * host.flat[1].data
    dev.device_buffers()[0].data.copy_to_device(host.flat[0].data)
    host.loss_and_grad(x, y, lengths, tbptt=tbptt, text=text)
    dev.loss_and_grad_on_device(x, y, sums, lengths=lengths, tbptt=tbptt, text=text)
    assert close(dev.device_buffers()[1].data.copy_to_host(), host.flat[1].data) < TOL
    assert sums.copy_to_host()[0] == pytest.approx(host.last_sums["loss"], rel=1e-12) != got[0]


def test_sampling_steps_on_cuda_equal_cpu():
    """WindowStack.step on 'cuda' (what ``lnrnn.sample`` runs): two steps from the same state give the
    CPU's head output, states, phi (B,U) and phi just past each row's text."""
    x, _, _, text = batch(3)
    m0, m1 = model_pair("ln")
    s0 = s1 = None
    for t in range(2):
        o0, s0 = m0.step(x[t], s0, t=t, text=text)
        o1, s1 = m1.step(x[t], s1, t=t, text=text)
        assert close(o1, o0) < TOL
        assert close(m1.stack.step_phi, m0.stack.step_phi) < TOL
        assert close(m1.stack.step_end, m0.stack.step_end) < TOL
        for a, b in zip(s1, s0):
            for u, v in zip(a, b):
                assert isinstance(u, np.ndarray) and close(u, v) < TOL
    assert m1.stack.crossings["y to host"] == 2
    # the stack can keep y and dx on the device: nothing crosses then
    kd, before = backend.kernels("cuda"), dict(m1.stack.crossings)
    yd, _ = m1.stack.forward(kd.to_device(x[:1]), text=text, on_device=True)
    assert kd.is_device(yd) and kd.is_device(m1.stack.backward(kd.zeros(yd.shape, yd.dtype), on_device=True))
    assert m1.stack.crossings == before


def test_column_moves_equal_numpy():
    """The device's join_columns and take_columns (with and without an addend, over a strided slice's
    source) against NumPy's concatenate and slices, on a (T,B,F) not a multiple of a block."""
    rng = np.random.default_rng(6)
    k, c = backend.kernels("cuda"), backend.kernels("cpu")
    parts = [rng.normal(size=(3, 5, F)) for F in (2, 7, 3)]
    joined = k.to_host(k.join_columns([parts[0], k.to_device(parts[1]), parts[2]]))
    assert np.array_equal(joined, np.concatenate(parts, axis=2))
    assert np.array_equal(c.join_columns(parts), joined)
    add = rng.normal(size=(3, 5, 6))
    assert np.array_equal(k.to_host(k.take_columns(joined, 2, 8)), joined[:, :, 2:8])
    assert np.array_equal(k.to_host(k.take_columns(k.to_device(joined), 3, 9, k.to_device(add))),
                          joined[:, :, 3:9] + add)
    assert np.array_equal(c.take_columns(joined, 3, 9, add), joined[:, :, 3:9] + add)


needs_hershey = pytest.mark.skipif(importlib.util.find_spec("HersheyFonts") is None
                                   and os.environ.get("LNRNN_REQUIRE_EXTRAS") != "1",
                                   reason="hershey-fonts is not installed (pip install 'lnrnn[hershey]')")


@needs_hershey
def test_cli_trains_with_the_window_on_cuda_and_samples(tmp_path, monkeypatch):
    """`lnrnn train --task strokes-hershey --window 10 --device cuda` (2 x 4 units, one update of 2 lines,
    each line cut to its first 5 points and 2 characters so that the simulator runs it in seconds) writes a
    run, and `lnrnn sample --text` writes a line from that run (sampling loads its parameters on the CPU)."""
    from click.testing import CliRunner

    from lnrnn.cli import main
    from lnrnn.data import hershey

    real = hershey.make_lines

    def short_lines(rng, count, faces=hershey.FACES):
        lines, texts, names = real(rng, count, faces)
        return [a[:5] for a in lines], [t[:2] for t in texts], names

    monkeypatch.setattr(hershey, "make_lines", short_lines)
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["train", "--task", "strokes-hershey", "--window", "10", "--device", "cuda",
                                  "--dtype", "float64", "--split", "2/2", "--hidden", "4", "--layers", "2",
                                  "--batch-size", "2", "--max-steps", "1", "--epochs", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output + repr(r.exception)
    meta = json.loads((out / "checkpoint.json").read_text())
    assert meta["model"]["window"] == 10 and "cuda" in json.dumps(meta)
    logged = [json.loads(s) for s in (out / "metrics.jsonl").read_text().splitlines()][-1]
    assert np.isfinite(logged["val_loss"])
    text = "".join(ch for ch in meta["text"]["alphabet"] if ch.isalpha())[:2]
    assert text
    png = tmp_path / "line.png"
    r = CliRunner().invoke(main, ["sample", "--checkpoint", str(out), "--text", text, "--steps", "6", "--out", str(png),
                                  "-q"])
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert png.stat().st_size > 0 and "Wrote 1 line of text" in r.output
