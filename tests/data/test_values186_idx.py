"""lnrnn/data/idx.py against IDX files packed here by hand (magic 0 0 type ndim, then each dimension as four
big-endian bytes, then the items): the MNIST magics by the format's definition, a wrong magic and a truncated
file refused in one exact sentence with the counts taken here, write_idx's compress=False obeyed on a .gz name,
and load_mnist_split's refusals naming the right file: a missing file, a folder lacking both files, a file
given as the folder, int16 images (by their magic), images and labels of different counts."""
import os

import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.data.idx import load_mnist_split, parse_idx, read_idx, write_idx
from lnrnn.errors import DataError

UBYTE = 0x08


def _pack(arr, code=UBYTE):
    """An IDX file of a uint8 array, byte by byte."""
    arr = np.asarray(arr, np.uint8)
    head = bytes([0, 0, code, arr.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in arr.shape)
    return head + arr.tobytes()


def _folder(path, images, labels, split="train"):
    os.makedirs(path, exist_ok=True)
    img, lab = (os.path.join(path, s) for s in idx.MNIST_FILES[split])
    with open(img, "wb") as f:
        f.write(images)
    with open(lab, "wb") as f:
        f.write(labels)
    return str(path), img, lab


def test_the_mnist_magics_are_the_formats_and_a_hand_packed_split_loads(tmp_path):
    # magic = type byte * 256 + number of dimensions: images (N, rows, cols), labels (N,)
    assert (idx.IMAGES_MAGIC, idx.LABELS_MAGIC) == (UBYTE * 256 + 3, UBYTE * 256 + 1)
    images = np.arange(12).reshape(3, 2, 2)
    d, _, _ = _folder(tmp_path / "m", _pack(images), _pack([2, 0, 9]))
    got_images, got_labels = load_mnist_split(d, "train")
    np.testing.assert_array_equal(got_images, images)
    assert got_labels.tolist() == [2, 0, 9]


def test_a_wrong_magic_is_named_as_read_big_endian(tmp_path):
    path = tmp_path / "labels.idx"
    path.write_bytes(_pack([1, 2, 3]))
    found = UBYTE * 256 + 1
    with pytest.raises(DataError) as e:
        read_idx(path, idx.IMAGES_MAGIC)
    assert str(e.value) == (f"{path} has a bad magic number ({found}, expected {UBYTE * 256 + 3}); "
                            "it is not the IDX file its name says.")


@pytest.mark.parametrize("cut", [1, 6])
def test_a_truncated_file_is_refused_in_one_exact_sentence(cut):
    raw = _pack(np.arange(6).reshape(2, 3))[:-cut]
    whole = 4 + 2 * 4 + 2 * 3                                       # magic, two dimensions, six items
    with pytest.raises(DataError) as e:
        parse_idx(raw, "f.idx")
    assert str(e.value) == (f"f.idx is truncated: its header promises shape (2, 3) ({whole} bytes) "
                            f"but it holds {whole - cut} bytes; download it again.")


def test_compress_false_writes_a_gz_name_plain_and_true_gzips_any_name(tmp_path):
    arr = np.array([[7, 8], [9, 10]], np.uint8)
    write_idx(tmp_path / "a.idx.gz", arr, compress=False)
    assert (tmp_path / "a.idx.gz").read_bytes() == _pack(arr)
    write_idx(tmp_path / "b.idx", arr, compress=True)
    assert (tmp_path / "b.idx").read_bytes()[:2] == b"\x1f\x8b"
    np.testing.assert_array_equal(read_idx(tmp_path / "b.idx"), arr)


def test_a_missing_file_is_said_not_to_exist(tmp_path):
    path = tmp_path / "nothing.idx"
    with pytest.raises(DataError) as e:
        read_idx(path)
    assert str(e.value) == f"IDX file {path} does not exist."


def test_a_folder_lacking_both_files_names_both(tmp_path):
    with pytest.raises(DataError) as e:
        load_mnist_split(str(tmp_path), "t10k")
    img, lab = idx.MNIST_FILES["t10k"]
    assert str(e.value) == f"{tmp_path} lacks {img}[.gz] and {lab}[.gz]; {idx.GET_DATA_HINT}."


def test_a_file_given_as_the_folder_is_refused_as_no_folder(tmp_path):
    path = tmp_path / "notafolder"
    path.write_bytes(_pack([1]))
    with pytest.raises(DataError) as e:
        load_mnist_split(str(path), "train")
    assert str(e.value) == f"data directory {path} does not exist ({idx.GET_DATA_HINT})."


def test_int16_images_are_refused_by_their_magic(tmp_path):
    """The magic holds the item type: int16 images (type 0x0B) never reach the uint8 check after it."""
    images = np.arange(8, dtype=">i2").reshape(2, 2, 2)
    head = bytes([0, 0, 0x0B, 3]) + b"".join(d.to_bytes(4, "big") for d in (2, 2, 2))
    d, img, _ = _folder(tmp_path / "m", head + images.tobytes(), _pack([1, 2]))
    with pytest.raises(DataError) as e:
        load_mnist_split(d, "train")
    assert str(e.value) == (f"{img} has a bad magic number ({0x0B * 256 + 3}, expected {UBYTE * 256 + 3}); "
                            "it is not the IDX file its name says.")


def test_images_and_labels_of_different_counts_name_both_files(tmp_path):
    d, img, lab = _folder(tmp_path / "m", _pack(np.zeros((3, 2, 2))), _pack([1, 2]))
    with pytest.raises(DataError) as e:
        load_mnist_split(d, "train")
    assert str(e.value) == (f"{img} holds 3 images but {lab} holds 2 labels; "
                            "the two files do not belong together.")
