"""lnrnn/diagnostics.py, nineteenth pass: per_step's statistics against their definitions in the module docstring.

The judges: a two-layer plain LSTM (I = 2, H = 5, T = 4, B = 3, input weights tripled so that gate inputs spread
past 2 and 3) whose pre-activations are written out by hand, a_t = x_t Wx + h_{t-1} Wh + b, from each layer's
outputs by reference.lstm_forward: pre_std is their standard deviation over rows and the 4H units, pre_sat the
share with |a| > 3 (not 2: the test checks the two differ on these inputs), h_std the standard deviation of h_t,
for both layers; a BN-LSTM's h_std against reference.bn_lstm_forward in training mode (the batch's statistics)."""
import numpy as np

from lnrnn import reference as R
from lnrnn.diagnostics import per_step
from lnrnn.model.models import build_model

T, B, I, H, O = 4, 3, 2, 5, 3


def _model(norm, layers, seed):
    return build_model(dict(cell="lstm", norm=norm, input_size=I, hidden_size=H, num_layers=layers,
                            dtype="float64", forget_bias=1.0, skip=False,
                            head={"kind": "classifier", "outputs": O, "per_step": False}), seed=seed, max_steps=T)


def test_two_layer_lstm_pre_and_h_statistics_by_hand():
    m = _model("none", 2, 365)
    for layer in m.stack.layers:
        layer.params["Wx"][...] *= 3.0
    rng = np.random.default_rng(365)
    x = 1.5 * rng.standard_normal((T, B, I))
    y = rng.integers(0, O, B)
    d = per_step(m, x, y, state=m.stack.zero_state(B))
    inp = x
    at2 = at3 = 0.0
    for l, layer in enumerate(m.stack.layers):
        p = {k: np.asarray(v, np.float64) for k, v in layer.params.items()}
        G = 4 * H
        z = np.zeros((B, H))
        h, _, _, _ = R.lstm_forward(inp, z, z, p["Wx"], p["Wh"], p["b"], np.ones(G), np.zeros(G), np.ones(G),
                                    np.zeros(G), np.ones(H), np.zeros(H), "none")
        hprev = np.concatenate([z[None], h[:-1]])
        a = np.einsum("tbi,ig->tbg", inp, p["Wx"]) + np.einsum("tbh,hg->tbg", hprev, p["Wh"]) + p["b"]
        np.testing.assert_allclose(d["pre_std"][l], a.reshape(T, -1).std(axis=1), rtol=1e-10)
        np.testing.assert_allclose(d["pre_sat"][l], (np.abs(a) > 3.0).reshape(T, -1).mean(axis=1), atol=1e-14)
        np.testing.assert_allclose(d["h_std"][l], h.reshape(T, -1).std(axis=1), rtol=1e-10)
        at2 += (np.abs(a) > 2.0).sum()
        at3 += (np.abs(a) > 3.0).sum()
        inp = h
    assert at2 > at3 > 0                    # the inputs tell the threshold 3 from 2
    assert (d["pre_std"][1] > 0).all() and (d["h_std"][1] > 0).all()


def test_bn_lstm_h_std_uses_the_batch_statistics():
    m = _model("bn", 1, 7)
    rng = np.random.default_rng(7)
    x = 0.7 + rng.standard_normal((T, B, I))        # away from the population statistics' mean 0
    y = rng.integers(0, O, B)
    layer = m.stack.layers[0]
    p = {k: np.asarray(v, np.float64) for k, v in layer.params.items()}
    bufs = {k: np.array(v, np.float64) for k, v in layer.buffers.items()}
    before = {k: np.array(v) for k, v in layer.buffers.items()}
    d = per_step(m, x, y, state=m.stack.zero_state(B))
    z = np.zeros((B, H))
    h, _, _, saved = R.bn_lstm_forward(x, z, z, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                       bufs["rmx"], bufs["rvx"], bufs["rmh"], bufs["rvh"], bufs["rmc"], bufs["rvc"],
                                       True, layer.momentum, layer.eps)
    np.testing.assert_allclose(d["h_std"][0], h.reshape(T, -1).std(axis=1), rtol=1e-10)
    pre = np.stack([s["pre"] for s in saved["steps"]])
    np.testing.assert_allclose(d["pre_std"][0], pre.reshape(T, -1).std(axis=1), rtol=1e-10)
    for k, v in before.items():                     # the model's population statistics are left as they were
        np.testing.assert_array_equal(layer.buffers[k], v)
