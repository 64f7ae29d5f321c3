"""lnrnn/model/functional.py's dL/dc_n seed refused on every row that ends inside the sequence, the one of a
single step too (lengths 1 and 2 of T = 3; test_values16_functional's LN-LSTM layer), and taken on the rows that
run all T steps or none."""
import numpy as np
import pytest

from lnrnn.model import functional as F
from test_values16_functional import B, H, _setup

L = np.array([3, 1, 2])


def _seeded(dc_row, lengths):
    params, x, state = _setup()
    dc_n = np.zeros((B, H))
    dc_n[dc_row] = 1.0
    y, _, res = F.layer_forward("ln-lstm", x, state, params, lengths=lengths, keep=True)
    return F.layer_backward("ln-lstm", res, x, state, params, y, np.zeros_like(y), dfinal=(None, dc_n),
                            lengths=lengths)


@pytest.mark.parametrize("row", [1, 2])
def test_a_seed_on_a_row_of_one_or_two_steps_of_three_is_refused(row):
    with pytest.raises(NotImplementedError, match="only for rows that run all T steps"):
        _seeded(row, L)


@pytest.mark.parametrize("lengths", [np.array([3, 1, 2]), np.array([0, 1, 2])])
def test_a_seed_on_a_full_or_empty_row_is_taken(lengths):
    dx, dstate, _ = _seeded(0, lengths)
    assert np.abs(dstate[1][0]).max() > 0                  # the seed reached dc0 of its row
