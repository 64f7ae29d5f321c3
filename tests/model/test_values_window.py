"""lnrnn/model/window.py at its edges: the text's codes and lengths refused one past their limits and taken
at them, an x without steps or rows refused, and the window's initial bias on kappa's block only."""
import numpy as np
import pytest

from lnrnn.model.window import WINDOW_KAPPA_BIAS, WindowStack, check_text

B, C, U, K = 3, 5, 4, 2


def test_text_codes_and_lengths_at_and_past_their_limits():
    codes = np.zeros((B, U), np.int64)
    ulen = np.array([U, 0, 1])
    got_codes, got_ulen = check_text((codes + C - 1, ulen), B, C)                       # the largest code, U
    assert got_codes.max() == C - 1 and got_ulen.tolist() == [U, 0, 1] and got_ulen.dtype == np.int64
    bad = codes.copy()
    bad[2, 3] = C
    with pytest.raises(ValueError, match=r"codes must lie in \[0, 5\)"):
        check_text((bad, ulen), B, C)
    bad[2, 3] = -1
    with pytest.raises(ValueError, match=r"codes must lie in \[0, 5\)"):
        check_text((bad, ulen), B, C)
    for L in ([U + 1, 0, 1], [U, -1, 1]):
        with pytest.raises(ValueError, match=r"text lengths must lie in \[0, 4\]"):
            check_text((codes, np.array(L)), B, C)
    with pytest.raises(ValueError, match="U >= 1"):
        check_text((np.zeros((B, 0), np.int64), np.zeros(B, np.int64)), B, C)


def stack():
    return WindowStack("lstm", "none", input_size=3, hidden_size=4, num_layers=1, alphabet_size=C, window=K,
                       dtype=np.float64)


def test_an_x_without_steps_or_rows_is_refused():
    layer = stack().layers[0]
    text = (np.zeros((B, U), np.int64), np.full(B, U))
    y, w, state = layer.forward_text(np.zeros((2, B, 3)), text)
    assert y.shape == (2, B, 4) and w.shape == (2, B, C)
    with pytest.raises(ValueError, match="at least one step and one sequence"):
        layer.forward_text(np.zeros((0, B, 3)), text)
    with pytest.raises(ValueError, match="at least one step and one sequence"):
        layer.forward_text(np.zeros((2, 0, 3)), (np.zeros((0, U), np.int64), np.zeros(0, np.int64)))


def test_the_initial_bias_moves_kappa_only():
    bp = stack().layers[0].params["bp"]
    assert bp.shape == (3 * K,)
    assert np.all(bp[:2 * K] == 0) and np.all(bp[2 * K:] == WINDOW_KAPPA_BIAS)
