"""Your arrays (the npz task) counted against their definitions: a y_val of the wrong length refused word for
word naming y_val and the validation count; x and x_val of different widths refused naming each one's own
width; the class count over y and y_val when only y_val holds the largest label, and y_val kept as given; a file
with its own validation set built at N = 7 / 11 without --split and refused word for word with one; the
description of per-step labels at N = 101 and of regression at N = 1001, with the held-out size worked out here
(the nearest whole number to a tenth, at least 1)."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.errors import UserError

from test_values220_arrays import _load  # tasks.load_task of an npz file's spec
from test_values228_arrays import _refusal  # check_arrays' DataError sentence


def test_y_val_of_the_wrong_length_is_refused_naming_y_val():
    x, y = np.zeros((3, 4), np.float32), np.array([0, 1, 0])
    given = {"x": x, "y": y, "x_val": np.zeros((2, 4), np.float32), "y_val": np.array([0, 1, 1])}
    # 2 validation sequences of 4 steps: y_val must be (2,) or (2, 4); it is (3,)
    assert _refusal(given) == ("the arrays: y_val must be (2,) (one target per sequence) or (2, 4) (one per step) "
                               "to match x, not shape (3,).")


def test_widths_of_x_and_x_val_each_named_with_its_own():
    given = {"x": np.zeros((3, 4, 2), np.float32), "y": np.array([0, 1, 0]),
             "x_val": np.zeros((2, 4, 3), np.float32), "y_val": np.array([1, 0])}
    assert _refusal(given) == "the arrays: x has 2 inputs per step but x_val has 3; they must match."


def test_class_count_over_both_splits_and_y_val_kept():
    y = np.array([0, 2, 1, 2, 0, 1, 1])                                   # largest label 2
    y_val = np.array([4, 0, 3, 1, 0, 2, 1, 0, 4, 3, 2])                   # largest label 4: classes 0..4
    d = arrays.check_arrays({"x": np.zeros((7, 3), np.float32), "y": y,
                             "x_val": np.ones((11, 3), np.float32), "y_val": y_val})
    assert d["num_classes"] == 4 + 1
    np.testing.assert_array_equal(d["y_val"], y_val)
    np.testing.assert_array_equal(d["y"], y)


def test_own_validation_set_built_without_split_and_refused_with_one(tmp_path):
    path = tmp_path / "own.npz"
    y, y_val = np.arange(7) % 2, np.arange(11) % 3
    np.savez(path, x=np.zeros((7, 5), np.float32), y=y, x_val=np.ones((11, 5), np.float32), y_val=y_val)
    d = _load(path)
    assert (len(d.x_train), len(d.x_val)) == (7, 11)
    assert d.num_classes == 3                                             # labels 0..2, the 2 only in y_val
    assert d.description == (f"your sequences from {path}: 5 steps of 1 input, 3 classes; 7 train / 11 "
                             "validation (validation from x_val)")
    with pytest.raises(UserError) as e:
        _load(path, split="3/2")
    assert str(e.value) == f"{path} has its own validation set (x_val, y_val); drop --split."


@pytest.mark.parametrize("N,b", [(101, 10), (1001, 100)])
def test_description_of_per_step_labels_says_every_step(tmp_path, N, b):
    # a tenth of 101 is 10.1 -> 10 held out; of 1001, 100.1 -> 100
    path = tmp_path / "steps.npz"
    y = (np.arange(N * 3).reshape(N, 3) % 4)                              # labels 0..3 on every step
    np.savez(path, x=np.zeros((N, 3, 2), np.float32), y=y)
    d = _load(path)
    assert d.per_step and (len(d.x_train), len(d.x_val)) == (N - b, b)
    assert d.description == (f"your sequences from {path}: 3 steps of 2 inputs, 4 classes on every step; "
                             f"{N - b} train / {b} validation (held out from x by a fixed seed)")
    path = tmp_path / "reg.npz"
    np.savez(path, x=np.zeros((N, 3, 2), np.float32), y=np.linspace(0.0, 1.0, N))
    d = _load(path)
    assert not d.per_step
    assert d.description == (f"your sequences from {path}: 3 steps of 2 inputs, regression (squared error); "
                             f"{N - b} train / {b} validation (held out from x by a fixed seed)")
