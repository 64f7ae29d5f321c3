"""lnrnn export's safetensors writing and reading against the format's definition (module docstring of
lnrnn/interop/export.py): the bytes parsed by hand (little-endian length, JSON header, little-endian data
back to back), a file with bytes past its last tensor refused, an unknown format refused before anything is
written, and the suffix refusal's suggested name (the stem with .safetensors, not the old name plus it)."""
import json
import struct

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.interop.export import check_suffix, export_weights, read_safetensors, write_safetensors


def _tensors():
    rng = np.random.default_rng(0)
    return {"a": rng.standard_normal((2, 3)).astype(np.float32), "b": rng.standard_normal(5),
            "c": np.arange(4, dtype=np.int64)}


def test_bytes_follow_the_format_by_hand(tmp_path):
    path = tmp_path / "w.safetensors"
    tensors = _tensors()
    write_safetensors(str(path), tensors, {"k": "v"})
    raw = path.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    assert header.pop("__metadata__") == {"k": "v"}
    spans = sorted(tuple(h["data_offsets"]) for h in header.values())
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(p[1] == q[0] for p, q in zip(spans, spans[1:]))
    codes = {"F32": "<f4", "F64": "<f8", "I64": "<i8"}
    for name, want in tensors.items():
        h = header[name]
        b, e = h["data_offsets"]
        got = np.frombuffer(data[b:e], dtype=codes[h["dtype"]]).reshape(h["shape"])
        np.testing.assert_array_equal(got, want)
        assert got.dtype.newbyteorder("=") == want.dtype


@pytest.mark.parametrize("extra", [b"\0" * 8, b"x"])
def test_bytes_past_the_last_tensor_are_refused(tmp_path, extra):
    path = tmp_path / "w.safetensors"
    write_safetensors(str(path), _tensors())
    read_safetensors(str(path))                                  # the file as written reads
    path.write_bytes(path.read_bytes() + extra)
    with pytest.raises(ValueError, match="back to back"):
        read_safetensors(str(path))


def test_a_header_that_skips_bytes_is_refused(tmp_path):
    a = np.arange(3, dtype=np.float64)
    header = json.dumps({"a": {"dtype": "F64", "shape": [3], "data_offsets": [8, 32]}}).encode()
    header += b" " * (-len(header) % 8)
    path = tmp_path / "w.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * 8 + a.astype("<f8").tobytes())
    with pytest.raises(ValueError, match="back to back"):
        read_safetensors(str(path))


@pytest.mark.parametrize("fmt", ["npz", "pt", "", "SAFETENSORS"])
def test_an_unknown_format_is_refused_before_writing(tmp_path, fmt):
    path = tmp_path / "w.safetensors"
    with pytest.raises(UserError, match="unknown export format"):
        export_weights(None, str(path), fmt)                     # refused before the run is read
    assert not path.exists()


@pytest.mark.parametrize("given, suggested", [("weights.pt", "weights.safetensors"),
                                               ("out/w.npz", "out/w.safetensors"),
                                               ("weights", "weights.safetensors"),
                                               ("a.b.pt", "a.b.safetensors")])
def test_the_suffix_refusal_suggests_the_stem_with_safetensors(given, suggested):
    with pytest.raises(UserError) as e:
        check_suffix(given)
    assert str(e.value).endswith(f"name it {suggested}.")


@pytest.mark.parametrize("name", ["w.safetensors", "w.SafeTensors", "dir/x.y.safetensors"])
def test_names_in_the_format_pass(name):
    assert check_suffix(name) == name
