"""lnrnn/model/window.py's refusals, word for word: a step given a (1,B,I) sequence, or a list, is refused as a
step's input (B,I) naming the shape or the type; a window_norm outside the three norms lists them sorted; a
text's code past the alphabet names the range [0, C) and the codes' own range; lengths that are not integers
name their own dtype and shape. One layer, H = 4, K = 2, C = 5, float64."""
import numpy as np
import pytest

from lnrnn.model.window import WindowStack, check_text

C = 5


def stack(**kw):
    return WindowStack("lstm", "ln", 3, 4, 1, alphabet_size=C, window=2, dtype=np.float64, **kw)


@pytest.mark.parametrize("x_t, named", [(np.zeros((1, 2, 3)), "(1, 2, 3)"), (np.zeros(3), "(3,)"),
                                        ([[0.0, 0.0, 0.0]], "list")])
def test_a_step_refuses_what_is_not_one_step(x_t, named):
    text = (np.array([[1, 2]]), np.array([2]))
    with pytest.raises(ValueError) as e:
        stack().step(x_t, None, t=0, text=text)
    assert str(e.value) == f"x_t must be a (B,I) array, got {named}"


def test_a_window_norm_outside_the_three_is_refused_with_them_sorted():
    with pytest.raises(ValueError) as e:
        stack(window_norm="gn")
    assert str(e.value) == "window_norm must be None (the stack's norm) or one of ['bn', 'ln', 'none'], got 'gn'"


def test_a_code_past_the_alphabet_names_the_range():
    with pytest.raises(ValueError) as e:
        check_text((np.array([[2, 0, 1], [3, C, 4]]), np.array([3, 2])), 2, C)
    assert str(e.value) == "text codes must lie in [0, 5) (the model's alphabet), got 0..5"


@pytest.mark.parametrize("ulen, named", [(np.array([1.0, 2.0]), "float64 (2,)"),
                                         (np.array([[1, 2]], np.int32), "int32 (1, 2)")])
def test_lengths_that_are_not_integers_name_their_own_dtype(ulen, named):
    with pytest.raises(ValueError) as e:
        check_text((np.array([[1, 2, 3], [4, 0, 0]]), ulen), 2, C)
    assert str(e.value) == f"text lengths must be 2 integers, got {named}"
