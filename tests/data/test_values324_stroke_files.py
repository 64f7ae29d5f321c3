"""lnrnn/data/stroke_files.py, seventeenth pass: sequences of 10,000 points read and one of 10,001 refused in
words written out here; float lengths refused word for word with nothing written; an IAM-OnDB line .xml (its
true XML format) read by read_lines to the rows worked out by hand; packed files of 1, 2, 10 and
11 lines read back against the hand-made arrays."""
import os

import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.errors import DataError
from test_values135_iamondb import line_xml  # IAM-OnDB's XML of given strokes


def _pen_rows(n):
    rows = np.zeros((n, 3))
    rows[:, 0] = np.arange(n) % 7
    rows[-1, 2] = 1.0
    return rows


def test_ten_thousand_points_read_and_one_more_refused(tmp_path):
    ok, big = tmp_path / "ok.npz", tmp_path / "big.npz"
    np.savez(ok, strokes=_pen_rows(10000), lengths=np.array([10000]))
    np.savez(big, strokes=np.concatenate([_pen_rows(3), _pen_rows(10001)]), lengths=np.array([3, 10001]))
    got = stroke_files.load(str(ok))
    assert len(got["all"]) == 1 and got["all"][0].shape == (10000, 3)
    with pytest.raises(DataError) as e:
        stroke_files.load(str(big))
    assert str(e.value) == (f"{big}: sequence 1 of strokes has 10,001 points, more than the limit of 10,000; "
                            "split it or drop it.")


def test_float_lengths_are_refused_word_for_word(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, strokes=_pen_rows(4), lengths=np.array([1.0, 3.0]))
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(DataError) as e:
        stroke_files.load(str(path))
    assert str(e.value) == f"{path}: lengths beside strokes must be a 1-D integer array, not float64 (2,)."
    assert sorted(os.listdir(tmp_path)) == before


def test_read_lines_reads_an_iamondb_xml(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(10, 20), (13, 24)], [(20, 10)]]))
    got = stroke_files.read_lines(path)
    assert len(got) == 1
    np.testing.assert_array_equal(got[0], [[0, 0, 0], [3, -4, 1], [7, 14, 1]])


@pytest.mark.parametrize("n", [1, 2, 10, 11])
def test_packed_lines_read_back_by_count(tmp_path, n):
    seqs = [np.array([[float(i), -1.0, 0.0]] * (i % 3) + [[2.0, float(i), 1.0]]) for i in range(n)]
    path = tmp_path / "lines.npz"
    np.savez(path, points=np.concatenate(seqs), lengths=np.array([len(s) for s in seqs]))
    got = stroke_files.read_lines(str(path))
    assert len(got) == n
    for g, s in zip(got, seqs):
        np.testing.assert_array_equal(g, s)
