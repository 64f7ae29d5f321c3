"""lnrnn/data/idx.py byte by byte: a header cut inside its dimensions, one byte after the array, write_idx's
gzip by name (the bytes on disk, not a round trip: read_idx would read either), the other spelling of the
MNIST file names (train-images.idx3-ubyte)."""
import gzip
import os

import numpy as np
import pytest

from lnrnn.data.idx import load_mnist_split, parse_idx, write_idx
from lnrnn.errors import DataError

# a uint8 (2, 3) array by hand: magic 0 0 8 2, dims 2 and 3 big-endian, then six bytes
HEADER = b"\x00\x00\x08\x02" + (2).to_bytes(4, "big") + (3).to_bytes(4, "big")
DATA = bytes([1, 2, 3, 4, 5, 6])


def test_hand_made_file_parses():
    np.testing.assert_array_equal(parse_idx(HEADER + DATA), [[1, 2, 3], [4, 5, 6]])


def test_header_cut_inside_its_dimensions_is_refused_as_such():
    with pytest.raises(DataError, match="truncated inside its IDX header"):
        parse_idx(HEADER[:8], "f.idx")  # magic and the first of two dimensions


def test_one_byte_after_the_array_is_refused():
    with pytest.raises(DataError, match="has 1 bytes after the"):
        parse_idx(HEADER + DATA + b"\x00", "f.idx")


@pytest.mark.parametrize("name,gz", [("a.gz", True), ("a.idx", False), ("a-gz", False)])
def test_write_idx_gzips_exactly_the_gz_names(tmp_path, name, gz):
    write_idx(tmp_path / name, np.array([[1, 2, 3], [4, 5, 6]], np.uint8))
    raw = (tmp_path / name).read_bytes()
    assert (raw[:2] == b"\x1f\x8b") == gz
    assert (gzip.decompress(raw) if gz else raw) == HEADER + DATA


def _mnist(folder, names, labels):
    os.makedirs(folder, exist_ok=True)
    images = np.arange(len(labels) * 4, dtype=np.uint8).reshape(len(labels), 2, 2)
    write_idx(os.path.join(folder, names[0]), images)
    write_idx(os.path.join(folder, names[1]), labels)
    return images


def test_the_dotted_spelling_of_the_file_names_is_found(tmp_path):
    labels = np.array([3, 1, 4], np.uint8)
    images = _mnist(tmp_path / "m", ("t10k-images.idx3-ubyte", "t10k-labels.idx1-ubyte"), labels)
    got_images, got_labels = load_mnist_split(str(tmp_path / "m"), "t10k")
    np.testing.assert_array_equal(got_images, images)
    assert got_labels.tolist() == [3, 1, 4] and got_labels.dtype == np.int64

