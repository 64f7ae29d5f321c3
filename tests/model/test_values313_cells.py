"""The cell registry's rows by hand: each parameter's gradient lands under its own name (against the spec's
backward, lnrnn/reference.py, at I = H so that Wx and Wh, and b and g, have the same shapes) and the parameter
shapes of every cell written out."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import cells
from lnrnn.model.layers import RecurrentLayer


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_rnn_gradients_land_under_their_own_names(norm):
    H = 3
    layer = RecurrentLayer("rnn", norm, H, H, dtype=np.float64, seed=4)
    rng = np.random.default_rng(8)
    x, h0, dy = rng.standard_normal((4, 2, H)), rng.standard_normal((2, H)), rng.standard_normal((4, 2, H))
    p = layer.params
    g = p.get("g")
    y, (hT,) = layer.forward(x, (h0,))
    dx, (dh0,) = layer.backward(dy)
    y_r, h_r, cache = ref.rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], g, norm)
    dx_r, dh0_r, dWx, dWh, db, dg = ref.rnn_backward(dy, cache, p["Wx"], p["Wh"], g, norm)
    np.testing.assert_allclose(y, y_r, rtol=0, atol=1e-12)
    np.testing.assert_allclose(dx, dx_r, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dh0, dh0_r, rtol=1e-10, atol=1e-12)
    want = {"Wx": dWx, "Wh": dWh, "b": db}
    if norm == "ln":
        want["g"] = dg
    assert sorted(layer.grads) == sorted(want)
    for n, v in want.items():
        np.testing.assert_allclose(layer.grads[n], v, rtol=1e-10, atol=1e-12, err_msg=n)


def test_parameter_shapes_of_every_cell_by_hand():
    I, H = 3, 5
    G = 4 * H
    want = {
        "rnn": [("Wx", (I, H)), ("Wh", (H, H)), ("b", (H,))],
        "ln-rnn": [("Wx", (I, H)), ("Wh", (H, H)), ("b", (H,)), ("g", (H,))],
        "bn-rnn": [("Wx", (I, H)), ("Wh", (H, H)), ("b", (H,)), ("gx", (H,)), ("gh", (H,))],
        "lstm": [("Wx", (I, G)), ("Wh", (H, G)), ("b", (G,))],
        "ln-lstm": [("Wx", (I, G)), ("Wh", (H, G)), ("b", (G,)), ("gx", (G,)), ("bx", (G,)), ("gh", (G,)),
                    ("bh", (G,)), ("gc", (H,)), ("bc", (H,))],
        "bn-lstm": [("Wx", (I, G)), ("Wh", (H, G)), ("b", (G,)), ("gx", (G,)), ("gh", (G,)), ("gc", (H,)),
                    ("bc", (H,))],
    }
    for name, shapes in want.items():
        assert cells.get(name).param_shapes(I, H) == shapes, name
        assert cells.get(name).param_names == tuple(n for n, _ in shapes), name
