"""Round 344 on the CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) in float64 against the NumPy spec
(lnrnn/reference.py): T = 4, B = 5 rows, H = 5 units, on 1, 2 and 3 chunks of the batch, inputs 1 and 3 columns
wide (the narrow path, I <= FOLD_MAX_I) and 6 (the wide one), LayerNorm on and off.

- Rows of lengths T, 0, 1, T and 3 in one batch, as a layer runs them (dy zero past a row's length, the final
  state read from y at the row's last step, h0 for length 0): every row's y, final state, dx and dh0 equal the
  spec run on that row alone over its own steps, the weight gradients the sum of those rows' spec gradients;
  y over all T steps equals the spec over the whole batch.
- The same sequence in two calls of 2 and 2 steps, h carried over (backward: the second call's dh0 added to
  the first call's dy at its last step): outputs and summed gradients equal the spec over the whole sequence.
- Every gradient of the masked loss against central differences of the spec's loss.

The problem (gain and bias away from 1 and 0) is test_values147_rnn's."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import rnn_forward, rnn_infer
from test_values147_rnn import EPS, FWD, GRADS, NORM, check_central_differences, kernel_backward, problem, rel, spec

T, B, H = 4, 5, 5
LENGTHS = (T, 0, 1, T, 3)
WIDTHS = [1, 3, 6]
assert 3 <= FOLD_MAX_I < 6


def masked_dy(seed):
    """dy (T,B,H) with zeros past every row's length (the loss scores no padded step)."""
    dy = np.random.default_rng(seed).standard_normal((T, B, H))
    for row, L in enumerate(LENGTHS):
        dy[L:, row] = 0.0
    return dy


def row_alone(p, row, L, dy, norm):
    """The spec on row ``row`` alone over its first L steps -> y (L,H), final h (H,), grads (dx (L,I), dh0 (H,),
    dWx, dWh, db, dg); length 0: h0 and zero gradients."""
    q = {k: p[k] for k in FWD}
    if L == 0:
        zeros = [np.zeros((0, p["x"].shape[2])), np.zeros(H)] + [np.zeros_like(p[k]) for k in GRADS[2:]]
        return np.zeros((0, H)), p["h0"][row], zeros
    q["x"] = np.ascontiguousarray(p["x"][:L, row:row + 1])
    q["h0"] = p["h0"][row:row + 1]
    y, hT, cache = R.rnn_forward(*[q[k] for k in FWD], norm, EPS)
    g = R.rnn_backward(np.ascontiguousarray(dy[:L, row:row + 1]), cache, p["Wx"], p["Wh"], p["g"], norm)
    return y[:, 0], hT[0], [g[0][:, 0], g[1][0]] + list(g[2:])


@pytest.mark.parametrize("nch", [1, 2, 3])
@pytest.mark.parametrize("I", WIDTHS)
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lengths_0_1_and_T_in_one_batch_equal_each_row_alone(norm, I, nch):
    p = problem(34400 + 10 * I + nch, T, B, I, H)
    dy = masked_dy(34450 + I)
    y, hT, saved = rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
    yi, hTi = rnn_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
    y_all, hT_all, _ = spec(p, norm)
    assert rel(y, y_all) < 1e-12 and rel(yi, y_all) < 1e-12, "y over the whole batch"
    assert rel(hT, hT_all) < 1e-12 and rel(hTi, hT_all) < 1e-12, "hT"
    got = kernel_backward(p, saved, dy, norm, nch)
    total = [np.zeros_like(p[k]) for k in GRADS[2:]]
    for row, L in enumerate(LENGTHS):
        yr, hr, gr = row_alone(p, row, L, dy, norm)
        if L:
            assert rel(y[:L, row], yr) < 1e-12, ("y", row)
        final = y[L - 1, row] if L else p["h0"][row]
        assert np.max(np.abs(final - hr)) < 1e-12, ("final state", row, L)
        dx_row = got[0][:, row]
        assert np.max(np.abs(dx_row[:L] - gr[0]), initial=0.0) < 1e-11, ("dx", row, L)
        assert np.all(dx_row[L:] == 0.0), ("dx past the length", row, L)
        assert np.max(np.abs(got[1][row] - gr[1])) < 1e-11, ("dh0", row, L)
        for k, g in enumerate(gr[2:]):
            total[k] += g
    for name, g, w in zip(GRADS[2:], got[2:], total):
        assert g.shape == w.shape, name
        assert np.max(np.abs(g - w)) < 1e-11 * max(1.0, float(np.max(np.abs(w)))), (name, nch)


@pytest.mark.parametrize("I", WIDTHS)
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_two_calls_with_the_state_carried_equal_one_pass_of_the_spec(norm, I):
    p = problem(34470 + I, T, B, I, H)
    dy = np.random.default_rng(34480 + I).standard_normal((T, B, H))
    y_all, hT_all, cache = spec(p, norm)
    want = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    cut = 2
    first = dict(p, x=np.ascontiguousarray(p["x"][:cut]))
    y1, h1, s1 = rnn_forward(*[first[k] for k in FWD], NORM[norm], EPS, 2)
    second = dict(p, x=np.ascontiguousarray(p["x"][cut:]), h0=h1)
    y2, h2, s2 = rnn_forward(*[second[k] for k in FWD], NORM[norm], EPS, 2)
    yi1, hi1 = rnn_infer(*[first[k] for k in FWD], NORM[norm], EPS, 3)
    yi2, hi2 = rnn_infer(*[dict(second, h0=hi1)[k] for k in FWD], NORM[norm], EPS, 3)
    assert rel(np.concatenate([y1, y2]), y_all) < 1e-12 and rel(h2, hT_all) < 1e-12
    assert rel(np.concatenate([yi1, yi2]), y_all) < 1e-12 and rel(hi2, hT_all) < 1e-12
    g2 = kernel_backward(second, s2, np.ascontiguousarray(dy[cut:]), norm, 2)
    dy1 = dy[:cut].copy()
    dy1[-1] += g2[1]  # dL/dh at the first call's last step: its output's and the second call's dh0
    g1 = kernel_backward(first, s1, dy1, norm, 2)
    got = [np.concatenate([g1[0], g2[0]]), g1[1]] + [a + b for a, b in zip(g1[2:], g2[2:])]
    for name, g, w in zip(GRADS, got, want):
        assert g.shape == w.shape, name
        assert np.max(np.abs(g - w)) < 1e-11 * max(1.0, float(np.max(np.abs(w)))), name


@pytest.mark.parametrize("I", [1, 6])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_every_gradient_of_the_masked_loss_against_central_differences(norm, I):
    """Loss sum(dy y) with dy zero past every row's length, through reference.rnn_forward; 3 chunks."""
    p = problem(34490 + I, T, B, I, H)
    check_central_differences(p, norm, masked_dy(34495 + I))
