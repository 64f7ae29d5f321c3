"""The task registry's built data against the definitions in lnrnn/data/tasks.py's docstring, on awkward sizes:
the copy task at --steps 3 (T = 3 + 2 * 10 = 23, one-hot over 10 codes, the delimiter on the last blank, the 10
symbols repeated as classes 0..7 on the last 10 steps and -1 before) built the same twice from its fixed seed; the
adding problem at --steps 5 (an odd T: the two markers in [0, 2) and [2, 5), the values in [0, 1) on input 0, the
target their sum); the npz task taking the objective option into its spec and building regression from integer
labels with it; the MNIST family on tiny IDX files written here (7 train and 5 t10k images of 4 x 3): the train
files for training and the t10k files for validation, pixel by pixel in raster order for mnist, in a derangement
drawn here from seed 0 for pmnist, row by row for mnist-rows; a folder of t10k files only refused word for word
without --split and split 3/2 at the seed-0 permutation with it."""
import os

import numpy as np
import pytest

from lnrnn.data.idx import GET_DATA_HINT, MNIST_FILES, write_idx
from lnrnn.data.tasks import load_task, task_shape, task_spec
from lnrnn.errors import DataError


# ---- copy memory ----

def _codes(x):
    """The code of every step of one-hot x (n, T, 10), checking each step holds exactly one 1."""
    np.testing.assert_array_equal(x.sum(axis=2), np.ones(x.shape[:2]))
    return x.argmax(axis=2)


def test_copy_at_three_blanks_by_definition():
    steps, K = 3, 10
    task = load_task(task_spec("copy", steps=steps))
    T = steps + 2 * K                                                  # 23
    assert (task.num_classes, task.per_step) == (8, True)
    assert (len(task.x_train), len(task.x_val)) == (10000, 1000)
    for x, y in ((task.x_train, task.y_train), (task.x_val, task.y_val)):
        assert x.shape[1:] == (T, 10) and y.shape[1:] == (T,)
        codes = _codes(x)
        symbols = codes[:, :K]
        assert symbols.min() >= 1 and symbols.max() <= 8              # symbols are codes 1..8
        rest = codes[:, K:].copy()
        np.testing.assert_array_equal(rest[:, steps - 1], np.full(len(x), 9))   # the delimiter on the last blank
        rest[:, steps - 1] = 0
        np.testing.assert_array_equal(rest, np.zeros_like(rest))      # blanks elsewhere after the symbols
        np.testing.assert_array_equal(y[:, :T - K], np.full((len(x), T - K), -1))
        np.testing.assert_array_equal(y[:, T - K:], symbols - 1)      # classes 0..7 on the last 10 steps
    shape = task_shape(task_spec("copy", steps=steps))
    assert (shape.steps, shape.inputs, shape.outputs) == (T, 10, 8)


def test_copy_built_twice_is_the_same_data():
    a = load_task(task_spec("copy", steps=1))
    b = load_task(task_spec("copy", steps=1))
    for k in ("x_train", "y_train", "x_val", "y_val"):
        np.testing.assert_array_equal(getattr(a, k), getattr(b, k))
    # and the draw is not degenerate: the 10 symbols of the first 100 sequences use every one of the 8 codes
    assert set(np.unique(a.y_train[:100, -10:])) == set(range(8))


# ---- the adding problem ----

def test_adding_at_five_steps_markers_in_each_half_and_target_their_sum():
    T, half = 5, 2
    task = load_task(task_spec("adding", steps=T))
    assert task.objective == "mse" and task.num_classes == 1
    for x, y in ((task.x_train, task.y_train), (task.x_val, task.y_val)):
        assert x.shape[1:] == (T, 2) and x.dtype == np.float32 and y.dtype == np.float32
        values, marks = x[:, :, 0].astype(np.float64), x[:, :, 1]
        assert ((marks == 0) | (marks == 1)).all()                     # the marker input is 0 or 1
        np.testing.assert_array_equal(marks[:, :half].sum(axis=1), np.ones(len(x)))       # one in [0, 2)
        np.testing.assert_array_equal(marks[:, half:].sum(axis=1), np.ones(len(x)))       # one in [2, 5)
        assert values.min() >= 0.0 and values.max() < 1.0
        assert values.std() > 0.2                                      # uniform on [0, 1): std about 0.29
        np.testing.assert_allclose(y, (values * marks).sum(axis=1), rtol=1e-6, atol=1e-7)


# ---- the npz task's objective option ----

def test_npz_task_takes_the_objective_option(tmp_path):
    path = tmp_path / "mine.npz"
    rng = np.random.default_rng(7)
    np.savez(path, x=rng.random((11, 4, 2)), y=np.arange(11) % 3)     # integer labels
    spec = task_spec("npz", data_dir=str(path), objective="mse")
    assert spec == {"task": "npz", "data_dir": str(path), "objective": "mse"}
    task = load_task(spec)
    assert (task.objective, task.num_classes) == ("mse", 1)
    assert task.y_train.dtype == np.float32
    np.testing.assert_array_equal(np.sort(np.concatenate([task.y_train, task.y_val])),
                                  np.sort((np.arange(11) % 3).astype(np.float32)))
    assert load_task(task_spec("npz", data_dir=str(path))).objective == "ce"   # the dtype's own objective


# ---- the MNIST family on tiny IDX files ----

def _images(n, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (n, 4, 3), dtype=np.uint8), rng.integers(0, 10, n).astype(np.uint8)


def _write(folder, which, images, labels):
    img, lab = MNIST_FILES[which]
    write_idx(os.path.join(folder, img), images)
    write_idx(os.path.join(folder, lab), labels)


@pytest.fixture
def mnist_dir(tmp_path):
    train, t10k = _images(7, 1), _images(5, 2)
    _write(str(tmp_path), "train", *train)
    _write(str(tmp_path), "t10k", *t10k)
    return str(tmp_path), train, t10k


def _derangement(n):
    """The first permutation of n that seed 0's generator draws which moves every pixel."""
    rng = np.random.default_rng(0)
    while True:
        p = rng.permutation(n)
        if all(p[i] != i for i in range(n)):
            return p


def test_mnist_trains_on_the_train_files_and_validates_on_t10k(mnist_dir):
    d, (xi, yi), (xv, yv) = mnist_dir
    task = load_task(task_spec("mnist", data_dir=d))
    assert (len(task.x_train), len(task.x_val)) == (7, 5)
    assert task.x_train.shape[1:] == (12, 1)
    np.testing.assert_array_equal(task.x_train[:, :, 0], xi.reshape(7, 12))   # raster order
    np.testing.assert_array_equal(task.y_train, yi.astype(np.int64))
    np.testing.assert_array_equal(task.x_val[:, :, 0], xv.reshape(5, 12))
    np.testing.assert_array_equal(task.y_val, yv.astype(np.int64))
    rows = load_task(task_spec("mnist-rows", data_dir=d))
    np.testing.assert_array_equal(rows.x_train, xi)                            # one row of 3 per step
    np.testing.assert_array_equal(rows.x_val, xv)


def test_pmnist_moves_every_pixel_and_mnist_none(mnist_dir):
    d, (xi, _), (xv, _) = mnist_dir
    perm = _derangement(12)
    assert sorted(perm) == list(range(12))
    task = load_task(task_spec("pmnist", data_dir=d))
    np.testing.assert_array_equal(task.x_train[:, :, 0], xi.reshape(7, 12)[:, perm])
    np.testing.assert_array_equal(task.x_val[:, :, 0], xv.reshape(5, 12)[:, perm])
    plain = load_task(task_spec("mnist", data_dir=d))
    np.testing.assert_array_equal(plain.x_val[:, :, 0], xv.reshape(5, 12))


def test_t10k_files_alone_refused_without_split_and_split_with_it(tmp_path):
    d = str(tmp_path)
    xv, yv = _images(5, 3)
    _write(d, "t10k", xv, yv)
    with pytest.raises(DataError) as e:
        load_task(task_spec("mnist", data_dir=d))
    assert str(e.value) == (f"{d} has only the t10k files (no train-images-idx3-ubyte[.gz]); pass --split 8000/2000 "
                            f"to train on part of them, or {GET_DATA_HINT}.")
    task = load_task(task_spec("mnist", data_dir=d, split="3/2"))
    perm = np.random.default_rng(0).permutation(5)
    np.testing.assert_array_equal(task.x_train[:, :, 0], xv.reshape(5, 12)[perm[:3]])
    np.testing.assert_array_equal(task.x_val[:, :, 0], xv.reshape(5, 12)[perm[3:]])
    np.testing.assert_array_equal(task.y_val, yv[perm[3:]].astype(np.int64))
