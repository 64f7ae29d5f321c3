"""Prediction inputs and files (lnrnn/predict_io.py) against what they must hold, worked out here: the training
record's step count ([min, max] for varied lengths whatever their order) and range (a task's stored inputs times
its scale); IDX images of a non-square size read row by row (each sequence the image's rows over 255); two .npy
inputs stacked as more sequences with each file's first index; and per-step predictions written to .csv and .npy
and read back, one row for each valid step of each sequence (five rows of four columns)."""
import csv
import types

import numpy as np

from lnrnn.api import StepPredictions
from lnrnn.data.idx import write_idx
from lnrnn.predict_io import describe_task_data, describe_training_data, read_inputs, write_predictions


def test_varied_lengths_are_recorded_as_min_and_max_whatever_comes_first():
    x = np.arange(24, dtype=np.float64).reshape(3, 4, 2) - 5.0       # values -5 .. 18
    rec = describe_training_data(x, lengths=np.array([2, 4, 3]))      # the first is the shortest
    assert rec == {"steps": [2, 4], "min": -5.0, "max": 18.0}
    assert describe_training_data(x, lengths=np.array([3, 3, 3]))["steps"] == 3
    assert describe_training_data(x)["steps"] == 4


def test_a_tasks_record_is_its_stored_inputs_times_its_scale():
    x = np.array([[[0.0], [40.0]], [[200.0], [10.0]]])
    task = types.SimpleNamespace(x_train=x, scale=0.5)
    assert describe_task_data(task) == {"steps": 2, "min": 0.0, "max": 100.0}
    assert describe_task_data(types.SimpleNamespace()) is None


def test_mnist_rows_of_non_square_idx_images_are_the_images_rows(tmp_path):
    images = np.arange(2 * 3 * 2, dtype=np.uint8).reshape(2, 3, 2) * 10     # 2 images of 3 rows, 2 columns
    path = tmp_path / "t10k-images-idx3-ubyte"
    write_idx(path, images)
    x, where = read_inputs([path], "mnist-rows", 2)
    assert x.shape == (2, 3, 2)
    np.testing.assert_allclose(x, images.astype(np.float64) / 255.0, rtol=1e-6)
    assert where == [(str(path), 0, 2)]
    x1, _ = read_inputs([path], "mnist", 1)                                  # pixel by pixel, row-major
    np.testing.assert_allclose(x1[:, :, 0], images.reshape(2, 6) / 255.0, rtol=1e-6)


def test_two_npy_inputs_are_stacked_as_more_sequences(tmp_path):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 5, 3)), rng.standard_normal((3, 5, 3))
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    x, where = read_inputs([tmp_path / "a.npy", tmp_path / "b.npy"], "npz", 3)
    np.testing.assert_array_equal(x, np.vstack([a, b]))
    assert where == [(str(tmp_path / "a.npy"), 0, 2), (str(tmp_path / "b.npy"), 2, 3)]


def _step_predictions():
    probs = np.array([[[0.7, 0.3], [0.4, 0.6], [0.5, 0.5]],
                      [[0.1, 0.9], [0.8, 0.2], [0.5, 0.5]]])                  # (N=2,T=3,C=2)
    classes = np.array([[0, 1, 0], [1, 0, -1]])                              # lengths 3 and 2
    return StepPredictions(classes, probs, np.array([3, 2]))


def test_per_step_predictions_read_back_from_csv_and_npy(tmp_path):
    # one row per valid step (5 rows, 4 columns): (index, step, class, probability of that class)
    want = [(0, 0, 0, 0.7), (0, 1, 1, 0.6), (0, 2, 0, 0.5), (1, 0, 1, 0.9), (1, 1, 0, 0.8)]
    p = _step_predictions()
    assert write_predictions(tmp_path / "p.csv", p) == len(want)
    with open(tmp_path / "p.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["index", "step", "class", "probability"]
    assert [(int(i), int(s), int(c), float(q)) for i, s, c, q in rows[1:]] == want
    assert write_predictions(tmp_path / "p.npy", p) == len(want)
    table = np.load(tmp_path / "p.npy", allow_pickle=False)
    assert table.dtype.names == ("index", "step", "class", "probability")
    assert [(int(r["index"]), int(r["step"]), int(r["class"]), float(r["probability"])) for r in table] == want
