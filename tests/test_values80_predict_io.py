"""lnrnn/predict_io.py's tables and inputs, written and read back value by value against the module docstring:
a per-step regression's table has one row per step up to each sequence's length, index the sequence and step the
step (from 0), the values in the value column; a CTC head's labels are written space-separated whole, however much
longer a later sequence's are than the first's, in the .csv and the .npy alike; IDX images given to an mnist-rows
run are read row by row (step r is the image's row r) and scaled by 1/255, to mnist pixel by pixel; boolean
sequences are numbers; check_like_training takes the slack its caller gives (0: any excess is reported)."""
import csv
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.data.idx import write_idx
from lnrnn.predict_io import check_inputs, check_like_training, read_inputs, write_predictions


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


@pytest.mark.parametrize("suffix", [".csv", ".npy"])
def test_per_step_values_one_row_per_step_index_then_step(tmp_path, suffix):
    rng = np.random.default_rng(3)
    lengths = [2, 4, 1]                                    # N=3 sequences, T=4
    v = rng.normal(size=(3, 4, 1))
    for i, L in enumerate(lengths):
        v[i, L:] = np.nan                                  # past the end: no output
    want = [(i, s, v[i, s, 0]) for i, L in enumerate(lengths) for s in range(L)]
    path = tmp_path / f"p{suffix}"
    assert write_predictions(str(path), SimpleNamespace(values=v)) == sum(lengths)
    if suffix == ".csv":
        head, rows = read_csv(path)
        assert head == ["index", "step", "value"]
        got = [(int(a), int(b), float(c)) for a, b, c in rows]
        for (i, s, x), (gi, gs, gx) in zip(want, got):
            assert (gi, gs) == (i, s) and gx == pytest.approx(x, rel=1e-5, abs=1e-6)
    else:
        t = np.load(path, allow_pickle=False)
        assert t.dtype.names == ("index", "step", "value")
        got = list(zip(t["index"].tolist(), t["step"].tolist(), t["value"].tolist()))
        assert got == want
    assert len(got) == len(want)


@pytest.mark.parametrize("suffix", [".csv", ".npy"])
def test_labels_are_written_whole_however_long(tmp_path, suffix):
    labels = [[3], [1, 12, 7, 40], [], [5, 5]]
    want = [" ".join(str(c) for c in row) for row in labels]
    path = tmp_path / f"l{suffix}"
    assert write_predictions(str(path), SimpleNamespace(labels=labels)) == len(labels)
    if suffix == ".csv":
        head, rows = read_csv(path)
        assert head == ["index", "labels"]
        assert [int(r[0]) for r in rows] == list(range(len(labels)))
        assert [r[1] for r in rows] == want
    else:
        t = np.load(path, allow_pickle=False)
        assert t["index"].tolist() == list(range(len(labels)))
        assert t["labels"].tolist() == want


def images(n, rows, cols):
    return (np.arange(n * rows * cols) * 7 % 256).astype(np.uint8).reshape(n, rows, cols)


@pytest.mark.parametrize("rows, cols", [(4, 4), (5, 3)])
def test_idx_images_of_an_mnist_rows_run_are_read_row_by_row(tmp_path, rows, cols):
    img = images(3, rows, cols)
    path = tmp_path / "t10k-images-idx3-ubyte"
    write_idx(str(path), img)
    x, where = read_inputs([str(path)], "mnist-rows", cols)
    assert x.shape == (3, rows, cols) and x.dtype == np.float32
    for i in range(3):
        for r in range(rows):
            np.testing.assert_allclose(x[i, r], img[i, r].astype(np.float64) / 255.0, rtol=1e-6)
    assert where == [(str(path), 0, 3)]


def test_idx_images_of_an_mnist_run_are_read_pixel_by_pixel(tmp_path):
    img = images(2, 3, 4)
    path = tmp_path / "t10k-images-idx3-ubyte"
    write_idx(str(path), img)
    x, _ = read_inputs([str(path)], "mnist", 1)
    assert x.shape == (2, 12, 1)
    np.testing.assert_allclose(x[:, :, 0], img.reshape(2, 12).astype(np.float64) / 255.0, rtol=1e-6)


def test_boolean_sequences_are_numbers():
    b = np.array([[True, False, True], [False, False, True]])
    x = check_inputs(b, 1)
    assert x.shape == (2, 3, 1)
    np.testing.assert_array_equal(x[:, :, 0], b)


@pytest.mark.parametrize("slack, value, reported", [
    (0.0, 1.001, True),      # any excess, with no slack
    (0.0, 1.0, False),       # the edge itself is inside
    (0.5, 1.45, False),      # within half the width (beyond the configured slack)
    (0.5, 1.55, True),
])
def test_the_range_check_takes_the_slack_given(slack, value, reported):
    record = {"steps": 3, "min": 0.0, "max": 1.0}
    x = np.array([[[0.2], [value], [0.5]]])
    differs = check_like_training(x, record, slack=slack)
    assert bool(differs) == reported
    if reported:
        assert differs == [f"their values span 0.2 to {value:g} where the training data's spanned 0 to 1"]
