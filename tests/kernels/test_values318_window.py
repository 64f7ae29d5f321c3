"""The synthesis window's CPU kernel (lnrnn/kernels/window.py), seventeenth pass, float64, B = 3 rows (two row
chunks: rows 0-1 and row 2), K = 2 Gaussians, C = 4 codes, T = 3 steps.

- kappa, phi and w of every step against Graves's eq. 46-51 written out (test_values285_window's formulas_hold:
  p_t = h_t Wp + bp, alpha = exp(a_hat), beta = exp(b_hat), kappa_t = kappa_{t-1} + exp(k_hat),
  phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) at the 1-based u = 1..ulen[b] and 0 past it,
  w_t[c] = the sum of phi over the u whose code is c) at U = 1, 4 and 7 with texts of U, 0 and 1 characters in
  one batch (the empty text in the first chunk, the one-character text alone in the second);
- the state (h, c, kappa, w) carried from a first call of 1 step into a second call of 2 steps against
  lnrnn.reference.window_lstm_forward over the 3 steps at once;
- every gradient against lnrnn.reference.window_lstm_backward with Graves's gate clip at 0.02 (binding: the
  clipped and the unclipped spec differ in every gate block of db) and without it, rows of 3, 1 and 2 steps
  across both chunks, with and without LayerNorm."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_backward
from test_values261_window import MOMENTUM, EPS, NAMES, REF_NORM
from test_values285_window import formulas_hold
from test_values293_window import B, H, T, problem, run, stats

GRAD_NAMES = ("dx", "dh0", "dc0", "dkappa0", "dw0") + tuple("d" + n for n in NAMES[:9]) + ("dWp", "dbp")


def reference(x, state, text, p, norm, lengths):
    return ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *stats(), REF_NORM[norm], True,
                                   MOMENTUM, EPS, lengths)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN], ids=["none", "ln"])
@pytest.mark.parametrize("U", [1, 4, 7])
def test_kappa_phi_and_w_at_texts_of_u_0_and_1(U, norm):
    x, state, (chars, ulen), p = problem(31800 + U, U, [U, 0, 1])
    lengths = np.full(B, T, np.int64)
    out = run(x, state, (chars, ulen), p, norm)
    kappa = formulas_hold(out, x, state, chars, ulen, p, norm, lengths)
    np.testing.assert_allclose(out[4], kappa, rtol=1e-13)
    phi = out[6]
    assert np.all(phi[:, 0, :] > 0.0) and np.all(phi[:, 1, :] == 0.0) and np.all(phi[:, 2, 1:] == 0.0)
    assert np.all(phi[:, 2, 0] > 0.0)
    assert np.all(out[1][:, 1, :] == 0.0)  # no text: w_t = 0
    # the one character's code takes all of phi(t,1), the other codes nothing
    w2 = out[1][:, 2, :]
    np.testing.assert_allclose(w2[:, chars[2, 0]], phi[:, 2, 0], rtol=1e-14)
    assert np.all(np.delete(w2, chars[2, 0], axis=1) == 0.0)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN], ids=["none", "ln"])
def test_state_carried_over_two_calls_equals_the_spec_over_all_steps(norm):
    x, state, text, p = problem(31810, 5, [5, 0, 1])
    want = reference(x, state, text, p, norm, np.full(B, T, np.int64))
    ones = np.ones(B, np.int64)
    first = run(x[:1], state, text, p, norm, keep=False, lengths=ones)
    carried = [first[2], first[3], first[4], first[5]]
    second = run(x[1:], carried, text, p, norm, keep=True, lengths=np.full(B, T - 1, np.int64))
    np.testing.assert_allclose(np.concatenate([first[0], second[0]]), want[0], rtol=1e-11, atol=1e-12, err_msg="y")
    np.testing.assert_allclose(np.concatenate([first[1], second[1]]), want[1], rtol=1e-11, atol=1e-300,
                               err_msg="w")
    np.testing.assert_allclose(np.concatenate([first[6], second[6]]), want[6], rtol=1e-11, atol=1e-300,
                               err_msg="phi")
    for name, g, e in zip(("hT", "cT", "kappaT", "wT"), second[2:6], want[2:6]):
        np.testing.assert_allclose(g, e, rtol=1e-11, atol=1e-300, err_msg=name)


@pytest.mark.parametrize("clip", [0.02, 0.0], ids=["clip", "noclip"])
@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN], ids=["none", "ln"])
def test_gradients_with_the_gate_clip_against_the_spec_over_two_chunks(norm, clip):
    x, state, text, p = problem(31820 + norm, 5, [5, 1, 4])
    lengths = np.array([3, 1, 2], np.int64)
    rng = np.random.default_rng(31821)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, state[3].shape[1]))
    out = run(x, state, text, p, norm, lengths=lengths)
    got = window_lstm_backward(dy, dw, out[7], x, *state, *text, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                               p["Wp"], norm, clip)
    cache = reference(x, state, text, p, norm, lengths)[-1]
    args = (dy, dw, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], p["Wp"], text[0])
    want = ref.window_lstm_backward(*args, clip=clip)
    if clip:  # the clip binds in each of the four gate blocks [i|f|g|o] of db
        free = ref.window_lstm_backward(*args, clip=0.0)
        for k in range(4):
            assert np.max(np.abs(free[7][k * H:(k + 1) * H] - want[7][k * H:(k + 1) * H])) > 1e-6, f"block {k}"
    assert len(got) == len(want) == len(GRAD_NAMES)
    for name, g, e in zip(GRAD_NAMES, got, want):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12, err_msg=name)
    assert np.all(got[1][2] != 0.0)  # the second chunk's row: its own dL/dh0
