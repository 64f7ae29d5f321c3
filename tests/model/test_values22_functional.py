"""lnrnn/model/functional.py's dL/dh_n seed in a batch of rows of different lengths, one of them 0 (whose h_n is
h0), and none of them 0: every cell, float64, the layer function's dh0, dx and parameter gradients against central
differences of L = sum(R * h_n) + sum(S * y) (y's padded steps outside the loss)."""
import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.model import functional as F

T, B, I, H = 3, 3, 2, 2


def _problem(cell):
    spec = cells.get(cell)
    rng = np.random.default_rng(2231)
    params = {n: rng.normal(size=s) * 0.5 for n, s in spec.param_shapes(I, H)}
    if "g" in params:
        params["g"] += 1.0
    x = rng.normal(size=(T, B, I))
    state = tuple(rng.normal(size=(B, H)) for _ in range(spec.nstate))
    return params, x, state, rng.normal(size=(B, H)), rng.normal(size=(T, B, H))


def _loss(cell, x, state, params, R, S, lengths):
    y, final, _ = F.layer_forward(cell, x, state, params, lengths=lengths, training=False, keep=False)
    mask = F.running_mask(lengths, T, np.float64)[:, :, None]
    return float(np.sum(R * final[0]) + np.sum(S * y * mask))


@pytest.mark.parametrize("lengths", [np.array([3, 0, 2]), np.array([1, 3, 2])])
@pytest.mark.parametrize("cell", ["ln-lstm", "lstm", "ln-rnn", "rnn"])
def test_dh_n_seed_with_and_without_empty_rows_equals_central_differences(cell, lengths):
    params, x, state, R, S = _problem(cell)
    y, _, res = F.layer_forward(cell, x, state, params, lengths=lengths, keep=True)
    dx, dstate, grads = F.layer_backward(cell, res, x, state, params, y, S, dfinal=(R,), lengths=lengths)
    h = 1e-6

    def numeric(arr, put):
        g = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            up, dn = arr.copy(), arr.copy()
            up[i] += h
            dn[i] -= h
            g[i] = (put(up) - put(dn)) / (2 * h)
        return g

    rest = state[1:]
    want_dh0 = numeric(state[0], lambda v: _loss(cell, x, (v,) + rest, params, R, S, lengths))
    assert np.allclose(dstate[0], want_dh0, atol=1e-7), "dh0"
    zero = lengths == 0
    if zero.any():  # by definition: h_n is h0 there, and nothing else reads h0
        assert np.allclose(dstate[0][zero], R[zero], atol=1e-12)
    want_dx = numeric(x, lambda v: _loss(cell, v, state, params, R, S, lengths))
    assert np.allclose(dx, want_dx, atol=1e-7), "dx"
    for n in ("Wh", "b"):
        want = numeric(params[n], lambda v, n=n: _loss(cell, x, state, {**params, n: v}, R, S, lengths))
        assert np.allclose(grads[n], want, atol=1e-7), n
