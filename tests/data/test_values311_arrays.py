"""The npz task's data preparation at awkward sizes, against definitions worked out here: held-out sizes at
N = 7, 10 and 101 (the nearest whole number to a tenth, at least 1; the rest trains) and --split A/B taken as
A train then B validation, both drawn from the seed-0 permutation of N; an out-of-range label refused word for
word naming the label of the array that holds it and the distinct labels past a thousand with their comma; the
class count over every split's labels with y kept as given; per-step labels kept per step in the built task;
NaN in x_val and a pickled object array refused word for word naming the array at fault."""
import numpy as np
import pytest

from lnrnn.data import arrays

from test_values220_arrays import _load  # tasks.load_task of an npz file's spec
from test_values228_arrays import _refusal  # check_arrays' DataError sentence
from test_values275_arrays import _refused  # the npz task's DataError text, nothing written beside the file


@pytest.mark.parametrize("N,a,b", [(7, 6, 1), (10, 9, 1), (101, 91, 10)])
def test_held_out_sizes_at_7_10_and_101(tmp_path, N, a, b):
    # a tenth of 7 is 0.7 -> 1; of 10, exactly 1; of 101, 10.1 -> 10; the other N - b sequences train
    path = tmp_path / "d.npz"
    np.savez(path, x=np.arange(N, dtype=np.float32)[:, None] * [1.0, 0.0], y=np.arange(N) % 2)
    d = _load(path)
    assert (len(d.x_train), len(d.x_val)) == (a, b)
    assert a + b == N
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_train[:, 0, 0], perm[:a])
    np.testing.assert_array_equal(d.x_val[:, 0, 0], perm[a:])
    np.testing.assert_array_equal(d.y_train, perm[:a] % 2)


@pytest.mark.parametrize("split,a,b", [("5/2", 5, 2), ("1/6", 1, 6), ("2/3", 2, 3)])
def test_split_counts_train_first_then_validation(tmp_path, split, a, b):
    N = 7
    path = tmp_path / "d.npz"
    np.savez(path, x=np.arange(N, dtype=np.float32)[:, None] * [1.0, 0.0], y=np.arange(N) % 2)
    d = _load(path, split=split)
    assert (len(d.x_train), len(d.x_val)) == (a, b)
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_train[:, 0, 0], perm[:a])
    np.testing.assert_array_equal(d.x_val[:, 0, 0], perm[a:a + b])
    assert d.description.endswith(f"{a} train / {b} validation (held out from x by a fixed seed)")


def test_out_of_range_label_named_by_the_array_that_holds_it():
    # the label 100000 is in y; y_val's largest is 3: the refusal names y and 100000, and 100000 + 1 classes
    msg = _refusal({"x": np.zeros((3, 2), np.float32), "y": np.array([0, 100000, 1]),
                    "x_val": np.zeros((2, 2), np.float32), "y_val": np.array([2, 3])})
    assert msg == ("the arrays: y holds the label 100000, out of range: classes are numbered 0..C-1, so it would "
                   "make 100,001 classes (at most 100,000) where y holds 5 distinct labels; renumber them "
                   "(numpy.unique(y, return_inverse=True)), or pass --objective mse for regression.")


def test_distinct_labels_past_a_thousand_written_with_a_comma():
    y = np.arange(1001)
    y[-1] = 100000                                     # labels 0..999 and 100000: 1001 distinct
    msg = _refusal({"x": np.zeros((1001, 2), np.float32), "y": y})
    assert msg.endswith("so it would make 100,001 classes (at most 100,000) where y holds 1,001 distinct labels; "
                        "renumber them (numpy.unique(y, return_inverse=True)), or pass --objective mse for "
                        "regression.")


def test_class_count_over_both_splits_and_each_split_keeps_its_labels():
    y, y_val = np.array([0, 2, 1, 2]), np.array([4, 0, 1])        # the largest label only in y_val
    out = arrays.check_arrays({"x": np.zeros((4, 3), np.float32), "y": y,
                               "x_val": np.ones((3, 3), np.float32), "y_val": y_val})
    assert out["num_classes"] == 5                                # labels 0..4
    assert out["y"].dtype == np.int64 and out["y_val"].dtype == np.int64
    np.testing.assert_array_equal(out["y"], [0, 2, 1, 2])
    np.testing.assert_array_equal(out["y_val"], [4, 0, 1])


def test_per_step_labels_build_a_per_step_task(tmp_path):
    N, T = 7, 3
    path = tmp_path / "d.npz"
    y = np.tile([-1, 0, 1], (N, 1))                               # (N, T): -1 is a step not scored
    np.savez(path, x=np.zeros((N, T), np.float32), y=y)
    d = _load(path)
    assert d.per_step is True and d.num_classes == 2
    assert d.y_train.shape == (6, T) and d.y_val.shape == (1, T)
    np.savez(path, x=np.zeros((N, T), np.float32), y=np.arange(N) % 2)
    assert _load(path).per_step is False


def test_nan_refused_naming_x_or_x_val():
    bad = np.zeros((2, 3), np.float32)
    bad[1, 2] = np.nan
    good = np.zeros((2, 3), np.float32)
    msg = _refusal({"x": good, "y": np.array([0, 1]), "x_val": bad, "y_val": np.array([1, 0])})
    assert msg == "the arrays: x_val holds NaN or infinite values; replace them (padding included)."
    msg = _refusal({"x": bad, "y": np.array([0, 1])})
    assert msg == "the arrays: x holds NaN or infinite values; replace them (padding included)."


def test_pickled_object_array_refused_naming_it(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, x=np.zeros((3, 2), np.float32), y=np.array([0, 1, None], dtype=object))
    assert _refused(tmp_path, path) == (
        f"{path}: array y is an object array (it would need pickle, which can run code); store numbers in a "
        "regular array, padding sequences to one length with lengths beside them.")
