"""lnrnn/predict_io.py's records and tables against their definitions: the training record of padded
sequences that all have one length L < T says L steps (what the model read, not the padded width); a
per-step table keeps every scored step, class 0 included, and drops only the padding (-1); inputs read
from several files must agree in steps, not in count (files of other counts are concatenated in order)."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import DataError
from lnrnn.predict_io import describe_training_data, prediction_columns, read_inputs


def test_the_record_of_equal_lengths_is_their_length_not_the_padded_width():
    x = np.zeros((3, 10, 1), np.float32)
    x[:, :6, 0] = [[1, 2, 3, 4, 5, 6]] * 3
    assert describe_training_data(x, np.array([6, 6, 6]))["steps"] == 6
    assert describe_training_data(x, np.array([4, 6, 6]))["steps"] == [4, 6]
    assert describe_training_data(x)["steps"] == 10
    rec = describe_training_data(x, np.array([6, 6, 6]), scale=0.5)
    assert (rec["min"], rec["max"]) == (0.0, 3.0)


def test_a_per_step_table_keeps_class_0_and_drops_the_padding():
    classes = np.array([[0, 2, -1, -1], [1, 0, 0, -1]])
    prob = np.array([[0.9, 0.8, 0.0, 0.0], [0.7, 0.6, 0.5, 0.0]])
    cols = {name: a for name, _, a in prediction_columns(SimpleNamespace(classes=classes, probability=prob))}
    want = [(n, t) for n in range(2) for t in range(4) if classes[n, t] != -1]   # every scored step
    assert list(zip(cols["index"].tolist(), cols["step"].tolist())) == want
    assert cols["class"].tolist() == [0, 2, 1, 0, 0]
    assert cols["probability"].tolist() == [0.9, 0.8, 0.7, 0.6, 0.5]


def test_inputs_of_several_files_agree_in_steps_not_in_count(tmp_path):
    a, b = np.ones((2, 5, 1), np.float32), 2 * np.ones((3, 5, 1), np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    x, where = read_inputs([tmp_path / "a.npy", tmp_path / "b.npy"], "npz", 1)
    np.testing.assert_array_equal(x, np.concatenate([a, b]))
    assert [(s, n) for _, s, n in where] == [(0, 2), (2, 3)]
    np.save(tmp_path / "c.npy", np.ones((2, 7, 1), np.float32))
    with pytest.raises(DataError, match="7 steps"):
        read_inputs([tmp_path / "a.npy", tmp_path / "c.npy"], "npz", 1)
