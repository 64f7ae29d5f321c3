"""lnrnn/data/idx.py on IDX bytes written out by hand (magic 0x00 0x00 <type code> <ndim>, big-endian uint32
dims, big-endian data; struct packs the values here, never write_idx): an int16 (2, 3) array with values past one
byte and negative ones read as written, a uint8 label file under its magic 2049, and truncated files refused word
for word (one byte short of the data, a header cut inside its dims, one byte past the data); and lnrnn/data/
taskdata.py's default batch dtype, float32, with the 1/255 scale applied in float32 by hand."""
import struct

import numpy as np
import pytest

from lnrnn.data.idx import parse_idx
from lnrnn.data.taskdata import TaskData
from lnrnn.errors import DataError

INT16_2x3 = [[-1, 256, 2], [300, -32768, 7]]
# magic 00 00 0B (int16) 02 (two dims), dims 2 and 3, then six big-endian int16: 24 bytes in all
RAW = b"\x00\x00\x0b\x02" + b"\x00\x00\x00\x02" + b"\x00\x00\x00\x03" + struct.pack(">6h", -1, 256, 2, 300, -32768, 7)


def refused(raw, name="f.idx", magic=None):
    with pytest.raises(DataError) as e:
        parse_idx(raw, name, magic)
    return str(e.value)


def test_an_int16_array_reads_as_written():
    assert len(RAW) == 24
    got = parse_idx(RAW, "f.idx")
    assert got.shape == (2, 3) and got.dtype == np.dtype(np.int16) and got.dtype.isnative
    assert got.tolist() == INT16_2x3


def test_a_label_file_under_its_magic():
    raw = b"\x00\x00\x08\x01" + (5).to_bytes(4, "big") + bytes([7, 0, 9, 3, 255])   # 2049 = 0x00000801
    got = parse_idx(raw, "labels", 2049)
    assert got.dtype == np.uint8 and got.tolist() == [7, 0, 9, 3, 255]


def test_one_byte_short_of_the_data_is_refused_with_its_counts():
    assert refused(RAW[:23]) == ("f.idx is truncated: its header promises shape (2, 3) (24 bytes) but it holds 23 "
                                 "bytes; download it again.")


def test_a_header_cut_inside_its_dims_is_refused():
    assert refused(RAW[:11]) == "f.idx is truncated inside its IDX header."     # 12 header bytes for 2 dims


def test_one_byte_past_the_data_is_refused():
    assert refused(RAW + b"\x00") == ("f.idx has 1 bytes after the (2, 3) array its header describes; it is not a "
                                      "valid IDX file.")


def test_a_batch_is_float32_by_default_and_scaled_in_float32():
    x = np.array([[[0, 255], [128, 1], [7, 200]], [[3, 4], [5, 6], [250, 9]]], np.uint8)   # (N 2, T 3, I 2)
    t = TaskData(spec={"task": "test"}, description="d", x_train=x, y_train=np.array([1, 0]),
                 x_val=x[:1], y_val=np.array([1]), num_classes=2, scale=1.0 / 255)
    xb, yb = t.batch("train", np.array([1, 0]))
    assert xb.dtype == np.float32 and xb.shape == (3, 2, 2)
    want = np.array([[x[n, s].astype(np.float32) * np.float32(1.0 / 255) for n in (1, 0)] for s in range(3)])
    assert np.array_equal(xb, want) and yb.tolist() == [0, 1]
