"""lnrnn/data/tasks.py's counts against their definitions: a pool split A/B as a seeded partition (nothing lost or
repeated, each label staying with its sample) at N 7, 10 and 11, the whole pool included; the copy task's inputs
and targets read back from its one-hot steps (the K symbols first, the delimiter at step K + delay - 1, targets the
symbols on the last K steps); task_shape's counts and sizes against the task it builds."""
import numpy as np
import pytest

from lnrnn.data import tasks
from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_shape, task_spec


@pytest.mark.parametrize("n, a, b", [(7, 5, 2), (7, 3, 2), (10, 9, 1), (11, 6, 5), (11, 1, 1)])
def test_pool_split_is_a_seeded_partition(n, a, b):
    x = np.arange(n)[:, None] * np.ones((1, 3), np.int64)      # (N, 3): row k holds k
    y = 10 * np.arange(n)
    xt, yt, xv, yv = tasks._split_pool(x, y, (a, b), "the pool")
    assert len(xt) == a and len(xv) == b
    ids = np.concatenate([xt[:, 0], xv[:, 0]])
    assert len(set(ids.tolist())) == a + b                     # nothing repeated
    assert set(ids.tolist()) <= set(range(n))
    if a + b == n:
        assert sorted(ids.tolist()) == list(range(n))          # nothing lost
    np.testing.assert_array_equal(yt, 10 * xt[:, 0])
    np.testing.assert_array_equal(yv, 10 * xv[:, 0])
    again = tasks._split_pool(x, y, (a, b), "the pool")
    np.testing.assert_array_equal(again[0], xt)
    np.testing.assert_array_equal(again[2], xv)


def test_the_whole_pool_draws_every_sample_once():
    n = 101
    x = np.arange(n)[:, None]
    xt, _, xv, _ = tasks._split_pool(x, np.zeros(n), (90, 11), "the pool")
    assert sorted(np.concatenate([xt[:, 0], xv[:, 0]]).tolist()) == list(range(n))


@pytest.fixture(scope="module")
def copy_task():
    return load_task(task_spec("copy", steps=3))


def test_copy_task_inputs_and_targets(copy_task):
    K, delay = COPY_SYMBOLS, 3
    T = delay + 2 * K
    for x, y in ((copy_task.x_train, copy_task.y_train), (copy_task.x_val, copy_task.y_val)):
        assert x.shape[1:] == (T, COPY_ALPHABET + 2) and y.shape[1:] == (T,)
        assert (x.sum(axis=2) == 1).all()                      # one code per step
        codes = x.argmax(axis=2)                               # (N, T)
        symbols = codes[:, :K]
        assert ((symbols >= 1) & (symbols <= COPY_ALPHABET)).all()
        assert (codes[:, K + delay - 1] == COPY_ALPHABET + 1).all()   # the delimiter
        rest = np.delete(np.arange(T), list(range(K)) + [K + delay - 1])
        assert (codes[:, rest] == 0).all()                     # blanks elsewhere
        np.testing.assert_array_equal(y[:, T - K:], symbols - 1)
        assert (y[:, :T - K] == -1).all()


def test_task_shape_counts_match_the_built_task(copy_task):
    for spec, task in ((task_spec("copy", steps=3), copy_task), (task_spec("adding", steps=3), None)):
        task = task if task is not None else load_task(spec)
        shape = task_shape(spec)
        assert (shape.n_train, shape.n_val) == (task.size("train"), task.size("val"))
        assert (shape.steps, shape.inputs) == (task.steps, task.input_size)
        assert shape.per_step == task.per_step
