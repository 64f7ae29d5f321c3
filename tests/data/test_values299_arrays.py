"""The npz task's arrays and options against their definitions: a .npy file known by its six magic bytes and
refused by the npz task word for word (a single array, not named x and y), with nothing written beside it;
lengths stored as floats refused word for word rather than truncated; a file's own x_val and y_val without
lengths_val checked and read back value by value (an integer x keeps its dtype, a boolean one becomes uint8);
--split 3/0 refused with the text as given, quoted; and task_spec checking an option's value (an objective
that is neither ce nor mse) before any data are read."""
import os

import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.splits import parse_split
from lnrnn.data.tasks import task_spec
from lnrnn.errors import DataError, UserError
from test_values275_arrays import _refused  # the npz task's DataError text, nothing written beside the file


def test_npy_known_by_its_six_magic_bytes_and_refused_by_name(tmp_path):
    path = tmp_path / "one.npy"
    np.save(path, np.zeros((2, 3), np.float32))
    assert open(path, "rb").read(6) == b"\x93NUMPY"
    assert arrays.numpy_kind(path) == "npy"
    assert _refused(tmp_path, path) == (f"{path} holds a single array (.npy); the npz task needs named arrays x "
                                        "and y: save them with numpy.savez(path, x=..., y=...).")


def test_float_lengths_refused_not_truncated(tmp_path):
    path = tmp_path / "fl.npz"
    np.savez(path, x=np.zeros((2, 3, 1), np.float32), y=np.array([0, 1]), lengths=np.array([1.0, 2.5]))
    assert _refused(tmp_path, path) == (f"{path}: lengths must be 2 integers (one per sequence), not float64 of "
                                        "shape (2,).")


def test_own_validation_without_lengths_val_read_value_by_value():
    x = np.arange(6, dtype=np.int16).reshape(2, 3)                 # (N, T) = (2, 3): one input per step
    xv = np.array([[True, False, True]])                          # (1, 3)
    out = arrays.check_arrays({"x": x, "y": np.array([1, 0]), "x_val": xv, "y_val": np.array([2])})
    assert out["x"].dtype == np.int16 and out["x"].shape == (2, 3, 1)
    np.testing.assert_array_equal(out["x"][:, :, 0], x)
    assert out["x_val"].dtype == np.uint8 and out["x_val"].shape == (1, 3, 1)
    np.testing.assert_array_equal(out["x_val"][0, :, 0], [1, 0, 1])
    np.testing.assert_array_equal(out["y_val"], [2])
    assert out["lengths"] is None and out["lengths_val"] is None
    assert out["num_classes"] == 3 and out["objective"] == "ce" and out["per_step"] is False
    # x_val two inputs wide against x's one: refused, though no lengths_val is given
    with pytest.raises(DataError) as e:
        arrays.check_arrays({"x": x, "y": np.array([1, 0]), "x_val": np.zeros((1, 3, 2)), "y_val": np.array([2])})
    assert str(e.value) == "the arrays: x has 1 input per step but x_val has 2; they must match."


def test_split_with_a_zero_count_refused_quoting_the_text():
    for text in ("3/0", "0/7"):
        with pytest.raises(UserError) as e:
            parse_split(text)
        assert str(e.value) == f"--split needs positive counts, not '{text}'."
    assert parse_split("13/2") == (13, 2)


def test_task_spec_checks_the_objective_before_reading_data(tmp_path):
    with pytest.raises(UserError) as e:
        task_spec("npz", data_dir=str(tmp_path / "absent.npz"), objective="xyz")
    assert str(e.value) == "--objective must be ce (classes) or mse (regression), not 'xyz'."
    assert os.listdir(tmp_path) == []
    assert task_spec("npz", data_dir="d.npz", objective="mse") == {"task": "npz", "data_dir": "d.npz",
                                                                   "objective": "mse"}
