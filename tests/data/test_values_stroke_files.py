"""lnrnn/data/stroke_files.py: which file --data-dir names, the packed layouts split where their lengths
say (and refused where they cannot), the point limit at its edge, and read_lines' three kinds of file:
an IAM-OnDB line .xml read to the stroke-3 worked out here by hand (and refused when it declares a
document type or entities), an .npz of points and lengths, a .npy."""
import os

import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.errors import DataError


def _seqs(sizes, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for n in sizes:
        s = np.column_stack([rng.integers(-9, 10, (n, 2)), np.zeros(n)]).astype(np.float64)
        s[-1, 2] = 1
        out.append(s)
    return out


# ---------------------------------------------------------------------------------------------
# --data-dir: the file, or the folder holding it
# ---------------------------------------------------------------------------------------------
def test_find_file(tmp_path):
    stroke_files.save_npz(tmp_path / "a.npz", _seqs([3]))
    assert stroke_files.find_file(str(tmp_path / "a.npz")) == str(tmp_path / "a.npz")
    assert stroke_files.find_file(str(tmp_path)) == str(tmp_path / "a.npz")
    assert stroke_files.find_file(str(tmp_path) + os.sep) == os.path.join(str(tmp_path) + os.sep, "a.npz")
    (tmp_path / "notes.txt").write_text("not a stroke file")
    (tmp_path / "old.npz").mkdir()  # a folder named like a stroke file is not one
    assert stroke_files.find_file(str(tmp_path)) == str(tmp_path / "a.npz")
    np.save(tmp_path / "b.npy", np.zeros((2, 3)))
    with pytest.raises(DataError, match=r"holds 2 .npz/.npy files \(a.npz, b.npy\); pass --data-dir with the one"):
        stroke_files.find_file(str(tmp_path))
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"holds 0 .npz/.npy files \(none\)"):
        stroke_files.find_file(str(tmp_path / "empty"))
    with pytest.raises(DataError, match="does not exist"):
        stroke_files.find_file(str(tmp_path / "missing" / "x.npz"))
    with pytest.raises(DataError, match="pass --data-dir FILE.npz"):
        stroke_files.find_file(None)


# ---------------------------------------------------------------------------------------------
# the packed layouts
# ---------------------------------------------------------------------------------------------
def test_packed_sequences_split_where_the_lengths_say(tmp_path):
    seqs = _seqs([2, 5, 1, 3])
    stroke_files.save_npz(tmp_path / "p.npz", seqs)
    got = stroke_files.load(str(tmp_path / "p.npz"))["all"]
    assert [len(s) for s in got] == [2, 5, 1, 3]
    for a, b in zip(got, seqs):
        np.testing.assert_array_equal(a, b)


def test_lengths_with_a_negative_entry_are_refused(tmp_path):
    flat = np.concatenate(_seqs([2, 2]))                      # 4 rows; 3 + (-1) + 2 also adds up to 4
    np.savez(tmp_path / "neg.npz", strokes=flat, lengths=np.array([3, -1, 2]))
    with pytest.raises(DataError, match=r"the lengths beside strokes include -1 \(entry 1\); a sequence's length"):
        stroke_files.load(str(tmp_path / "neg.npz"))


def test_the_point_limit_at_its_edge(tmp_path):
    n = stroke_files.MAX_POINTS
    stroke_files.save_npz(tmp_path / "edge.npz", _seqs([n, 4]))
    assert [len(s) for s in stroke_files.load(str(tmp_path / "edge.npz"))["all"]] == [n, 4]
    stroke_files.save_npz(tmp_path / "over.npz", _seqs([4, n + 1]))
    with pytest.raises(DataError, match="sequence 1 of strokes has 10,001 points, more than the limit of 10,000"):
        stroke_files.load(str(tmp_path / "over.npz"))


@pytest.mark.parametrize("val", ["val", "valid"])
def test_the_files_own_split_under_either_name(tmp_path, val):
    train, held = _seqs([3, 4, 2], seed=1), _seqs([5, 1], seed=2)
    pack = {}
    for prefix, seqs in (("train", train), (val, held)):
        pack[prefix + "_strokes"] = np.concatenate(seqs)
        pack[prefix + "_lengths"] = np.array([len(s) for s in seqs])
    np.savez(tmp_path / "split.npz", **pack)
    got = stroke_files.load(str(tmp_path / "split.npz"))
    assert sorted(got) == ["train", "val"]
    for want, have in ((train, got["train"]), (held, got["val"])):
        assert len(want) == len(have)
        for a, b in zip(want, have):
            np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# read_lines
# ---------------------------------------------------------------------------------------------
def _iam(points, extra=""):
    """An IAM-OnDB line file: strokes of (x, y) board points, y down."""
    strokes = "".join('<Stroke colour="black" start_time="0" end_time="1">'
                      + "".join(f'<Point x="{x}" y="{y}" time="0"/>' for x, y in pts) + "</Stroke>"
                      for pts in points)
    return (f'<?xml version="1.0" encoding="ISO-8859-1"?>{extra}<WhiteboardCaptureSession><WhiteboardDescription>'
            '<SensorLocation corner="top_left"/></WhiteboardDescription>'
            f"<StrokeSet>{strokes}</StrokeSet></WhiteboardCaptureSession>").encode("latin-1")


POINTS = [[(10, 20), (13, 24), (15, 21)], [(30, 20), (31, 22)]]
# y up: (10,-20) (13,-24) (15,-21) | (30,-20) (31,-22): offsets from the previous point, pen 1 at each end
WANT = np.array([[0, 0, 0], [3, -4, 0], [2, 3, 1], [15, 1, 0], [1, -2, 1]], np.float64)


@pytest.mark.parametrize("name", ["a01-000u-01.xml", "LINE.XML"])
def test_read_lines_of_an_iam_line_file(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(_iam(POINTS))
    lines = stroke_files.read_lines(path)
    assert len(lines) == 1
    np.testing.assert_array_equal(lines[0], WANT)


@pytest.mark.parametrize("extra,words", [
    ('<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">]>', "declares DOCTYPE"),
    ('<!DOCTYPE r SYSTEM "strokes.dtd">', "declares DOCTYPE"),
])
def test_read_lines_refuses_xml_that_declares_things(tmp_path, extra, words):
    path = tmp_path / "line.xml"
    path.write_bytes(_iam(POINTS, extra))
    with pytest.raises(DataError, match=words) as e:
        stroke_files.read_lines(str(path))
    assert "refusing to parse it" in str(e.value) and str(path) in str(e.value)


def test_read_lines_of_points_and_lengths(tmp_path):
    seqs = _seqs([3, 1, 4], seed=3)
    np.savez(tmp_path / "lines.npz", points=np.concatenate(seqs), lengths=np.array([3, 1, 4]))
    lines = stroke_files.read_lines(str(tmp_path / "lines.npz"))
    assert [len(s) for s in lines] == [3, 1, 4]
    for a, b in zip(lines, seqs):
        np.testing.assert_array_equal(a, b)
    np.savez(tmp_path / "one.npz", strokes=np.concatenate(seqs))           # no lengths: one line
    lines = stroke_files.read_lines(str(tmp_path / "one.npz"))
    assert len(lines) == 1 and len(lines[0]) == 8
    np.save(tmp_path / "one.npy", seqs[2])
    lines = stroke_files.read_lines(str(tmp_path / "one.npy"))
    assert len(lines) == 1
    np.testing.assert_array_equal(lines[0], seqs[2])


def test_read_lines_refuses_a_line_of_no_point(tmp_path):
    seqs = _seqs([3, 2], seed=4)
    np.savez(tmp_path / "gap.npz", points=np.concatenate(seqs), lengths=np.array([3, 0, 2]))
    with pytest.raises(DataError, match="line 2 has no point"):
        stroke_files.read_lines(str(tmp_path / "gap.npz"))
    np.save(tmp_path / "empty.npy", np.zeros((0, 3)))
    with pytest.raises(DataError, match="line 1 has no point"):
        stroke_files.read_lines(str(tmp_path / "empty.npy"))


def test_read_lines_refuses_other_files_and_folders(tmp_path):
    with pytest.raises(DataError, match="is not a stroke file lnrnn reads"):
        stroke_files.read_lines(str(tmp_path / "line.txt"))
    (tmp_path / "folder.npz").mkdir()
    with pytest.raises(DataError, match="no such file"):
        stroke_files.read_lines(str(tmp_path / "folder.npz"))
    np.save(tmp_path / "named.npy", np.zeros((2, 3)))
    os.replace(tmp_path / "named.npy", tmp_path / "named.npz")
    with pytest.raises(DataError, match=r"is a .npy file; expected a .npz"):
        stroke_files.read_lines(str(tmp_path / "named.npz"))
