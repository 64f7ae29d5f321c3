"""The CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) in float64 against the NumPy reference (lnrnn/reference.py) and
central differences: narrow inputs (I <= config.FOLD_MAX_I, x Wx and dWx in the row loop) and wide ones, one to
three steps, B = 5 rows on 1, 2 and 3 chunks (uneven), a LayerNorm gain away from 1; the forward the same bits
on every chunk count and rnn_infer the same bits as rnn_forward."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import NORM_LN, NORM_NONE, rnn_backward, rnn_forward, rnn_infer
from gradcheck_util import numeric_grad
from split_bits import same_split

EPS = 1e-5
FWD = ("x", "h0", "Wx", "Wh", "b", "g")
NORM = {"none": NORM_NONE, "ln": NORM_LN}
NAMES = ("dx", "dh0", "dWx", "dWh", "db", "dg")


def close(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def problem(rng, T, B, I, H):
    def P(*s, scale=1.0, shift=0.0):
        return shift + scale * rng.standard_normal(s)
    return dict(x=P(T, B, I), h0=P(B, H), Wx=P(I, H, scale=0.6), Wh=P(H, H, scale=0.6), b=P(H, scale=0.4),
                g=P(H, scale=0.4, shift=1.3))


def forward(p, norm, nchunks):
    return rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, nchunks)


def backward(p, saved, dy, norm, nchunks):
    return rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], nchunks)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 3, FOLD_MAX_I, FOLD_MAX_I + 2])
@pytest.mark.parametrize("T", [1, 2, 3])
def test_forward_and_backward_against_the_reference_on_chunks(norm, I, T):
    """y, hT and every gradient the reference's on 1, 2 and 3 chunks (the plain cell's dg is zero); the
    forward's outputs and saved arrays the same bits on every chunk count; rnn_infer's the same bits too."""
    B, H = 5, 4
    rng = np.random.default_rng(7260 + 10 * I + T)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    yr, hr, cache = R.rnn_forward(*[p[k] for k in FWD], norm, EPS)
    want = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    first = None
    for nch in (1, 2, 3):
        y, hT, saved = forward(p, norm, nch)
        assert close(y, yr) < 1e-12 and close(hT, hr) < 1e-12, nch
        if first is None:
            first = (y, hT, saved)
        else:
            assert same_split(y, first[0]) and same_split(hT, first[1])
            for k, (a, b) in enumerate(zip(saved, first[2])):
                assert same_split(a, b), (nch, k)
        yi, hi = rnn_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        assert np.array_equal(yi, y) and np.array_equal(hi, hT), nch
        got = backward(p, saved, dy, norm, nch)
        for k in range(6 if norm == "ln" else 5):
            assert close(got[k], want[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 1])
def test_every_gradient_by_central_differences(norm, I):
    """L = sum(dy * y) with dy on every step: dx, dh0, dWx, dWh, db (and the LN gain's dg) against central
    differences of L, on 2 and 3 chunks."""
    T, B, H = 3, 5, 3
    rng = np.random.default_rng(7280 + I)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))

    def loss():
        return float(np.sum(dy * forward(p, norm, 1)[0]))

    wrt = ("x", "h0", "Wx", "Wh", "b") + (("g",) if norm == "ln" else ())
    num = {k: numeric_grad(loss, p[k], eps=1e-4, order=4) for k in wrt}
    for nch in (2, 3):
        got = backward(p, forward(p, norm, nch)[2], dy, norm, nch)
        for k, name in enumerate(wrt):
            assert close(got[k], num[name]) < 1e-7, (nch, name)
