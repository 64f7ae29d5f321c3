"""The CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) against a NumPy loop written here from the definition
(h_t = tanh(x_t Wx + h_{t-1} Wh + b), with LN: tanh(g LN(x_t Wx + h_{t-1} Wh) + b)) and central differences
of its loss for every gradient: B = 5 rows on 4 chunks, H = 3, a one-column input and a wide one of
FOLD_MAX_I + 1, gain and bias away from 1 and 0, h0 given, T = 3 so that the recurrence carries gradients
back twice."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import NORM_LN, NORM_NONE, rnn_backward, rnn_forward
from test_values168_lstm import central, maxrel

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
ARGS = ("x", "h0", "Wx", "Wh", "b", "g")
T, B, H = 3, 5, 3


def by_hand(p, norm):
    h, ys = p["h0"], []
    for t in range(T):
        a = p["x"][t] @ p["Wx"] + h @ p["Wh"]
        if norm == "ln":
            m = a.mean(axis=1, keepdims=True)
            a = p["g"] * (a - m) / np.sqrt(((a - m) ** 2).mean(axis=1, keepdims=True) + EPS)
        h = np.tanh(a + p["b"])
        ys.append(h)
    return np.stack(ys)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, FOLD_MAX_I + 1])
def test_forward_and_every_gradient_against_a_loop_by_hand(norm, I):
    rng = np.random.default_rng(19040 + I)

    def P(*shape, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(shape))
    p = dict(x=P(T, B, I, scale=1.2, shift=0.3), h0=P(B, H, scale=0.7, shift=-0.2), Wx=P(I, H, scale=0.7, shift=0.2),
             Wh=P(H, H, scale=0.8), b=P(H, scale=0.4, shift=0.3), g=P(H, scale=0.3, shift=0.8))
    wy = rng.standard_normal((T, B, H))
    y = by_hand(p, norm)
    yf, hf, saved = rnn_forward(*[p[k] for k in ARGS], NORM[norm], EPS, 4)
    assert maxrel(yf, y) < 1e-12 and maxrel(hf, y[-1]) < 1e-12
    want = central(lambda: float((wy * by_hand(p, norm)).sum()), p)
    got = rnn_backward(wy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 4)
    for name, gk in zip(ARGS, got):
        w = want[name] if norm == "ln" or name != "g" else np.zeros_like(p["g"])
        assert gk.shape == w.shape, name
        assert np.max(np.abs(gk - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), name
