"""lnrnn/model/window.py at the smallest sizes it accepts: an alphabet of one character (every text is one
code repeated) and a window of one Gaussian. The WindowLayer builds (its input width I + 1, Wp (H,3)) and its
forward is the NumPy reference's (reference.window_lstm_forward): y and w under ragged lengths, with LN and with
BN in training; a WindowStack of two layers builds and reads such a text, and an alphabet or a window of 0 is
still refused."""
import re

import numpy as np
import pytest

from lnrnn.model.window import WindowLayer, WindowStack

from test_values24_window import _layer
from test_window import SMALL, assert_close, problem, ref_forward

TOL = 1e-10
ONE = dict(SMALL, C=1, K=1)


@pytest.mark.parametrize("norm", ["ln", "bn"])
def test_a_one_character_alphabet_and_one_gaussian_run_the_reference(norm):
    a, run, lengths, _, _ = problem(**ONE, seed=11)
    assert np.all(a["chars"] == 0)
    layer = _layer(norm, a, run)
    assert layer.C == 1 and layer.K == 1 and layer.params["Wp"].shape == (ONE["H"], 3)
    assert layer.params["Wx"].shape == (ONE["I"] + 1, 4 * ONE["H"])
    state = (a["h0"], a["c0"], a["kappa0"], a["w0"])
    y, w, _ = layer.forward_text(a["x"], (a["chars"], a["ulen"]), state, training=True, lengths=lengths)
    yr, wr = ref_forward(a, [v.copy() for v in run], norm, True, lengths)[:2]
    on = lengths[None, :, None] > np.arange(yr.shape[0])[:, None, None]
    assert_close("y", np.where(on, y, 0), np.where(on, yr, 0), TOL)
    assert_close("w", np.where(on, w, 0), np.where(on, wr, 0), TOL)
    assert np.abs(np.where(on, w, 0)).max() > 0


def test_a_stack_reads_a_text_of_a_one_character_alphabet():
    s = WindowStack("lstm", "ln", 2, 3, num_layers=2, alphabet_size=1, window=1, dtype=np.float64, seed=4)
    assert s.config["alphabet_size"] == 1 and s.config["window"] == 1
    x = np.random.default_rng(0).standard_normal((4, 2, 2))
    text = (np.zeros((2, 3), np.int64), np.array([3, 1], np.int64))
    y, _ = s.forward(x, text=text, training=False)
    assert y.shape == (4, 2, 2 * 3) and np.all(np.isfinite(y)) and np.abs(y).max() > 0


@pytest.mark.parametrize("window,alphabet", [(1, 0), (0, 1)])
def test_a_size_of_zero_is_still_refused(window, alphabet):
    with pytest.raises(ValueError, match=re.escape(f"got {window} and {alphabet}")):
        WindowLayer("lstm", "ln", 2, 3, alphabet, window, np.random.default_rng(0), dtype=np.float64)
