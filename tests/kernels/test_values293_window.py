"""The synthesis window's CPU kernel (lnrnn/kernels/window.py), fourteenth pass, float64, B = 3 rows (two row
chunks: rows 0-1 and row 2), K = 2 Gaussians, C = 4 codes: kappa, phi and w of every step against Graves's
formulas written out here from the kernel's own h_t (p_t = h_t Wp + bp, alpha = exp(a_hat), beta = exp(b_hat),
kappa_t = kappa_{t-1} + exp(k_hat), phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) at the 1-based
u = 1..ulen[b] and 0 past it, w_t[c] the sum of phi over the u whose code is c) at U = 1, 5 and 7 with texts of
length 0 and U in one batch; h_t against lnrnn.reference.window_lstm_forward; the final kappa and w with and
without the saved tuple. Every gradient against central differences in float64 of sum(dy y + dw w) over the
active steps (test_values146_window's backward_and_loss), rows of 3, 1 and 2 steps across both chunks, texts
that use the last code C - 1."""
import numpy as np
import pytest

from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_forward
from gradcheck_util import numeric_grad
from test_values146_window import backward_and_loss, window_params
from test_values261_window import MOMENTUM, EPS, NAMES
from test_values285_window import formulas_hold

T, B, I, H, C, K = 3, 3, 2, 2, 4, 2
G = 4 * H


def stats():
    return [np.zeros((T, G)), np.ones((T, G)), np.zeros((T, G)), np.ones((T, G)), np.zeros((T, H)), np.ones((T, H))]


def run(x, state, text, p, norm, keep=True, lengths=None):
    lengths = np.full(B, T, np.int64) if lengths is None else lengths
    return window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *stats(), norm, True, MOMENTUM, EPS,
                               lengths, keep)


def problem(seed, U, ulen):
    rng = np.random.default_rng(seed)
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    chars[0, :min(U, 4)] = [3, 1, 3, 0][:min(U, 4)]        # a repeated code, the last code C - 1
    for b in range(B):
        chars[b, ulen[b]:] = 17 + b                          # past ulen: never read
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = window_params(rng, I, H, C, K)
    return x, state, (chars, np.array(ulen, np.int64)), p


TEXTS = {"U1": (1, [1, 0, 1]), "U5": (5, [5, 0, 3]), "U7": (7, [0, 7, 7])}


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN], ids=["none", "ln"])
@pytest.mark.parametrize("case", list(TEXTS))
def test_kappa_phi_and_w_are_the_formulas_written_out(case, norm):
    U, ulen = TEXTS[case]
    x, state, (chars, ulen), p = problem(29300 + U, U, ulen)
    lengths = np.full(B, T, np.int64)
    out = run(x, state, (chars, ulen), p, norm)
    kappa = formulas_hold(out, x, state, chars, ulen, p, norm, lengths)
    lean = run(x, state, (chars, ulen), p, norm, keep=False)
    assert lean[7] is None
    for got in (out, lean):
        assert got[4].shape == (B, K)
        np.testing.assert_allclose(got[4], kappa, rtol=1e-13, err_msg="final kappa")
        np.testing.assert_allclose(got[5], out[1][T - 1], rtol=1e-13, atol=1e-300, err_msg="final w")
        np.testing.assert_allclose(got[2], out[0][T - 1], rtol=1e-13, err_msg="final h")


def test_every_gradient_against_central_differences_over_two_chunks():
    x, state, text, p = problem(29310, 5, [5, 2, 4])
    lengths = np.array([3, 1, 2], np.int64)
    _, _, got, loss = backward_and_loss(x, state, text, p, NORM_NONE, 29311, run=run, lengths=lengths)
    names = ("dx", "dh0", "dc0", "dkappa0", "dw0", "dWx", "dWh", "db")
    for name, g, v in zip(names, got[:8], [x] + state + [p["Wx"], p["Wh"], p["b"]]):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-8, err_msg=name)
    for name, g, v in (("dWp", got[14], p["Wp"]), ("dbp", got[15], p["bp"])):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-8, err_msg=name)
