"""lnrnn/model/functional.py's dL/dc_n seed in a batch of rows of different lengths (LN-LSTM, float64): a
seed on a row that ends inside the sequence (one step short included) is refused; one on the full-length
row and on a row of length 0 (whose c_n is c0) gives dc0 equal to central differences."""
import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.model import functional as F

T, B, I, H = 3, 3, 2, 2
L = np.array([3, 2, 0])


def _setup():
    spec = cells.get("ln-lstm")
    rng = np.random.default_rng(0)
    params = {n: rng.normal(size=s) * 0.5 for n, s in spec.param_shapes(I, H)}
    x = rng.normal(size=(T, B, I))
    state = tuple(rng.normal(size=(B, H)) for _ in range(spec.nstate))
    return params, x, state


def _seeded_backward(params, x, state, dc_n):
    y, _, res = F.layer_forward("ln-lstm", x, state, params, lengths=L, keep=True)
    return F.layer_backward("ln-lstm", res, x, state, params, y, np.zeros_like(y), dfinal=(None, dc_n), lengths=L)


@pytest.mark.parametrize("row", [1])
def test_a_seed_on_a_row_that_ends_inside_is_refused(row):
    params, x, state = _setup()
    dc_n = np.zeros((B, H))
    dc_n[row] = 1.0
    with pytest.raises(NotImplementedError, match="only for rows that run all T steps"):
        _seeded_backward(params, x, state, dc_n)


def test_seeds_on_full_and_empty_rows_equal_central_differences():
    params, x, state = _setup()
    R = np.random.default_rng(1).normal(size=(B, H))
    R[1] = 0.0                                             # the row that ends inside takes no seed

    def loss(c0):
        _, final, _ = F.layer_forward("ln-lstm", x, (state[0], c0), params, lengths=L, keep=False)
        return float((final[1] * R).sum())

    _, d0, _ = _seeded_backward(params, x, state, R)
    num = np.zeros((B, H))
    eps = 1e-6
    for i in np.ndindex(B, H):
        cp, cm = state[1].copy(), state[1].copy()
        cp[i] += eps
        cm[i] -= eps
        num[i] = (loss(cp) - loss(cm)) / (2 * eps)
    np.testing.assert_allclose(d0[1], num, rtol=1e-6, atol=1e-9)
