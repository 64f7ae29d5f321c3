"""The synthesis stack's refusals (lnrnn/model/window.py), word for word: a window_norm outside None, 'none',
'ln' and 'bn' is refused naming the value given (not the stack's own norm), and a forward given states for
another number of layers names the stack's layer count first and the states' count after it."""
import numpy as np
import pytest

from lnrnn.model.window import WindowStack


def test_an_unknown_window_norm_is_refused_naming_it():
    with pytest.raises(ValueError) as e:
        WindowStack("lstm", "ln", 3, 4, 2, alphabet_size=5, window=2, dtype=np.float64, window_norm="layer")
    assert str(e.value) == "window_norm must be None (the stack's norm) or one of ['bn', 'ln', 'none'], got 'layer'"


def test_states_for_another_layer_count_are_refused_naming_both_counts():
    stack = WindowStack("lstm", "ln", 3, 4, 2, alphabet_size=5, window=2, dtype=np.float64)
    B = 1
    x = np.zeros((1, B, 3))
    text = (np.array([[1, 2]]), np.array([2]))
    h = np.zeros((B, 4))
    state = [(h, h), (h, h), (h, h)]                                    # three layers' states for two layers
    with pytest.raises(ValueError) as e:
        stack.forward(x, state, text=text)
    assert str(e.value) == "state must hold one entry per layer (2), got 3"
