"""lnrnn/predict_io.py: a uint8 .npy of sequences is scaled as the run's task scales its data (by 1/255
for the MNIST family only, as ``_task_scale``), and the CSV of predictions keeps six significant digits of
every value, small or large (read back within a relative 1e-5)."""
import csv
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.predict_io import _read_one, write_predictions


@pytest.mark.parametrize("task, scale", [("adding", 1.0), ("digits", 1.0), ("mnist", 1 / 255), ("pmnist", 1 / 255)])
def test_a_uint8_npy_is_scaled_as_its_task_scales(tmp_path, task, scale):
    raw = np.arange(24, dtype=np.uint8).reshape(2, 6, 2) * 10
    path = tmp_path / "x.npy"
    np.save(path, raw)
    got = _read_one(str(path), task)
    np.testing.assert_allclose(got, raw.astype(np.float64) * scale, rtol=1e-6)


def test_csv_values_keep_six_significant_digits(tmp_path):
    values = np.array([[1.234567e-7, -3.5e-9], [12345.678, 0.5]])
    path = tmp_path / "p.csv"
    write_predictions(str(path), SimpleNamespace(values=values))
    with open(path) as f:
        rows = list(csv.DictReader(f))
    got = np.array([[float(r["value_0"]), float(r["value_1"])] for r in rows])
    np.testing.assert_allclose(got, values, rtol=1e-5)
