"""The CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py) against the NumPy spec (lnrnn/reference.py) and central
differences, every option on at once: B = 7 rows on 1, 2 and 3 chunks (7 a multiple of neither, nor of a row
block), H = 3 (not a multiple of any vector width), a narrow input of 3 columns (FOLD_MAX_I's closed-form
path) and a wide one of FOLD_MAX_I + 1, gains and biases away from 1 and 0, h0 and c0 given; lstm_forward
and lstm_infer in two pieces carrying (h, c); lstm_backward with a final-cell gradient dcT against central
differences of sum(wy y) + sum(wc c_T) taken here, and with Graves's gate clip against the spec with the same
clip; the float32 kernels against the float64 spec."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE, lstm_backward, lstm_forward, lstm_infer
from gradcheck_util import numeric_grad

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
ARGS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
T, B, H = 3, 7, 3


def problem(seed, I):
    rng = np.random.default_rng(seed)
    G = 4 * H

    def P(*shape, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(shape))
    b = P(G, scale=0.5, shift=-0.1)
    b[H:2 * H] += 0.8
    return dict(x=P(T, B, I, scale=1.2, shift=0.2), h0=P(B, H, scale=0.6, shift=-0.2), c0=P(B, H, scale=0.7, shift=0.4),
                Wx=P(I, G, scale=0.8, shift=0.15), Wh=P(H, G, scale=0.7), b=b,
                gx=P(G, scale=0.3, shift=1.2), bx=P(G, scale=0.3, shift=0.2), gh=P(G, scale=0.3, shift=0.7),
                bh=P(G, scale=0.3, shift=-0.3), gc=P(H, scale=0.3, shift=1.5), bc=P(H, scale=0.3, shift=-0.4))


def maxrel(a, b):
    return float(np.max(np.abs(np.asarray(a, np.float64) - b)) / max(float(np.max(np.abs(b))), 1e-300))


def central(loss, p, h=1e-6):
    """Central differences of loss() in every entry of every array of p, one at a time."""
    return {name: numeric_grad(loss, a, eps=h, order=2) for name, a in p.items()}


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [3, FOLD_MAX_I + 1])
def test_forward_and_infer_in_two_pieces_against_the_spec(norm, I):
    p = problem(16800 + I, I)
    y, hT, cT, _ = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    for nch in (1, 2, 3):
        yf, hf, cf, _ = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, nch)
        assert maxrel(yf, y) < 1e-12 and maxrel(hf, hT) < 1e-12 and maxrel(cf, cT) < 1e-12, nch
        ys, h, c = [], p["h0"], p["c0"]
        for lo, hi in ((0, 2), (2, 3)):  # infer over steps [0, 2), then [2, 3) from the carried (h, c)
            yi, h, c = lstm_infer(*[dict(p, x=np.ascontiguousarray(p["x"][lo:hi]), h0=h, c0=c)[k] for k in ARGS],
                                  NORM[norm], EPS, nch)
            ys.append(yi)
        assert maxrel(np.concatenate(ys), y) < 1e-12 and maxrel(h, hT) < 1e-12 and maxrel(c, cT) < 1e-12, nch


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [3, FOLD_MAX_I + 1])
def test_every_gradient_with_dcT_against_central_differences_and_the_clip_against_the_spec(norm, I):
    p = problem(16810 + I, I)
    rng = np.random.default_rng(16820 + I)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))

    def loss():
        y, _, cT, _ = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
        return float((wy * y).sum() + (wc * cT).sum())
    want = central(loss, p)
    for nch in (2, 3):
        saved = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, nch)[3]
        got = lstm_backward(wy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                            NORM[norm], nch, dcT=wc)
        for name, g in zip(ARGS, got):
            w = want[name] if norm == "ln" or name in ARGS[:6] else np.zeros_like(p[name])
            assert g.shape == w.shape, name
            assert np.max(np.abs(g - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), (name, nch)
    # Graves's clip binding (0.08): the spec's backward with the same clip is the judge
    cache = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)[3]
    spec = R.lstm_backward(wy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=0.08)
    assert maxrel(spec[5], want["b"]) > 1e-3  # the clip changes something
    saved = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, 3)[3]
    got = lstm_backward(wy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                        NORM[norm], 3, clip=0.08)
    for name, g, w in zip(ARGS, got, spec):
        assert np.max(np.abs(g - w)) < 1e-10 * max(1.0, float(np.max(np.abs(w)))), name


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_float32_against_the_float64_spec(norm):
    I = 3
    p = problem(16830, I)
    dy = np.random.default_rng(16831).standard_normal((T, B, H))
    y, hT, cT, cache = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    q = {k: v.astype(np.float32) for k, v in p.items()}
    yf, hf, cf, saved = lstm_forward(*[q[k] for k in ARGS], NORM[norm], EPS, 2)
    yi = lstm_infer(*[q[k] for k in ARGS], NORM[norm], EPS, 2)[0]
    got = lstm_backward(dy.astype(np.float32), saved, q["x"], q["h0"], q["c0"], q["Wx"], q["Wh"], q["gx"], q["gh"],
                        q["gc"], NORM[norm], 2)
    for name, a, w in (("y", yf, y), ("hT", hf, hT), ("cT", cf, cT), ("infer y", yi, y)) + tuple(zip(ARGS, got, want)):
        assert a.dtype == np.float32, name
        if np.max(np.abs(w)) > 0:
            assert maxrel(a, w) < 3e-4, (name, maxrel(a, w))
