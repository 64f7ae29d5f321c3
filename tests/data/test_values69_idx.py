"""lnrnn/data/idx.py against IDX files written here byte by byte from the format's definition (two zero bytes, a
type code, the number of dimensions, each dimension as a 4-byte big-endian integer, then the values big-endian):
every type code's values (signed bytes in two's complement, shorts most significant byte first), unsigned bytes
over their whole range, magic numbers, dimension counts, a file one byte short or long, gzip or not, a gzip file
cut short (one line naming it, no traceback), the four spellings of an MNIST file looked for in --data-dir, and
the missing one of a pair named."""
import gzip
import os
import struct

import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.errors import DataError


def idx_bytes(code, dims, payload):
    return bytes([0, 0, code, len(dims)]) + b"".join(d.to_bytes(4, "big") for d in dims) + payload


def test_unsigned_bytes_over_their_whole_range():
    arr = idx.parse_idx(idx_bytes(0x08, (16, 16), bytes(range(256))))
    assert arr.dtype == np.uint8 and arr.shape == (16, 16)
    assert arr.ravel().tolist() == list(range(256))


def test_signed_bytes_are_twos_complement():
    raw = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
    arr = idx.parse_idx(idx_bytes(0x09, (6,), bytes(raw)))
    assert arr.dtype == np.int8
    assert arr.tolist() == [v - 256 if v >= 128 else v for v in raw]


@pytest.mark.parametrize("code,fmt,values", [
    (0x0B, ">h", [1, -2, 258, -32768, 32767]),
    (0x0C, ">i", [1, -2, 65539, -(2 ** 31), 2 ** 31 - 1]),
    (0x0D, ">f", [1.5, -2.25, 1e-3, 3e4, 0.0]),
    (0x0E, ">d", [1.5, -2.25, 1e-300, 3e200, -0.0]),
])
def test_wider_types_are_read_big_endian(code, fmt, values):
    payload = b"".join(struct.pack(fmt, v) for v in values)
    arr = idx.parse_idx(idx_bytes(code, (len(values),), payload))
    want = [struct.unpack(fmt, struct.pack(fmt, v))[0] for v in values]
    assert arr.tolist() == want
    assert arr.dtype.isnative


def test_dimension_counts_give_the_shape():
    arr = idx.parse_idx(idx_bytes(0x08, (2, 3, 4), bytes(range(24))))
    assert arr.shape == (2, 3, 4)
    assert arr[1, 2, 3] == 1 * 12 + 2 * 4 + 3          # row-major: the last index varies fastest


def test_magic_numbers_are_the_code_and_dimension_count():
    images = idx_bytes(0x08, (1, 2, 2), bytes(4))
    labels = idx_bytes(0x08, (3,), bytes(3))
    assert idx.parse_idx(images, magic=0x08 * 256 + 3).shape == (1, 2, 2)   # 2051
    assert idx.parse_idx(labels, magic=0x08 * 256 + 1).shape == (3,)       # 2049
    with pytest.raises(DataError, match="bad magic number"):
        idx.parse_idx(labels, "x", magic=idx.IMAGES_MAGIC)


@pytest.mark.parametrize("cut", [-1, +1])
def test_a_file_a_byte_short_or_long_is_refused(cut):
    raw = idx_bytes(0x0B, (3,), bytes(6))
    raw = raw[:cut] if cut < 0 else raw + b"\x00"
    with pytest.raises(DataError, match="truncated" if cut < 0 else "bytes after"):
        idx.parse_idx(raw, "f")


def test_gzip_or_not_reads_the_same(tmp_path):
    raw = idx_bytes(0x09, (2, 3), bytes([0xFF, 1, 2, 0x80, 4, 5]))
    (tmp_path / "a").write_bytes(raw)
    (tmp_path / "a.gz").write_bytes(gzip.compress(raw))
    plain, packed = idx.read_idx(tmp_path / "a"), idx.read_idx(tmp_path / "a.gz")
    assert plain.tolist() == packed.tolist() == [[-1, 1, 2], [-128, 4, 5]]


@pytest.mark.parametrize("keep", [10, 30, -6, -1])
def test_a_gzip_file_cut_short_is_one_data_error(tmp_path, keep):
    raw = idx_bytes(0x08, (50,), bytes(range(50)))
    path = tmp_path / "cut.gz"
    path.write_bytes(gzip.compress(raw)[:keep])
    with pytest.raises(DataError, match="cut.gz"):
        idx.read_idx(path)


def write_pair(folder, images_name, labels_name, n=3):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (n, 2, 2)).astype(np.uint8)
    labels = np.array([7, 0, 9][:n], np.uint8)
    for name, magic_dims, arr in ((images_name, (n, 2, 2), images), (labels_name, (n,), labels)):
        raw = idx_bytes(0x08, magic_dims, arr.tobytes())
        (folder / name).write_bytes(gzip.compress(raw) if name.endswith(".gz") else raw)
    return images, labels


@pytest.mark.parametrize("suffix", ["-idx{}-ubyte.gz", "-idx{}-ubyte", ".idx{}-ubyte.gz", ".idx{}-ubyte"])
def test_every_spelling_of_the_files_is_found(tmp_path, suffix):
    images, labels = write_pair(tmp_path, "t10k-images" + suffix.format(3), "t10k-labels" + suffix.format(1))
    got_images, got_labels = idx.load_mnist_split(str(tmp_path), "t10k")
    assert got_images.tolist() == images.tolist() and got_labels.tolist() == labels.tolist()
    assert idx.mnist_files_present(str(tmp_path), "t10k")


@pytest.mark.parametrize("present,absent", [("images", "labels"), ("labels", "images")])
def test_the_missing_file_of_the_pair_is_the_one_named(tmp_path, present, absent):
    write_pair(tmp_path, "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")
    os.unlink(tmp_path / f"t10k-{absent}-idx{3 if absent == 'images' else 1}-ubyte")
    with pytest.raises(DataError) as e:
        idx.load_mnist_split(str(tmp_path), "t10k")
    assert f"t10k-{absent}-" in str(e.value) and f"t10k-{present}-" not in str(e.value), str(e.value)


@pytest.mark.parametrize("dims", [(2 ** 31, 2 ** 31, 4), (2 ** 32 - 1, 2 ** 32 - 1), (65536, 65536, 65536, 65536)])
def test_a_header_whose_size_overflows_64_bits_is_refused_as_truncated(dims):
    # the size the header promises, in Python's integers, is far past the bytes present: one DataError naming
    # the shape, never a wrapped-around product that passes the size checks and fails at reshape
    size = 1
    for d in dims:
        size *= d
    assert size >= 2 ** 63  # past what an int64 holds
    with pytest.raises(DataError, match=r"is truncated: its header promises shape"):
        idx.parse_idx(idx_bytes(0x08, dims, b""))
