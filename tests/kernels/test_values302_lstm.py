"""Round 302 on the CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py) in float64 at B = 5, H = 3 against the NumPy
spec (lnrnn/reference.py): lstm_infer's y, hT and cT bit for bit lstm_forward's, and 1, 2 and 3 chunks (none a
divisor of 5) giving the same bits, on the narrow-input path (I = 1, 2, FOLD_MAX_I) and the wide one
(FOLD_MAX_I + 1), LayerNorm on and off; every gradient against reference.lstm_backward with Graves's gate clip
off, exactly at the largest |dL/d(preactivation)| (nothing clipped), just under it (that element clipped) and
just past it (dx, dh0, dc0, whose rows no sum over chunks reaches, bit for bit on 1, 2 and 3 chunks); every
gradient against central differences of the reference's loss with a final-cell gradient dcT given and not. The
problem (gains and biases away from 1 and 0) is test_values147_lstm's."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import lstm_forward, lstm_infer
from split_bits import same_split
from test_values147_lstm import EPS, FWD, GRADS, NORM, check_central_differences, kernel_backward, problem, rel, spec

WIDTHS = [1, 2, FOLD_MAX_I, FOLD_MAX_I + 1]
T, B, H = 4, 5, 3


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_infer_and_every_chunking_give_the_forwards_bits_and_the_spec(norm, I):
    p = problem(30200 + I, T, B, I, H)
    y_r, hT_r, cT_r, _ = spec(p, norm)
    args = [p[k] for k in FWD]
    first = None
    for nch in (1, 2, 3):
        y, hT, cT, _ = lstm_forward(*args, NORM[norm], EPS, nch)
        yi, hTi, cTi = lstm_infer(*args, NORM[norm], EPS, nch)
        for name, a, b in (("y", yi, y), ("hT", hTi, hT), ("cT", cTi, cT)):
            assert np.array_equal(a, b), (name, nch)
        if first is None:
            first = (y, hT, cT)
        for name, a, b in zip(("y", "hT", "cT"), (y, hT, cT), first):
            assert same_split(a, b), (name, nch)
        assert rel(y, y_r) < 1e-12 and rel(hT, hT_r) < 1e-12 and rel(cT, cT_r) < 1e-12, (nch, rel(y, y_r))


def largest_gate_gradient(p, norm, dy):
    """max |dL/d(preactivation)| over every step and row of the reference's backward, read off what it hands
    to reference.clip_gate_grads (with the clip off)."""
    seen = []
    orig = R.clip_gate_grads

    def spy(da, clip):
        seen.append(float(np.max(np.abs(da))))
        return orig(da, clip)
    R.clip_gate_grads = spy
    try:
        R.lstm_backward(dy, spec(p, norm)[3], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    finally:
        R.clip_gate_grads = orig
    return max(seen)


def check_clipped_backward(p, norm, dy, fractions):
    """Every gradient of the kernel on 1, 2 and 3 chunks against reference.lstm_backward at each gate clip, given as
    fractions of the largest |dL/d(preactivation)| (0: off): a clip inside that bound moves the spec's gradients;
    dx, dh0, dc0 (per row; the rest are sums over chunks, in another order) the same bits on every chunking."""
    cache = spec(p, norm)[3]
    unclipped = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    top = largest_gate_gradient(p, norm, dy)
    for clip in [f * top for f in fractions]:
        want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)
        if 0 < clip < top:  # the bound binds: the spec's gradients move
            assert not np.allclose(want[5], unclipped[5], rtol=0, atol=1e-13)
        first = None
        for nch in (1, 2, 3):
            _, _, _, saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
            got = kernel_backward(p, saved, dy, norm, nch, clip=clip)
            for name, g, w in zip(GRADS, got, want):
                assert g.shape == w.shape, name
                assert np.max(np.abs(g - w)) < 1e-11 * max(1.0, float(np.max(np.abs(w)))), (name, clip, nch)
            if first is None:
                first = got
            for name, g, f in zip(GRADS[:3], got[:3], first[:3]):  # per row: dx, dh0, dc0 (the rest are sums
                assert same_split(g, f), (name, clip, nch)                  # over chunks, in another order)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 1])
def test_every_gradient_with_the_clip_at_just_under_and_just_past_its_bound(norm, I):
    p = problem(30210 + I, T, B, I, H)
    dy = np.random.default_rng(30220 + I).standard_normal((T, B, H)) * 3.0
    check_clipped_backward(p, norm, dy, (0.0, 1.0, 1 - 1e-6, 0.5, 1 + 1e-6))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, FOLD_MAX_I, FOLD_MAX_I + 1])
@pytest.mark.parametrize("with_dcT", [False, True])
def test_every_gradient_against_central_differences(norm, I, with_dcT):
    """Loss sum(wy y) (+ sum(wc c_T) with dcT = wc) through reference.lstm_forward, T = 3, on 2 chunks."""
    Ts = 3
    p = problem(30230 + I, Ts, B, I, H)
    rng = np.random.default_rng(30240 + I)
    wy = rng.standard_normal((Ts, B, H))
    check_central_differences(p, norm, 2, wy, rng.standard_normal((B, H)) if with_dcT else None)
