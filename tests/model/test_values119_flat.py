"""lnrnn.model.flat against its definition: repack lays the leaves' arrays end to end in packing order (each
offset the sum of the sizes before it), every dict entry becomes a view of the one buffer holding its old
values (a write to the buffer shows in the dicts and back), the buffer keeps the arrays' dtype; split gives
views of the array it is handed; join writes a copy in the dtype asked for."""
import numpy as np
import pytest

from lnrnn.model.flat import repack


def _leaves(dtype):
    rng = np.random.default_rng(3)
    a = {"W": rng.normal(size=(3, 4)).astype(dtype), "b": rng.normal(size=4).astype(dtype)}
    b = {"g": rng.normal(size=(2, 1, 3)).astype(dtype), "s": np.array(rng.normal(), dtype)}
    return a, b


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_repack_lays_every_array_end_to_end_as_a_view(dtype):
    a, b = _leaves(dtype)
    old = {"l0." + k: v.copy() for k, v in a.items()} | {"h." + k: v.copy() for k, v in b.items()}
    flat = repack([("l0.", a), ("h.", b)])
    assert flat.data.dtype == np.dtype(dtype) and flat.data.shape == (sum(v.size for v in old.values()),)
    assert flat.names == list(old)
    off = 0
    for (name, shape, o), want in zip(flat.layout, old.values()):
        assert o == off and shape == want.shape
        np.testing.assert_array_equal(flat.data[off:off + want.size].reshape(want.shape), want)
        off += want.size
    for prefix, d in (("l0.", a), ("h.", b)):
        for k, v in d.items():
            assert v is flat.views[prefix + k] and np.shares_memory(v, flat.data)
            assert v.dtype == np.dtype(dtype)
            np.testing.assert_array_equal(v, old[prefix + k])
    flat.data[:] = 0.0                                             # zeroing the buffer zeroes every parameter
    assert all(not v.any() for d in (a, b) for v in d.values())
    a["W"][1, 2] = 5.0                                             # and a write to a dict reaches the buffer
    assert flat.data[1 * 4 + 2] == 5.0


def test_split_views_its_argument_and_join_writes_the_dtype_asked_for():
    a, b = _leaves(np.float32)
    flat = repack([("l0.", a), ("h.", b)])
    other = np.arange(flat.data.size, dtype=np.float32)
    parts = flat.split(other)
    for name, shape, off in flat.layout:
        assert np.shares_memory(parts[name], other) and parts[name].shape == shape
        np.testing.assert_array_equal(parts[name].ravel(), other[off:off + parts[name].size])
    parts["h.g"][...] = -1.0
    assert (other[flat.layout[2][2]:flat.layout[2][2] + 6] == -1.0).all()
    named = {name: np.full(shape, k + 0.5) for k, (name, shape, _) in enumerate(flat.layout)}
    for dtype in (np.float64, np.float32, None):
        out = flat.join(named, dtype)
        assert out.dtype == np.dtype(dtype or np.float32) and not np.shares_memory(out, flat.data)
        want = np.concatenate([np.ravel(named[n]) for n in flat.names])
        np.testing.assert_array_equal(out, want.astype(out.dtype))
