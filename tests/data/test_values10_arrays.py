"""lnrnn/data/arrays.py's checks by value: a length out of range is named by the one that is wrong (a 0 among
valid ones, or one past T), a label too large for a class count is refused in y_val as in y, and per-step
labels of class 0 and -1 alone are scored (class 0 is a class)."""
import numpy as np
import pytest

from lnrnn.data.arrays import MAX_CLASSES, check_arrays
from lnrnn.errors import DataError


def _x(N=6, T=4):
    return np.random.default_rng(0).standard_normal((N, T, 2)).astype(np.float32)


@pytest.mark.parametrize("bad,named", [(0, 0), (5, 5)])
def test_a_length_out_of_range_is_the_one_named(bad, named):
    x = _x()
    lengths = np.array([4, 3, bad, 2, 1, 4])     # the others lie in 1..T=4
    with pytest.raises(DataError, match=f"lengths must lie between 1 and T=4, but one is {named}\\."):
        check_arrays({"x": x, "y": np.arange(6) % 2, "lengths": lengths})


def test_a_label_beyond_the_class_limit_in_y_val_alone_is_refused():
    x = _x()
    y = np.arange(6) % 2
    y_val = y.copy()
    y_val[3] = MAX_CLASSES            # would make MAX_CLASSES + 1 classes
    with pytest.raises(DataError, match=f"y_val holds the label {MAX_CLASSES}, out of range"):
        check_arrays({"x": x, "y": y, "x_val": x, "y_val": y_val})
    y_val[3] = MAX_CLASSES - 1        # exactly MAX_CLASSES classes: taken
    assert check_arrays({"x": x, "y": y, "x_val": x, "y_val": y_val})["num_classes"] == MAX_CLASSES


def test_per_step_labels_of_class_zero_and_unscored_steps_are_scored():
    x = _x()
    y = np.zeros((6, 4), np.int64)
    y[:, :2] = -1                     # every scored step of the training set is class 0
    y_val = np.ones((6, 4), np.int64)
    d = check_arrays({"x": x, "y": y, "x_val": x, "y_val": y_val})
    assert d["per_step"] and d["num_classes"] == 2
    np.testing.assert_array_equal(d["y"], y)
    with pytest.raises(DataError, match="every step of y is -1"):
        check_arrays({"x": x, "y": np.full((6, 4), -1), "x_val": x, "y_val": y_val})
