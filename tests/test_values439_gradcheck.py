"""lnrnn/gradcheck.py, thirteenth pass: check_stack's defaults check a stack of two layers (the standard asks every
backward to be checked multi-layer), and what it returns names every parameter of that stack, the input and each
layer's initial state, once each, in the stack's own order."""
import numpy as np
import pytest

from lnrnn.gradcheck import TOLERANCE, check_stack
from lnrnn.model.layers import RecurrentStack


@pytest.mark.parametrize("cell, norm, state", [("rnn", "none", ("h0",)), ("lstm", "ln", ("h0", "c0"))])
def test_the_defaults_check_two_layers_every_parameter_and_state_once(cell, norm, state):
    results = check_stack(cell, norm, max_elems=6)
    names = [n for n, _ in results]
    two = RecurrentStack(cell, norm, 3, 4, num_layers=2, dtype=np.float64, seed=0)
    expected = list(two.params) + ["x"] + [f"l{k}.{s}" for k in range(2) for s in state]
    assert names == expected
    assert {n.split(".")[0] for n in names if n != "x"} == {"l0", "l1"}
    assert all(err <= TOLERANCE for _, err in results), results
