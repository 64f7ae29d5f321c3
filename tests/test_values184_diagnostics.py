"""lnrnn/diagnostics.per_step on a two-layer plain RNN under a last-step classifier, against a NumPy replay
written here (h_t = tanh(x_t Wx + h_{t-1} Wh + b) per layer from a zero state): the mean loss, each layer's
pre_std and pre_sat (the std and the share with |a| > 3 of the tanh arguments over rows and units) and h_std;
the bottom layer's dL/dh at the last step, which reaches it only through the top layer's input weights
((dL/dh1 * (1 - h1^2)) Wx1^T); and the model's gradient array left as it was."""
import numpy as np
import pytest

from lnrnn.diagnostics import per_step
from lnrnn.model.models import build_model

T, B, I, H, O = 4, 3, 2, 3, 3


def _model():
    m = build_model(dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, skip=False, head={"kind": "classifier", "outputs": O, "per_step": False}),
                    seed=5)
    rng = np.random.default_rng(184)
    m.flat[0].data[...] = 1.5 * rng.standard_normal(m.flat[0].data.size)   # large enough that some |a| > 3
    x = 1.5 * rng.standard_normal((T, B, I))
    y = rng.integers(0, O, B)
    return m, x, y


def _replay(m, x):
    inp, hs, pres = x, [], []
    for layer in m.stack.layers:
        p = layer.params
        h, a_l, h_l = np.zeros((B, H)), [], []
        for t in range(T):
            a = inp[t] @ p["Wx"] + h @ p["Wh"] + p["b"]
            h = np.tanh(a)
            a_l.append(a)
            h_l.append(h)
        pres.append(np.stack(a_l))
        hs.append(np.stack(h_l))
        inp = hs[-1]
    return hs, pres


def test_per_step_against_a_numpy_replay():
    m, x, y = _model()
    hs, pres = _replay(m, x)
    W, b = m.head.params["W"], m.head.params["b"]
    z = hs[1][-1] @ W + b
    z = z - z.max(1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    loss = -np.mean(np.log(p[np.arange(B), y]))
    d = per_step(m, x, y)
    assert d["loss"] == pytest.approx(loss, rel=1e-10)
    for l in range(2):
        np.testing.assert_allclose(d["pre_std"][l], pres[l].reshape(T, -1).std(1), rtol=1e-10)
        np.testing.assert_allclose(d["pre_sat"][l], (np.abs(pres[l]) > 3.0).reshape(T, -1).mean(1), rtol=1e-12)
        np.testing.assert_allclose(d["h_std"][l], hs[l].reshape(T, -1).std(1), rtol=1e-10)
    assert d["pre_sat"].max() > 0                                           # the check above saw saturated units
    p[np.arange(B), y] -= 1.0
    dh1 = p @ W.T / B                                                       # (B,H) top layer, last step
    dh0 = (dh1 * (1 - hs[1][-1] ** 2)) @ m.stack.layers[1].params["Wx"].T    # (B,H) bottom layer, last step
    np.testing.assert_allclose(d["dh"][1][-1], dh1, rtol=1e-9, atol=1e-13)
    np.testing.assert_allclose(d["dh"][0][-1], dh0, rtol=1e-9, atol=1e-13)
    assert d["grad_h"][0, -1] == pytest.approx(np.linalg.norm(dh0, axis=1).mean(), rel=1e-9)


def test_the_models_gradients_are_left_as_they_were():
    m, x, y = _model()
    m.loss_and_grad(x, y)
    grads, params = m.flat[1].data.copy(), m.flat[0].data.copy()
    assert np.abs(grads[-(H * O + O):]).max() > 0                          # the head's own share is not zero
    per_step(m, x, y)
    np.testing.assert_array_equal(m.flat[1].data, grads)
    np.testing.assert_array_equal(m.flat[0].data, params)
