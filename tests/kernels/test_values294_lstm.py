"""The CPU LSTM and LN-LSTM kernels (lnrnn/kernels/lstm.py) in float64 against judges worked out apart from them:
lnrnn/reference.py's forward (the NumPy spec) and central differences of the spec's loss for every gradient, with a
forget bias of +1, gains and biases off 1 and 0, h0 and c0 of their own, a seed dL/dc_T, B = 5 rows on 2 chunks
(3 and 2 rows: 5 is no multiple of the block rows) over T = 3 steps; the narrow input's fold path at
I = FOLD_MAX_I and the wide one at FOLD_MAX_I + 1; lstm_infer over steps [0, 2) and then [2, 3), the state
carried from the first piece into the second; Graves's gate clip at 0.05 (it binds), at 1e6 (past every
|dL/da|) and off, against the spec's backward with the same clip. The kernels take no lengths (the layers above
them do)."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import lstm_backward, lstm_forward, lstm_infer
from test_values168_lstm import central, maxrel
from test_values190_lstm import ARGS, EPS, NORM, T, B, H, backward, problem
from test_values268_lstm_rnn import spec_loss

NCH = 2  # chunks of 3 and 2 rows


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [FOLD_MAX_I, FOLD_MAX_I + 1])
def test_forward_infer_in_two_pieces_and_every_gradient_with_dct(norm, I):
    p = problem(29400 + I, I)
    rng = np.random.default_rng(29410 + I)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    y, hT, cT, _ = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)
    yf, hf, cf, _ = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, NCH)
    assert maxrel(yf, y) < 1e-12 and maxrel(hf, hT) < 1e-12 and maxrel(cf, cT) < 1e-12
    h, c, ys = p["h0"], p["c0"], []
    for lo, hi in ((0, 2), (2, T)):
        q = dict(p, x=np.ascontiguousarray(p["x"][lo:hi]), h0=h, c0=c)
        yi, h, c = lstm_infer(*[q[k] for k in ARGS], NORM[norm], EPS, NCH)
        ys.append(yi)
    assert maxrel(np.concatenate(ys), y) < 1e-12 and maxrel(h, hT) < 1e-12 and maxrel(c, cT) < 1e-12
    want = central(lambda: spec_loss(p, norm, wy, wc), p)
    got = backward(p, norm, NCH, wy, wc)
    for name, g in zip(ARGS, got):
        w = want[name] if norm == "ln" or name in ARGS[:6] else np.zeros_like(p[name])
        assert g.shape == w.shape, name
        assert np.max(np.abs(g - w)) < 1e-7 * max(1.0, float(np.max(np.abs(w)))), (name, np.max(np.abs(g - w)))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [FOLD_MAX_I, FOLD_MAX_I + 1])
def test_gate_clip_binding_past_and_off_against_the_spec(norm, I):
    p = problem(29420 + I, I)
    dy = 3.0 * np.random.default_rng(29430 + I).standard_normal((T, B, H))
    cache = R.lstm_forward(*[p[k] for k in ARGS], norm, EPS)[3]
    saved = lstm_forward(*[p[k] for k in ARGS], NORM[norm], EPS, NCH)[3]
    free = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for clip in (0.05, 1e6, 0.0):
        spec = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)
        got = lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                            NORM[norm], NCH, clip=clip)
        for name, g, w in zip(ARGS, got, spec):
            w = w if norm == "ln" or name in ARGS[:6] else np.zeros_like(p[name])
            assert np.max(np.abs(g - w)) < 1e-10 * max(1.0, float(np.max(np.abs(w)))), (clip, name)
        assert (maxrel(spec[1], free[1]) > 1e-3) == (clip == 0.05)  # only 0.05 binds
