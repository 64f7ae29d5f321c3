"""The tasks' counts in their descriptions, against sizes chosen here: MNIST-family files written here (3 rows of
5 pixels) split 7/11 from 20 t10k images (the images drawn at the seed-0 permutation worked out here), 7 train
and 11 t10k images without --split, and the copy task's 10000 train / 1000 validation sequences."""
import numpy as np

from lnrnn.data import idx
from lnrnn.data.tasks import load_task, task_spec


def _write(folder, split, n):
    images = (np.arange(n * 15).reshape(n, 3, 5) % 256).astype(np.uint8)   # image i starts with pixel 15 i
    idx.write_idx(folder / idx.MNIST_FILES[split][0], images)
    idx.write_idx(folder / idx.MNIST_FILES[split][1], (np.arange(n) % 10).astype(np.uint8))
    return images


def test_split_of_the_t10k_files_counted_train_then_validation(tmp_path):
    images = _write(tmp_path, "t10k", 20)
    d = load_task(task_spec("mnist", data_dir=str(tmp_path), split="7/11"))
    assert (len(d.x_train), len(d.x_val)) == (7, 11)
    assert d.description == (f"mnist from {tmp_path} read pixel by pixel (15 steps of 1), 7 train / 11 "
                             "validation images split from the t10k files, 10 classes")
    perm = np.random.default_rng(0).permutation(20)
    np.testing.assert_array_equal(d.x_train[:, :, 0], images[perm[:7]].reshape(7, 15))
    np.testing.assert_array_equal(d.y_val, perm[7:18] % 10)


def test_train_and_t10k_files_counted_each_as_itself(tmp_path):
    _write(tmp_path, "train", 7)
    _write(tmp_path, "t10k", 11)
    d = load_task(task_spec("mnist-rows", data_dir=str(tmp_path)))
    assert (len(d.x_train), len(d.x_val)) == (7, 11)
    assert d.description == (f"mnist-rows from {tmp_path} read row by row (3 steps of 5), 7 train images, 11 t10k "
                             "images for validation, 10 classes")


def test_copy_description_counts_train_then_validation():
    d = load_task(task_spec("copy", steps=3))
    assert (len(d.x_train), len(d.x_val)) == (10000, 1000)
    # 3 blanks between 10 symbols and their recall: 3 + 2 * 10 steps
    assert d.description == ("copy memory: recall 10 symbols after 3 blanks (23 steps, per-step head scored on "
                             "the last 10), 10000 train / 1000 validation sequences")


def test_copy_description_says_one_blank_in_the_singular():
    """--steps 1 (the least the copy task takes): "after 1 blank", 1 + 2 * 10 = 21 steps; 2 in the plural."""
    d = load_task(task_spec("copy", steps=1))
    assert d.description.startswith("copy memory: recall 10 symbols after 1 blank (21 steps, ")
    two = load_task(task_spec("copy", steps=2)).description
    assert two.startswith("copy memory: recall 10 symbols after 2 blanks (22 steps, ")
