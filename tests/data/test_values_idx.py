"""lnrnn/data/idx.py at its edges: MNIST-family labels 0-9 (9 passes, 10 is refused), a file of 3 bytes and a
header of 0 dimensions refused as DataErrors that say what they are."""
import os

import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.data.idx import load_mnist_split, parse_idx, write_idx
from lnrnn.errors import DataError
from test_data import fake_mnist


def test_label_nine_passes_and_ten_is_refused(tmp_path):
    d = fake_mnist(tmp_path / "m", n_train=None, n_test=4)
    labels = os.path.join(d, idx.MNIST_FILES["t10k"][1] + ".gz")
    write_idx(labels, np.array([0, 9, 9, 1], np.uint8))
    assert load_mnist_split(d, "t10k")[1].tolist() == [0, 9, 9, 1]
    write_idx(labels, np.array([0, 10, 9, 1], np.uint8))
    with pytest.raises(DataError, match="holds label 10; MNIST-family labels are 0-9"):
        load_mnist_split(d, "t10k")


@pytest.mark.parametrize("raw,words", [
    (b"\x00\x00\x08", r"too short to be an IDX file \(3 bytes\)"),
    (b"\x00\x00\x08\x00\x07", "is not an IDX file"),      # 0 dimensions: no array, even of one value
])
def test_three_bytes_and_zero_dimensions_are_refused(raw, words):
    with pytest.raises(DataError, match=words):
        parse_idx(raw, "f.idx")
