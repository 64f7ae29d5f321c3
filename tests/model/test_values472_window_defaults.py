"""lnrnn/model/window.py's WindowLayer.forward_text called with its defaults, as a user driving the synthesis
network's first layer by hand calls it: no state (h, c, kappa and w start at zero), training (BN normalises by the
batch's own statistics and updates its running ones from row t0 = 0), every step of every row (no lengths), and the
saved arrays kept for backward_text. Each equals the NumPy reference (reference.window_lstm_forward/backward) given
those inputs, in the norms LN and BN; a state of two arrays (h, c) starts kappa and w at zero. The BN layer's
inference forward of the same problem gives other outputs, so a default that stopped training would show."""
import numpy as np
import pytest

from test_values24_window import BUFFERS, _layer
from test_window import SMALL, assert_close, problem, ref_backward, ref_forward

TOL = 1e-10
STATE = ("h0", "c0", "kappa0", "w0")
GRADS = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


def _started(a, given=()):
    """The problem with every initial state not named in ``given`` set to zero (forward_text's own start)."""
    z = dict(a)
    for n in STATE:
        if n not in given:
            z[n] = np.zeros_like(a[n])
    return z


def _check_forward(layer, a, run, norm, got):
    """got = forward_text's (y, w, final) against the reference's training forward of ``a`` over every step;
    the BN running statistics against the reference's updated ones -> the reference's cache."""
    y, w, final = got
    T, B = a["x"].shape[:2]
    want_run = [v.copy() for v in run]
    yr, wr, hT, cT, kT, wT, phir, cache = ref_forward(a, want_run, norm, True, np.full(B, T, np.int64))
    assert_close("y", y, yr, TOL)
    assert_close("w", w, wr, TOL)
    assert_close("phi", layer.phi, phir, TOL)
    for name, g, want in zip(("h", "c", "kappa", "w"), final, (hT, cT, kT, wT)):
        assert_close(name, g, want, TOL)
    if norm == "bn":
        for n, v in zip(BUFFERS, want_run):
            assert_close(n, layer.buffers[n], v, 1e-12)
        assert any(np.abs(layer.buffers[n] - r).max() > 1e-6 for n, r in zip(BUFFERS, run)), "nothing updated"
    return cache


@pytest.mark.parametrize("norm", ["ln", "bn"])
def test_forward_text_with_its_defaults_trains_from_a_zero_state_over_every_step(norm):
    a, run, _, dy, dw = problem(**SMALL, seed=5)
    assert all(np.abs(a[n]).max() > 0 for n in STATE)
    layer = _layer(norm, a, run)
    got = layer.forward_text(a["x"], (a["chars"], a["ulen"]))
    z = _started(a)
    cache = _check_forward(layer, z, run, norm, got)
    dx, dstate = layer.backward_text(dy, dw)  # the forward kept what its backward needs
    want = dict(zip(GRADS, ref_backward(dy, dw, cache, z)))
    assert_close("dx", dx, want["x"], TOL)
    for name, g in zip(STATE, dstate):
        assert_close("d" + name, g, want[name], TOL)
    for n, g in layer.grads.items():
        assert np.abs(want[n]).max() > 0, n
        assert_close("d" + n, g, want[n], TOL)


def test_the_bn_layers_default_is_not_its_inference_forward():
    a, run, _, _, _ = problem(**SMALL, seed=5)
    y = _layer("bn", a, run).forward_text(a["x"], (a["chars"], a["ulen"]))[0]
    y_infer = _layer("bn", a, run).forward_text(a["x"], (a["chars"], a["ulen"]), training=False)[0]
    assert np.abs(y - y_infer).max() > 1e-3 * np.abs(y).max()


@pytest.mark.parametrize("norm", ["ln", "bn"])
def test_a_state_of_h_and_c_starts_kappa_and_w_at_zero(norm):
    a, run, _, _, _ = problem(**SMALL, seed=6)
    layer = _layer(norm, a, run)
    got = layer.forward_text(a["x"], (a["chars"], a["ulen"]), (a["h0"], a["c0"]), training=True)
    _check_forward(layer, _started(a, ("h0", "c0")), run, norm, got)
