"""lnrnn/data/idx.py on IDX files written out by hand (magic 0x00 0x00 <type code> <ndim>, big-endian uint32 dims,
big-endian data; gzip by its first two bytes 0x1f 0x8b): write_idx's bytes for one uint8 image (N = 1, the dim
kept) and for int16 values past one byte, gzip for a .gz name or compress=True and plain for compress=False, a
rewrite replacing the file, a dtype IDX has no code for refused word for word with nothing written; read_idx of a
gzip file made here; the MNIST directory under the standard file names (plain and .gz), one file missing refused
word for word, and mnist_files_present only when both files are there."""
import gzip
import struct

import numpy as np
import pytest

from lnrnn.data.idx import load_mnist_split, mnist_files_present, read_idx, write_idx
from lnrnn.errors import DataError

HINT = "get them with `lnrnn data mnist --dest DIR` (see data/README.md)"


def idx_bytes(code, dims, payload):
    """Header by hand: two zero bytes, the type code, ndim, then each dim as a big-endian uint32."""
    return bytes([0, 0, code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + payload


# one 2 x 3 uint8 image (N = 1), and labels [7] / [0, 9]
ONE_IMAGE = idx_bytes(0x08, (1, 2, 3), bytes([0, 1, 2, 250, 254, 255]))
ONE_LABEL = idx_bytes(0x08, (1,), bytes([7]))


def test_one_uint8_image_written_byte_for_byte(tmp_path):
    p = tmp_path / "img"
    write_idx(p, np.array([[[0, 1, 2], [250, 254, 255]]], np.uint8))
    assert p.read_bytes() == ONE_IMAGE == b"\x00\x00\x08\x03" + b"\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x03" \
        + b"\x00\x01\x02\xfa\xfe\xff"


def test_int16_past_one_byte_gzip_by_name_and_by_flag(tmp_path):
    arr = np.array([-2, 300, 7], np.int16)
    want = idx_bytes(0x0B, (3,), b"\xff\xfe\x01\x2c\x00\x07")
    write_idx(tmp_path / "a.gz", arr)
    write_idx(tmp_path / "b", arr, compress=True)
    write_idx(tmp_path / "c.gz", arr, compress=False)
    write_idx(tmp_path / "d", arr)
    for name in ("a.gz", "b"):
        raw = (tmp_path / name).read_bytes()
        assert raw[:2] == b"\x1f\x8b" and gzip.decompress(raw) == want
    assert (tmp_path / "c.gz").read_bytes() == want and (tmp_path / "d").read_bytes() == want


def test_a_rewrite_replaces_the_file(tmp_path):
    p = tmp_path / "labels"
    write_idx(p, np.array([1, 2, 3, 4], np.uint8))
    write_idx(p, np.array([9, 8], np.uint8))
    assert p.read_bytes() == idx_bytes(0x08, (2,), b"\x09\x08")


def test_float16_refused_word_for_word_with_nothing_written(tmp_path):
    p = tmp_path / "h.gz"
    with pytest.raises(ValueError) as e:
        write_idx(p, np.ones(3, np.float16))
    assert str(e.value) == "IDX cannot store dtype float16"
    assert not p.exists()


def test_a_gzip_file_made_here_reads_back(tmp_path):
    p = tmp_path / "x"      # no .gz in the name: gzip is decided by the first two bytes
    p.write_bytes(gzip.compress(idx_bytes(0x0C, (2, 1), struct.pack(">2i", -70000, 5))))
    got = read_idx(p)
    assert got.dtype == np.int32 and got.shape == (2, 1) and got.ravel().tolist() == [-70000, 5]


def test_mnist_split_under_the_standard_names(tmp_path):
    (tmp_path / "train-images-idx3-ubyte.gz").write_bytes(gzip.compress(ONE_IMAGE))
    (tmp_path / "train-labels-idx1-ubyte.gz").write_bytes(gzip.compress(ONE_LABEL))
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(idx_bytes(0x08, (2, 1, 1), bytes([3, 4])))
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(idx_bytes(0x08, (2,), bytes([0, 9])))
    images, labels = load_mnist_split(str(tmp_path), "train")
    assert images.shape == (1, 2, 3) and images.dtype == np.uint8 and images[0, 1].tolist() == [250, 254, 255]
    assert labels.dtype == np.int64 and labels.tolist() == [7]
    images, labels = load_mnist_split(str(tmp_path), "t10k")
    assert images.ravel().tolist() == [3, 4] and labels.tolist() == [0, 9]


def test_one_file_missing_refused_word_for_word(tmp_path):
    (tmp_path / "train-images-idx3-ubyte").write_bytes(ONE_IMAGE)
    with pytest.raises(DataError) as e:
        load_mnist_split(str(tmp_path), "train")
    assert str(e.value) == f"{tmp_path} lacks train-labels-idx1-ubyte[.gz]; {HINT}."


def test_files_present_only_when_both_are(tmp_path):
    d = str(tmp_path)
    assert mnist_files_present(d, "train") is False and mnist_files_present(d, "t10k") is False
    (tmp_path / "t10k-labels-idx1-ubyte.gz").write_bytes(gzip.compress(ONE_LABEL))
    assert mnist_files_present(d, "t10k") is False
    (tmp_path / "t10k-images-idx3-ubyte.gz").write_bytes(gzip.compress(ONE_IMAGE))
    assert mnist_files_present(d, "t10k") is True and mnist_files_present(d, "train") is False
