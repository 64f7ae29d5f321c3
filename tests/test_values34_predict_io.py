"""lnrnn/predict_io.py by value: sequences with +-inf or NaN (a .npy or an array, float32 or float64) and
sequences of no steps or none at all are refused in one sentence before the model runs; the predictions
files byte for byte against the tables written out by hand: a CSV of a header and one line per row, each
ending in a newline (the last one too), floats in six significant digits, and a .npy of a structured array
of little-endian int64 and float64 fields."""
import io
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.predict_io import check_inputs, read_inputs, write_predictions


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_non_finite_sequences_are_refused(tmp_path, value, dtype):
    x = np.zeros((3, 4, 2), dtype)
    x[2, 3, 1] = value
    with pytest.raises(UserError, match=r"^the sequences hold NaN or infinite values\.$"):
        check_inputs(x, 2)
    path = tmp_path / "x.npy"
    np.save(path, x)
    with pytest.raises(UserError, match="NaN or infinite"):
        read_inputs([str(path)], "adding", 2)
    big = np.full((3, 4, 2), np.finfo(dtype).max, dtype)              # finite: taken as it is
    assert check_inputs(big, 2).shape == (3, 4, 2)


@pytest.mark.parametrize("shape", [(3, 0), (3, 0, 1), (0, 4), (0, 4, 1), (0, 0, 1)])
def test_no_steps_or_no_sequences_are_refused(tmp_path, shape):
    x = np.zeros(shape, np.float32)
    with pytest.raises(UserError, match=r"^there are no sequences to predict \(shape \("):
        check_inputs(x, 1)
    path = tmp_path / "x.npy"
    np.save(path, x)
    with pytest.raises(UserError, match="no sequences to predict"):
        read_inputs([str(path)], "adding", 1)


TABLES = [
    (SimpleNamespace(classes=np.array([2, 0, 1]), probability=np.array([0.5, 1 / 3, 0.987654321])),
     "index,class,probability\n0,2,0.5\n1,0,0.333333\n2,1,0.987654\n"),
    (SimpleNamespace(classes=np.array([[1, 0, -1], [0, -1, -1]]),
                     probability=np.array([[0.25, 0.75, 0.0], [1.0, 0.0, 0.0]])),
     "index,step,class,probability\n0,0,1,0.25\n0,1,0,0.75\n1,0,0,1\n"),
    (SimpleNamespace(values=np.array([[1.5], [-2e-7]])), "index,value\n0,1.5\n1,-2e-07\n"),
    (SimpleNamespace(values=np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [np.nan, np.nan]]])),
     "index,step,value_0,value_1\n0,0,1,2\n0,1,3,4\n1,0,5,6\n"),
    (SimpleNamespace(labels=[[3, 1, 4], [], [15]]), "index,labels\n0,3 1 4\n1,\n2,15\n"),
]


@pytest.mark.parametrize("predictions,text", TABLES, ids=["classes", "per-step", "values", "values-per-step", "ctc"])
def test_the_csv_byte_for_byte(tmp_path, predictions, text):
    path = tmp_path / "p.csv"
    rows = write_predictions(str(path), predictions)
    assert path.read_bytes() == text.encode("utf-8")
    assert rows == text.count("\n") - 1


def test_the_npy_byte_for_byte(tmp_path):
    path = tmp_path / "p.npy"
    p = SimpleNamespace(classes=np.array([2, 0]), probability=np.array([0.5, 0.25], np.float32))
    assert write_predictions(str(path), p) == 2
    table = np.array([(0, 2, 0.5), (1, 0, 0.25)], dtype=[("index", "<i8"), ("class", "<i8"), ("probability", "<f8")])
    want = io.BytesIO()
    np.save(want, table, allow_pickle=False)
    assert path.read_bytes() == want.getvalue()
