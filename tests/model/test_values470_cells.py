"""lnrnn/model/cells.py by value: every LSTM cell (plain, LN, BN) takes Graves's gate clip, and a layer built with
one gives the NumPy reference's clipped gradients (lnrnn/reference.py, ``clip=``), which differ from the unclipped
ones at the bound used; the RNN cells, which have no gates, refuse one in the layer's own words."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import cells
from lnrnn.model.layers import RecurrentLayer

T, B, I, H = 3, 4, 2, 3
CLIP = 0.05  # below many of the gate derivatives of the inputs below: the clip changes the gradient
LSTM_GRADS = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")  # reference.lstm_backward's, after dx dh0 dc0
NAMES = {"none": LSTM_GRADS, "ln": LSTM_GRADS, "bn": ("Wx", "Wh", "b", "gx", "gh", "gc", "bc")}


def _reference_grads(layer, norm, x, dy, clip):
    """dx and {parameter: gradient} of the reference with Graves's bound ``clip`` (0: off)."""
    p, G = layer.params, 4 * H
    if norm == "bn":
        b = {n: v.copy() for n, v in layer.buffers.items()}
        zero = np.zeros((B, H))
        _, _, _, saved = ref.bn_lstm_forward(x, zero, zero, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"],
                                             p["bc"], b["rmx"], b["rvx"], b["rmh"], b["rvh"], b["rmc"], b["rvc"],
                                             True, momentum=layer.momentum, eps=layer.eps)
        out = ref.bn_lstm_backward(dy, saved, x, zero, zero, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], clip=clip)
        return out[0], dict(zip(NAMES[norm], out[3:]))
    ln = {k: p.get(k, d) for k, d in (("gx", np.ones(G)), ("bx", np.zeros(G)), ("gh", np.ones(G)),
                                      ("bh", np.zeros(G)), ("gc", np.ones(H)), ("bc", np.zeros(H)))}
    zero = np.zeros((B, H))
    _, _, _, cache = ref.lstm_forward(x, zero, zero, p["Wx"], p["Wh"], p["b"], ln["gx"], ln["bx"], ln["gh"],
                                      ln["bh"], ln["gc"], ln["bc"], norm, layer.eps)
    out = ref.lstm_backward(dy, cache, p["Wx"], p["Wh"], ln["gx"], ln["gh"], ln["gc"], norm, clip=clip)
    return out[0], {n: g for n, g in zip(NAMES[norm], out[3:]) if n in p}


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_every_lstm_cell_takes_the_gate_clip_and_gives_the_references_clipped_gradients(norm):
    assert cells.CELLS[{"none": "lstm"}.get(norm, f"{norm}-lstm")].gate_clip
    rng = np.random.default_rng(470)
    layer = RecurrentLayer("lstm", norm, I, H, dtype=np.float64, max_steps=T, clip_gates=CLIP, seed=5)
    for v in layer.params.values():
        v += 0.4 * rng.standard_normal(v.shape)
    x, dy = 2 * rng.standard_normal((T, B, I)), 3 * rng.standard_normal((T, B, H))
    want_dx, want = _reference_grads(layer, norm, x, dy, CLIP)
    plain_dx, _ = _reference_grads(layer, norm, x, dy, 0.0)
    assert np.abs(want_dx - plain_dx).max() > 1e-3 * np.abs(plain_dx).max()  # the bound bites
    layer.forward(x, training=True)
    dx, _ = layer.backward(dy)
    np.testing.assert_allclose(dx, want_dx, rtol=1e-9, atol=1e-11)
    assert sorted(layer.grads) == sorted(want)
    for n, g in layer.grads.items():
        np.testing.assert_allclose(g, want[n], rtol=1e-9, atol=1e-11, err_msg=n)


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_an_rnn_cell_refuses_the_gate_clip(norm):
    with pytest.raises(ValueError, match="has no gates"):
        RecurrentLayer("rnn", norm, I, H, dtype=np.float64, max_steps=T, clip_gates=CLIP)
    RecurrentLayer("rnn", norm, I, H, dtype=np.float64, max_steps=T, clip_gates=0.0)  # off: built
