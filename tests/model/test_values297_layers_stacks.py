"""Recurrent layers and stacks (lnrnn/model/layers.py, cells.py), fifteenth pass, in float64 at tiny sizes
(I 2, H 3, tanh RNN cells): refusals read word for word (a state tuple of the wrong count, 1 and 2, with the
plural written out; a state array of the wrong shape naming h0 or c0; a size of None; a combined cell name
given to lookup as a kind); a two-layer skip stack with I != H (layer 1 reads [x | h_0], y = [h_0 | h_1])
against lnrnn/reference.py composed by test_values257_layers_stacks' skip_by_hand, and its input and parameter
gradients against central differences of a weighted sum of y. (A bidirectional stack of two layers over
ragged rows: test_values295_layers_stacks.)"""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn import reference
from lnrnn.model import cells
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from test_values257_layers_stacks import randomized, skip_by_hand

I, H = 2, 3


@pytest.mark.parametrize("cell, given, sentence", [
    ("lstm", 1, "a lstm layer's state is a tuple of 2 arrays, got 1"),
    ("rnn", 2, "a rnn layer's state is a tuple of 1 array, got 2"),
])
def test_a_state_of_the_wrong_count_is_refused_word_for_word(cell, given, sentence):
    layer = RecurrentLayer(cell, "none", I, H, dtype=np.float64)
    x = np.zeros((2, 2, I))
    state = tuple(np.zeros((2, H)) for _ in range(given))
    with pytest.raises(ValueError) as e:
        layer.forward(x, state)
    assert str(e.value) == sentence


@pytest.mark.parametrize("cell, bad", [("lstm", 1), ("lstm", 0), ("rnn", 0)])
def test_a_state_array_of_the_wrong_shape_is_named(cell, bad):
    layer = RecurrentLayer(cell, "none", I, H, dtype=np.float64)
    state = [np.zeros((2, H)) for _ in range(layer.nstate)]
    state[bad] = np.zeros((2, H + 1))
    with pytest.raises(ValueError) as e:
        layer.forward(np.zeros((4, 2, I)), tuple(state))
    assert str(e.value) == f"{('h0', 'c0')[bad]} must have shape (2,3), got (2, 4)"


@pytest.mark.parametrize("name, kw", [("hidden_size", dict(input_size=2, hidden_size=None)),
                                      ("input_size", dict(input_size=None, hidden_size=3)),
                                      ("max_steps", dict(input_size=2, hidden_size=3, max_steps=None))])
def test_a_size_of_none_is_refused_by_name(name, kw):
    with pytest.raises(ValueError) as e:
        RecurrentLayer("rnn", "none", **kw)
    assert str(e.value) == f"RecurrentLayer: {name} must be a positive integer, not None."


@pytest.mark.parametrize("cell", ["ln-lstm", "bn-rnn", "gru"])
def test_lookup_takes_a_kind_not_a_cell_name(cell):
    with pytest.raises(ValueError) as e:
        cells.lookup(cell, "none")
    assert str(e.value) == f"unknown cell {cell!r}; expected one of rnn, lstm"
    assert cells.lookup("lstm", "ln") is cells.CELLS["ln-lstm"]


def test_a_two_layer_skip_stack_with_i_unlike_h_and_its_gradients():
    T, B = 3, 2
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=8, skip=True),
                       29703)
    live = stack.params
    assert live["l0.Wx"].shape == (I, H) and live["l1.Wx"].shape == (I + H, H)
    rng = np.random.default_rng(29704)
    x = rng.standard_normal((T, B, I))
    w = rng.standard_normal((T, B, 2 * H))
    y, _ = stack.forward(x)
    np.testing.assert_allclose(y, skip_by_hand(live, x, 2), rtol=1e-12, atol=1e-14)
    dx = stack.backward(w.copy())
    f = lambda: float((skip_by_hand(live, x, 2) * w).sum())  # noqa: E731
    np.testing.assert_allclose(dx, numeric_grad(f, x), rtol=1e-7, atol=1e-10)
    for n in ("l0.Wx", "l0.Wh", "l1.Wx", "l1.b"):
        np.testing.assert_allclose(stack.grads[n], numeric_grad(f, live[n]), rtol=1e-7, atol=1e-10)
