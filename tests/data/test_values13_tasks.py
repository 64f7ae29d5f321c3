"""lnrnn/data/tasks.py's synthetic tasks by their definitions: the pmnist order moves every pixel, for
images of any size (IDX files of other images than MNIST's); the adding problem marks exactly two steps, one in
each half, and its target is the sum of the two marked values; the copy task draws every one of its
COPY_ALPHABET symbols, and its targets are the symbols it shows first."""
import numpy as np

from lnrnn.data import tasks


def test_pmnist_order_moves_every_pixel():
    # 784 for MNIST; other sizes from IDX files of other images (rows * cols)
    for n in (4, 9, 16, 49, 64, 100, 196, 784):
        perm = tasks.pmnist_permutation(n)
        np.testing.assert_array_equal(np.sort(perm), np.arange(n))
        assert not np.any(perm == np.arange(n)), n


def test_adding_marks_one_step_in_each_half():
    T = 6
    x, y = tasks._adding_sequences(np.random.default_rng(0), 2000, T)
    marks = x[:, :, 1]
    assert np.all(marks.sum(axis=1) == 2)
    assert np.all(marks[:, :T // 2].sum(axis=1) == 1) and np.all(marks[:, T // 2:].sum(axis=1) == 1)
    np.testing.assert_allclose(y, (x[:, :, 0] * marks).sum(axis=1), rtol=1e-6)


def test_copy_draws_every_symbol_and_asks_for_them_back():
    delay, K, A = 3, tasks.COPY_SYMBOLS, tasks.COPY_ALPHABET
    x, y = tasks._copy_sequences(np.random.default_rng(0), 200, delay)
    codes = x.argmax(axis=2)
    shown = codes[:, :K]
    np.testing.assert_array_equal(np.unique(shown), np.arange(1, A + 1))
    np.testing.assert_array_equal(y[:, -K:], shown - 1)
    assert np.all(codes[:, K + delay - 1] == A + 1)
