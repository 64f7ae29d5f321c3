"""lnrnn/data/idx.py and lnrnn/data/hershey.py: IDX files packed byte by byte here (test_values186's packer), the
t10k split read from its own files beside the training ones, a label past 9 named by its value, a dtype IDX cannot
store refused word for word with nothing written; Hershey line texts, whose inner marks are INNER_MARKS followed by
a space: over 2000 lines of one stream each of ',', ';' and ':' turns up."""
import re

import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.idx import load_mnist_split, write_idx
from test_values186_idx import _folder, _pack  # a split's two files in a folder; an IDX file of a uint8 array
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_the_t10k_split_reads_its_own_files(tmp_path):
    folder = tmp_path / "d"
    _folder(folder, _pack(np.full((2, 2, 3), 9)), _pack([1, 2]), "train")
    _folder(folder, _pack(np.arange(6).reshape(1, 2, 3)), _pack([7]), "t10k")
    images, labels = load_mnist_split(str(folder), "t10k")
    assert images.tolist() == [[[0, 1, 2], [3, 4, 5]]]
    assert labels.tolist() == [7] and labels.dtype == np.int64
    images, labels = load_mnist_split(str(folder), "train")
    assert images.shape == (2, 2, 3) and labels.tolist() == [1, 2]


def test_a_label_past_9_is_named_by_its_value(tmp_path):
    folder, img, lab = _folder(tmp_path / "d", _pack(np.zeros((3, 2, 2))), _pack([3, 12, 5]))
    assert refused(load_mnist_split, folder, "train") == f"{lab} holds label 12; MNIST-family labels are 0-9."


@pytest.mark.parametrize("dtype, name", [(np.int64, "int64"), (np.float16, "float16"), (np.uint16, "uint16")])
def test_a_dtype_idx_cannot_store_is_refused_with_nothing_written(tmp_path, dtype, name):
    with pytest.raises(ValueError) as e:
        write_idx(tmp_path / "x-idx1-ubyte", np.zeros(3, dtype))
    assert str(e.value) == f"IDX cannot store dtype {name}"
    assert list(tmp_path.iterdir()) == []


def test_every_inner_mark_turns_up_followed_by_a_space():
    texts = hershey.line_texts(np.random.default_rng(0), 2000)
    found = {m for t in texts for m in re.findall(r"([,;:]) ", t)}
    assert found == set(hershey.INNER_MARKS) == {",", ";", ":"}
