"""The CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) against the NumPy spec (lnrnn/reference.py) and central
differences: B = 7 rows on 2 and 3 chunks, H = 3, a narrow input of 2 columns and a wide one of
FOLD_MAX_I + 1, gain and bias away from 1 and 0, h0 given; rnn_forward and rnn_infer in two pieces
carrying h; every gradient of rnn_backward against central differences of sum(wy y) taken here."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import NORM_LN, NORM_NONE, rnn_backward, rnn_forward, rnn_infer
from test_values168_lstm import central, maxrel

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
ARGS = ("x", "h0", "Wx", "Wh", "b", "g")
T, B, H = 3, 7, 3


def problem(seed, I):
    rng = np.random.default_rng(seed)

    def P(*shape, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(shape))
    return dict(x=P(T, B, I, scale=1.1, shift=-0.2), h0=P(B, H, scale=0.7, shift=0.3), Wx=P(I, H, scale=0.6, shift=0.1),
                Wh=P(H, H, scale=0.7), b=P(H, scale=0.4, shift=-0.3), g=P(H, scale=0.3, shift=1.3))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 1])
def test_forward_infer_and_every_gradient_against_the_spec_and_central_differences(norm, I):
    p = problem(16850 + I, I)
    y, hT, _ = R.rnn_forward(*[p[k] for k in ARGS], norm, EPS)
    wy = np.random.default_rng(16860 + I).standard_normal((T, B, H))

    def loss():
        return float((wy * R.rnn_forward(*[p[k] for k in ARGS], norm, EPS)[0]).sum())
    want = central(loss, p)
    for nch in (2, 3):
        yf, hf, saved = rnn_forward(*[p[k] for k in ARGS], NORM[norm], EPS, nch)
        assert maxrel(yf, y) < 1e-12 and maxrel(hf, hT) < 1e-12, nch
        ys, h = [], p["h0"]
        for lo, hi in ((0, 1), (1, 3)):
            yi, h = rnn_infer(*[dict(p, x=np.ascontiguousarray(p["x"][lo:hi]), h0=h)[k] for k in ARGS],
                              NORM[norm], EPS, nch)
            ys.append(yi)
        assert maxrel(np.concatenate(ys), y) < 1e-12 and maxrel(h, hT) < 1e-12, nch
        got = rnn_backward(wy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], nch)
        for name, gk in zip(ARGS, got):
            w = want[name]
            assert gk.shape == w.shape, name
            assert np.max(np.abs(gk - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), (name, nch)
