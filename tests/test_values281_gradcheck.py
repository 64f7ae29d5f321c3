"""lnrnn/gradcheck.py, thirteenth pass: rel_error computed in float64 (differences of 1e-6 on numbers near 1
keep their digits), its verdict either side of the tolerance by the definition |a - n| / (|a| + |n|); the names
check_stack reports: every parameter, then x, then each layer's initial states h0 (and c0 for an LSTM), each
passing the tolerance."""
import numpy as np
import pytest

from lnrnn.gradcheck import TOLERANCE, check_stack, rel_error
from lnrnn.model.layers import RecurrentStack


@pytest.mark.parametrize("d", [1.9e-6, 2.1e-6, 3e-6, 1e-9])
def test_rel_error_keeps_float64_digits_near_one(d):
    a, n = 1.0 + d, 1.0
    want = d / (2.0 + d)                       # one element: its own |a| + |n| is the largest
    assert rel_error(np.array([a]), np.array([n])) == pytest.approx(want, rel=1e-6)
    assert (rel_error([a], [n]) <= TOLERANCE) == (d < 2e-6)      # d / (2 + d) <= 1e-6 iff d <= 2e-6 / (1 - 1e-6)


@pytest.mark.parametrize("cell,states", [("lstm", ["h0", "c0"]), ("rnn", ["h0"])])
def test_check_stack_names_every_parameter_then_x_then_each_layers_states(cell, states):
    res = check_stack(cell, "none", T=2, B=2, I=2, H=2, num_layers=2, max_elems=3)
    names = [n for n, _ in res]
    params = list(RecurrentStack(cell, "none", 2, 2, num_layers=2, dtype=np.float64).params)
    assert names == params + ["x"] + [f"l{k}.{s}" for k in range(2) for s in states]
    assert all(err <= TOLERANCE for _, err in res), res
