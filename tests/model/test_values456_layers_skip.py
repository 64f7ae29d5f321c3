"""A skip-connected stack of one layer (lnrnn/model/layers.py: RecurrentStack(skip=True), Graves's connections with
nothing to connect) is that layer: built from the same seed it holds the plain one-layer stack's parameters, and
its forward (y, final states) and backward (dx, the initial states' gradients, every parameter gradient) are the
plain stack's bits, for each cell and norm, over ragged rows; bidirectional too (y = [forward | backward])."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentStack

T, B, I, H = 5, 3, 2, 4
LENGTHS = np.array([5, 1, 3])


def run(skip, cell, norm, bidirectional):
    s = RecurrentStack(cell, norm, I, H, num_layers=1, skip=skip, bidirectional=bidirectional, dtype=np.float64,
                       seed=456, max_steps=T)
    rng = np.random.default_rng(4560)
    x = rng.standard_normal((T, B, I))
    y, states = s.forward(x, lengths=LENGTHS)
    dx = s.backward(rng.standard_normal(y.shape))
    flat = [y, *(a for st in states for a in st), dx, *(a for st in s.dstate0 for a in st)]
    return s, flat


@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("cell,norm", [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "ln"),
                                       ("rnn", "bn")])
def test_a_skip_stack_of_one_layer_is_the_plain_one(cell, norm, bidirectional):
    plain, want = run(False, cell, norm, bidirectional)
    skip, got = run(True, cell, norm, bidirectional)
    assert skip.output_size == plain.output_size == H * (2 if bidirectional else 1)
    assert list(skip.params) == list(plain.params)
    for n in plain.params:
        np.testing.assert_array_equal(skip.params[n], plain.params[n], err_msg=n)
        np.testing.assert_array_equal(skip.grads[n], plain.grads[n], err_msg="d" + n)
        assert np.any(plain.grads[n] != 0), n
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
