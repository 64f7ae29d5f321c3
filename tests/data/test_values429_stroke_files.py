"""What the strokes-npz task reads (lnrnn/data/stroke_files.py: load and _packed), at the edges a third random sample
of planted bugs found untested under the module's name: a file that is not a NumPy file is refused by its first
bytes before numpy.load sees it, unless allow_pickle says the file may be a pickle (numpy.load would call it pickled
data, and the refusal would name the wrong problem); the lengths beside a strokes array must be one integer per
sequence: floats, booleans or a 2-D array are refused word for word even when their values would split the rows."""
import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.errors import DataError


def test_a_text_file_is_refused_by_its_first_bytes(tmp_path, monkeypatch):
    path = tmp_path / "strokes.npz"
    path.write_text("dx,dy,pen\n1,2,0\n")
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("numpy.load reached a text file"))
    with pytest.raises(DataError) as e:
        stroke_files.load(str(path))
    assert str(e.value) == (f"{path} is not a NumPy .npy or .npz (zip) file (text b'dx,dy,'...); the strokes-npz "
                            "task reads stroke-3 arrays saved with numpy.savez (.npz) or numpy.save (.npy).")


def strokes(n):
    a = np.zeros((n, 3))
    a[:, 0] = np.arange(n)
    a[-1, 2] = 1.0
    return a


@pytest.mark.parametrize("lengths, shown", [
    (np.array([2.0, 3.0]), "float64 (2,)"),
    (np.array([[2, 3]]), "int64 (1, 2)"),
    (np.array([[2], [3]]), "int64 (2, 1)"),
    (np.array([True, True, True, True, True]), "bool (5,)"),
])
def test_lengths_that_are_not_one_integer_per_sequence_are_refused(tmp_path, lengths, shown):
    path = tmp_path / "s.npz"
    np.savez(path, strokes=strokes(5), lengths=lengths)
    with pytest.raises(DataError) as e:
        stroke_files.load(str(path))
    assert str(e.value) == f"{path}: lengths beside strokes must be a 1-D integer array, not {shown}."


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint16])
def test_integer_lengths_split_the_rows(tmp_path, dtype):
    path = tmp_path / "s.npz"
    np.savez(path, strokes=strokes(5), lengths=np.array([2, 3], dtype))
    got = stroke_files.load(str(path))["all"]
    assert [s[:, 0].tolist() for s in got] == [[0.0, 1.0], [2.0, 3.0, 4.0]]
