"""Your arrays (the npz task) at awkward sizes, against their definitions: held-out sizes of N = 7, 11 and 1001
(the nearest whole number to a tenth, at least 1, worked out here) and --split counts up to N and one past it,
refused word for word with the count A + B; refusals of x_val, of half a validation pair and of negative labels
naming the array at fault and the -1 of per-step labels; the class count over every split's labels; --objective
passed through to the arrays; each set's batches carrying its own lengths."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.errors import UserError

from test_values220_arrays import _load  # tasks.load_task of an npz file's spec
from test_values228_arrays import _refusal  # check_arrays' DataError sentence


@pytest.mark.parametrize("N,a,b", [(7, 6, 1), (11, 10, 1), (1001, 901, 100)])
def test_held_out_sizes_at_awkward_n(tmp_path, N, a, b):
    # a tenth of 7 is 0.7 -> 1; of 11, 1.1 -> 1; of 1001, 100.1 -> 100 (the rest trains)
    path = tmp_path / "d.npz"
    np.savez(path, x=np.arange(2 * N, dtype=np.float32).reshape(N, 2), y=np.arange(N) % 3)
    d = _load(path)
    assert (len(d.x_train), len(d.x_val)) == (a, b)
    assert d.description == (f"your sequences from {path}: 2 steps of 1 input, 3 classes; {a} train / {b} "
                             "validation (held out from x by a fixed seed)")
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_val[:, 0, 0], 2 * perm[a:])


def test_split_up_to_n_taken_and_one_past_refused_with_its_sum(tmp_path):
    N = 1001
    path = tmp_path / "d.npz"
    np.savez(path, x=np.zeros((N, 2), np.float32), y=np.arange(N) % 2)
    d = _load(path, split="1000/1")                                       # 1000 + 1 = N: every sequence
    assert (len(d.x_train), len(d.x_val)) == (1000, 1)
    with pytest.raises(UserError) as e:
        _load(path, split="999/3")                                        # 999 + 3 = 1002 > 1001
    assert str(e.value) == f"--split 999/3 asks for 1002 sequences but {path} holds only 1001."
    with pytest.raises(UserError) as e:
        arrays.held_out(11, (8, 4), "f.npz")
    assert str(e.value) == "--split 8/4 asks for 12 sequences but f.npz holds only 11."


def test_refusals_of_validation_arrays_name_them():
    x, y = np.zeros((3, 4), np.float32), np.array([0, 1, 0])
    assert _refusal({"x": x, "y": y, "x_val": np.zeros((2, 4, 1, 1)), "y_val": np.array([0, 1])}) == (
        "the arrays: x_val must be (N, T, I) or (N, T), not an array of shape (2, 4, 1, 1).")
    assert _refusal({"x": x, "y": y, "x_val": np.array([[0.0, np.nan]]), "y_val": np.array([1])}) == (
        "the arrays: x_val holds NaN or infinite values; replace them (padding included).")
    assert _refusal({"x": x, "y": y, "x_val": x}) == (
        "the arrays has x_val without y_val; give both, or neither (a held-out split).")
    assert _refusal({"x": x, "y": y, "y_val": y}) == (
        "the arrays has y_val without x_val; give both, or neither (a held-out split).")


def test_negative_labels_refused_with_minus_one_only_per_step():
    x = np.zeros((3, 4), np.float32)
    assert _refusal({"x": x, "y": np.array([0, -1, 1])}) == "the arrays: y holds the label -1; classes are 0..C-1."
    per_step = np.array([[0, 1, -1, -1], [1, -2, 0, 0], [0, 0, 0, 0]])
    assert _refusal({"x": x, "y": per_step}) == (
        "the arrays: y holds the label -2; classes are 0..C-1 (and -1 for a step that is not scored).")
    assert _refusal({"x": x, "y": np.array([0, 1, 1]), "x_val": x[:2], "y_val": np.array([1, -3])}) == (
        "the arrays: y_val holds the label -3; classes are 0..C-1.")


def test_class_count_is_the_largest_label_of_every_split_plus_one(tmp_path):
    path = tmp_path / "d.npz"
    x = np.zeros((4, 3), np.float32)
    np.savez(path, x=x, y=np.array([0, 2, 1, 2]), x_val=x[:2], y_val=np.array([4, 0]))    # 4 only in y_val
    d = _load(path)
    assert d.num_classes == 5 and d.objective == "ce"
    assert d.description == (f"your sequences from {path}: 3 steps of 1 input, 5 classes; 4 train / 2 validation "
                             "(validation from x_val)")


def test_objective_given_overrides_the_labels_dtype(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, x=np.zeros((5, 2, 3), np.float32), y=np.array([0, 3, 1, 2, 3]))
    d = _load(path, objective="mse")                                       # integers, read as targets
    assert (d.objective, d.num_classes) == ("mse", 1)
    assert d.y_train.dtype == np.float32 and sorted(d.y_train.tolist() + d.y_val.tolist()) == [0, 1, 2, 3, 3]
    assert "regression (squared error)" in d.description
    path2 = tmp_path / "f.npz"
    np.savez(path2, x=np.zeros((5, 2), np.float32), y=np.array([1.0, 0.0, 2.0, 1.0, 0.0]))
    d = _load(path2, objective="ce")                                       # whole floats, read as classes
    assert (d.objective, d.num_classes, d.y_train.dtype) == ("ce", 3, np.int64)


def test_each_sets_batches_carry_their_own_lengths(tmp_path):
    path = tmp_path / "d.npz"
    x, xv = np.zeros((4, 6), np.float32), np.zeros((3, 5), np.float32)
    np.savez(path, x=x, y=np.array([0, 1, 0, 1]), lengths=np.array([6, 2, 3, 1]),
             x_val=xv, y_val=np.array([1, 1, 0]), lengths_val=np.array([5, 4, 1]))
    d = _load(path)
    idx = np.array([2, 0, 1])
    assert d.batch("val", idx)[2].tolist() == [1, 5, 4]
    assert d.batch("train", idx)[2].tolist() == [3, 6, 2]
