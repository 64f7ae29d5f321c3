"""lnrnn/predict_io.py by value, against what its docstring defines, computed here with NumPy: the training
record of ragged sequences ([shortest, longest] length, the value range times the scale), an (N,T) array read
as (N,T,1), the (file, first index, count) of each input over three files, IDX images written byte by byte
here (magic 2051, big-endian sizes) read pixel by pixel in pmnist's permutation or row by row and scaled by
1/255, per-step regression rows (one per step up to each sequence's length) and the row count of the
written .csv and .npy."""
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.data.tasks import pmnist_permutation
from lnrnn.errors import UserError
from lnrnn.predict_io import check_inputs, describe_training_data, prediction_columns, read_inputs, write_predictions


def write_idx_by_hand(path, images):
    n, rows, cols = images.shape
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 3]) + struct.pack(">III", n, rows, cols) + images.astype(np.uint8).tobytes())


def test_training_record_of_ragged_sequences_spans_their_own_lengths():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 7, 2))
    lengths = np.array([3, 5, 4])
    rec = describe_training_data(x, lengths, scale=0.5)
    assert rec["steps"] == [int(lengths.min()), int(lengths.max())] == [3, 5]
    assert rec["min"] == pytest.approx(0.5 * x.min()) and rec["max"] == pytest.approx(0.5 * x.max())
    assert describe_training_data(x, np.array([4, 4, 4]))["steps"] == 4
    assert describe_training_data(x)["steps"] == 7


def test_an_n_by_t_array_is_t_steps_of_one_input():
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    out = check_inputs(x, 1)
    assert out.shape == (3, 4, 1)
    np.testing.assert_array_equal(out[:, :, 0], x)
    with pytest.raises(UserError, match="4 inputs per step"):
        check_inputs(x[:, None, :], 1)  # what (N,1,T) would be: one step of T inputs


def test_each_inputs_first_index_counts_every_sequence_before_it(tmp_path):
    rng = np.random.default_rng(1)
    arrays = [rng.normal(size=(k, 5, 1)).astype(np.float32) for k in (2, 3, 1, 4)]
    paths = []
    for i, a in enumerate(arrays):
        p = tmp_path / f"part{i}.npy"
        np.save(p, a)
        paths.append(p)
    x, where = read_inputs(paths, "adding", 1)
    np.testing.assert_array_equal(x, np.concatenate(arrays))
    starts = np.concatenate([[0], np.cumsum([len(a) for a in arrays])[:-1]])
    assert where == [(str(p), int(s), len(a)) for p, s, a in zip(paths, starts, arrays)]
    for f, s, k in where:  # each entry points at its own file's rows
        np.testing.assert_array_equal(x[s:s + k], np.load(f))


@pytest.mark.parametrize("task", ["pmnist", "mnist", "mnist-rows"])
def test_idx_images_read_as_the_task_reads_them(tmp_path, task):
    rng = np.random.default_rng(2)
    images = rng.integers(0, 256, size=(3, 4, 5)).astype(np.uint8)
    images[0, 0, 0], images[1, 0, 0] = 255, 0
    path = tmp_path / "t10k-images-idx3-ubyte"
    write_idx_by_hand(path, images)
    if task == "mnist-rows":
        want, size = images.astype(np.float64) / 255.0, 5
    else:
        flat = images.reshape(3, 20).astype(np.float64) / 255.0
        if task == "pmnist":
            flat = flat[:, pmnist_permutation(20)]
        want, size = flat[:, :, None], 1
    x, where = read_inputs([path], task, size)
    assert where == [(str(path), 0, 3)]
    np.testing.assert_allclose(x, want, rtol=1e-6, atol=0)
    if task != "mnist-rows":
        assert x[0].max() == 1.0  # a white pixel reads exactly 1


def test_per_step_regression_rows_are_sequence_then_step(tmp_path):
    rng = np.random.default_rng(3)
    lengths = [2, 4, 1]
    v = np.full((3, 4, 2), np.nan)
    for i, L in enumerate(lengths):
        v[i, :L] = rng.normal(size=(L, 2))
    cols = {name: a for name, _, a in prediction_columns(SimpleNamespace(values=v))}
    want = [(i, t, v[i, t, 0], v[i, t, 1]) for i, L in enumerate(lengths) for t in range(L)]
    got = list(zip(cols["index"], cols["step"], cols["value_0"], cols["value_1"]))
    assert [(int(i), int(t)) for i, t, *_ in got] == [(i, t) for i, t, *_ in want]
    np.testing.assert_array_equal([g[2:] for g in got], [w[2:] for w in want])
    rows = write_predictions(str(tmp_path / "p.csv"), SimpleNamespace(values=v))
    assert rows == sum(lengths)
    table = np.genfromtxt(tmp_path / "p.csv", delimiter=",", names=True)
    np.testing.assert_array_equal(table["index"], [w[0] for w in want])
    np.testing.assert_array_equal(table["step"], [w[1] for w in want])
    np.testing.assert_allclose(table["value_1"], [w[3] for w in want], rtol=1e-5)


@pytest.mark.parametrize("suffix", [".csv", ".npy"])
def test_a_classifier_writes_one_row_per_sequence(tmp_path, suffix):
    rng = np.random.default_rng(4)
    N = 6
    classes, prob = rng.integers(0, 10, N), rng.uniform(0.1, 1.0, N)
    path = str(tmp_path / ("p" + suffix))
    rows = write_predictions(path, SimpleNamespace(classes=classes, probability=prob))
    assert rows == N
    if suffix == ".npy":
        table = np.load(path, allow_pickle=False)
    else:
        with open(path) as f:
            lines = f.read().splitlines()
        assert len(lines) == N + 1 and lines[0] == "index,class,probability"
        table = np.genfromtxt(path, delimiter=",", names=True)
    np.testing.assert_array_equal(table["index"], np.arange(N))
    np.testing.assert_array_equal(table["class"], classes)
    np.testing.assert_allclose(table["probability"], prob, rtol=1e-5)
