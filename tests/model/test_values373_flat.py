"""Round 373 value tests of the flat parameter buffer (lnrnn/model/flat.py) against its docstring: names in
packing order, the layout's offsets as running sums of the sizes from 0 with the prefixed names, the buffer's
dtype that of the arrays (or the one passed, which converts mixed dtypes), and the dicts re-pointed at views."""
import numpy as np
import pytest

from lnrnn.model.flat import FlatArrays, repack


def test_names_keep_the_layout_order():
    f = FlatArrays(np.arange(5.0), [("b", (2,), 0), ("a", (3,), 2)])
    assert f.names == ["b", "a"]


def test_repack_layout_offsets_values_and_views():
    w0 = np.arange(6, dtype=np.float32).reshape(2, 3)
    b0 = np.array([10, 11], dtype=np.float32)
    w1 = np.array([20], dtype=np.float32)
    d0, d1 = {"w": w0.copy(), "b": b0.copy()}, {"w": w1.copy()}
    flat = repack([("l0.", d0), ("l1.", d1)])
    assert flat.layout == [("l0.w", (2, 3), 0), ("l0.b", (2,), 6), ("l1.w", (1,), 8)]
    assert flat.data.dtype == np.float32 and flat.data.shape == (9,)
    np.testing.assert_array_equal(flat.data, np.concatenate([w0.ravel(), b0, w1]))
    for d, prefix in ((d0, "l0."), (d1, "l1.")):
        for k, v in d.items():
            assert np.shares_memory(v, flat.data)
            assert flat.views[prefix + k] is v or np.shares_memory(flat.views[prefix + k], v)
    d1["w"][0] = -1
    assert flat.data[8] == -1


def test_repack_dtype_passed_converts_mixed_and_none_refuses():
    leaves = lambda: [("", {"a": np.ones(2, np.float32), "b": np.full(3, 2.0)})]  # noqa: E731
    flat = repack(leaves(), dtype=np.float64)
    assert flat.data.dtype == np.float64
    np.testing.assert_array_equal(flat.data, [1, 1, 2, 2, 2])
    with pytest.raises(TypeError) as e:
        repack(leaves())
    assert str(e.value) == "cannot pack arrays of several dtypes into one buffer: ['float32', 'float64']"
