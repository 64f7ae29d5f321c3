"""lnrnn/data/arrays.py (the npz task) against its definitions, on files written here with numpy.savez: labels
with a fraction refused for classes, the class count over every split's labels (the largest label of y or y_val
plus one), a regression task's single output, and the held-out split's sizes at N 7, 10, 11 and 101 as a seeded
partition of the file's sequences."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


def write(tmp_path, **a):
    p = tmp_path / "d.npz"
    np.savez(p, **a)
    return str(p)


def build(path, **kw):
    return load_task(task_spec("npz", data_dir=path, **kw))


def test_fractional_float_labels_are_refused_for_classes(tmp_path):
    x = np.zeros((4, 3, 2), np.float32)
    path = write(tmp_path, x=x, y=np.array([0.0, 1.5, 2.0, 1.0]))
    with pytest.raises(DataError, match="fractional"):
        build(path, objective="ce")
    whole = write(tmp_path, x=x, y=np.array([0.0, 1.0, 2.0, 1.0]))
    t = build(whole, objective="ce")
    assert t.num_classes == 3 and t.y_train.dtype == np.int64


def test_class_count_over_both_splits(tmp_path):
    x = np.zeros((5, 3, 1), np.float32)
    path = write(tmp_path, x=x, y=np.array([0, 1, 1, 0, 2]), x_val=x[:2], y_val=np.array([4, 0]))
    t = build(path)
    assert t.num_classes == 4 + 1                              # the largest label, in y_val, plus one
    np.testing.assert_array_equal(t.y_val, [4, 0])


def test_regression_has_one_output(tmp_path):
    rng = np.random.default_rng(0)
    path = write(tmp_path, x=rng.random((6, 4, 2)).astype(np.float32), y=rng.random(6).astype(np.float32))
    t = build(path)
    assert t.objective == "mse" and t.num_classes == 1
    assert t.y_train.dtype == np.float32


@pytest.mark.parametrize("n, held", [(7, 1), (10, 1), (11, 1), (101, 10), (2, 1)])   # nearest to N/10, at least 1
def test_held_out_sizes_and_partition(tmp_path, n, held):
    x = np.arange(n, dtype=np.float32)[:, None, None] * np.ones((1, 2, 1), np.float32)   # sequence k holds k
    path = write(tmp_path, x=x, y=np.arange(n) % 2, lengths=np.full(n, 2))
    t = build(path)
    assert (t.size("train"), t.size("val")) == (n - held, held)
    ids = np.concatenate([t.x_train[:, 0, 0], t.x_val[:, 0, 0]]).astype(int)
    assert sorted(ids.tolist()) == list(range(n))              # a permutation: nothing lost or repeated
    np.testing.assert_array_equal(t.y_train, ids[:n - held] % 2)
    tr, va = arrays.held_out(n, None, path)
    np.testing.assert_array_equal(np.concatenate([tr, va]), ids)
    np.testing.assert_array_equal(build(path).x_val, t.x_val)  # seeded
