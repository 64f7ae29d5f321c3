"""lnrnn/data/stroke_files.py's read_lines by the shape of a path: a suffix in capitals (LINE.NPY, LINES.NPZ)
reads as its lower-case twin, and a suffix that disagrees with the file's content is one DataError."""
import numpy as np
import pytest

from lnrnn.data.stroke_files import read_lines
from lnrnn.errors import DataError


def _line(n, seed=0):
    pts = np.random.default_rng(seed).standard_normal((n, 3))
    pts[:, 2] = 0.0
    pts[-1, 2] = 1.0
    return pts


def test_a_suffix_in_capitals_reads_like_its_lower_case_twin(tmp_path):
    one = _line(5)
    np.save(tmp_path / "line.npy", one)
    (tmp_path / "line.npy").rename(tmp_path / "LINE.NPY")
    got = read_lines(tmp_path / "LINE.NPY")
    assert len(got) == 1
    np.testing.assert_array_equal(got[0], one)
    a, b = _line(3, 1), _line(4, 2)
    np.savez(tmp_path / "lines.npz", points=np.concatenate([a, b]), lengths=np.array([3, 4]))
    (tmp_path / "lines.npz").rename(tmp_path / "Lines.NPZ")
    got = read_lines(tmp_path / "Lines.NPZ")
    assert [len(s) for s in got] == [3, 4]
    np.testing.assert_array_equal(got[1], b)


def test_a_suffix_that_disagrees_with_the_content_is_one_error(tmp_path):
    np.save(tmp_path / "line.npy", _line(4))
    (tmp_path / "line.npy").rename(tmp_path / "LINE.NPZ")
    with pytest.raises(DataError, match=r"LINE\.NPZ is a \.npy file; expected a \.npz holding stroke-3"):
        read_lines(tmp_path / "LINE.NPZ")
