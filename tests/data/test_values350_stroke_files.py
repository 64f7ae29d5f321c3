"""lnrnn/data/stroke_files.py, eighteenth pass: a numeric .npy given to the strokes-npz loader refused word for
word naming "the array"; an .npz saved under a .npy name refused by read_lines naming the kind it is and the
kind its name promises; an IAM-OnDB line .xml read by read_lines as a list of one line, the rows worked out by
hand; lines saved with save_npz read back against the hand-made arrays at 1, 2, 10 and 11 lines."""
import os

import numpy as np
import pytest

from lnrnn.data import stroke_files
from test_values135_iamondb import line_xml, stroke3_by_hand  # IAM-OnDB's XML of given strokes; rows by hand
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_a_numeric_npy_is_refused_by_the_task_naming_the_array(tmp_path):
    path = tmp_path / "s.npy"
    np.save(path, np.zeros((4, 3)))
    before = sorted(os.listdir(tmp_path))
    assert refused(stroke_files.load, str(path)) == (
        f"{path}: the array is a float64 array of shape (4, 3), not a list of (N, 3) sequences; store several "
        "sequences as strokes + lengths in an .npz.")
    assert sorted(os.listdir(tmp_path)) == before


def test_an_npz_under_an_npy_name_is_refused_naming_both_kinds(tmp_path):
    path = tmp_path / "line.npy"
    with open(path, "wb") as f:                                   # np.savez to a file object keeps the name
        np.savez(f, points=np.array([[0.0, 0.0, 1.0]]))
    assert refused(stroke_files.read_lines, str(path)) == (
        f"{path} is a .npz file; expected a .npy holding stroke-3 (dx, dy, pen) points.")


def test_an_iamondb_line_is_read_as_a_list_of_one(tmp_path):
    strokes = [[(10, 20), (13, 24), (13, 30)], [(50, 20)], [(51, 18), (60, 18)]]
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml(strokes))
    got = stroke_files.read_lines(str(path))
    assert isinstance(got, list) and len(got) == 1
    np.testing.assert_array_equal(got[0], stroke3_by_hand(strokes))


@pytest.mark.parametrize("n", [1, 2, 10, 11])
def test_lines_saved_read_back_by_count(tmp_path, n):
    seqs = [np.array([[float(i), 2.0, 0.0]] * (i % 4) + [[-1.0, float(i), 1.0]]) for i in range(n)]
    path = tmp_path / "lines.npz"
    stroke_files.save_npz(path, seqs)
    got = stroke_files.load(str(path))
    assert list(got) == ["all"] and len(got["all"]) == n
    for g, s in zip(got["all"], seqs):
        np.testing.assert_array_equal(g, s)
