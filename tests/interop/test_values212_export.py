"""lnrnn/interop/export.py against the safetensors definition (an 8-byte little-endian header length, a UTF-8
JSON object padded with spaces to 8 bytes, dtype codes F16 F32 F64 I32 I64 U8, shapes, data_offsets back to
back from 0, string-valued __metadata__), read and written here by hand: a BN-LSTM's exported tensors hold each
buffer under its own PyTorch name (the h-side running mean and variance apart), export_weights reports the
shapes the file holds, the same tensors in any order make the same bytes, int64 goes out as I64 and comes back;
a header written here in UTF-8 (not ASCII-escaped) is read back exactly; every refusal word for word."""
import json
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.interop.export import exported_tensors, export_weights, read_safetensors, write_safetensors
from lnrnn.model.models import build_model, head_config
from test_values183_export import CODES, read_by_definition  # the reader by the definition; a dtype code's dtype


def write_by_definition(path, header, blob=b""):
    text = json.dumps(header, ensure_ascii=False).encode("utf-8")             # raw UTF-8, not \u escapes
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + blob)
    return str(path)


def bn_lstm():
    m = build_model(dict(cell="lstm", norm="bn", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config("mse", 2, False)), seed=212, max_steps=2)
    rng = np.random.default_rng(212)
    for v in (*m.params.values(), *m.buffers.values()):                    # every entry distinct
        v[...] = rng.uniform(0.1, 0.9, v.shape)
    return m


def test_a_bn_lstms_buffers_keep_their_own_names_and_the_file_its_shapes(tmp_path):
    m = bn_lstm()
    out = exported_tensors(m)
    pt = {"rmx": "norm_ih_running_mean", "rvx": "norm_ih_running_var", "rmh": "norm_hh_running_mean",
          "rvh": "norm_hh_running_var", "rmc": "norm_cell_running_mean", "rvc": "norm_cell_running_var"}
    for short, stem in pt.items():
        np.testing.assert_array_equal(out[f"rnn.{stem}_l0"], m.buffers[f"rnn.l0.{short}"])
    np.testing.assert_array_equal(out["rnn.weight_ih_l0"], m.params["rnn.l0.Wx"].T)
    np.testing.assert_array_equal(out["rnn.bias_hh_l0"], np.zeros(12))
    shapes = export_weights(SimpleNamespace(model=m, step=5), tmp_path / "w.safetensors")
    back, meta = read_by_definition(tmp_path / "w.safetensors")
    assert shapes == {k: a.shape for k, a in back.items()}
    assert shapes["rnn.norm_hh_running_var_l0"] == (2, 12) and shapes["head.weight"] == (2, 3)
    for k, a in back.items():
        assert a.dtype == np.dtype(CODES["F64"])                               # read as the code F64 says
        np.testing.assert_array_equal(a, out[k])
    assert meta["step"] == "5" and json.loads(meta["model_config"]) == m.config


def test_a_parameter_without_an_exported_name_is_refused_by_its_key():
    model = SimpleNamespace(params={"rnn.l0.Wq": np.zeros((2, 2))}, buffers={})
    with pytest.raises(ValueError) as e:
        exported_tensors(model)
    assert str(e.value) == "no exported name for parameter rnn.l0.Wq"


def test_the_same_tensors_in_any_order_make_the_same_bytes_laid_out_by_name(tmp_path):
    a, b, c = np.arange(3.0), np.arange(4, dtype=np.float32).reshape(2, 2), np.array([7, -8], np.int64)
    write_safetensors(str(tmp_path / "1.safetensors"), {"b": b, "c": c, "a": a})
    write_safetensors(str(tmp_path / "2.safetensors"), {"a": a, "c": c, "b": b})
    assert (tmp_path / "1.safetensors").read_bytes() == (tmp_path / "2.safetensors").read_bytes()
    raw = (tmp_path / "1.safetensors").read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    assert header["a"]["data_offsets"] == [0, 24] and header["b"]["data_offsets"] == [24, 40]
    assert header["c"] == {"dtype": "I64", "shape": [2], "data_offsets": [40, 56]}
    back, _ = read_by_definition(tmp_path / "1.safetensors")
    assert back["c"].dtype == np.dtype(CODES["I64"]) and back["c"].tolist() == [7, -8]


def test_int64_tensors_written_here_come_back(tmp_path):
    blob = np.array([3, -2**40], "<i8").tobytes() + np.array([5], "<i4").tobytes()
    path = write_by_definition(tmp_path / "i.safetensors", {
        "big": {"dtype": "I64", "shape": [2], "data_offsets": [0, 16]},
        "small": {"dtype": "I32", "shape": [1], "data_offsets": [16, 20]}}, blob)
    tensors, meta = read_safetensors(path)
    assert tensors["big"].dtype == np.int64 and tensors["big"].tolist() == [3, -2**40]
    assert tensors["small"].dtype == np.int32 and tensors["small"].tolist() == [5] and meta == {}


@pytest.mark.parametrize("dtype", ["uint16", "int8", "bool", "complex64"])
def test_the_writer_refuses_a_dtype_without_a_code(tmp_path, dtype):
    with pytest.raises(ValueError) as e:
        write_safetensors(str(tmp_path / "x.safetensors"), {"w": np.zeros(2, dtype)})
    assert str(e.value) == f"w: dtype {dtype} has no safetensors code here"


def test_a_utf8_header_written_here_is_read_back_exactly(tmp_path):
    blob = np.array([1.5, -2.0], "<f4").tobytes()
    path = write_by_definition(tmp_path / "u.safetensors", {
        "__metadata__": {"note": "Größe ü", "name": "日本"},
        "poids_é": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, blob)
    tensors, meta = read_safetensors(path)
    assert list(tensors) == ["poids_é"] and tensors["poids_é"].tolist() == [1.5, -2.0]
    assert meta == {"note": "Größe ü", "name": "日本"}


@pytest.mark.parametrize("header, says", [
    ({"__metadata__": ["a"]}, "__metadata__ is not a JSON object"),
    ({"a": 3}, "tensor 'a' has no dtype, shape and data_offsets"),
    ({"a": [1, 2]}, "tensor 'a' has no dtype, shape and data_offsets"),
    ({"a": {"dtype": "BF16", "shape": [1], "data_offsets": [0, 2]}},
     "tensor 'a' has dtype 'BF16'; lnrnn reads F16, F32, F64, I32, I64, U8"),
])
def test_the_readers_refusals_word_for_word(tmp_path, header, says):
    path = write_by_definition(tmp_path / "bad.safetensors", header, b"\0\0")
    with pytest.raises(ValueError) as e:
        read_safetensors(path)
    assert str(e.value) == f"{path}: {says}"
