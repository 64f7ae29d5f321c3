"""lnrnn/data/idx.py's headers, thirteenth pass: arrays read row-major in the shape their header's dimensions give
(a 2 x 3 int16 array and a 2 x 3 x 4 uint8 array, bytes packed in the test); an images file given as the labels
refused by its magic (2051, expected 2049) word for word; image and label counts of 1 and 0, 2 and 1 named word
for word with their plurals."""
import struct

import numpy as np

from lnrnn.data.idx import load_mnist_split, parse_idx
from test_values186_idx import _folder, _pack  # a train folder of two files; an IDX file of a uint8 array
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_arrays_read_row_major_in_the_headers_shape():
    raw = b"\x00\x00\x0b\x02" + (2).to_bytes(4, "big") + (3).to_bytes(4, "big") + struct.pack(">6h", 1, -2, 3, 400,
                                                                                              -500, 6)
    got = parse_idx(raw)
    assert got.shape == (2, 3) and got.dtype == np.int16
    assert got.tolist() == [[1, -2, 3], [400, -500, 6]]
    cube = parse_idx(bytes([0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4]) + bytes(range(24)))
    assert cube.shape == (2, 3, 4)
    assert cube[1, 2].tolist() == [20, 21, 22, 23] and cube[0, 1, 3] == 7


def test_an_images_file_given_as_the_labels_is_refused_by_its_magic(tmp_path):
    folder, img, lab = _folder(tmp_path / "d", _pack(np.zeros((2, 2, 2))), _pack(np.zeros((2, 2, 2))))
    assert refused(load_mnist_split, folder, "train") == (
        f"{lab} has a bad magic number (2051, expected 2049); it is not the IDX file its name says.")


def test_one_image_against_zero_labels_is_counted_word_for_word(tmp_path):
    folder, img, lab = _folder(tmp_path / "a", _pack(np.zeros((1, 2, 2))), _pack(np.zeros((0,))))
    assert refused(load_mnist_split, folder, "train") == (
        f"{img} holds 1 image but {lab} holds 0 labels; the two files do not belong together.")
    folder, img, lab = _folder(tmp_path / "b", _pack(np.zeros((2, 2, 2))), _pack(np.zeros((1,))))
    assert refused(load_mnist_split, folder, "train") == (
        f"{img} holds 2 images but {lab} holds 1 label; the two files do not belong together.")
