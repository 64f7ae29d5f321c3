"""The CPU LSTM and RNN kernels (lnrnn/kernels/lstm.py, rnn.py) with every option on, in float64: forwards
against the NumPy spec (lnrnn/reference.py), lstm_infer carried over two pieces of the sequence, every
gradient against central differences of the spec's loss (LN and none; the narrow input's fold path at
I = FOLD_MAX_I and the wide one at FOLD_MAX_I + 1; B = 5 rows on 2 chunks of 3 and 2, so B is no multiple
of the block rows), Graves's gate clip below, at and past the largest |dL/da| against the spec's backward
with the same clip, and float32 against the float64 spec within 3e-4 of the largest entry."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import lstm_forward, lstm_infer
from lnrnn.kernels.rnn import rnn_backward, rnn_forward, rnn_infer
from test_values168_lstm import central, maxrel
from test_values190_lstm import ARGS, EPS, NORM, T, B, H, backward, problem

NCH = 2  # chunks of 3 and 2 rows
WIDTHS = [FOLD_MAX_I, FOLD_MAX_I + 1]  # the last narrow input (fold) and the first wide one


def spec_loss(p, norm, wy, wc):
    y, _, cT, _ = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    return float((wy * y).sum() + (wc * cT).sum())


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_lstm_forward_infer_and_every_gradient_against_the_spec(norm, I):
    p = problem(26800 + I, I)
    rng = np.random.default_rng(26810 + I)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    y, hT, cT, _ = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    yf, hf, cf, _ = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, NCH)
    assert maxrel(yf, y) < 1e-12 and maxrel(hf, hT) < 1e-12 and maxrel(cf, cT) < 1e-12
    # lstm_infer over steps [0, cut) then [cut, 3), the state carried from the first piece into the second
    for cut in (1, 2):
        h, c, ys = p["h0"], p["c0"], []
        for lo, hi in ((0, cut), (cut, T)):
            q = dict(p, x=np.ascontiguousarray(p["x"][lo:hi]), h0=h, c0=c)
            yi, h, c = lstm_infer(*[q[k] for k in ARGS], NORM[norm], EPS, NCH)
            ys.append(yi)
        assert maxrel(np.concatenate(ys), y) < 1e-12 and maxrel(h, hT) < 1e-12 and maxrel(c, cT) < 1e-12, cut
    want = central(lambda: spec_loss(p, norm, wy, wc), p)
    got = backward(p, norm, NCH, wy, wc)
    for name, g in zip(ARGS, got):
        w = want[name] if norm == "ln" or name in ARGS[:6] else np.zeros_like(p[name])
        assert g.shape == w.shape, name
        assert np.max(np.abs(g - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), (name, np.max(np.abs(g - w)))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_lstm_gate_clip_binding_and_off_against_the_spec(norm, I):
    p = problem(26820 + I, I)
    wy = np.random.default_rng(26830 + I).standard_normal((T, B, H))
    cache = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)[3]
    free = R.lstm_backward(wy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    # 0.05 binds; 1e6 lies past every |dL/da| (the unclipped gradients); 0 and inf mean off
    for clip in (0.05, 1e6, 0.0, np.inf):
        spec = R.lstm_backward(wy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm,
                               clip=clip if np.isfinite(clip) else 0.0)
        got = backward(p, norm, NCH, wy, None, clip=clip)
        for name, g, w in zip(ARGS, got, spec):
            w = w if norm == "ln" or name in ARGS[:6] else np.zeros_like(p[name])
            assert np.max(np.abs(g - w)) < 1e-10 * max(1.0, float(np.max(np.abs(w)))), (clip, name)
        if clip == 0.05:
            assert maxrel(spec[5], free[5]) > 1e-3  # the clip binds
        else:
            assert maxrel(spec[5], free[5]) == 0.0


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_lstm_float32_against_the_float64_spec(norm, I):
    p = problem(26840 + I, I)
    dy = np.random.default_rng(26850 + I).standard_normal((T, B, H))
    y, hT, cT, cache = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    q = {k: v.astype(np.float32) for k, v in p.items()}
    yf, hf, cf, _ = lstm_forward(*[q[k] for k in ARGS], NORM[norm], EPS, NCH)
    got = backward(q, norm, NCH, dy.astype(np.float32), None)
    for name, a, w in (("y", yf, y), ("hT", hf, hT), ("cT", cf, cT)) + tuple(zip(ARGS, got, want)):
        assert a.dtype == np.float32, name
        w = w if norm == "ln" or name not in ARGS[6:] else np.zeros_like(p[name])
        assert np.max(np.abs(a - w)) <= 3e-4 * max(1.0, float(np.max(np.abs(w)))), name


# ---- the RNN: h_t = tanh(x_t Wx + h_{t-1} Wh + b), with LN tanh(g LN(x_t Wx + h_{t-1} Wh) + b) ----
RARGS = ("x", "h0", "Wx", "Wh", "b", "g")
RH = 7  # a width no vector unit divides


def rnn_problem(seed, I):
    rng = np.random.default_rng(seed)
    return dict(x=1.1 * rng.standard_normal((T, B, I)) + 0.2, h0=0.6 * rng.standard_normal((B, RH)),
                Wx=0.6 * rng.standard_normal((I, RH)) + 0.1, Wh=0.7 * rng.standard_normal((RH, RH)),
                b=0.4 * rng.standard_normal(RH) + 0.2, g=0.3 * rng.standard_normal(RH) + 0.9)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_rnn_forward_infer_and_every_gradient_against_the_spec(norm, I):
    p = rnn_problem(26860 + I, I)
    wy = np.random.default_rng(26870 + I).standard_normal((T, B, RH))
    y, hT, cache = R.rnn_forward(*[p[k] for k in RARGS], norm, EPS)
    yf, hf, saved = rnn_forward(*[p[k] for k in RARGS], NORM[norm], EPS, NCH)
    assert maxrel(yf, y) < 1e-12 and maxrel(hf, hT) < 1e-12
    h, ys = p["h0"], []
    for lo, hi in ((0, 2), (2, T)):
        yi, h = rnn_infer(*[dict(p, x=np.ascontiguousarray(p["x"][lo:hi]), h0=h)[k] for k in RARGS],
                          NORM[norm], EPS, NCH)
        ys.append(yi)
    assert maxrel(np.concatenate(ys), y) < 1e-12 and maxrel(h, hT) < 1e-12
    want = central(lambda: float((wy * R.rnn_forward(*[p[k] for k in RARGS], norm, EPS)[0]).sum()), p)
    got = rnn_backward(wy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], NCH)
    for name, gk in zip(RARGS, got):
        w = want[name] if norm == "ln" or name != "g" else np.zeros_like(p["g"])
        assert gk.shape == w.shape, name
        assert np.max(np.abs(gk - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), (name, np.max(np.abs(gk - w)))
    spec = R.rnn_backward(wy, cache, p["Wx"], p["Wh"], p["g"], norm)
    q = {k: v.astype(np.float32) for k, v in p.items()}
    saved32 = rnn_forward(*[q[k] for k in RARGS], NORM[norm], EPS, NCH)[2]
    got32 = rnn_backward(wy.astype(np.float32), saved32, q["x"], q["h0"], q["Wx"], q["Wh"], q["g"], NORM[norm], NCH)
    for name, a, w in zip(RARGS, got32, spec):
        assert a.dtype == np.float32, name
        w = w if norm == "ln" or name != "g" else np.zeros_like(p["g"])
        assert np.max(np.abs(a - w)) <= 3e-4 * max(1.0, float(np.max(np.abs(w)))), name
