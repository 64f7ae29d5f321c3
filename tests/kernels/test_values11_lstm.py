"""The CPU LSTM (lnrnn/kernels/lstm.py) at the bound between its narrow and wide input paths, and with a
final-cell gradient from outside on several chunks, in float64 against the NumPy reference and central
differences: an input exactly config.FOLD_MAX_I wide is narrow in the forward and the backward alike (no
xhat_x saved with LN), one wider is wide (xhat_x saved); dcT reaches each row's own dL/dc."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE, lstm_backward, lstm_forward

EPS = 1e-5
FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
NORM = {"none": NORM_NONE, "ln": NORM_LN}


def close(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def problem(rng, T, B, I, H):
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return shift + scale * rng.standard_normal(s)
    return dict(x=P(T, B, I), h0=P(B, H), c0=P(B, H), Wx=P(I, G, scale=0.5), Wh=P(H, G, scale=0.5), b=P(G),
                gx=P(G, scale=0.2, shift=1), bx=P(G, scale=0.2), gh=P(G, scale=0.2, shift=1), bh=P(G, scale=0.2),
                gc=P(H, scale=0.2, shift=1), bc=P(H, scale=0.2))


def backward(p, saved, dy, norm, nchunks, **kw):
    return lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm],
                         nchunks, **kw)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("wide", [0, 1], ids=["I=FOLD_MAX_I", "I=FOLD_MAX_I+1"])
def test_the_input_width_at_the_fold_bound(norm, wide):
    T, B, H, I = 3, 4, 2, FOLD_MAX_I + wide
    rng = np.random.default_rng(51)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    y, hT, cT, saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, 2)
    kept = norm == "ln" and wide  # lstm.py's saved tuple: xhat_x only for LN with a wide input
    assert saved[4].shape == ((T, B, 4 * H) if kept else (0, 0, 0))
    yr, hr, cr, cache = R.lstm_forward(*[p[k] for k in FWD], norm, EPS)
    assert close(y, yr) < 1e-12 and close(cT, cr) < 1e-12
    got = backward(p, saved, dy, norm, 2)
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for k in range(6 if norm == "none" else 12):
        assert close(got[k], want[k]) < 1e-11, k


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("nchunks", [1, 3])
def test_a_final_cell_gradient_on_chunks_by_central_differences(norm, nchunks):
    """dcT = dL/dc_{T-1} of L = sum(dy * y) + sum(dcT * cT): dx, dh0 and dc0 against central differences of L,
    B = 5 rows on 3 chunks (of 2, 2, 1 rows) and on one."""
    T, B, I, H = 2, 5, 2, 2
    rng = np.random.default_rng(52)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    dcT = rng.standard_normal((B, H)) * np.arange(1, B + 1)[:, None]  # every row's own seed

    def loss():
        y, _, cT, _ = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, 1)
        return float(np.sum(dy * y) + np.sum(dcT * cT))

    saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, nchunks)[3]
    got = backward(p, saved, dy, norm, nchunks, dcT=dcT)
    h = 1e-6
    for k, name in ((0, "x"), (1, "h0"), (2, "c0")):
        a = p[name]
        num = np.empty_like(a)
        for i in np.ndindex(a.shape):
            v = a[i]
            a[i] = v + h
            lp = loss()
            a[i] = v - h
            lm = loss()
            a[i] = v
            num[i] = (lp - lm) / (2 * h)
        assert close(got[k], num) < 1e-6, name
