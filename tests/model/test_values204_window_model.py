"""The synthesis stack (lnrnn/model/window.py) in float64 against lnrnn.reference and central differences: a
two-layer stack's y is the reference's window LSTM under the reference's LSTM fed [x | h | w], for texts of 0,
1 and U characters in one batch, and its gradients equal central differences (K != C, so the upper layer's
dL/dw columns must be cut at the alphabet's C); a forward in two chunks, carrying (h, c, kappa, w), is the
forward in one; a forward with lengths gives each row's final (h, c, kappa, w) of the reference run over the
row's own steps (a row of no steps keeps its state); the window's initial Wp and bp replayed from the seed
(0.01 N(0, 1), kappa's bias -3); the stack's sizes and config; the refusals word for word.

T = 4, B = 3, I = 2, H = 3, K = 2, C = 4, U = 5 (test_values120_window_model)."""
import re

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import cells
from lnrnn.model.window import WindowStack
from test_values120_window_model import (B, C, H, I, K, T, U, check_stack_gradients, drawn_stack, problem,
                                         ref_args)

TOL = 1e-10
ULEN = np.array([0, 1, U], np.int64)            # an empty text, one character, the whole U


def make(num_layers):
    return drawn_stack("none", num_layers, C, seed=8, draw_seed=204, centres=(0.1, -0.4, -0.2))


def ref_window(L1, x, state, codes, ulen):
    """The reference's window LSTM ('none'): y, w, hT, cT, kappaT, wT."""
    return ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *(np.zeros((1, 4 * H)),) * 6,
                                   "none")[:6]


def test_two_layer_stack_against_the_reference_and_central_differences():
    s = make(2)
    L1, L2 = s.layers
    x, (codes, ulen), state1 = problem(1, ULEN)
    rng = np.random.default_rng(11)
    state2 = (0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)))
    y, states = s.forward(x, [state1, state2], training=True, text=(codes, ulen))
    y1, w, *_ = ref_window(L1, x, state1, codes, ulen)
    p = L2.params
    y2, h2, c2, _ = ref.lstm_forward(np.concatenate([x, y1, w], axis=2), *state2, p["Wx"], p["Wh"], p["b"],
                                     np.ones(4 * H), np.zeros(4 * H), np.ones(4 * H), np.zeros(4 * H), np.ones(H),
                                     np.zeros(H), "none")
    np.testing.assert_allclose(y, np.concatenate([y1, y2], axis=2), rtol=TOL, atol=TOL)
    np.testing.assert_allclose(states[1][0], h2, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(states[1][1], c2, rtol=TOL, atol=TOL)
    check_stack_gradients(s, x, [state1, state2], (codes, ulen), rng.standard_normal((T, B, 2 * H)))


def test_two_chunks_carrying_kappa_and_w_are_one_forward():
    s = make(1)
    L1 = s.layers[0]
    x, text, state = problem(2, ULEN)
    y, w, final = L1.forward_text(x, text, state, training=True)
    ya, wa, mid = L1.forward_text(x[:1], text, state, training=True)
    yb, wb, end = L1.forward_text(x[1:], text, mid, training=True, t0=1)
    np.testing.assert_allclose(np.concatenate([ya, yb]), y, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(np.concatenate([wa, wb]), w, rtol=TOL, atol=TOL)
    for name, g, e in zip(("h", "c", "kappa", "w"), end, final):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)


@pytest.mark.parametrize("keep", [True, False])
def test_lengths_give_each_rows_final_state_of_its_own_steps(keep):
    s = make(1)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(3, ULEN)
    lengths = np.array([2, 0, 3], np.int64)
    _, _, final = L1.forward_text(x, (codes, ulen), state, training=True, lengths=lengths, keep=keep)
    for b, L in enumerate(lengths):
        st = tuple(v[b:b + 1] for v in state)
        want = st if L == 0 else ref_window(L1, x[:L, b:b + 1], st, codes[b:b + 1], ulen[b:b + 1])[2:]
        for name, g, e in zip(("h", "c", "kappa", "w"), final, want):
            np.testing.assert_allclose(g[b], e[0], rtol=TOL, atol=TOL, err_msg=f"{name} of row {b}")


def test_initial_window_parameters_replayed_from_the_seed():
    s = WindowStack("lstm", "none", I, H, num_layers=2, alphabet_size=C, window=K, dtype=np.float64, seed=3)
    rng = np.random.default_rng(3)
    first = cells.get("lstm").init_params(rng, I + C, H, np.float64, 1.0)
    Wp = 0.01 * rng.standard_normal((H, 3 * K))
    second = cells.get("lstm").init_params(rng, I + H + C, H, np.float64, 1.0)
    L1, L2 = s.layers
    for n, e in first.items():
        np.testing.assert_allclose(L1.params[n], e, rtol=1e-12, atol=1e-15, err_msg=n)
    np.testing.assert_allclose(L1.params["Wp"], Wp, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(L1.params["bp"], [0.0] * (2 * K) + [-3.0] * K)
    for n, e in second.items():
        np.testing.assert_allclose(L2.params[n], e, rtol=1e-12, atol=1e-15, err_msg=n)
    assert (s.I, s.H, s.C, s.K) == (I, H, C, K)
    assert s.config["window"] == K and s.config["alphabet_size"] == C


def test_refusals_word_for_word():
    with pytest.raises(ValueError, match=re.escape(
            "the attention window runs with the LSTM cells (lstm, ln-lstm, bn-lstm), not ln-rnn")):
        WindowStack("rnn", "ln", I, H, num_layers=1, alphabet_size=C, window=K, dtype=np.float64)
    with pytest.raises(ValueError, match=re.escape("window and alphabet_size must be positive integers, got 0 and 4")):
        WindowStack("lstm", "none", I, H, num_layers=1, alphabet_size=C, window=0, dtype=np.float64)
    s = make(1)
    x, (codes, ulen), state = problem(4, ULEN)
    with pytest.raises(ValueError, match=re.escape(f"text codes must lie in [0, {C}) (the model's alphabet), "
                                                   f"got 0..{C}")):
        s.layers[0].forward_text(x, (np.where(codes == codes.max(), C, 0), ulen), state)
    with pytest.raises(ValueError, match=re.escape(f"text lengths must lie in [0, {U}], got 0..{U + 1}")):
        s.layers[0].forward_text(x, (codes, np.array([0, 1, U + 1])), state)
    with pytest.raises(ValueError, match=re.escape("the window layer's state is (h, c) or (h, c, kappa, w), got 3 "
                                                   "arrays")):
        s.layers[0].forward_text(x, (codes, ulen), state[:3])
