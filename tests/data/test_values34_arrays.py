"""lnrnn/data/arrays.py's checks against docs/your_data.md, array by array: x finite (no NaN, no +-inf) and not
empty on any axis; y either (N,) or (N, T), no other width; the validation set given whole (x_val with y_val,
lengths_val with both) or not at all; and y_val's labels held to the same rule as y's (integers 0..C-1, -1 only
per step). Each refusal is one DataError naming the array; the train command gives it as one line, exit 2,
and writes nothing."""
import os

import numpy as np
import pytest

from lnrnn.data.arrays import check_arrays
from lnrnn.errors import DataError

from test_cli import assert_clean_error, invoke

N, T, I = 6, 5, 2


def _x(n=N, t=T, i=I):
    return np.random.default_rng(0).standard_normal((n, t, i)).astype(np.float32)


def _y(n=N):
    return np.arange(n) % 2


def _refused(arrays, words, objective=None):
    with pytest.raises(DataError, match=words):
        check_arrays(arrays, objective=objective)


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("key", ["x", "x_val"])
def test_a_non_finite_input_is_refused_in_either_set(key, value):
    arrays = {"x": _x(), "y": _y(), "x_val": _x(), "y_val": _y()}
    arrays[key] = arrays[key].copy()
    arrays[key][3, 2, 1] = value                       # one value among finite ones
    _refused(arrays, f"{key} holds NaN or infinite values")
    arrays[key] = arrays[key].astype(np.float64)       # the dtype does not matter
    _refused(arrays, f"{key} holds NaN or infinite values")


@pytest.mark.parametrize("shape", [(N, 0, I), (N, 0), (N, T, 0), (0, T, I)])
def test_an_input_empty_on_any_axis_is_refused(shape):
    _refused({"x": np.zeros(shape, np.float32), "y": _y(shape[0])}, r"x is empty \(shape")


@pytest.mark.parametrize("width", [T - 1, T + 1, 1])
def test_per_step_targets_must_be_exactly_t_wide(width):
    y = np.zeros((N, width), np.int64)
    y[:, 0] = 1
    _refused({"x": _x(), "y": y}, rf"y must be \({N},\) .* or \({N}, {T}\) .* not shape \({N}, {width}\)")
    # and the same for the validation set, against its own T
    yv = np.zeros((N, width), np.int64)
    _refused({"x": _x(), "y": _y(), "x_val": _x(t=T), "y_val": yv}, rf"y_val must be \({N},\)")
    _refused({"x": _x(), "y": np.zeros((N, T, 1), np.int64)}, r"not shape")
    # exactly T wide is taken: per step
    y = np.zeros((N, T), np.int64)
    y[:, 1] = 1
    assert check_arrays({"x": _x(), "y": y})["per_step"]


def test_the_validation_set_is_given_whole_or_not_at_all():
    _refused({"x": _x(), "y": _y(), "y_val": _y()}, "y_val without x_val")
    _refused({"x": _x(), "y": _y(), "x_val": _x()}, "x_val without y_val")
    _refused({"x": _x(), "y": _y(), "lengths_val": np.full(N, T)}, "lengths_val but no x_val")
    _refused({"x": _x(), "y": _y(), "y_val": _y(), "lengths_val": np.full(N, T)}, "y_val without x_val")
    d = check_arrays({"x": _x(), "y": _y(), "x_val": _x(n=4), "y_val": _y(4)})
    assert d["x_val"].shape == (4, T, I) and d["y_val"].tolist() == [0, 1, 0, 1]


def test_validation_labels_follow_the_rule_of_the_training_labels():
    x, y = _x(), _y()
    frac = _y().astype(np.float64)
    frac[2] = 0.5
    _refused({"x": x, "y": y.astype(np.float64), "x_val": x, "y_val": frac}, "y_val holds fractional values",
             objective="ce")
    _refused({"x": x, "y": y, "x_val": x, "y_val": frac.astype(np.float32)},   # ce by y's dtype
             "y_val holds fractional values")
    neg = _y()
    neg[4] = -1                                         # -1 is not a class of a per-sequence label
    _refused({"x": x, "y": y, "x_val": x, "y_val": neg}, "y_val holds the label -1")
    step = np.zeros((N, T), np.int64)
    step[:, 0] = 1
    bad = step.copy()
    bad[1, 3] = -2                                      # per step, -1 alone marks an unscored step
    _refused({"x": x, "y": step, "x_val": x, "y_val": bad}, "y_val holds the label -2")
    ok = step.copy()
    ok[1, 3] = -1
    d = check_arrays({"x": x, "y": step, "x_val": x, "y_val": ok})
    assert d["num_classes"] == 2 and d["y_val"][1, 3] == -1
    # integral floats are classes in either set
    d = check_arrays({"x": x, "y": y.astype(np.float64), "x_val": x, "y_val": (y + 2).astype(np.float64)},
                     objective="ce")
    assert d["num_classes"] == 4 and d["y_val"].dtype == np.int64


@pytest.mark.parametrize("make,words", [
    (lambda: {"x": np.where(_x() > 1.5, np.inf, _x()), "y": _y()}, "x holds NaN or infinite values"),
    (lambda: {"x": np.zeros((N, 0, I), np.float32), "y": _y()}, "x is empty"),
    (lambda: {"x": _x(), "y": np.zeros((N, T + 1), np.int64)}, "y must be (6,)"),
    (lambda: {"x": _x(), "y": _y(), "y_val": _y()}, "y_val without x_val"),
    (lambda: {"x": _x(), "y": _y(), "x_val": _x(), "y_val": _y() - 1}, "y_val holds the label -1"),
], ids=["inf", "no-steps", "y-width", "y_val-alone", "y_val-negative"])
def test_train_gives_one_line_and_writes_nothing(tmp_path, make, words):
    path = tmp_path / "d.npz"
    np.savez(path, **make())
    out = tmp_path / "run"
    assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, "--hidden", "4", "--epochs", "1", "-q",
                              "--out", out), words)
    assert not os.path.exists(out)
