"""The classification tasks' sizes before they are built (``tasks.task_shape``, what the memory check reads)
against the arrays the same specs build: the MNIST family's images and labels of a --split carved from small
t10k files, and the copy task's one-hot inputs, labels and the codes drawn while building; the copy task
with one blank (--steps 1, the delimiter on it) builds."""
import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_shape, task_spec


def small_t10k(folder, n, seed=0):
    rng = np.random.default_rng(seed)
    img, lab = idx.MNIST_FILES["t10k"]
    idx.write_idx(folder / img, rng.integers(0, 256, (n, 28, 28), dtype=np.uint8))
    idx.write_idx(folder / lab, rng.integers(0, 10, n).astype(np.uint8))
    return str(folder)


def stored_bytes(task):
    return sum(a.nbytes for a in (task.x_train, task.y_train, task.x_val, task.y_val))


@pytest.mark.parametrize("name", ["mnist", "pmnist", "mnist-rows"])
def test_the_mnist_familys_bytes_are_its_images_and_labels(tmp_path, name):
    spec = task_spec(name, data_dir=small_t10k(tmp_path, 13), split="7/5")
    shape = task_shape(spec)
    task = load_task(spec)
    assert (shape.n_train, shape.n_val) == (len(task.x_train), len(task.x_val)) == (7, 5)
    assert (shape.steps, shape.inputs) == task.x_train.shape[1:]
    assert shape.data_bytes == stored_bytes(task)          # 784 uint8 pixels and an int64 label per image
    assert task.y_train.dtype == np.int64


@pytest.mark.parametrize("steps", [1, 3])
def test_the_copy_tasks_bytes_count_inputs_labels_and_the_codes_drawn(steps):
    spec = task_spec("copy", steps=steps)
    shape = task_shape(spec)
    task = load_task(spec)
    n, T = len(task.x_train) + len(task.x_val), steps + 2 * COPY_SYMBOLS
    assert task.x_train.shape[1:] == (T, COPY_ALPHABET + 2) and task.y_train.shape[1:] == (T,)
    assert (shape.steps, shape.inputs, shape.n_train + shape.n_val) == (T, COPY_ALPHABET + 2, n)
    assert shape.data_bytes == stored_bytes(task) + n * T * 8   # + the (T,) int64 codes of each sequence drawn


def test_copy_with_one_blank_puts_the_delimiter_on_it():
    task = load_task(task_spec("copy", steps=1))
    x = task.x_train[:50]
    K = COPY_SYMBOLS
    assert x.shape[1] == 1 + 2 * K
    delim = COPY_ALPHABET + 1
    assert (x[:, K, delim] == 1).all() and x[:, :K, delim].sum() == 0 and x[:, K + 1:, delim].sum() == 0
    assert (x[:, K + 1:, 0] == 1).all()                                   # blanks while the symbols are recalled
    symbols = x[:, :K, 1:COPY_ALPHABET + 1].argmax(axis=2)                 # codes 1..8 -> classes 0..7
    np.testing.assert_array_equal(task.y_train[:50, -K:], symbols)
    assert (task.y_train[:50, :-K] == -1).all()
