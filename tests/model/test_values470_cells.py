"""lnrnn/model/cells.py by value: every LSTM cell (plain, LN, BN) takes Graves's gate clip, and a layer built with
one gives the NumPy reference's clipped gradients (lnrnn/reference.py, ``clip=``), which differ from the unclipped
ones at the bound used; the RNN cells, which have no gates, refuse one in the layer's own words."""
import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.model.layers import RecurrentLayer
from test_gate_clip import _layer_ref  # a layer's forward and clipped backward by lnrnn.reference

T, B, I, H = 3, 4, 2, 3
CLIP = 0.05  # below many of the gate derivatives of the inputs below: the clip changes the gradient


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_every_lstm_cell_takes_the_gate_clip_and_gives_the_references_clipped_gradients(norm):
    assert cells.CELLS[{"none": "lstm"}.get(norm, f"{norm}-lstm")].gate_clip
    rng = np.random.default_rng(470)
    layer = RecurrentLayer("lstm", norm, I, H, dtype=np.float64, max_steps=T, clip_gates=CLIP, seed=5)
    for v in layer.params.values():
        v += 0.4 * rng.standard_normal(v.shape)
    x, dy = 2 * rng.standard_normal((T, B, I)), 3 * rng.standard_normal((T, B, H))
    lengths, buffers = np.full(B, T, np.int64), {k: v.copy() for k, v in layer.buffers.items()}
    _, want_dx, want = _layer_ref(layer, x, dy, lengths, buffers, CLIP)
    _, plain_dx, _ = _layer_ref(layer, x, dy, lengths, buffers, 0.0)
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
