"""The CPU LSTM and LN-LSTM kernels' gate clip (lnrnn/kernels/lstm.py) in float64 against the spec's backward
(lnrnn/reference.py) with the same clip: Graves's clip at 0.05 (it binds), at 1e6 (past every |dL/da|) and off,
with a forget bias of +1, gains and biases off 1 and 0, h0 and c0 of their own, B = 5 rows on 2 chunks (3 and 2
rows: 5 is no multiple of the block rows) over T = 3 steps; the narrow input's fold path at I = FOLD_MAX_I and the
wide one at FOLD_MAX_I + 1. The forward, lstm_infer in two pieces and every gradient against central differences
are test_values268_lstm_rnn's (cut after steps 1 and 2)."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import lstm_backward, lstm_forward
from test_values168_lstm import maxrel
from test_values190_lstm import ARGS, EPS, NORM, T, B, H, problem

NCH = 2  # chunks of 3 and 2 rows


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
