"""lnrnn/predict_io.py's inputs, against definitions applied here element by element: a uint8 .npy for an
MNIST-family run is value / 255 (255 reads as 1.0, the task's own top), IDX images written byte by byte are read
row-major pixel by pixel (pixel (r, c) at step r*cols + c), in the pmnist task's permutation (step t holds pixel
perm[t], as the task indexes its own images), a folder's IDX images files are its files, never a subfolder named
like one; check_like_training compares the sequences' length (axis 1), not their count, with the training
length."""
import struct

import numpy as np

from lnrnn.data.tasks import pmnist_permutation
from lnrnn.predict_io import check_like_training, read_inputs

IMAGES = (np.arange(2 * 3 * 4).reshape(2, 3, 4) * 11 % 256).astype(np.uint8)  # (n, rows, cols), not square


def write_idx(path, images):
    n, rows, cols = images.shape
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 3]) + struct.pack(">III", n, rows, cols) + images.tobytes())


def test_a_uint8_npy_for_an_mnist_run_is_scaled_by_1_over_255(tmp_path):
    u8 = np.array([[0, 1, 128, 254, 255]], np.uint8)
    np.save(tmp_path / "x.npy", u8)
    for task in ("mnist", "pmnist"):
        x, where = read_inputs([tmp_path / "x.npy"], task, 1)
        assert x.shape == (1, 5, 1) and where == [(str(tmp_path / "x.npy"), 0, 1)]
        for t in range(5):
            assert abs(float(x[0, t, 0]) - u8[0, t] / 255.0) < 1e-6
        assert float(x.max()) == 1.0
    x, _ = read_inputs([tmp_path / "x.npy"], "digits", 1)                   # other tasks: as they are
    np.testing.assert_array_equal(x[0, :, 0], u8[0].astype(np.float64))


def test_idx_images_are_read_row_major_pixel_by_pixel(tmp_path):
    write_idx(tmp_path / "t10k-images-idx3-ubyte", IMAGES)
    x, _ = read_inputs([tmp_path / "t10k-images-idx3-ubyte"], "mnist", 1)
    n, rows, cols = IMAGES.shape
    assert x.shape == (n, rows * cols, 1)
    for i in range(n):
        for r in range(rows):
            for c in range(cols):
                assert abs(float(x[i, r * cols + c, 0]) - IMAGES[i, r, c] / 255.0) < 1e-6


def test_pmnist_steps_follow_the_tasks_permutation(tmp_path):
    write_idx(tmp_path / "t10k-images-idx3-ubyte", IMAGES)
    x, _ = read_inputs([tmp_path / "t10k-images-idx3-ubyte"], "pmnist", 1)
    n, rows, cols = IMAGES.shape
    perm = pmnist_permutation(rows * cols)
    assert not np.array_equal(perm, np.argsort(perm))                         # not its own inverse
    for i in range(n):
        flat = [IMAGES[i, r, c] for r in range(rows) for c in range(cols)]
        for t in range(rows * cols):
            assert abs(float(x[i, t, 0]) - flat[perm[t]] / 255.0) < 1e-6


def test_a_folder_gives_its_idx_files_not_a_subfolder_named_like_one(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a-images-idx3-ubyte").mkdir()                                  # a folder, sorted first
    (folder / "a-images-idx3-ubyte" / "x").write_bytes(b"")
    write_idx(folder / "t10k-images-idx3-ubyte", IMAGES)
    x, where = read_inputs([folder], "mnist-rows", 4)
    assert where == [(str(folder / "t10k-images-idx3-ubyte"), 0, 2)]
    np.testing.assert_allclose(x, IMAGES.astype(np.float64) / 255.0, rtol=1e-6)


def test_the_training_length_is_compared_with_the_length_not_the_count():
    record = {"steps": 3}
    assert check_like_training(np.zeros((5, 3, 1)), record) == []             # 5 sequences of 3 steps
    assert check_like_training(np.zeros((3, 5, 1)), record) == \
        ["they have 5 steps where the training sequences had 3"]
    assert check_like_training(np.zeros((4, 6, 1)), {"steps": [2, 5]}) == \
        ["they have 6 steps where the training sequences had 2 to 5"]
    assert check_like_training(np.zeros((9, 4, 1)), {"steps": [2, 5]}) == []
