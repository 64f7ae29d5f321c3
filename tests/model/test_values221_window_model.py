"""lnrnn/model/window.py's refusals, word for word: a state with fewer entries than the stack has layers is a
ValueError naming both counts (not a failure deeper in the layer loop); a text length past the codes' width U
is refused with [0, U] as the range (U differs from the batch B here); a window or alphabet size below 1 is
refused with the two values in the order the sentence names them."""
import re

import numpy as np
import pytest

from lnrnn.model.window import WindowStack, check_text


def stack(num_layers):
    return WindowStack("lstm", "ln", 3, 4, num_layers=num_layers, alphabet_size=5, window=2, dtype=np.float64,
                       seed=1)


@pytest.mark.parametrize("given", [1, 3])
def test_a_state_of_the_wrong_length_names_both_counts(given):
    s = stack(2)
    B = 2
    text = (np.array([[1, 2], [3, 0]]), np.array([2, 1]))
    h0 = (np.zeros((B, 4)), np.zeros((B, 4)))
    with pytest.raises(ValueError, match=re.escape(f"state must hold one entry per layer (2), got {given}")):
        s.forward(np.zeros((1, B, 3)), [h0] * given, training=False, text=text)


def test_a_length_past_the_codes_width_gives_the_width_as_the_bound():
    codes = np.zeros((2, 3), np.int64)                          # B = 2, U = 3
    with pytest.raises(ValueError) as e:
        check_text((codes, np.array([1, 4])), 2, 5)
    assert str(e.value) == "text lengths must lie in [0, 3], got 1..4"


@pytest.mark.parametrize("window,alphabet", [(0, 5), (2, 0)])
def test_a_bad_window_or_alphabet_is_refused_in_the_sentences_order(window, alphabet):
    with pytest.raises(ValueError) as e:
        WindowStack("lstm", "ln", 3, 4, num_layers=1, alphabet_size=alphabet, window=window, dtype=np.float64)
    assert str(e.value) == f"window and alphabet_size must be positive integers, got {window} and {alphabet}"
