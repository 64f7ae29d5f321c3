"""The CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py) in float64 against an LSTM written out here from its
equations (gate order [i|f|g|o], LayerNorm of x_t Wx, h_{t-1} Wh and c_t with gains and biases away from 1 and
0): lstm_forward's outputs, final h and final c, and lstm_infer's, over inputs 1, 3, FOLD_MAX_I columns wide
(x_t Wx in the row loop, the LN variance from ln_weights' Rx) and FOLD_MAX_I + 2 (x_t Wx as a product), one
and two chunks of rows and T = 4 steps (lstm_infer keeps two cell rows in turns: the third and fourth steps
read rows written two steps before); a sequence run in two pieces with (h, c) carried over equals one call;
and every gradient of lstm_backward, of every input and parameter and with a final-cell gradient, against
central differences of the loss through the equations here."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import lstm_backward, lstm_forward, lstm_infer
from gradcheck_util import numeric_grad
from test_values11_lstm import EPS, FWD, NORM, close
from test_values92_lstm import by_definition

WIDTHS = [1, 3, FOLD_MAX_I, FOLD_MAX_I + 2]


def problem(seed, T, B, I, H):
    """Gains about 1.3, biases away from 0, a cell far from 0, x of several scales per column."""
    rng = np.random.default_rng(seed)
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    x = P(T, B, I) * np.linspace(0.5, 2.0, I)
    return dict(x=np.ascontiguousarray(x), h0=P(B, H, scale=0.7, shift=0.2), c0=P(B, H, scale=0.5, shift=0.8),
                Wx=P(I, G, scale=0.7, shift=0.1), Wh=P(H, G, scale=0.6), b=P(G, scale=0.4, shift=0.2),
                gx=P(G, scale=0.3, shift=1.3), bx=P(G, scale=0.3, shift=-0.2), gh=P(G, scale=0.3, shift=0.8),
                bh=P(G, scale=0.3, shift=0.3), gc=P(H, scale=0.3, shift=1.4), bc=P(H, scale=0.3, shift=0.4))


def by_equations(p, norm):
    """y (T,B,H), h_T, c_T: the LSTM step by its equations (test_values92_lstm.by_definition)."""
    y, c = by_definition(p, norm)
    return y, y[-1], c[-1]


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_forward_and_infer_against_the_equations(norm, I):
    T, B, H = 4, 3, 3
    p = problem(12300 + I, T, B, I, H)
    y, hT, cT = by_equations(p, norm)
    args = [p[k] for k in FWD]
    for nch in (1, 2):
        yf, hf, cf, _ = lstm_forward(*args, NORM[norm], EPS, nch)
        yi, hi, ci = lstm_infer(*args, NORM[norm], EPS, nch)
        for name, got, want in (("y", yf, y), ("hT", hf, hT), ("cT", cf, cT),
                                ("infer y", yi, y), ("infer hT", hi, hT), ("infer cT", ci, cT)):
            assert got.shape == want.shape, (name, nch)
            assert close(got, want) < 1e-12, (name, nch, close(got, want))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [3, FOLD_MAX_I + 2])
def test_two_pieces_with_the_state_carried_equal_one_call(norm, I):
    """Split after step 1 and after step 3 of T = 4: the pieces' outputs side by side and the last piece's
    (h, c) equal the one call's, for lstm_forward and lstm_infer alike."""
    T, B, H = 4, 2, 3
    p = problem(12320 + I, T, B, I, H)
    for run in (lambda q: lstm_forward(*[q[k] for k in FWD], NORM[norm], EPS, 1)[:3],
                lambda q: lstm_infer(*[q[k] for k in FWD], NORM[norm], EPS, 1)):
        y, hT, cT = run(p)
        for s in (1, 3):
            y1, h1, c1 = run(dict(p, x=np.ascontiguousarray(p["x"][:s])))
            y2, h2, c2 = run(dict(p, x=np.ascontiguousarray(p["x"][s:]), h0=h1, c0=c1))
            assert close(np.concatenate([y1, y2]), y) < 1e-13, s
            assert close(h2, hT) < 1e-13 and close(c2, cT) < 1e-13, s
            assert close(c1, by_equations(dict(p, x=p["x"][:s]), norm)[2]) < 1e-12, s


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [3, FOLD_MAX_I + 2])
def test_every_gradient_against_central_differences(norm, I):
    """Loss sum(wy y) + sum(wc c_T) (wc enters as lstm_backward's dcT); B = 2 rows, T = 3 steps. The plain
    LSTM's gains and LN biases are unused: their gradients are zeros, as their differences are."""
    T, B, H = 3, 2, 2
    p = problem(12340 + I, T, B, I, H)
    rng = np.random.default_rng(12360 + I)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))

    def loss():
        y, _, c = by_equations(p, norm)
        return float((wy * y).sum() + (wc * c).sum())
    _, _, _, saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, 1)
    got = lstm_backward(wy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                        NORM[norm], 1, dcT=wc)
    for name, g in zip(("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"), got):
        want = numeric_grad(loss, p[name], eps=1e-5)  # the LN-LSTM here is curved: 1e-4 is too coarse
        assert g.shape == want.shape, name
        assert np.max(np.abs(g - want)) < 1e-7 * max(1.0, np.max(np.abs(want))), (name, g, want)
