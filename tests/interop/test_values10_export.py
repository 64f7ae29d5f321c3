"""lnrnn/interop/export.py's safetensors reader at its edges: a file whose header runs exactly to its end
(no tensor bytes: only empty tensors, or none) reads back, and a header one byte longer than the file is
refused."""
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
