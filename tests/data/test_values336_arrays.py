"""Your arrays (the npz task) written to .npz files here and read back, against their definitions: a file of
0, 3 and 8 bytes named for what it is (empty, or the text it begins with, '...' past 6 bytes); one array of an
unknown name refused as surely as two; an object array that would need pickle refused word for word with nothing
written beside it; NaN and inf in y and y_val, a y_val of the other layout, an x_val of 0 steps, a y of the wrong
shape or of text and lengths of the wrong shape refused naming the array at fault and the shape it has; held-out
sizes at N = 7, 10 and 101 (the nearest whole number to a tenth, at least 1, the rest training, over the seed-0
permutation drawn here, lengths 1 and T following their sequences); --split A/B taking A to train and B to
validate; the description's steps and inputs those of x when x_val has fewer steps, with the classes counted over
every split's labels (the largest label only in y_val)."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.errors import DataError

from test_values220_arrays import _load  # tasks.load_task of an npz file's spec
from test_values228_arrays import _refusal  # check_arrays' DataError sentence

SAVE = "the npz task reads an .npz (zip) file of named arrays: save them with numpy.savez(path, x=..., y=...)."


def _read_refusal(path):
    with pytest.raises(DataError) as e:
        arrays.read_file(path)
    return str(e.value)


@pytest.mark.parametrize("content,said", [
    (b"", "is empty (0 bytes)"),
    (b"abc", "is not a NumPy .npy or .npz (zip) file (text b'abc')"),
    (b"x,y\n1,2\n", "is not a NumPy .npy or .npz (zip) file (text b'x,y\\n1,'...)"),
])
def test_short_and_text_files_named_for_what_they_are(tmp_path, content, said):
    path = tmp_path / "d.npz"
    path.write_bytes(content)
    assert _read_refusal(path) == f"{path} {said}; {SAVE}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npz"]


@pytest.mark.parametrize("extra,named", [({"z": np.zeros(2)}, "z"), ({"z": np.zeros(2), "a": np.ones(1)}, "a, z")])
def test_one_unknown_array_refused_like_two(tmp_path, extra, named):
    path = tmp_path / "d.npz"
    np.savez(path, x=np.zeros((2, 3)), y=np.array([0, 1]), **extra)
    assert _read_refusal(path) == (f"{path} has arrays {named} the npz task does not read; name them x, y, lengths, "
                                   "x_val, y_val, lengths_val (see docs/your_data.md).")


def test_object_array_refused_word_for_word_and_nothing_written(tmp_path):
    path = tmp_path / "d.npz"
    ragged = np.empty(2, dtype=object)
    ragged[0], ragged[1] = np.zeros(2), np.zeros(3)
    np.savez(path, x=ragged, y=np.array([0, 1]))
    assert _read_refusal(path) == (f"{path}: array x is an object array (it would need pickle, which can run code); "
                                   "store numbers in a regular array, padding sequences to one length with lengths "
                                   "beside them.")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npz"]


def test_nan_and_inf_refused_naming_y_or_y_val():
    x, xv = np.zeros((3, 2), np.float32), np.zeros((2, 2), np.float32)
    y = np.array([0.5, 1.0, 2.0])
    assert _refusal({"x": x, "y": np.array([0.5, np.inf, 2.0])}) == "the arrays: y holds NaN or infinite values."
    assert _refusal({"x": x, "y": y, "x_val": xv, "y_val": np.array([0.5, np.nan])}) == (
        "the arrays: y_val holds NaN or infinite values.")
    assert _refusal({"x": x, "y": y, "x_val": xv, "y_val": np.array([-np.inf, 1.0])}) == (
        "the arrays: y_val holds NaN or infinite values.")


def test_y_val_of_the_other_layout_refused_with_both_shapes():
    x, y = np.zeros((3, 4), np.float32), np.array([[0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, -1]])
    assert _refusal({"x": x, "y": y, "x_val": np.zeros((2, 5), np.float32), "y_val": np.array([1, 0])}) == (
        "the arrays: y and y_val must both be per sequence or both per step, not (3, 4) and (2,).")
    assert _refusal({"x": x, "y": y[:, 0], "x_val": np.zeros((2, 5)), "y_val": np.zeros((2, 5), np.int64)}) == (
        "the arrays: y and y_val must both be per sequence or both per step, not (3,) and (2, 5).")


def test_arrays_of_zero_length_refused_naming_them():
    # an (N, T) array is read as (N, T, 1): its shape is given with that input axis
    x, y = np.zeros((3, 4), np.float32), np.array([0, 1, 0])
    assert _refusal({"x": np.zeros((0, 4)), "y": np.zeros(0, np.int64)}) == "the arrays: x is empty (shape (0, 4, 1))."
    assert _refusal({"x": x, "y": y, "x_val": np.zeros((2, 0)), "y_val": np.array([0, 1])}) == (
        "the arrays: x_val is empty (shape (2, 0, 1)).")
    assert _refusal({"x": x, "y": y, "x_val": np.zeros((2, 3, 0)), "y_val": np.array([0, 1])}) == (
        "the arrays: x_val is empty (shape (2, 3, 0)).")


def test_targets_of_wrong_shape_or_text_refused_with_what_they_are():
    x = np.zeros((4, 5), np.float32)
    assert _refusal({"x": x, "y": np.array([0, 1, 0])}) == (
        "the arrays: y must be (4,) (one target per sequence) or (4, 5) (one per step) to match x, not shape (3,).")
    assert _refusal({"x": x, "y": np.zeros((4, 6), np.int64)}) == (
        "the arrays: y must be (4,) (one target per sequence) or (4, 5) (one per step) to match x, not shape (4, 6).")
    assert _refusal({"x": x, "y": np.array(["a", "b", "a", "b"])}) == "the arrays: y must hold numbers, not <U1."


def test_lengths_of_wrong_shape_refused_with_their_shape():
    x, y = np.zeros((3, 5), np.float32), np.array([0, 1, 0])
    assert _refusal({"x": x, "y": y, "lengths": np.array([[1], [5], [2]], np.int64)}) == (
        "the arrays: lengths must be 3 integers (one per sequence), not int64 of shape (3, 1).")
    assert _refusal({"x": x, "y": y, "lengths": np.array([1, 5, 2, 2], np.int32)}) == (
        "the arrays: lengths must be 3 integers (one per sequence), not int32 of shape (4,).")


@pytest.mark.parametrize("N,a,b", [(7, 6, 1), (10, 9, 1), (101, 91, 10)])
def test_held_out_sizes_at_n_7_10_101(tmp_path, N, a, b):
    # a tenth of 7 is 0.7 -> 1; of 10, 1.0 -> 1; of 101, 10.1 -> 10; every other sequence trains
    T = 3
    path = tmp_path / "d.npz"
    lengths = np.where(np.arange(N) % 2 == 0, 1, T)                       # lengths 1 and T
    np.savez(path, x=np.arange(N * T, dtype=np.float32).reshape(N, T), y=np.arange(N) % 4, lengths=lengths)
    d = _load(path)
    assert (len(d.x_train), len(d.x_val)) == (a, b)
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_train[:, 0, 0], T * perm[:a])
    np.testing.assert_array_equal(d.x_val[:, 0, 0], T * perm[a:])
    np.testing.assert_array_equal(d.lengths_train, np.where(perm[:a] % 2 == 0, 1, T))
    np.testing.assert_array_equal(d.lengths_val, np.where(perm[a:] % 2 == 0, 1, T))
    assert d.description == (f"your sequences from {path}: 3 steps of 1 input, 4 classes; {a} train / {b} "
                             "validation (held out from x by a fixed seed)")


@pytest.mark.parametrize("split,a,b", [("5/2", 5, 2), ("7/3", 7, 3), ("1/9", 1, 9)])
def test_split_takes_a_to_train_and_b_to_validate(tmp_path, split, a, b):
    N = 10
    path = tmp_path / "d.npz"
    np.savez(path, x=np.arange(N, dtype=np.float32).reshape(N, 1), y=np.arange(N) % 2)
    d = _load(path, split=split)
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_train[:, 0, 0], perm[:a])
    np.testing.assert_array_equal(d.x_val[:, 0, 0], perm[a:a + b])
    assert f"; {a} train / {b} validation (held out from x by a fixed seed)" in d.description


def test_description_names_x_steps_and_classes_over_every_split(tmp_path):
    path = tmp_path / "d.npz"
    # x: 4 sequences of 5 steps of 2 inputs; x_val: 2 of 3 steps; label 2 (C - 1 = 2) only in y_val
    np.savez(path, x=np.zeros((4, 5, 2), np.float32), y=np.array([0, 1, 0, 1]),
             x_val=np.ones((2, 3, 2), np.float32), y_val=np.array([2, 0]))
    d = _load(path)
    assert d.description == (f"your sequences from {path}: 5 steps of 2 inputs, 3 classes; 4 train / 2 validation "
                             "(validation from x_val)")
    assert d.num_classes == 3 and d.x_val.shape == (2, 3, 2)
