"""lnrnn/data/idx.py by value for items wider than a byte: int16, int32, float32 and float64 arrays written and
read back equal, their size counted in items times bytes, and one byte more or less is refused."""
import numpy as np
import pytest

from lnrnn.data.idx import parse_idx, read_idx, write_idx
from lnrnn.errors import DataError


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.float32, np.float64])
def test_wide_items_round_trip_and_are_sized_by_their_bytes(tmp_path, dtype):
    arr = (np.arange(24).reshape(2, 3, 4) * 3 - 7).astype(dtype)
    path = tmp_path / "a.idx"
    write_idx(path, arr)
    raw = path.read_bytes()
    assert len(raw) == 4 + 4 * 3 + arr.size * np.dtype(dtype).itemsize
    got = read_idx(path)
    assert got.dtype == np.dtype(dtype) and got.shape == (2, 3, 4)
    np.testing.assert_array_equal(got, arr)
    with pytest.raises(DataError, match="1 bytes after"):
        parse_idx(raw + b"\x00", "a.idx")
    with pytest.raises(DataError, match="is truncated"):
        parse_idx(raw[:-1], "a.idx")
