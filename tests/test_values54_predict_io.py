"""lnrnn/predict_io.py's files read back: softmax against exp(z) / sum(exp(z)) over each row's classes, worked
out here; a CTC head's labels written space-separated and split back into the same lists (1 12 and 11 2 stay
apart, an empty labelling stays empty); a CSV of as many lines as the table has rows, each equal to the .npy's row;
read_inputs's record of where each file's sequences sit: (file, first row, count) for three files in turn."""
import csv
import math
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.predict_io import read_inputs, softmax, write_predictions


def test_softmax_normalizes_each_row_over_its_classes():
    z = np.array([[0.0, 1.0, 2.0, -1.0], [3.0, 3.0, 0.5, 0.0], [-2.0, 0.0, 0.0, 1.0]])
    p = softmax(z)
    for i in range(3):
        e = [math.exp(v) for v in z[i]]
        for j in range(4):
            assert p[i, j] == pytest.approx(e[j] / sum(e), rel=1e-12)


def _npy(tmp_path, predictions):
    path = tmp_path / "p.npy"
    write_predictions(str(path), predictions)
    return path


def test_a_ctc_heads_labels_read_back_as_the_same_lists(tmp_path):
    labels = [[1, 12], [11, 2], [], [7]]
    path = tmp_path / "p.csv"
    assert write_predictions(str(path), SimpleNamespace(labels=labels)) == 4
    with open(path, newline="") as f:
        got = list(csv.DictReader(f))
    assert [int(r["index"]) for r in got] == [0, 1, 2, 3]
    assert [[int(v) for v in r["labels"].split()] for r in got] == labels
    table = np.load(_npy(tmp_path, SimpleNamespace(labels=labels)))
    assert [[int(v) for v in s.split()] for s in table["labels"]] == labels


@pytest.mark.parametrize("n", [1, 5])
def test_the_csv_holds_every_row_of_the_table(tmp_path, n):
    rng = np.random.default_rng(n)
    preds = SimpleNamespace(classes=rng.integers(0, 10, n), probability=rng.uniform(0.1, 1.0, n))
    path = tmp_path / "p.csv"
    assert write_predictions(str(path), preds) == n
    lines = open(path).read().splitlines()
    assert lines[0] == "index,class,probability" and len(lines) == n + 1
    table = np.load(_npy(tmp_path, preds))
    assert len(table) == n
    for i, line in enumerate(lines[1:]):
        index, cls, prob = line.split(",")
        assert (int(index), int(cls)) == (i, preds.classes[i]) == (table["index"][i], table["class"][i])
        assert float(prob) == pytest.approx(preds.probability[i], rel=1e-5)


def test_where_records_each_files_first_row_and_count(tmp_path):
    rng = np.random.default_rng(0)
    parts = [rng.normal(size=(n, 4, 2)).astype(np.float32) for n in (3, 2, 4)]
    paths = []
    for k, x in enumerate(parts):
        paths.append(str(tmp_path / f"x{k}.npy"))
        np.save(paths[-1], x)
    x, where = read_inputs(paths, "adding", 2)
    assert where == [(paths[0], 0, 3), (paths[1], 3, 2), (paths[2], 5, 4)]
    for (f, first, count), part in zip(where, parts):
        np.testing.assert_array_equal(x[first:first + count], part)
