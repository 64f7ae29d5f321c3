"""lnrnn/model/cells.py by value: identity recurrent initialization in every gate block, the BN-LSTM's initial
gains and zero biases (Cooijmans et al. 2016), a BN-RNN layer with its own eps and momentum against the NumPy
reference (lnrnn/reference.py), and the plain LSTM layer's gate clip bounding one step's dL/dx."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import BN_GAIN_INIT
from lnrnn.model.layers import RecurrentLayer

T, B, I, H = 3, 4, 2, 3


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_identity_initialization_in_every_gate_block(cell):
    layer = RecurrentLayer(cell, "ln", I, H, recurrent_init="identity")
    blocks = 4 if cell == "lstm" else 1
    for k in range(blocks):
        np.testing.assert_array_equal(layer.params["Wh"][:, k * H:(k + 1) * H], np.eye(H))


def test_bn_lstm_initial_gains_and_biases():
    p = RecurrentLayer("lstm", "bn", I, H, dtype=np.float64).params
    for n in ("gx", "gh", "gc"):
        np.testing.assert_array_equal(p[n], BN_GAIN_INIT)
    np.testing.assert_array_equal(p["bc"], 0.0)


@pytest.mark.parametrize("training", [True, False])
def test_bn_rnn_layer_with_its_own_eps_and_momentum_is_the_reference(training):
    eps, momentum = 0.3, 0.5
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, max_steps=T, eps=eps, momentum=momentum, seed=1)
    rng = np.random.default_rng(2)
    for v in layer.params.values():
        v += 0.3 * rng.standard_normal(v.shape)
    for n, v in layer.buffers.items():
        v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else rng.standard_normal(v.shape)
    bufs = {n: v.copy() for n, v in layer.buffers.items()}
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    y, (hT,) = layer.forward(x, (h0,), training=training)
    p = layer.params
    y_ref, hT_ref, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], bufs["rmx"], bufs["rvx"],
                                          bufs["rmh"], bufs["rvh"], training, momentum=momentum, eps=eps)
    np.testing.assert_allclose(y, y_ref, rtol=1e-10, atol=1e-12)
    for n, v in layer.buffers.items():
        np.testing.assert_allclose(v, bufs[n], rtol=1e-10, atol=1e-12)


def test_plain_lstm_layer_gate_clip_bounds_one_steps_dx():
    clip = 1e-3
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64, clip_gates=clip, seed=3)
    rng = np.random.default_rng(4)
    x = 3 * rng.standard_normal((1, B, I))
    layer.forward(x)
    dx, _ = layer.backward(10 * rng.standard_normal((1, B, H)))
    # dx = dL/d(preactivations) Wx^T, each preactivation's derivative clipped to +-clip
    bound = clip * np.abs(layer.params["Wx"]).sum(axis=1)
    assert np.all(np.abs(dx[0]) <= bound + 1e-12)
    assert np.max(np.abs(dx)) > 0.1 * clip
