"""lnrnn/model/window.py's WindowLayer by value: the synthesis network's first layer, given the random
parameters, BatchNorm statistics and text of the window op's tests (every norm parameter off its initial value,
where the x and h sides' biases are both zero and a swapped name changes nothing), equals the NumPy reference
(reference.window_lstm_forward/backward): its output, window, phi and each row's own final state under
ragged lengths, its running statistics, and every gradient it adds into the layer's, in the norms LN and BN
(training and inference)."""
import numpy as np
import pytest

from lnrnn.model.window import WindowLayer

from test_window import EPS, MOM, SMALL, assert_close, problem, ref_backward, ref_forward

TOL = 1e-10
BUFFERS = ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")


def _layer(norm, a, run):
    """A float64 WindowLayer holding the problem's parameters (those of its norm) and statistics."""
    T, I = a["x"].shape[0], a["x"].shape[2]
    H, K, C = a["h0"].shape[1], a["Wp"].shape[1] // 3, a["w0"].shape[1]
    layer = WindowLayer("lstm", norm, I, H, C, K, np.random.default_rng(0), dtype=np.float64, max_steps=T + 1,
                        eps=EPS, momentum=MOM)
    for n in layer.params:
        layer.params[n][...] = a[n]
    for n, v in zip(BUFFERS, run):
        if n in layer.buffers:
            layer.buffers[n] = v.copy()
    return layer


@pytest.mark.parametrize("norm,training", [("ln", True), ("bn", True), ("bn", False)])
def test_window_layer_is_the_reference(norm, training):
    a, run, lengths, dy, dw = problem(**SMALL, seed=3)
    layer = _layer(norm, a, run)
    state = (a["h0"], a["c0"], a["kappa0"], a["w0"])
    y, w, final = layer.forward_text(a["x"], (a["chars"], a["ulen"]), state, training=training, lengths=lengths)
    want_run = [v.copy() for v in run]
    yr, wr, _, _, _, _, phir, cache = ref_forward(a, want_run, norm, training, lengths)
    T = yr.shape[0]
    on = lengths[None, :, None] > np.arange(T)[:, None, None]
    assert_close("y", np.where(on, y, 0), np.where(on, yr, 0), TOL)
    assert_close("w", np.where(on, w, 0), np.where(on, wr, 0), TOL)
    assert_close("phi", np.where(on, layer.phi, 0), np.where(on, phir, 0), TOL)
    steps = cache["steps"]
    last = [lengths[b] - 1 for b in range(len(lengths))]
    own = [np.stack([seq[t][b] for b, t in enumerate(last)]) for seq in
           (list(yr), [s["c"] for s in steps], [s["win"]["kappa"] for s in steps], list(wr))]
    for name, got, want in zip(("h", "c", "kappa", "w"), final, own):
        assert_close(name, got, want, TOL)
    if norm == "bn":
        for n, v in zip(BUFFERS, want_run):
            assert_close(n, layer.buffers[n], v, 1e-12)
    dx, dstate = layer.backward_text(dy, dw)
    g = ref_backward(dy, dw, cache, a)
    names = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
    want = dict(zip(names, g))
    assert_close("dx", dx, want["x"], TOL)
    for name, got in zip(("h0", "c0", "kappa0", "w0"), dstate):
        assert_close("d" + name, got, want[name], TOL)
    for n, got in layer.grads.items():
        assert np.abs(want[n]).max() > 0, n
        assert_close("d" + n, got, want[n], TOL)
