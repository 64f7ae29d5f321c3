"""lnrnn export's tensors and safetensors reader against the format and the module docstring: arrays read back
writeable and apart from the file's bytes, a header listing its tensors in another order than their offsets
(as safetensors' own writer does) read, sizes and offsets given as JSON true/false refused, the exported
tensors C-contiguous and equal to the model's parameters transposed by hand, and a synthesis network's
window weight exported as (3K, H) = Wp.T."""
import json
import struct

import numpy as np
import pytest

from lnrnn.interop.export import exported_tensors, read_safetensors, write_safetensors
from lnrnn.model.models import build_model, head_config


def _file(path, header, data):
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    return str(path)


def test_arrays_read_back_are_writeable_and_their_own(tmp_path):
    path = str(tmp_path / "w.safetensors")
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(4, dtype=np.int64)
    write_safetensors(path, {"a": a, "b": b})
    got, _ = read_safetensors(path)
    for name, want in (("a", a), ("b", b)):
        t = got[name]
        assert t.flags.writeable and t.flags.c_contiguous and t.dtype == want.dtype
        t += 1                                                    # in place, as a fine-tuning step would
        np.testing.assert_array_equal(t, want + 1)
    again, _ = read_safetensors(path)                             # the file is untouched
    np.testing.assert_array_equal(again["a"], a)


def test_a_header_in_another_order_than_the_offsets_reads(tmp_path):
    a = np.array([1.5, -2.0], "<f8")
    b = np.array([3, 4, 5], "<i4")
    c = np.array([7.25], "<f4")
    # header order a, b, c; data order c, a, b (back to back, covering the buffer)
    header = {"a": {"dtype": "F64", "shape": [2], "data_offsets": [4, 20]},
              "b": {"dtype": "I32", "shape": [3], "data_offsets": [20, 32]},
              "c": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}
    got, meta = read_safetensors(_file(tmp_path / "w.safetensors", header, c.tobytes() + a.tobytes() + b.tobytes()))
    assert meta == {}
    for name, want in (("a", a), ("b", b), ("c", c)):
        np.testing.assert_array_equal(got[name], want)
        assert got[name].dtype == want.dtype.newbyteorder("=")


@pytest.mark.parametrize("entry", [{"shape": [True, 2], "data_offsets": [0, 16]},
                                   {"shape": [2], "data_offsets": [False, 16]},
                                   {"shape": [False], "data_offsets": [0, 0]}])
def test_true_and_false_are_not_sizes(tmp_path, entry):
    path = _file(tmp_path / "w.safetensors", {"a": {"dtype": "F64", **entry}}, np.zeros(2).tobytes()
                 if entry["data_offsets"][1] else b"")
    with pytest.raises(ValueError, match="not a list of sizes|not \\[begin, end\\]"):
        read_safetensors(path)


def _model(**kw):
    cfg = dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=2, dtype="float64",
               forget_bias=1.0, head=head_config("ce", 4))
    return build_model({**cfg, **kw}, seed=5)


def test_exported_tensors_are_contiguous_and_transposed_by_hand():
    model = _model()
    out = exported_tensors(model)
    for name, t in out.items():
        assert t.flags.c_contiguous, name
    for k in (0, 1):
        Wx, Wh = model.params[f"rnn.l{k}.Wx"], model.params[f"rnn.l{k}.Wh"]
        G = Wx.shape[1]
        want = np.array([[Wx[i, g] for i in range(Wx.shape[0])] for g in range(G)])
        np.testing.assert_array_equal(out[f"rnn.weight_ih_l{k}"], want)
        np.testing.assert_array_equal(out[f"rnn.weight_hh_l{k}"], np.array([[Wh[i, g] for i in range(3)]
                                                                               for g in range(G)]))
    W = model.params["head.W"]
    np.testing.assert_array_equal(out["head.weight"], np.array([[W[i, o] for i in range(3)] for o in range(4)]))


def test_the_window_weight_is_exported_as_3k_by_h():
    K, C, H = 2, 5, 3
    model = _model(input_size=3, hidden_size=H, window=K, alphabet_size=C,
                   head={"kind": "mdn", "components": 2, "per_step": True, "scale": [1.0, 1.0]})
    out = exported_tensors(model)
    Wp = [v for k, v in model.params.items() if k.endswith(".Wp")][0]
    assert Wp.shape == (H, 3 * K)
    assert out["rnn.window_weight_l0"].shape == (3 * K, H)
    np.testing.assert_array_equal(out["rnn.window_weight_l0"],
                                  np.array([[Wp[h, j] for h in range(H)] for j in range(3 * K)]))
    assert out["rnn.window_bias_l0"].shape == (3 * K,)
