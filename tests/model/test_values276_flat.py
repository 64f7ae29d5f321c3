"""One buffer for many named arrays (lnrnn/model/flat.py), thirteenth pass: repack of two leaves of 2-D arrays
(offsets the running sum of the arrays' sizes, not of their first dimensions), the dicts' entries views of the
buffer, and join's refusal of an array of another shape, word for word (the given shape first, then the
layout's)."""
import numpy as np
import pytest

from lnrnn.model.flat import repack


def test_repack_offsets_are_sums_of_sizes_and_join_refuses_a_shape_word_for_word():
    a = {"W": np.arange(12.0).reshape(4, 3), "b": np.array([7.0, 8.0])}
    c = {"V": np.arange(6.0).reshape(2, 3) + 100}
    flat = repack([("x.", a), ("y.", c)])
    assert flat.layout == [("x.W", (4, 3), 0), ("x.b", (2,), 12), ("y.V", (2, 3), 14)]
    np.testing.assert_array_equal(flat.data, np.concatenate([np.arange(12.0), [7.0, 8.0], np.arange(6.0) + 100]))
    flat.data[12] = -1.0
    assert a["b"][0] == -1.0
    c["V"][1, 2] = 55.0
    assert flat.data[19] == 55.0
    with pytest.raises(ValueError) as e:
        flat.join({"x.W": np.zeros((3, 4)), "x.b": np.zeros(2), "y.V": np.zeros((2, 3))})
    assert str(e.value) == "x.W: shape (3, 4) vs (4, 3)"
