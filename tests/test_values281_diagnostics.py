"""lnrnn/diagnostics.py, thirteenth pass: the masked statistics on hand-fed arrays against their definitions
(the standard deviation, not the variance, over running rows and units; the share with |a| > 3, a value of
exactly 3 not counted), and per_step on a two-layer layer-normalized RNN with gains and biases moved off
their initial values: its loss against the model's own loss_and_grad (the Numba kernels) and each layer's h_std
against the standard deviation of that layer's output from the compiled stack."""
import numpy as np
import pytest

from lnrnn.diagnostics import _masked_stats, per_step
from lnrnn.model.models import build_model

T, B, I, H, O = 3, 4, 2, 3, 3


def test_masked_std_and_saturation_by_hand():
    a = np.array([[[1.0, 3.0], [5.0, 100.0]],        # t=0: only row 0 runs: 1, 3 -> mean 2, var 1, none above 3
                  [[-4.0, 0.0], [2.0, 2.0]]])         # t=1: both run: -4, 0, 2, 2 -> mean 0, var 24/4 = 6, 1 of 4
    w = np.array([[1.0, 0.0], [1.0, 1.0]])
    std, sat = _masked_stats(a, w)
    assert std == pytest.approx([1.0, np.sqrt(6.0)], rel=1e-14)
    assert sat == pytest.approx([0.0, 0.25], abs=1e-15)


def _model(num_layers):
    m = build_model(dict(cell="rnn", norm="ln", input_size=I, hidden_size=H, num_layers=num_layers,
                         dtype="float64", forget_bias=1.0, skip=False,
                         head={"kind": "classifier", "outputs": O, "per_step": False}), seed=3)
    rng = np.random.default_rng(281)
    m.flat[0].data[...] += 0.8 * rng.standard_normal(m.flat[0].data.size)    # gains far from 1
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, O, B)
    return m, x, y


def test_loss_is_the_models_own_top_layer_loss():
    m, x, y = _model(2)
    d = per_step(m, x, y)
    assert d["loss"] == pytest.approx(m.loss_and_grad(x, y)["loss"], rel=1e-10)


@pytest.mark.parametrize("layers", [1, 2])
def test_h_std_is_the_std_of_the_compiled_stacks_output(layers):
    m, x, y = _model(layers)
    assert not np.allclose(m.stack.layers[0].params["g"], 1.0)
    d = per_step(m, x, y)
    inp = x
    for l, layer in enumerate(m.stack.layers):
        h, _ = layer.forward(inp, None, training=True)
        assert d["h_std"][l] == pytest.approx(np.asarray(h).reshape(T, -1).std(axis=1), rel=1e-9)
        inp = np.asarray(h)
