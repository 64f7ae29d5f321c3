"""The synthesis window's CPU kernel (lnrnn/kernels/window.py), twelfth pass, at T 3, B 3 (lengths 3, 1 and 0),
texts of 4, 1 and 3 characters (U 4) and K 1 and 2 Gaussians: y, w, phi and the final state against
lnrnn.reference.window_lstm_forward for NORM_NONE and LayerNorm (the cell's LN bias bc drawn large, gains away
from 1); every gradient against central differences in float64 of sum(dy y + dw w) over the active steps
(test_values146_window's backward_and_loss) and against lnrnn.reference.window_lstm_backward (the bias gradient
summed over every step); the text check's refusal of a length outside [0, U] word for word."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_forward
from gradcheck_util import numeric_grad
from test_values146_window import backward_and_loss, window_params

T, B, I, H, C, U = 3, 3, 2, 2, 3, 4
G = 4 * H
ULEN = np.array([4, 1, 3], np.int64)
LENGTHS = np.array([3, 1, 0], np.int64)
EPS, MOMENTUM = 1e-3, 0.1
NAMES = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
REF_NORM = {NORM_NONE: "none", NORM_LN: "ln"}


def problem(K, seed):
    rng = np.random.default_rng(seed)
    chars = np.array([[2, 0, 2, 1], [1, 7, 7, 7], [0, 1, 2, 9]], np.int64)   # past ulen: never read
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = window_params(rng, I, H, C, K, bc_scale=0.8)
    return x, state, (chars, ULEN.copy()), p


def stats():
    return [np.zeros((T, G)), np.ones((T, G)), np.zeros((T, G)), np.ones((T, G)), np.zeros((T, H)), np.ones((T, H))]


def run(x, state, text, p, norm, keep=True, lengths=LENGTHS):
    return window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *stats(), norm, True, MOMENTUM, EPS,
                               lengths, keep)


@pytest.mark.parametrize("K", [1, 2])
@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_forward_against_reference(norm, K):
    x, state, text, p = problem(K, 26130 + K)
    got = run(x, state, text, p, norm)
    want = ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *stats(), REF_NORM[norm], True,
                                   MOMENTUM, EPS, LENGTHS)
    for name, g, w in zip(("y", "w", "hT", "cT", "kappaT", "wT", "phi"), got[:7], want[:7]):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_backward_against_central_differences_and_reference(norm):
    K = 2
    x, state, text, p = problem(K, 26140)
    dy, dw, got, loss = backward_and_loss(x, state, text, p, norm, 26141, run=run, lengths=LENGTHS)
    for name, g, v in zip(("dx", "dh0", "dc0", "dkappa0", "dw0"), got[:5], [x] + state):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=name)
    for name, g in zip(NAMES, got[5:]):
        if norm == NORM_NONE and name in ("gx", "bx", "gh", "bh", "gc", "bc"):
            continue
        np.testing.assert_allclose(g, numeric_grad(loss, p[name], eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=f"d{name}")
    cache = ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *stats(), REF_NORM[norm], True,
                                    MOMENTUM, EPS, LENGTHS)[7]
    want = ref.window_lstm_backward(dy, dw, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], p["Wp"], text[0])
    for name, g, w in zip(("dx", "dh0", "dc0", "dkappa0", "dw0") + tuple("d" + n for n in NAMES[:9]) + ("dWp", "dbp"),
                          got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("ulen, got", [([2, 5, 0], "0..5"), ([-1, 2, 4], "-1..4")])
def test_length_outside_the_text_refused_word_for_word(ulen, got):
    x, state, (chars, _), p = problem(1, 26150)
    with pytest.raises(ValueError) as e:
        run(x, state, (chars, np.array(ulen, np.int64)), p, NORM_NONE)
    assert str(e.value) == f"ulen must lie in [0, U] = [0, 4], got {got}"
