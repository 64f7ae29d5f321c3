"""lnrnn/interop/export.py's safetensors layout by its definition: the 8-byte header length, then the JSON
header padded with spaces to the next multiple of 8 (no more), so that the data start 8-byte aligned; the
tensors read back bit for bit."""
import json
import struct

import numpy as np

from lnrnn.interop.export import read_safetensors, write_safetensors


def test_header_is_padded_to_the_next_multiple_of_eight(tmp_path):
    for k in range(1, 10):  # names of other lengths: every remainder of the header's length
        tensors = {"a" * k: np.arange(3, dtype=np.float64), "b": np.ones((2, 2), np.float32)}
        path = tmp_path / f"w{k}.safetensors"
        write_safetensors(str(path), tensors, {"step": 3})
        raw = path.read_bytes()
        (n,) = struct.unpack("<Q", raw[:8])
        text = raw[8:8 + n]
        bare = len(text.rstrip(b" "))
        assert n % 8 == 0 and n - bare < 8
        assert json.loads(text)["__metadata__"] == {"step": "3"}
        back, _ = read_safetensors(str(path))
        for name, a in tensors.items():
            assert back[name].dtype == a.dtype
            np.testing.assert_array_equal(back[name], a)
