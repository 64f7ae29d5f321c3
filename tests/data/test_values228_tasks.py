"""The task registry's counts and sizes against their definitions: the copy task's announced memory (uint8
one-hot inputs, int64 codes and labels for every training and validation sequence) against the built arrays'
bytes counted here; the adding problem's 10000 training and 1000 validation sequences (the module's docs), its
targets the sum of the two marked values; MNIST-family files of non-square images: the refusal of t10k images of
another size word for word, mnist-rows read row by row (rows steps of cols inputs) and mnist pixel by pixel,
their descriptions by hand, against the IDX files written here."""
import numpy as np
import pytest

from lnrnn.data import tasks
from lnrnn.data.idx import MNIST_FILES, read_idx
from lnrnn.errors import DataError

from test_data import fake_mnist  # small random MNIST-shaped IDX files (rows and cols of our choosing)


def test_copy_shape_counts_the_bytes_of_every_sequence():
    spec = tasks.task_spec("copy", steps=3)
    shape = tasks.task_shape(spec)
    d = tasks.load_task(spec)
    T = 3 + 2 * tasks.COPY_SYMBOLS                               # symbols, blanks, recall
    n = len(d.x_train) + len(d.x_val)
    assert (len(d.x_train), len(d.x_val)) == (10000, 1000) == (shape.n_train, shape.n_val)
    assert d.x_train.dtype == np.uint8 and d.y_train.dtype == np.int64
    assert (shape.steps, shape.inputs, shape.outputs, shape.per_step) == (T, 10, 8, True)
    inputs = d.x_train.nbytes + d.x_val.nbytes                   # uint8 one-hot: T * I bytes a sequence
    labels = d.y_train.nbytes + d.y_val.nbytes                   # int64 per step
    codes = n * T * 8                                            # the int64 codes drawn while building
    assert inputs == n * T * 10 and labels == n * T * 8
    assert shape.data_bytes == inputs + labels + codes == 11000 * (23 * 10 + 2 * 23 * 8)


def test_adding_draws_the_documented_counts():
    spec = tasks.task_spec("adding", steps=3)
    d = tasks.load_task(spec)
    shape = tasks.task_shape(spec)
    assert (len(d.x_train), len(d.y_train), len(d.x_val), len(d.y_val)) == (10000, 10000, 1000, 1000)
    assert (shape.n_train, shape.n_val) == (10000, 1000)
    assert d.description == ("adding problem with 3 steps of 2 inputs (regression, accuracy = within 0.04), "
                             "10000 train / 1000 validation sequences")
    for x, y in ((d.x_train, d.y_train), (d.x_val, d.y_val)):
        assert x.shape[1:] == (3, 2) and (x[:, :, 1].sum(1) == 2).all()
        np.testing.assert_allclose(y, (x[:, :, 0] * x[:, :, 1]).sum(1), rtol=1e-6)


def test_t10k_images_of_another_size_refused_by_their_size(tmp_path):
    folder = fake_mnist(tmp_path / "m", n_train=6, n_test=None, rows=4, cols=6, gz=False)
    fake_mnist(folder, n_train=None, n_test=5, rows=5, cols=7, gz=False, seed=1)
    for task in ("mnist", "mnist-rows"):
        with pytest.raises(DataError) as e:
            tasks.load_task(tasks.task_spec(task, data_dir=folder))
        assert str(e.value) == "train images are 4x6 but validation images are 5x7; the files do not belong together."


@pytest.mark.parametrize("split", [None, "3/1"])
def test_non_square_images_rows_by_rows_and_pixels(tmp_path, split):
    folder = fake_mnist(tmp_path / "m", n_train=6, n_test=5, rows=3, cols=5, gz=False)
    train = read_idx(f"{folder}/{MNIST_FILES['train'][0]}")
    t10k = read_idx(f"{folder}/{MNIST_FILES['t10k'][0]}")
    if split is None:
        origin, xt, xv = "6 train images, 5 t10k images for validation", train, t10k
    else:
        perm = np.random.default_rng(0).permutation(5)
        origin, xt, xv = "3 train / 1 validation images split from the t10k files", t10k[perm[:3]], t10k[perm[3:4]]
    d = tasks.load_task(tasks.task_spec("mnist-rows", data_dir=folder, split=split))
    assert d.description == f"mnist-rows from {folder} read row by row (3 steps of 5), {origin}, 10 classes"
    assert d.x_train.shape == (len(xt), 3, 5) and d.x_val.shape == (len(xv), 3, 5)
    np.testing.assert_array_equal(d.x_train, xt)                 # step r is image row r
    np.testing.assert_array_equal(d.x_val, xv)
    d = tasks.load_task(tasks.task_spec("mnist", data_dir=folder, split=split))
    assert d.description == f"mnist from {folder} read pixel by pixel (15 steps of 1), {origin}, 10 classes"
    assert d.x_train.shape == (len(xt), 15, 1)
    for r in range(3):
        for c in range(5):
            np.testing.assert_array_equal(d.x_train[:, r * 5 + c, 0], xt[:, r, c])
