"""The CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) in float64 against tanh(LN(x_t Wx + h_{t-1} Wh) g + b), or
tanh(x_t Wx + h_{t-1} Wh + b), written out here, with h0 given and the gain and bias away from 1 and 0:
rnn_forward's and rnn_infer's outputs and final h over inputs 1, 3 and FOLD_MAX_I + 2 columns wide (each x
column of its own scale) on one and two chunks; a sequence in two pieces with h carried over equals one call;
every gradient of rnn_backward, of every input and parameter, against central differences of the loss
through the equations here."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import rnn_backward, rnn_forward, rnn_infer
from gradcheck_util import numeric_grad
from test_values11_lstm import close
from test_values72_rnn import EPS, FWD, NORM
from test_values92_rnn import by_definition



def problem(seed, T, B, I, H):
    rng = np.random.default_rng(seed)

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    x = P(T, B, I) * np.linspace(0.5, 2.0, I)
    return dict(x=np.ascontiguousarray(x), h0=P(B, H, scale=0.8, shift=0.3), Wx=P(I, H, scale=0.6, shift=0.1),
                Wh=P(H, H, scale=0.7), b=P(H, scale=0.4, shift=0.3), g=P(H, scale=0.3, shift=1.4))


def by_equations(p, norm):
    """y (T,B,H), h_T: the RNN step by its equations (test_values92_rnn.by_definition)."""
    y = by_definition(p, norm)
    return y, y[-1]


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 3, FOLD_MAX_I + 2])
def test_forward_and_infer_against_the_equations(norm, I):
    T, B, H = 4, 3, 3
    p = problem(12400 + I, T, B, I, H)
    y, hT = by_equations(p, norm)
    args = [p[k] for k in FWD]
    for nch in (1, 2):
        yf, hf, _ = rnn_forward(*args, NORM[norm], EPS, nch)
        yi, hi = rnn_infer(*args, NORM[norm], EPS, nch)
        for name, got, want in (("y", yf, y), ("hT", hf, hT), ("infer y", yi, y), ("infer hT", hi, hT)):
            assert got.shape == want.shape, (name, nch)
            assert close(got, want) < 1e-12, (name, nch, close(got, want))


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_two_pieces_with_h_carried_equal_one_call(norm):
    T, B, H, I = 4, 2, 3, 3
    p = problem(12420, T, B, I, H)
    for run in (lambda q: rnn_forward(*[q[k] for k in FWD], NORM[norm], EPS, 1)[:2],
                lambda q: rnn_infer(*[q[k] for k in FWD], NORM[norm], EPS, 1)):
        y, hT = run(p)
        for s in (1, 3):
            y1, h1 = run(dict(p, x=np.ascontiguousarray(p["x"][:s])))
            y2, h2 = run(dict(p, x=np.ascontiguousarray(p["x"][s:]), h0=h1))
            assert close(np.concatenate([y1, y2]), y) < 1e-13, s
            assert close(h2, hT) < 1e-13, s


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [3, FOLD_MAX_I + 2])
def test_every_gradient_against_central_differences(norm, I):
    """Loss sum(wy y), B = 2 rows, T = 3 steps; the plain RNN's gain is unused (its gradient is zeros, as its
    differences are)."""
    T, B, H = 3, 2, 3
    p = problem(12440 + I, T, B, I, H)
    wy = np.random.default_rng(12460 + I).standard_normal((T, B, H))

    def loss():
        return float((wy * by_equations(p, norm)[0]).sum())
    _, _, saved = rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, 1)
    got = rnn_backward(wy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 1)
    for name, g in zip(("x", "h0", "Wx", "Wh", "b", "g"), got):
        want = numeric_grad(loss, p[name], eps=1e-5)
        assert g.shape == want.shape, name
        assert np.max(np.abs(g - want)) < 1e-7 * max(1.0, np.max(np.abs(want))), (name, g, want)
