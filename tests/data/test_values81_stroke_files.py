"""lnrnn/data/stroke_files.py: a pen column holding anything but 0 and 1, even once among good rows, refused
in every way a stroke file is read (packed strokes + lengths, a single .npy line, read_lines' .npz)."""
import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.errors import DataError


def good(n):
    seq = np.zeros((n, 3))
    seq[:, :2] = np.arange(2 * n).reshape(n, 2) % 5 - 2
    seq[n - 1, 2] = 1.0
    return seq


@pytest.mark.parametrize("bad", [0.5, 2.0, -1.0])
def test_one_bad_pen_value_among_good_rows_is_refused(tmp_path, bad):
    a, b = good(4), good(3)
    b[1, 2] = bad                                            # rows around it hold 0 and 1
    path = tmp_path / "s.npz"
    stroke_files.save_npz(path, [a, b])
    with pytest.raises(DataError, match="pen column of strokes holds values other than 0 and 1"):
        stroke_files.load(str(path))
    with pytest.raises(DataError, match="pen column of strokes holds values other than 0 and 1"):
        stroke_files.read_lines(str(path))
    np.save(tmp_path / "one.npy", b)
    with pytest.raises(DataError, match="pen column of the array holds values other than 0 and 1"):
        stroke_files.read_lines(str(tmp_path / "one.npy"))
    b[1, 2] = 0.0
    stroke_files.save_npz(path, [a, b])
    (got,) = stroke_files.load(str(path)).values()
    assert [s.tolist() for s in got] == [a.tolist(), b.tolist()]
