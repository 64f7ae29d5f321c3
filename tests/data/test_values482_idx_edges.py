"""lnrnn/data/idx.py, parse_idx at the header's edges, each refusal saying what is wrong: fewer than 4 bytes is too
short to be an IDX file; 4 bytes are a whole magic number, so a 4-byte file is judged by it (a wrong one named as
such, one of 0 dimensions not an IDX file, one that promises dimensions truncated inside its header); a header of
one dimension of length 0 and nothing after it is an empty array, not a truncated file."""
import numpy as np
import pytest

from lnrnn.data.idx import parse_idx
from lnrnn.errors import DataError


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_fewer_than_four_bytes_is_too_short(n):
    with pytest.raises(DataError, match=rf"f\.idx is too short to be an IDX file \({n} bytes\)"):
        parse_idx(b"\x00\x00\x08\x03"[:n], "f.idx")


@pytest.mark.parametrize("raw,magic,words", [
    (b"\x00\x00\x08\x03", None, "f.idx is truncated inside its IDX header"),
    (b"\x00\x00\x08\x03", 2051, "f.idx is truncated inside its IDX header"),
    (b"\x00\x00\x08\x01", 2051, r"f\.idx has a bad magic number \(2049, expected 2051\)"),
    (b"\x00\x00\x08\x00", None, r"f\.idx is not an IDX file \(bad magic number 0x00000800\)"),
])
def test_four_bytes_are_judged_by_their_magic_number(raw, magic, words):
    with pytest.raises(DataError, match=words):
        parse_idx(raw, "f.idx", magic)


@pytest.mark.parametrize("code,dtype", [(0x08, np.uint8), (0x0D, np.float32)])
def test_a_header_of_one_empty_dimension_is_an_empty_array(code, dtype):
    arr = parse_idx(bytes([0, 0, code, 1]) + (0).to_bytes(4, "big"), "f.idx")
    assert arr.shape == (0,) and arr.dtype == np.dtype(dtype)
