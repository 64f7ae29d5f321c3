"""lnrnn/model/flat.py by hand: two leaves with the same array names packed into one buffer in order, each
dict re-pointed at its own view with its values kept, offsets as the sizes add up, split and join as
each other's inverse, and a join refusing an array of the right size but another shape."""
import numpy as np
import pytest

from lnrnn.model.flat import repack


def leaves():
    a = {"w": np.arange(6.0).reshape(2, 3), "b": np.array([10.0, 11.0])}
    b = {"w": np.arange(20.0, 24.0).reshape(4, 1), "b": np.array([30.0])}
    return a, b


def test_repack_keeps_values_names_and_order():
    a, b = leaves()
    wa, wb = a["w"].copy(), b["w"].copy()
    flat = repack([("l0.", a), ("l1.", b)])
    assert flat.names == ["l0.w", "l0.b", "l1.w", "l1.b"]
    assert flat.layout == [("l0.w", (2, 3), 0), ("l0.b", (2,), 6), ("l1.w", (4, 1), 8), ("l1.b", (1,), 12)]
    assert flat.data.tolist() == [0, 1, 2, 3, 4, 5, 10, 11, 20, 21, 22, 23, 30]
    np.testing.assert_array_equal(a["w"], wa)
    np.testing.assert_array_equal(b["w"], wb)
    flat.data[:] = -np.arange(13.0)                     # the dicts are views of the buffer
    assert a["b"].tolist() == [-6.0, -7.0] and b["w"].ravel().tolist() == [-8.0, -9.0, -10.0, -11.0]
    a["w"][1, 2] = 99.0
    assert flat.data[5] == 99.0 and flat.views["l0.w"][1, 2] == 99.0


def test_split_and_join_are_inverse_and_join_checks_shapes():
    a, b = leaves()
    flat = repack([("l0.", a), ("l1.", b)])
    other = np.arange(100.0, 113.0)
    named = flat.split(other)
    assert named["l1.w"].ravel().tolist() == [108.0, 109.0, 110.0, 111.0]
    assert np.shares_memory(named["l0.b"], other)
    back = flat.join({k: v.copy() for k, v in named.items()})
    np.testing.assert_array_equal(back, other)
    wrong = dict(named, **{"l0.w": named["l0.w"].T})      # (3,2): the right size, another shape
    with pytest.raises(ValueError, match="l0.w"):
        flat.join(wrong)
    assert flat.join(named, dtype=np.float32).dtype == np.float32


def test_repack_refuses_mixed_dtypes_unless_told():
    a = {"w": np.zeros(2, np.float32)}
    b = {"w": np.ones(3)}
    with pytest.raises(TypeError, match="several dtypes"):
        repack([("a.", a), ("b.", b)])
    flat = repack([("a.", a), ("b.", b)], dtype=np.float64)
    assert flat.data.tolist() == [0, 0, 1, 1, 1] and a["w"].dtype == np.float64
