"""The NumPy reference (lnrnn/reference.py) with an eps far from the default: every LayerNorm of the LN-LSTM
and the LN-RNN takes the eps it is given (a large one moves every output), checked against the compiled CPU
twins, whose every normalization takes it too, and against the LayerNorm written out for one step."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import EPS as DEFAULT_EPS
from lnrnn.kernels.lstm import NORM_LN, lstm_backward, lstm_forward
from lnrnn.kernels.rnn import rnn_backward, rnn_forward

EPS = 0.5  # of the order of the variances below: far from the default, felt everywhere


def close(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def params(rng, T, B, I, H, G):
    def P(*s, scale=1.0, shift=0.0):
        return shift + scale * rng.standard_normal(s)
    return dict(x=P(T, B, I), h0=P(B, H), c0=P(B, H), Wx=P(I, G, scale=0.5), Wh=P(H, G, scale=0.5), b=P(G),
                gx=P(G, scale=0.2, shift=1), bx=P(G, scale=0.2), gh=P(G, scale=0.2, shift=1), bh=P(G, scale=0.2),
                gc=P(H, scale=0.2, shift=1), bc=P(H, scale=0.2), g=P(H, scale=0.2, shift=1))


FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")


def ln(v, g, b, eps):
    return (v - v.mean(-1, keepdims=True)) / np.sqrt(v.var(-1, keepdims=True) + eps) * g + b


def test_one_ln_lstm_step_written_out():
    rng = np.random.default_rng(41)
    p = params(rng, 1, 3, 2, 3, 12)
    H = 3
    a = ln(p["x"][0] @ p["Wx"], p["gx"], p["bx"], EPS) + ln(p["h0"] @ p["Wh"], p["gh"], p["bh"], EPS) + p["b"]
    s = 1 / (1 + np.exp(-a))
    c = s[:, H:2 * H] * p["c0"] + s[:, :H] * np.tanh(a[:, 2 * H:3 * H])
    h = s[:, 3 * H:] * np.tanh(ln(c, p["gc"], p["bc"], EPS))
    y, hT, cT, _ = R.lstm_forward(*[p[k] for k in FWD], "ln", EPS)
    assert close(cT, c) < 1e-13 and close(y[0], h) < 1e-13
    assert close(R.lstm_forward(*[p[k] for k in FWD], "ln", DEFAULT_EPS)[0], h) > 1e-3  # eps is felt


@pytest.mark.parametrize("I", [2, 6])  # narrow (the twin's x Wx in the row loop) and wide
def test_ln_lstm_reference_takes_its_eps_as_the_kernel_does(I):
    rng = np.random.default_rng(42)
    T, B, H = 3, 4, 3
    p = params(rng, T, B, I, H, 4 * H)
    dy = rng.standard_normal((T, B, H))
    y, hT, cT, cache = R.lstm_forward(*[p[k] for k in FWD], "ln", EPS)
    gr = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], "ln")
    yk, hk, ck, saved = lstm_forward(*[p[k] for k in FWD], NORM_LN, EPS, 2)
    gk = lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM_LN, 2)
    assert close(y, yk) < 1e-12 and close(hT, hk) < 1e-12 and close(cT, ck) < 1e-12
    for k, (a, e) in enumerate(zip(gr, gk)):
        assert close(a, e) < 1e-11, k


def test_ln_rnn_reference_takes_its_eps_as_the_kernel_does():
    rng = np.random.default_rng(43)
    T, B, I, H = 3, 4, 2, 5
    p = params(rng, T, B, I, H, H)
    dy = rng.standard_normal((T, B, H))
    args = (p["x"], p["h0"], p["Wx"], p["Wh"], p["b"], p["g"])
    y, hT, cache = R.rnn_forward(*args, "ln", EPS)
    gr = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], "ln")
    yk, hk, saved = rnn_forward(*args, NORM_LN, EPS, 2)
    gk = rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM_LN, 2)
    a0 = p["x"][0] @ p["Wx"] + p["h0"] @ p["Wh"]
    assert close(y[0], np.tanh(ln(a0, p["g"], p["b"], EPS))) < 1e-13
    assert close(y, yk) < 1e-12 and close(hT, hk) < 1e-12
    for k, (a, e) in enumerate(zip(gr, gk)):
        assert close(a, e) < 1e-11, k
