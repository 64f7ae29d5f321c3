"""lnrnn/model/flat.py against the model's own parameter list: a float32 and a float64 model's buffers keep the
model's dtype, and each layout row (name, shape, offset) is the model's parameter of that name, in the order
model.params lists them, the offsets the running sum of the sizes before it (counted here); each view is the
very memory of the parameter's array (writing the buffer's span of a name changes that array and no other). A
float32 repack of float32 leaves stays float32, its values exact; a repack told to convert does."""
import numpy as np
import pytest

from lnrnn.model.flat import repack
from lnrnn.model.models import build_model, head_config


def model(dtype, cell="lstm", layers=2):
    return build_model(dict(cell=cell, norm="ln", input_size=2, hidden_size=3, num_layers=layers, dtype=dtype,
                            forget_bias=1.0, head=head_config("ce", 4)), seed=1, max_steps=4)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_the_layout_is_the_models_parameter_list(dtype, cell):
    m = model(dtype, cell)
    for which, named in ((m.flat[0], m.params), (m.flat[1], m.grads)):
        assert which.data.dtype == np.dtype(dtype)
        assert which.names == list(named)                           # the model's order
        off = 0
        for (name, shape, o), (pname, arr) in zip(which.layout, named.items()):
            assert (name, shape, o) == (pname, arr.shape, off)
            assert arr.dtype == np.dtype(dtype)
            assert np.shares_memory(arr, which.data)
            off += arr.size
        assert off == which.data.size == m.num_params()
    for name, arr in m.params.items():                              # each name's span is that array
        _, shape, o = next(r for r in m.flat[0].layout if r[0] == name)
        keep = {k: v.copy() for k, v in m.params.items()}
        m.flat[0].data[o:o + arr.size] = np.arange(arr.size) + 0.5
        np.testing.assert_array_equal(m.params[name], (np.arange(arr.size) + 0.5).reshape(shape))
        for k, v in m.params.items():
            if k != name:
                np.testing.assert_array_equal(v, keep[k])
        m.flat[0].data[o:o + arr.size] = keep[name].ravel()


def test_float32_leaves_stay_float32_and_exact():
    rng = np.random.default_rng(0)
    a = {"W": rng.standard_normal((2, 3)).astype(np.float32), "b": np.float32([0.1, 0.2])}
    b = {"W": rng.standard_normal((1, 4)).astype(np.float32)}
    want = np.concatenate([a["W"].ravel(), a["b"], b["W"].ravel()])
    flat = repack([("x.", a), ("y.", b)])
    assert flat.data.dtype == np.float32 and a["W"].dtype == np.float32 and b["W"].dtype == np.float32
    np.testing.assert_array_equal(flat.data, want)
    assert flat.layout == [("x.W", (2, 3), 0), ("x.b", (2,), 6), ("y.W", (1, 4), 8)]
    wide = repack([("x.", {k: v.copy() for k, v in a.items()})], dtype=np.float64)
    assert wide.data.dtype == np.float64
    np.testing.assert_array_equal(wide.data, want[:8].astype(np.float64))


def test_an_optimizer_slot_split_by_the_layout_is_named_per_parameter():
    m = model("float64")
    slot = np.arange(m.num_params(), dtype=np.float64)
    named = m.flat[0].split(slot)
    off = 0
    for name, arr in m.params.items():
        np.testing.assert_array_equal(named[name], np.arange(off, off + arr.size).reshape(arr.shape))
        off += arr.size
    np.testing.assert_array_equal(m.flat[0].join(named), slot)
