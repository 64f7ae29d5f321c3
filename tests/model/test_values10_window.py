"""lnrnn/model/window.py's check_text on lengths that are not whole numbers: fractional or boolean text
lengths are refused by name, never cut to integers; integer lengths of any width are taken as int64."""
import numpy as np
import pytest

from lnrnn.model.window import check_text

B, C, U = 3, 5, 4


@pytest.mark.parametrize("ulen", [np.array([2.7, 1.0, 4.0]), np.array([2.0, 1.0, 4.0]), np.array([True, False, True])])
def test_text_lengths_that_are_not_integers_are_refused(ulen):
    codes = np.zeros((B, U), np.int64)
    with pytest.raises(ValueError, match=f"text lengths must be {B} integers"):
        check_text((codes, ulen), B, C)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64])
def test_integer_text_lengths_of_any_width_are_taken(dtype):
    codes = np.zeros((B, U), np.int64)
    _, got = check_text((codes, np.array([4, 0, 2], dtype)), B, C)
    assert got.dtype == np.int64 and got.tolist() == [4, 0, 2]
