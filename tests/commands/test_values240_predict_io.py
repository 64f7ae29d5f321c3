"""Prediction tables (lnrnn/predict_io.py) written row by row, each row worked out here: a CTC head's label
sequences numbered from 0 like every table, each of several regression outputs in its own column, a per-step
classifier's rows sequence then step over each sequence's own steps (lengths 2, 1, 2; class -1 past them), and
write_predictions' count of the rows it wrote (not of its columns)."""
from types import SimpleNamespace

import numpy as np

from lnrnn.predict_io import write_predictions


def _lines(path):
    return path.read_text().splitlines()


def test_label_sequences_numbered_from_zero(tmp_path):
    p = SimpleNamespace(labels=[[3, 1], [], [2], [0, 0, 4]])
    assert write_predictions(tmp_path / "l.csv", p) == 4
    assert _lines(tmp_path / "l.csv") == ["index,labels", "0,3 1", "1,", "2,2", "3,0 0 4"]
    write_predictions(tmp_path / "l.npy", p)
    table = np.load(tmp_path / "l.npy", allow_pickle=False)
    assert table["index"].tolist() == [0, 1, 2, 3] and table["labels"].tolist() == ["3 1", "", "2", "0 0 4"]


def test_each_regression_output_in_its_own_column(tmp_path):
    p = SimpleNamespace(values=np.array([[0.5, 1.25, -2.0], [3.0, -0.75, 8.5]]))
    assert write_predictions(tmp_path / "v.csv", p) == 2
    assert _lines(tmp_path / "v.csv") == ["index,value_0,value_1,value_2", "0,0.5,1.25,-2", "1,3,-0.75,8.5"]
    write_predictions(tmp_path / "v.npy", p)
    table = np.load(tmp_path / "v.npy", allow_pickle=False)
    assert table["value_1"].tolist() == [1.25, -0.75] and table["value_2"].tolist() == [-2.0, 8.5]


def test_per_step_classes_rows_are_sequence_then_step(tmp_path):
    # 3 sequences of up to 2 steps, lengths 2, 1, 2: rows (0,0) (0,1) (1,0) (2,0) (2,1)
    classes = np.array([[4, 1], [2, -1], [0, 3]])
    prob = np.array([[0.5, 0.25], [0.75, np.nan], [0.125, 0.625]])
    p = SimpleNamespace(classes=classes, probability=prob)
    assert write_predictions(tmp_path / "s.csv", p) == 5                  # 5 rows of 4 columns
    assert _lines(tmp_path / "s.csv") == ["index,step,class,probability", "0,0,4,0.5", "0,1,1,0.25", "1,0,2,0.75",
                                          "2,0,0,0.125", "2,1,3,0.625"]


def test_rows_returned_are_the_rows_written(tmp_path):
    p = SimpleNamespace(classes=np.array([1, 0, 1, 1, 0, 2, 1]), probability=np.linspace(0.4, 1.0, 7))
    assert write_predictions(tmp_path / "c.csv", p) == 7 == len(_lines(tmp_path / "c.csv")) - 1
    p = SimpleNamespace(values=np.full((2, 4, 1), np.nan))
    p.values[0, :3, 0], p.values[1, :1, 0] = [1.0, 2.0, 3.0], [4.0]       # lengths 3 and 1
    assert write_predictions(tmp_path / "r.csv", p) == 4
    assert _lines(tmp_path / "r.csv") == ["index,step,value", "0,0,1", "0,1,2", "0,2,3", "1,0,4"]
