"""The skip stack's backward on the CPU (lnrnn/model/layers.py: RecurrentStack._backward_skip): with Graves's skip
connections every layer reads the input and sends its output to the head, so dL/dx collects every layer's share and
dL/dh of a layer adds the layer above's. Checked by float64 central differences (lnrnn.gradcheck.check_stack) for
every cell and norm, three layers (3 rows: BatchNorm over 2 rows is too flat for central differences), so that the
first, a middle and the last layer's shares are all in dx: every parameter, the input and each layer's initial
states, within the suite's tolerance; and the input gradient of the skip stack is not the plain stack's (the plain
stack's dx comes through the first layer alone)."""
import numpy as np
import pytest

from gradcheck_util import TOLERANCE
from lnrnn.gradcheck import check_stack
from lnrnn.model.layers import RecurrentStack

CELLS = [(c, n) for c in ("rnn", "lstm") for n in ("none", "ln", "bn")]


@pytest.mark.parametrize("cell, norm", CELLS)
def test_a_three_layer_skip_stacks_gradients_equal_central_differences(cell, norm):
    results = check_stack(cell, norm, T=5, B=3, I=3, H=4, num_layers=3, training=True, seed=5, max_elems=12,
                          skip=True)
    names = [n for n, _ in results]
    assert "x" in names and all(f"l{k}.h0" in names for k in range(3))
    bad = [(n, e) for n, e in results if not e < TOLERANCE]
    assert not bad, bad


def test_the_skip_stacks_input_gradient_collects_every_layer():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 2, 3))
    got = {}
    for skip in (False, True):
        stack = RecurrentStack("lstm", "ln", 3, 3, num_layers=3, dtype=np.float64, seed=1, skip=skip)
        y, _ = stack.forward(x, None, True)
        got[skip] = stack.backward(np.ones_like(y))
    assert got[True].shape == got[False].shape == x.shape
    assert not np.allclose(got[True], got[False])
