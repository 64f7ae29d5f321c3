"""lnrnn/interop/export.py's safetensors reader at its edges: a file whose header runs exactly to its end
(no tensor bytes: only empty tensors, or none) reads back, and a header one byte longer than the file is
refused; a header that is not what the format says (a dtype lnrnn does not read, a list for an object, shapes
and offsets that are not whole numbers in order) is one ValueError that names it."""
import json
import struct

import numpy as np
import pytest

from lnrnn.interop.export import read_safetensors, write_safetensors


@pytest.mark.parametrize("tensors", [{}, {"empty": np.zeros((0, 3), np.float32)}])
def test_a_header_that_ends_the_file_reads_back(tmp_path, tensors):
    path = tmp_path / "w.safetensors"
    write_safetensors(path, tensors, {"step": 3})
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    assert 8 + n == len(raw)
    got, meta = read_safetensors(path)
    assert meta == {"step": "3"} and got.keys() == tensors.keys()
    for k in tensors:
        assert got[k].shape == tensors[k].shape and got[k].dtype == tensors[k].dtype
    path.write_bytes(struct.pack("<Q", n + 1) + raw[8:])
    with pytest.raises(ValueError, match=f"header length {n + 1} runs past the end of the file"):
        read_safetensors(path)


def _file(tmp_path, header, data=b""):
    """A safetensors file of this header (any JSON value, or bytes as they are) and data."""
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path = tmp_path / "w.safetensors"
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    return path


@pytest.mark.parametrize("header,says", [
    ({"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}}, "tensor 'w' has dtype 'BF16'; lnrnn reads"),
    ([1, 2], "the header is not a JSON object"),
    ({"__metadata__": [1], "w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, "__metadata__ is not"),
    ({"w": [0, 4]}, "tensor 'w' has no dtype, shape and data_offsets"),
    ({"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, "has shape \\[-1\\], not a list of sizes"),
    ({"w": {"dtype": "F32", "shape": "4", "data_offsets": [0, 4]}}, "has shape '4'"),
    ({"w": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}}, "has data_offsets \\[4, 0\\]"),
    ({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0]}}, "has data_offsets \\[0\\]"),
    ({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0.0, 4.0]}}, "has data_offsets"),
    ({"w": {"dtype": "F32", "shape": [1]}}, "has data_offsets None"),
    (b"\xff\xfe{}", "utf-8"),
    (b"{not json", "Expecting"),
])
def test_a_malformed_header_is_a_value_error_naming_what(tmp_path, header, says):
    """Files from other tools (BF16 weights) and broken headers: one ValueError that says what is wrong, never a
    KeyError or TypeError from inside the reader; the well-formed file beside them reads."""
    with pytest.raises(ValueError, match=says):
        read_safetensors(_file(tmp_path, header, b"\0" * 4))
    got, _ = read_safetensors(_file(tmp_path, {"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}},
                                    np.float32([2.5]).tobytes()))
    assert got["w"].tolist() == [2.5]
