"""The layer functions (lnrnn/model/functional.py) in float64 at tiny sizes, against NumPy written here: the
gradients layer_backward gives the initial state for dL/dh_n and dL/dc_n in a batch where one row has no steps
(its final state is its initial state, so dh0 and dc0 there are dh_n and dc_n) and the others run theirs,
against central differences of the NumPy loss over each row's own steps; residual_layout against the shapes of
the residuals layer_forward returns, for every cell, with T != B; lengths that are not integers refused."""
import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.model.functional import check_lengths, layer_backward, layer_forward, residual_layout
from test_values77_layers import central, np_lstm

I, H, T, B = 3, 2, 3, 3
G = 4 * H


def _setup(seed):
    rng = np.random.default_rng(seed)
    p = {"Wx": rng.standard_normal((I, G)), "Wh": rng.standard_normal((H, G)), "b": 0.1 * rng.standard_normal(G)}
    x = rng.standard_normal((T, B, I))
    return p, x, 0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng


def _finals(x, h0, c0, p, lengths):
    """hT, cT of each row after its own steps (its initial state when it has none)."""
    hs, cs = [], []
    for b in range(B):
        L = lengths[b]
        if L == 0:
            hs.append(h0[b])
            cs.append(c0[b])
            continue
        _, h, c = np_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)
        hs.append(h[0])
        cs.append(c[0])
    return np.stack(hs), np.stack(cs)


def test_dh_n_of_a_row_without_steps_reaches_its_dh0():
    p, x, h0, c0, rng = _setup(1)
    lengths = np.array([0, 2, 3])
    dh_n = rng.standard_normal((B, H))
    y, final, res = layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    dx, dstate, dp = layer_backward("lstm", res, x, (h0, c0), p, y, None, dfinal=(dh_n,), lengths=lengths)
    np.testing.assert_array_equal(dstate[0][0], dh_n[0])
    want = central(lambda: float(np.sum(dh_n * _finals(x, h0, c0, p, lengths)[0])), {"h0": h0, "c0": c0})
    np.testing.assert_allclose(dstate[0], want["h0"], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dstate[1], want["c0"], rtol=1e-6, atol=1e-8)


def test_dc_n_of_a_row_without_steps_reaches_its_dc0():
    p, x, h0, c0, rng = _setup(2)
    lengths = np.array([0, 3, 3])                                    # dc_n: rows of no steps or of all T
    dc_n = rng.standard_normal((B, H))
    y, final, res = layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    dx, dstate, dp = layer_backward("lstm", res, x, (h0, c0), p, y, None, dfinal=(None, dc_n), lengths=lengths)
    np.testing.assert_array_equal(dstate[1][0], dc_n[0])
    want = central(lambda: float(np.sum(dc_n * _finals(x, h0, c0, p, lengths)[1])), {"h0": h0, "c0": c0})
    np.testing.assert_allclose(dstate[0], want["h0"], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dstate[1], want["c0"], rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("cell", ["rnn", "ln-rnn", "lstm", "ln-lstm"])
def test_residual_layout_is_the_shapes_layer_forward_keeps(cell):
    spec = cells.get(cell)
    Tn, Bn = 4, 2                                                    # T != B: a transposed shape shows
    rng = np.random.default_rng(3)
    p = spec.init_params(rng, I, H, np.float64, 1.0)
    x = rng.standard_normal((Tn, Bn, I))
    state = tuple(np.zeros((Bn, H)) for _ in range(spec.nstate))
    _, _, res = layer_forward(cell, x, state, p)
    layout = residual_layout(cell, Tn, Bn, I, H, np.float64)
    assert [tuple(np.shape(r)) for r in res] == [tuple(s) for s, _ in layout]
    assert [np.asarray(r).dtype for r in res] == [d for _, d in layout]


@pytest.mark.parametrize("lengths", [np.array([1.0, 2.0]), np.array([True, True])])
def test_lengths_that_are_not_integers_are_refused(lengths):
    with pytest.raises(ValueError, match="lengths must be 2 integers"):
        check_lengths(lengths, 3, 2)
