"""lnrnn/interop/export.py against a safetensors reader written here from the format's definition (8-byte
little-endian header length, a JSON header mapping each name to its dtype code, shape and [begin, end) byte
offsets into the data that follows, little-endian values): every dtype lnrnn writes under the format's own code
(I32 is 4 bytes, I64 8, F16 2, ...) and read back as written by both readers; an LN-RNN's export under the
documented names (its joint gain as rnn.norm_weight_l{k}) with the model's own values, transposed where the
docstring says; the metadata's pytorch_compatible spelled 'true'/'false'; and headers the format forbids
(a shape with a negative size, data_offsets of three numbers) refused naming what is wrong."""
import json
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.interop.export import export_weights, read_safetensors, write_safetensors
from lnrnn.model.models import build_model, head_config

# the format's dtype codes (https://huggingface.co/docs/safetensors): code -> (NumPy kind, bytes per value)
CODES = {"F16": ("f", 2), "F32": ("f", 4), "F64": ("f", 8), "I32": ("i", 4), "I64": ("i", 8), "U8": ("u", 1)}


def parse(path):
    raw = open(path, "rb").read()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    out = {}
    for name, info in header.items():
        kind, size = CODES[info["dtype"]]
        b, e = info["data_offsets"]
        assert e - b == size * int(np.prod(info["shape"], dtype=np.int64))
        out[name] = (info["dtype"], np.frombuffer(data[b:e], dtype=f"<{kind}{size}").reshape(info["shape"]))
    return out, meta


def test_every_dtype_is_written_under_its_own_code_and_reads_back(tmp_path):
    r = np.random.default_rng(0)
    arrays = {"f16": (r.standard_normal((2, 3)).astype(np.float16), "F16"),
              "f32": (r.standard_normal(5).astype(np.float32), "F32"),
              "f64": (r.standard_normal((1, 2, 2)), "F64"),
              "i32": (np.array([[-7, 2 ** 31 - 1], [3, -2 ** 31]], np.int32), "I32"),
              "i64": (np.array([2 ** 40, -5, 0], np.int64), "I64"),
              "u8": (np.arange(250, 256, dtype=np.uint8), "U8")}
    path = tmp_path / "a.safetensors"
    write_safetensors(str(path), {k: a for k, (a, _) in arrays.items()}, {"k": 1})
    got, meta = parse(path)
    assert meta == {"k": "1"}
    back, _ = read_safetensors(str(path))
    for k, (a, code) in arrays.items():
        assert got[k][0] == code
        np.testing.assert_array_equal(got[k][1], a)
        assert back[k].dtype == a.dtype
        np.testing.assert_array_equal(back[k], a)


def test_an_ln_rnns_export_has_the_documented_names_and_the_models_values(tmp_path):
    L, I, H = 2, 2, 3
    model = build_model(dict(cell="rnn", norm="ln", input_size=I, hidden_size=H, num_layers=L, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 4)), seed=2)
    rng = np.random.default_rng(128)
    for v in model.params.values():
        v[...] = rng.uniform(-0.8, 0.8, v.shape)
    path = tmp_path / "m.safetensors"
    export_weights(SimpleNamespace(model=model, step=7), path)
    got, meta = parse(path)
    want = {"head.weight": model.params["head.W"].T, "head.bias": model.params["head.b"]}
    for k in range(L):
        p = {n: model.params[f"rnn.l{k}.{n}"] for n in ("Wx", "Wh", "b", "g")}
        want.update({f"rnn.weight_ih_l{k}": p["Wx"].T, f"rnn.weight_hh_l{k}": p["Wh"].T,
                     f"rnn.bias_ih_l{k}": p["b"], f"rnn.bias_hh_l{k}": np.zeros(H),
                     f"rnn.norm_weight_l{k}": p["g"]})
    assert set(got) == set(want)
    for k, a in want.items():
        assert got[k][0] == "F64"
        np.testing.assert_array_equal(got[k][1], a)
    assert meta["pytorch_compatible"] == "false" and meta["step"] == "7"


def test_a_plain_stack_is_marked_true_for_pytorch(tmp_path):
    model = build_model(dict(cell="lstm", norm="none", input_size=2, hidden_size=2, num_layers=1, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 3)), seed=0)
    path = tmp_path / "p.safetensors"
    export_weights(SimpleNamespace(model=model, step=0), path)
    assert parse(path)[1]["pytorch_compatible"] == "true"


def _file(path, header, data):
    text = json.dumps(header).encode("utf-8")
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    return str(path)


@pytest.mark.parametrize("entry,says", [
    ({"dtype": "F32", "shape": [2, -1], "data_offsets": [0, 8]}, "has shape [2, -1], not a list of sizes"),
    ({"dtype": "F32", "shape": [2], "data_offsets": [0, 8, 16]},
     "has data_offsets [0, 8, 16], not [begin, end] with 0 <= begin <= end"),
])
def test_a_header_the_format_forbids_is_refused_naming_what(tmp_path, entry, says):
    path = _file(tmp_path / "bad.safetensors", {"a": entry}, bytes(16))
    with pytest.raises(ValueError) as e:
        read_safetensors(path)
    assert str(e.value) == f"{path}: tensor 'a' {says}"
