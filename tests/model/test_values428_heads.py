"""A handwriting head's offset scale (lnrnn/model/heads.py: check_scale), each rule at its boundary: two finite
positive numbers, of any of Python's or NumPy's int and float types, come back as Python floats; zero (of either
sign), a negative number, NaN, infinity, a bool, a text, None, one number or three are refused in one ValueError
that shows what was given. (test_values424_damaged_meta reads such scales from checkpoints; these are the rule's
own edges, under its module's name.)"""
import math

import numpy as np
import pytest

from lnrnn.model.heads import check_scale

TINY = math.ulp(0.0)


@pytest.mark.parametrize("scale, want", [
    ([1, 2], [1.0, 2.0]), ((0.5, 3.25), [0.5, 3.25]), ([TINY, 1e300], [TINY, 1e300]),
    (np.array([0.25, 4.0]), [0.25, 4.0]), ([np.float32(0.5), np.int64(7)], [0.5, 7.0]),
])
def test_two_finite_positive_numbers_come_back_as_floats(scale, want):
    got = check_scale(scale)
    assert got == want and all(type(v) is float for v in got)


@pytest.mark.parametrize("scale", [
    [0, 1], [1, 0.0], [-0.0, 1], [-1e-9, 1], [1, float("nan")], [float("inf"), 1], [True, 1], [1, np.bool_(True)],
    ["1", 2], [None, 1], [1], [1, 2, 3], [], "12", None, 3.0, {"sx": 1, "sy": 2},
])
def test_anything_else_is_refused_showing_what_was_given(scale):
    with pytest.raises(ValueError) as e:
        check_scale(scale)
    assert str(e.value) == ("scale must be two finite positive numbers [sx, sy] (the training offsets' standard "
                            f"deviations), got {scale!r}")
