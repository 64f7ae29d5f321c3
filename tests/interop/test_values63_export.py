"""lnrnn/interop/export.py read back value by value: a BN-LSTM's export (parameters and every running
statistic, set to random values here) parsed with a reader written here from the format's definition (8-byte
little-endian length, JSON header, tensors back to back from offset 0) and with read_safetensors, each tensor
compared with the model's array under the name and layout the module docstring gives; many small tensors of
several dtypes round-trip; a file too short for its length field, or whose header is no object, is a
ValueError; a path whose suffix disagrees with the format, a folder, or a trailing separator is refused
before anything is written."""
import json
import os
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.interop.export import export_weights, read_safetensors, write_safetensors
from lnrnn.model.models import build_model, head_config

CODES = {"F32": "<f4", "F64": "<f8", "I64": "<i8", "I32": "<i4", "U8": "u1", "F16": "<f2"}


def parse(path):
    """The format by its definition, independently of read_safetensors."""
    raw = open(path, "rb").read()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    spans = sorted(tuple(v["data_offsets"]) for v in header.values())
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    out = {k: np.frombuffer(data[v["data_offsets"][0]:v["data_offsets"][1]], dtype=CODES[v["dtype"]])
           .reshape(v["shape"]) for k, v in header.items()}
    return out, meta


def _bn_model():
    model = build_model(dict(cell="lstm", norm="bn", input_size=2, hidden_size=3, num_layers=2, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 4)), seed=5)
    rng = np.random.default_rng(63)
    for k, v in model.buffers.items():
        v[...] = rng.uniform(0.5, 2.0, v.shape)           # statistics a trained run would have
    return model


def _expected(model):
    """The docstring's table, by hand."""
    names = {"Wx": "weight_ih", "Wh": "weight_hh", "b": "bias_ih", "gx": "norm_ih_weight",
             "gh": "norm_hh_weight", "gc": "norm_cell_weight", "bc": "norm_cell_bias",
             "rmx": "norm_ih_running_mean", "rvx": "norm_ih_running_var", "rmh": "norm_hh_running_mean",
             "rvh": "norm_hh_running_var", "rmc": "norm_cell_running_mean", "rvc": "norm_cell_running_var"}
    want = {"head.weight": model.params["head.W"].T, "head.bias": model.params["head.b"]}
    for k in range(2):
        for short, stem in names.items():
            a = {**model.params, **model.buffers}[f"rnn.l{k}.{short}"]
            want[f"rnn.{stem}_l{k}"] = a.T if short in ("Wx", "Wh") else a
        want[f"rnn.bias_hh_l{k}"] = np.zeros(12)
    return want


def test_a_bn_models_export_reads_back_value_by_value(tmp_path):
    model = _bn_model()
    path = tmp_path / "w.safetensors"
    shapes = export_weights(SimpleNamespace(model=model, step=37), path)
    want = _expected(model)
    for tensors, meta in (parse(path), read_safetensors(str(path))):
        assert sorted(tensors) == sorted(want)
        for name, w in want.items():
            assert tensors[name].dtype == np.float64 and tensors[name].shape == w.shape, name
            np.testing.assert_array_equal(tensors[name], w, err_msg=name)
        assert meta["step"] == "37" and json.loads(meta["model_config"]) == json.loads(json.dumps(model.config))
        assert meta["pytorch_compatible"] == "false" and meta["gate_order"] == "i,f,g,o"
    assert shapes == {k: w.shape for k, w in want.items()}
    assert os.listdir(tmp_path) == ["w.safetensors"]


def test_many_tensors_of_every_dtype_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    tensors = {}
    for i, code in enumerate(["<f4", "<f8", "<i8", "<i4", "u1", "<f2"] * 2):
        shape = [(3,), (2, 5), (0,), (1, 1, 4), (7,), ()][i % 6]
        tensors[f"t{i:02d}"] = (rng.standard_normal(shape) * 50).astype(code)
    path = str(tmp_path / "many.safetensors")
    write_safetensors(path, tensors, {"n": 12})
    for got, meta in (parse(path), read_safetensors(path)):
        assert meta == {"n": "12"} and sorted(got) == sorted(tensors)
        for k, v in tensors.items():
            assert got[k].dtype == v.dtype and got[k].shape == v.shape, k
            np.testing.assert_array_equal(got[k], v)


@pytest.mark.parametrize("size", range(0, 8))
def test_a_file_too_short_for_its_length_field_is_a_value_error(tmp_path, size):
    path = tmp_path / "short.safetensors"
    path.write_bytes(struct.pack("<Q", 2)[:size])
    with pytest.raises(ValueError, match="too short"):
        read_safetensors(str(path))


@pytest.mark.parametrize("header", [b"[]", b"[1, 2]", b'"text"', b"3", b"null"])
def test_a_header_that_is_no_object_is_a_value_error(tmp_path, header):
    path = tmp_path / "h.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header)
    with pytest.raises(ValueError, match="not a JSON object"):
        read_safetensors(str(path))


@pytest.mark.parametrize("name, words", [("w.pt", "ends in .pt"), ("w", "has no suffix"),
                                         ("w.safetensors" + os.sep, "names a folder"),
                                         ("dir", "is a folder"), ("a/b/w.npz", "ends in .npz")])
def test_a_path_the_format_cannot_take_is_refused_before_anything_is_written(tmp_path, monkeypatch, name, words):
    monkeypatch.chdir(tmp_path)
    os.mkdir("dir")
    with pytest.raises(UserError, match=words):
        export_weights(SimpleNamespace(model=_bn_model(), step=1), name)
    assert os.listdir(tmp_path) == ["dir"] and os.listdir("dir") == []
    export_weights(SimpleNamespace(model=_bn_model(), step=1), "a/b/w.safetensors")   # nested, relative
    assert sorted(read_safetensors("a/b/w.safetensors")[0]) == sorted(_expected(_bn_model()))


@pytest.mark.parametrize("shape", [[2 ** 32, 2 ** 32], [2 ** 33, 2 ** 31, 1], [65536, 65536, 65536, 65536]])
def test_a_shape_whose_size_overflows_64_bits_does_not_fit_empty_offsets(tmp_path, shape):
    # the shape's count of values is 2^64: an int64 product wraps to 0 values and would let empty offsets
    # through to a reshape; the count in whole numbers is refused by the offsets check
    count = 1
    for s in shape:
        count *= s
    assert count == 2 ** 64
    header = json.dumps({"w": {"dtype": "F32", "shape": shape, "data_offsets": [0, 0]}}).encode()
    path = tmp_path / "huge.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header)
    with pytest.raises(ValueError, match=r"has offsets 0\.\.0 that do not fit shape"):
        read_safetensors(str(path))
