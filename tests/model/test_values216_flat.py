"""lnrnn.model.flat's views against the arrays they view: join fills a new array and leaves the buffer it was
made from as it was; repack of leaves without arrays gives an empty float32 buffer (its documented default) that
still packs; a repacked dict entry and the buffer are one memory both ways, in the dtype asked for."""
import numpy as np

from lnrnn.model.flat import FlatArrays, repack


def test_join_fills_a_new_array_and_leaves_the_buffer_alone():
    data = np.arange(7, dtype=np.float64)
    flat = FlatArrays(data, [("W", (2, 2), 0), ("b", (3,), 4)])
    out = flat.join({"W": [[9.0, 8.0], [7.0, 6.0]], "b": [5.0, 4.0, 3.0]})
    np.testing.assert_array_equal(out, [9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0])
    np.testing.assert_array_equal(data, np.arange(7.0))                     # untouched
    np.testing.assert_array_equal(flat.views["b"], [4.0, 5.0, 6.0])


def test_repack_of_no_arrays_is_an_empty_float32_buffer():
    d = {}
    flat = repack([("l0.", d)])
    assert flat.data.dtype == np.float32 and flat.data.shape == (0,) and flat.names == [] and d == {}


def test_repacked_entries_and_the_buffer_share_memory_in_the_dtype_asked_for():
    d = {"W": np.ones((2, 3), np.float32), "b": np.full(3, 2.0, np.float32)}
    flat = repack([("l0.", d)], dtype=np.float64)
    assert flat.data.dtype == np.float64 and d["W"].dtype == np.float64
    np.testing.assert_array_equal(flat.data, [1.0] * 6 + [2.0] * 3)
    flat.data[7] = -4.0
    assert d["b"][1] == -4.0
    d["W"][1, 0] = 3.5
    assert flat.data[3] == 3.5
