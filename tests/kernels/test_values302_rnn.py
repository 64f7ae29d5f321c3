"""Round 302 on the CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) in float64 at B = 5, H = 3 against the NumPy spec
(lnrnn/reference.py): rnn_infer's y and hT bit for bit rnn_forward's, and 1, 2 and 3 chunks giving the same bits,
on the narrow-input path (I = 1, 2, FOLD_MAX_I) and the wide one (FOLD_MAX_I + 1), LayerNorm on and off; every
gradient against reference.rnn_backward (dx and dh0 bit for bit over the chunkings) and against central
differences of the reference's loss. The problem (gain and bias away from 1 and 0) is test_values147_rnn's."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import rnn_forward, rnn_infer
from gradcheck_util import numeric_grad
from split_bits import same_split
from test_values147_rnn import EPS, FWD, GRADS, NORM, kernel_backward, problem, rel, spec

WIDTHS = [1, 2, FOLD_MAX_I, FOLD_MAX_I + 1]
T, B, H = 4, 5, 3


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_infer_and_every_chunking_give_the_forwards_bits_and_the_spec(norm, I):
    p = problem(30250 + I, T, B, I, H)
    y_r, hT_r, _ = spec(p, norm)
    args = [p[k] for k in FWD]
    first = None
    for nch in (1, 2, 3):
        y, hT, _ = rnn_forward(*args, NORM[norm], EPS, nch)
        yi, hTi = rnn_infer(*args, NORM[norm], EPS, nch)
        assert np.array_equal(yi, y) and np.array_equal(hTi, hT), nch
        if first is None:
            first = (y, hT)
        assert same_split(y, first[0]) and same_split(hT, first[1]), nch
        assert rel(y, y_r) < 1e-12 and rel(hT, hT_r) < 1e-12, (nch, rel(y, y_r))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_every_gradient_against_the_spec_and_central_differences(norm, I):
    p = problem(30260 + I, T, B, I, H)
    wy = np.random.default_rng(30270 + I).standard_normal((T, B, H))
    want = R.rnn_backward(wy, spec(p, norm)[2], p["Wx"], p["Wh"], p["g"], norm)

    def loss():
        return float((wy * spec(p, norm)[0]).sum())
    first = None
    for nch in (1, 2, 3):
        _, _, saved = rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        got = kernel_backward(p, saved, wy, norm, nch)
        for name, g, w in zip(GRADS, got, want):
            assert g.shape == w.shape, name
            assert np.max(np.abs(g - w)) < 1e-11 * max(1.0, float(np.max(np.abs(w)))), (name, nch)
        if first is None:
            first = got
            for name, g in zip(GRADS, got):
                num = numeric_grad(loss, p[name])
                assert np.max(np.abs(g - num)) < 1e-7 * max(1.0, float(np.max(np.abs(num)))), (name, g, num)
        for name, g, f in zip(GRADS[:2], got[:2], first[:2]):  # per row: dx, dh0
            assert same_split(g, f), (name, nch)
