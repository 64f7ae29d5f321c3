"""lnrnn/data/arrays.py (the npz task) by value: files written here with numpy.savez, read back through
task_spec/load_task. The held-out split's sizes at awkward N against a hand table of VAL_FRACTION = 0.1
rounded (at least 1), its rows against the seed-0 permutation drawn here, lengths following their rows; the
class count over every split's labels (a class only in y_val); refusals as one sentence naming the array:
an object array needing pickle, x of rank 1 or 4, fractional labels in y_val, a negative label quoted as
found, labels out of range counting the distinct labels of y and y_val together."""
import re

import numpy as np
import pytest

from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


def _load(tmp_path, split=None, objective=None, **arrays):
    path = tmp_path / "mine.npz"
    np.savez(path, **arrays)
    return load_task(task_spec("npz", data_dir=str(path), split=split, objective=objective))


# N -> sequences held out: 10% of N rounded, at least 1 (worked by hand: 0.2, 0.3, 0.7, 1.0, 1.1, 1.4, 1.6, 1.9)
HELD_OUT = {2: 1, 3: 1, 7: 1, 10: 1, 11: 1, 14: 1, 16: 2, 19: 2}


@pytest.mark.parametrize("N", sorted(HELD_OUT))
def test_the_held_out_split_takes_its_rows_by_the_seed_0_permutation(tmp_path, N):
    T = 5                                                 # not N: the two axes told apart
    x = np.arange(N * T, dtype=np.float32).reshape(N, T)
    y = np.arange(N) % 2
    lengths = 1 + np.arange(N) % T
    d = _load(tmp_path, x=x, y=y, lengths=lengths)
    b = HELD_OUT[N]
    perm = np.random.default_rng(0).permutation(N)
    train, val = perm[:N - b], perm[N - b:]
    assert (d.size("train"), d.size("val")) == (N - b, b)
    np.testing.assert_array_equal(d.x_train[:, :, 0], x[train])
    np.testing.assert_array_equal(d.x_val[:, :, 0], x[val])
    np.testing.assert_array_equal(d.y_train, y[train])
    np.testing.assert_array_equal(d.y_val, y[val])
    np.testing.assert_array_equal(d.lengths_train, lengths[train])
    np.testing.assert_array_equal(d.lengths_val, lengths[val])


@pytest.mark.parametrize("N,T,split", [(7, 3, "4/2"), (3, 11, "1/2"), (10, 2, "7/3")])
def test_a_split_takes_a_then_b_rows_of_the_permutation(tmp_path, N, T, split):
    a, b = (int(s) for s in split.split("/"))
    x = np.arange(N * T, dtype=np.float32).reshape(N, T, 1)
    y = np.arange(N) % 3
    d = _load(tmp_path, split=split, x=x, y=y)
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_train, x[perm[:a]])
    np.testing.assert_array_equal(d.x_val, x[perm[a:a + b]])
    np.testing.assert_array_equal(d.y_val, y[perm[a:a + b]])


def test_one_sequence_cannot_be_held_out(tmp_path):
    with pytest.raises(DataError, match=r"holds 1 sequence; holding some out for validation needs at least 2"):
        _load(tmp_path, x=np.zeros((1, 4)), y=np.array([1]))


@pytest.mark.parametrize("per_step", [False, True])
def test_classes_are_counted_over_every_split_a_class_only_in_y_val(tmp_path, per_step):
    y = np.array([0, 1, 0, 1])
    y_val = np.array([2, 6])                              # classes 0..6: 7
    if per_step:
        y, y_val = np.stack([y, -np.ones(4, int), y], 1), np.stack([y_val, y_val, -np.ones(2, int)], 1)
    d = _load(tmp_path, x=np.zeros((4, 3)), y=y, x_val=np.zeros((2, 3)), y_val=y_val)
    assert d.num_classes == 7 and d.per_step is per_step and d.objective == "ce"
    assert d.y_train.shape == y.shape and d.y_val.shape == y_val.shape


def test_an_object_array_is_refused_without_unpickling_it(tmp_path):
    ragged = np.empty(2, dtype=object)
    ragged[0], ragged[1] = [1.0, 2.0], [3.0]
    with pytest.raises(DataError, match=r"array x is an object array \(it would need pickle"):
        _load(tmp_path, x=ragged, y=np.array([0, 1]))


@pytest.mark.parametrize("shape", [(5,), (5, 2, 3, 1)])
def test_x_of_another_rank_is_refused_naming_its_shape(tmp_path, shape):
    with pytest.raises(DataError, match=rf"x must be \(N, T, I\) or \(N, T\), not an array of shape "
                                        rf"{re.escape(str(shape))}\."):
        _load(tmp_path, x=np.ones(shape), y=np.arange(5) % 2)


def test_fractional_labels_in_y_val_are_blamed_on_y_val(tmp_path):
    with pytest.raises(DataError, match=r": y_val holds fractional values"):
        _load(tmp_path, objective="ce", x=np.zeros((3, 2)), y=np.array([0.0, 1.0, 1.0]),
              x_val=np.zeros((2, 2)), y_val=np.array([1.0, 0.5]))


@pytest.mark.parametrize("y,label", [(np.array([0, -3, 1]), -3), (np.array([[0, -2], [1, 1], [0, -1]]), -2),
                                     (np.array([[0, 1], [1, -7], [0, 0]]), -7)])
def test_a_negative_label_is_quoted_as_found(tmp_path, y, label):
    with pytest.raises(DataError, match=rf": y holds the label {label}; classes are 0\.\.C-1"):
        _load(tmp_path, x=np.zeros((3, 2)), y=y)


def test_labels_out_of_range_count_the_distinct_labels_of_y_and_y_val(tmp_path):
    y, y_val = np.array([0, 1, 2, 1, 0]), np.array([5, 200_000])
    distinct = len({0, 1, 2, 5, 200_000})
    with pytest.raises(DataError, match=rf"y_val holds the label 200000, out of range.* where y holds "
                                        rf"{distinct} distinct labels"):
        _load(tmp_path, x=np.zeros((5, 2)), y=y, x_val=np.zeros((2, 2)), y_val=y_val)
