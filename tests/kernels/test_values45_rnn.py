"""The CPU RNN (lnrnn/kernels/rnn.py) off its default paths, against the NumPy reference in float64: an eps far
from the default, input widths from 1 to past config.FOLD_MAX_I (narrow rows folded into the row loop, wide
ones through the per-step product), B = 7 rows on 1, 2 and 3 chunks of unequal sizes, both norms; rnn_infer
bit for bit rnn_forward."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import NORM_LN, NORM_NONE, rnn_backward, rnn_forward, rnn_infer

NORM = {"none": NORM_NONE, "ln": NORM_LN}


def close(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 2, FOLD_MAX_I, FOLD_MAX_I + 1, 7])
@pytest.mark.parametrize("eps", [1e-5, 0.4])
def test_every_input_width_and_eps_against_the_reference(norm, I, eps):
    """y, hT and every gradient the reference's with the same eps (0.4: 40000 times the default, against
    preactivation variances of O(1): 1/std moves by tens of percent), on 1, 2 and 3 chunks; rnn_infer's y and
    hT the same bits as rnn_forward's."""
    T, B, H = 4, 7, 5
    rng = np.random.default_rng(4540 + 10 * I + (eps > 0.1))
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    Wx, Wh = 0.6 * rng.standard_normal((I, H)), 0.5 * rng.standard_normal((H, H))
    b, g = 0.5 * rng.standard_normal(H), 1.0 + 0.3 * rng.standard_normal(H)
    dy = rng.standard_normal((T, B, H))
    yr, hr, cache = R.rnn_forward(x, h0, Wx, Wh, b, g, norm, eps)
    want = R.rnn_backward(dy, cache, Wx, Wh, g, norm)
    for nch in (1, 2, 3):
        y, hT, saved = rnn_forward(x, h0, Wx, Wh, b, g, NORM[norm], eps, nch)
        assert close(y, yr) < 1e-12 and close(hT, hr) < 1e-12, nch
        yi, hi = rnn_infer(x, h0, Wx, Wh, b, g, NORM[norm], eps, nch)
        assert np.array_equal(yi, y) and np.array_equal(hi, hT), nch
        got = rnn_backward(dy, saved, x, h0, Wx, Wh, g, NORM[norm], nch)
        for k in range(5 if norm == "none" else 6):
            assert close(got[k], want[k]) < 1e-11, (nch, k)
