"""The CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py), every option on, against three judges: the NumPy spec
(lnrnn/reference.py) for the forward, central differences of the spec's loss for every gradient, and the
kernel itself run on one row at a time (rows never interact, so a batch of B = 5 on 4 chunks, one of 1 and
2 rows, 5 a multiple of no chunk count but 1 and 5, must give each row what it gives alone). Inputs: a
one-column input (pixel MNIST's I = 1, FOLD_MAX_I's closed-form path) and a wide one of FOLD_MAX_I + 1, Wx
with rows of nonzero mean (so centring matters), gains and biases away from 1 and 0, h0 and c0 given, a
final-cell gradient dcT given; Graves's clip against the spec's backward with the same clip; float32 against
float64."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE, lstm_backward, lstm_forward
from test_values168_lstm import central, maxrel

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
ARGS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
T, B, H = 3, 5, 3
NCH = 4  # chunks of 1, 1, 1 and 2 rows


def problem(seed, I):
    rng = np.random.default_rng(seed)
    G = 4 * H

    def P(*shape, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(shape))
    b = P(G, scale=0.5)
    b[H:2 * H] += 1.0
    return dict(x=P(T, B, I, scale=1.3, shift=0.3), h0=P(B, H, scale=0.6, shift=0.1), c0=P(B, H, scale=0.8, shift=-0.3),
                Wx=P(I, G, scale=0.7, shift=0.4), Wh=P(H, G, scale=0.6, shift=-0.1), b=b,
                gx=P(G, scale=0.3, shift=0.9), bx=P(G, scale=0.3, shift=-0.2), gh=P(G, scale=0.3, shift=1.1),
                bh=P(G, scale=0.3, shift=0.3), gc=P(H, scale=0.3, shift=0.8), bc=P(H, scale=0.3, shift=0.2))


def rows(p, lo, hi):
    """The problem restricted to batch rows [lo, hi)."""
    q = dict(p)
    q["x"] = np.ascontiguousarray(p["x"][:, lo:hi])
    q["h0"], q["c0"] = np.ascontiguousarray(p["h0"][lo:hi]), np.ascontiguousarray(p["c0"][lo:hi])
    return q


def backward(p, norm, nch, dy, dcT, clip=0.0):
    saved = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, nch)[3]
    return lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                         NORM[norm], nch, clip=clip, dcT=dcT)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, FOLD_MAX_I + 1])
def test_forward_and_backward_against_the_spec_central_differences_and_each_row_alone(norm, I):
    p = problem(19000 + I, I)
    rng = np.random.default_rng(19010 + I)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    # forward: the spec, and each row alone
    y, hT, cT, cache = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    yf, hf, cf, _ = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, NCH)
    assert maxrel(yf, y) < 1e-12 and maxrel(hf, hT) < 1e-12 and maxrel(cf, cT) < 1e-12
    for r in range(B):
        y1 = lstm_forward(*[rows(p, r, r + 1)[k] for k in ARGS], NORM[norm], EPS, 1)[0]
        assert maxrel(yf[:, r:r + 1], y1) < 1e-12, r

    # backward: central differences of sum(wy y) + sum(wc c_T) through the spec
    def loss():
        yy, _, cc, _ = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
        return float((wy * yy).sum() + (wc * cc).sum())
    want = central(loss, p)
    got = backward(p, norm, NCH, wy, wc)
    for name, g in zip(ARGS, got):
        w = want[name] if norm == "ln" or name in ARGS[:6] else np.zeros_like(p[name])
        assert g.shape == w.shape, name
        assert np.max(np.abs(g - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), name
    # the row-wise gradients of the batch are each row's alone; the parameter ones their sum over rows
    alone = [backward(rows(p, r, r + 1), norm, 1, np.ascontiguousarray(wy[:, r:r + 1]),
                      np.ascontiguousarray(wc[r:r + 1])) for r in range(B)]
    assert maxrel(got[0], np.concatenate([a[0] for a in alone], axis=1)) < 1e-12
    for k in (1, 2):
        assert maxrel(got[k], np.concatenate([a[k] for a in alone])) < 1e-12, ARGS[k]
    for k in range(3, 12):
        assert np.max(np.abs(got[k] - sum(a[k] for a in alone))) < 1e-12 * max(1.0, np.max(np.abs(got[k]))), ARGS[k]
    # Graves's clip binding: the spec's backward with the same clip (dcT none: the spec takes no dcT)
    spec = R.lstm_backward(wy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=0.05)
    clipped = backward(p, norm, NCH, wy, None, clip=0.05)
    assert maxrel(spec[5], backward(p, norm, NCH, wy, None)[5]) > 1e-3  # the clip changes something
    for name, g, w in zip(ARGS, clipped, spec):
        assert np.max(np.abs(g - w)) < 1e-10 * max(1.0, float(np.max(np.abs(w)))), name


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_float32_against_float64(norm):
    p = problem(19020, FOLD_MAX_I + 1)
    dy = np.random.default_rng(19021).standard_normal((T, B, H))
    dc = np.random.default_rng(19022).standard_normal((B, H))
    want = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, NCH)[:3] + tuple(backward(p, norm, NCH, dy, dc))
    q = {k: v.astype(np.float32) for k, v in p.items()}
    got = lstm_forward(*[q[k] for k in ARGS], NORM[norm], EPS, NCH)[:3] + \
        tuple(backward(q, norm, NCH, dy.astype(np.float32), dc.astype(np.float32)))
    for i, (a, w) in enumerate(zip(got, want)):
        assert a.dtype == np.float32, i
        if np.max(np.abs(w)) > 0:
            assert maxrel(a, w) < 3e-4, (i, maxrel(a, w))
