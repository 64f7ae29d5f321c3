"""RecurrentLayer and RecurrentStack (lnrnn/model/layers.py) in float64 at tiny sizes: a stack's parameters and
gradients packed into one flat buffer each, in the stack's naming order (l0., l1.), as views both ways (writing
the buffer changes the parameters; a backward's gradients land in the gradient buffer) and round trips of
arange values; a tanh RNN layer's backward (dx and every parameter gradient) against central differences of
sum(y * dy) with y computed here (h_t = tanh(x_t Wx + h_{t-1} Wh + b)); every refusal's sentence (no step or
no sequence, a state of the wrong arity, a dy of the wrong width)."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from gradcheck_util import numeric_grad

T, B, I, H = 3, 2, 2, 4


def test_stack_flat_buffers_are_views_of_its_parameters_and_gradients_in_naming_order():
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=0)
    p, g = stack.flat
    names = [f"l{k}.{n}" for k in range(2) for n in ("Wx", "Wh", "b")]
    assert p.names == g.names == names
    shapes = {"l0.Wx": (I, H), "l1.Wx": (H, H), "l0.Wh": (H, H), "l1.Wh": (H, H), "l0.b": (H,), "l1.b": (H,)}
    assert {k: v.shape for k, v in stack.params.items()} == shapes
    size = sum(int(np.prod(s)) for s in shapes.values())
    assert p.data.size == g.data.size == size
    np.testing.assert_array_equal(p.data, np.concatenate([stack.params[n].ravel() for n in names]))

    p.data[...] = np.arange(size) / size                 # the buffer, read back through the dicts
    off = 0
    for n in names:
        k = int(np.prod(shapes[n]))
        np.testing.assert_array_equal(stack.params[n], (np.arange(off, off + k) / size).reshape(shapes[n]))
        off += k
    stack.params["l1.b"][...] = 7.0                      # the dicts, read back through the buffer
    assert np.all(p.data[size - H:] == 7.0)

    rng = np.random.default_rng(0)
    stack.forward(rng.standard_normal((T, B, I)))
    stack.backward(rng.standard_normal((T, B, H)))
    np.testing.assert_array_equal(g.data, np.concatenate([stack.grads[n].ravel() for n in names]))
    assert np.all(np.abs(g.data) > 0)
    g.data[...] = 0
    assert all(not np.any(v) for v in stack.grads.values())


def test_layer_backward_against_central_differences():
    layer = RecurrentLayer("rnn", "none", I, H, dtype=np.float64, seed=1)
    rng = np.random.default_rng(2)
    for v in layer.params.values():
        v[...] = rng.normal(0.0, 0.6, v.shape)
    x = rng.standard_normal((T, B, I))
    dy = rng.standard_normal((T, B, H))
    p = {k: np.array(v) for k, v in layer.params.items()}
    y, _ = layer.forward(x)
    layer.zero_grad()
    dx, _ = layer.backward(dy)

    def loss():
        h, total = np.zeros((B, H)), 0.0
        for t in range(T):
            h = np.tanh(x[t] @ p["Wx"] + h @ p["Wh"] + p["b"])
            total += float(np.sum(h * dy[t]))
        return total
    np.testing.assert_allclose(np.sum(y * dy), loss(), rtol=1e-12)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-9)
    for k in p:
        np.testing.assert_allclose(layer.grads[k], numeric_grad(loss, p[k]), rtol=1e-6, atol=1e-9, err_msg=k)


def test_every_refusal_of_a_layer_says_what_is_wrong():
    lstm = RecurrentLayer("lstm", "none", I, H, dtype=np.float64, seed=0)
    for shape in ((0, B, I), (T, 0, I)):
        with pytest.raises(ValueError, match=r"^x must hold at least one step and one sequence, got shape"):
            lstm.forward(np.zeros(shape))
    z = np.zeros((B, H))
    for state in ((z,), (z, z, z)):
        with pytest.raises(ValueError, match=rf"^a lstm layer's state is a tuple of 2 arrays, got {len(state)}$"):
            lstm.forward(np.zeros((T, B, I)), state)
    lstm.forward(np.zeros((T, B, I)))
    with pytest.raises(ValueError, match=rf"^dy must have shape \({T},{B},{H}\), got \({T}, {B}, {H + 1}\)$"):
        lstm.backward(np.zeros((T, B, H + 1)))
