"""lnrnn/data/idx.py against the IDX layout written out here with struct (a 4-byte magic 0 0 <type code> <ndim>,
big-endian uint32 dimensions, big-endian data): every type code read and written as the format defines it;
a wrong magic, a truncated header or body, trailing bytes, a damaged gzip stream and a directory refused in one
line naming the file; gzip files that do not depend on the clock (RFC 1952's MTIME field 0); and MNIST files
found beside a directory that merely has a file's name."""
import gzip
import struct

import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.errors import DataError

# the IDX type codes as the format's description lists them
CODES = {0x08: ("B", np.uint8), 0x09: ("b", np.int8), 0x0B: ("h", np.int16), 0x0C: ("i", np.int32),
         0x0D: ("f", np.float32), 0x0E: ("d", np.float64)}


def by_hand(code, values, shape):
    fmt, _ = CODES[code]
    head = bytes([0, 0, code, len(shape)]) + b"".join(struct.pack(">I", d) for d in shape)
    return head + struct.pack(">" + fmt * len(values), *values)


def one_line(excinfo, name):
    msg = str(excinfo.value)
    assert "\n" not in msg and name in msg
    return msg


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_type_code_read_and_written(tmp_path, code):
    _, dtype = CODES[code]
    values = [1, 2, 3, 4, 5, 6] if code in (0x08,) else [1, -2, 3, -4, 5, -6]
    if code in (0x0D, 0x0E):
        values = [0.5, -1.25, 3.0, 1e3, -7.75, 2.0]
    raw = by_hand(code, values, (2, 3))
    arr = idx.parse_idx(raw, "x")
    assert arr.dtype == np.dtype(dtype) and arr.shape == (2, 3)
    np.testing.assert_array_equal(arr, np.array(values, dtype).reshape(2, 3))
    f = tmp_path / "x.idx"
    idx.write_idx(f, np.array(values, dtype).reshape(2, 3))
    assert f.read_bytes() == raw


def test_wrong_magic_refused_in_one_line():
    raw = by_hand(0x08, [1, 2], (2,))
    with pytest.raises(DataError) as e:
        idx.parse_idx(raw, "labels", magic=idx.IMAGES_MAGIC)
    msg = one_line(e, "labels")
    assert str(idx.IMAGES_MAGIC) in msg and str(0x0801) in msg
    assert idx.parse_idx(raw, "labels", magic=0x0801).tolist() == [1, 2]


@pytest.mark.parametrize("raw", [b"\x00\x00\x08", b"\x00\x00\x08\x02\x00\x00\x00\x02",
                                 b"\x01\x00\x08\x01\x00\x00\x00\x01\x05", b"\x00\x00\x07\x01\x00\x00\x00\x01\x05",
                                 b"\x00\x00\x08\x00"])
def test_short_or_bad_headers_refused_in_one_line(raw):
    with pytest.raises(DataError) as e:
        idx.parse_idx(raw, "f.idx")
    one_line(e, "f.idx")


@pytest.mark.parametrize("cut", [-1, 1])
def test_body_short_or_long_refused_in_one_line(cut):
    raw = by_hand(0x0C, [1, 2, 3], (3,))
    raw = raw[:-1] if cut < 0 else raw + b"\x00"
    with pytest.raises(DataError) as e:
        idx.parse_idx(raw, "g.idx")
    one_line(e, "g.idx")


def test_gzip_by_content_not_name_and_damaged_stream_refused(tmp_path):
    raw = by_hand(0x0B, [1, -300, 7], (3,))
    f = tmp_path / "plain-name"
    f.write_bytes(gzip.compress(raw))
    assert idx.read_idx(f).tolist() == [1, -300, 7]
    g = tmp_path / "cut.gz"
    g.write_bytes(gzip.compress(raw)[:-6])
    with pytest.raises(DataError) as e:
        idx.read_idx(g)
    one_line(e, str(g))


def test_gzip_output_does_not_depend_on_the_clock(tmp_path, monkeypatch):
    arr = np.arange(12, dtype=np.uint8).reshape(3, 4)
    outs = []
    for now in (1.0e9, 2.0e9):
        monkeypatch.setattr(gzip.time, "time", lambda now=now: now)
        f = tmp_path / f"{int(now)}.gz"
        idx.write_idx(f, arr)
        outs.append(f.read_bytes())
    assert outs[0] == outs[1]
    assert outs[0][:2] == b"\x1f\x8b" and outs[0][4:8] == b"\x00\x00\x00\x00"   # RFC 1952: MTIME 0, none stored
    assert gzip.decompress(outs[0]) == by_hand(0x08, list(range(12)), (3, 4))


def test_directory_refused_in_one_line(tmp_path):
    d = tmp_path / "train-images-idx3-ubyte"
    d.mkdir()
    with pytest.raises(DataError) as e:
        idx.read_idx(d)
    one_line(e, str(d))


def test_missing_file_refused_in_one_line(tmp_path):
    with pytest.raises(DataError) as e:
        idx.read_idx(tmp_path / "nope")
    one_line(e, "nope")


def test_directory_with_a_files_name_is_not_the_file(tmp_path):
    images = np.arange(3 * 2 * 2, dtype=np.uint8).reshape(3, 2, 2)
    labels = np.array([4, 0, 9], np.uint8)
    (tmp_path / "train-images-idx3-ubyte").write_bytes(by_hand(0x08, images.ravel().tolist(), (3, 2, 2)))
    (tmp_path / "train-labels-idx1-ubyte").write_bytes(by_hand(0x08, labels.tolist(), (3,)))
    (tmp_path / "train-images-idx3-ubyte.gz").mkdir()              # a folder, say an unpacked archive's
    (tmp_path / "train-labels-idx1-ubyte.gz").mkdir()
    assert idx.mnist_files_present(str(tmp_path), "train")
    x, y = idx.load_mnist_split(str(tmp_path), "train")
    np.testing.assert_array_equal(x, images)
    assert y.tolist() == [4, 0, 9] and y.dtype == np.int64
    assert not idx.mnist_files_present(str(tmp_path), "t10k")
