"""lnrnn/data/arrays.py on what a user may hand the npz task or lnrnn.fit, each wrong input refused as one
DataError sentence (never a traceback): an .npz the user may not read (the reason in words as os.strerror gives
it, the path once); an .npz cut short, its zip directory gone; an .npz whose array bytes fail their CRC check (one
byte flipped inside x); ragged x and ragged per-step y given as lists. A task built from a file with its own
x_val, y_val says its validation set comes from x_val; one without says it is held out from x."""
import errno
import os

import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.tasks import load_task, task_spec

from test_values170_stroke_files import refusal  # the text of the DataError a call raises

MARK = 12345.678125     # a float64 whose 8 bytes are found once in the file


def write(path, **extra):
    x = np.zeros((6, 4, 1))
    x[0, 0, 0] = MARK
    np.savez(path, x=x, y=np.array([0, 1, 0, 1, 0, 1]), **extra)
    return path


def test_an_unreadable_file_is_one_sentence(tmp_path, monkeypatch):
    path = write(tmp_path / "d.npz")

    def denied(p):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(p))
    monkeypatch.setattr(arrays, "numpy_kind", denied)
    assert refusal(arrays.read_file, str(path)) == f"cannot read {path}: {os.strerror(errno.EACCES)}."


def test_an_npz_cut_short_is_one_sentence(tmp_path):
    path = write(tmp_path / "d.npz")
    raw = path.read_bytes()
    path.write_bytes(raw[:len(raw) // 2])
    got = refusal(arrays.read_file, str(path))
    assert got.startswith(f"{path} is not a readable .npz file (")
    assert got.endswith("); save it with numpy.savez(path, x=..., y=...).")


def test_array_bytes_that_fail_their_crc_are_one_sentence(tmp_path):
    path = write(tmp_path / "d.npz")
    raw = bytearray(path.read_bytes())
    at = raw.index(np.float64(MARK).tobytes())
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))
    got = refusal(arrays.read_file, str(path))
    assert got.startswith(f"{path} is a damaged .npz file (") and got.endswith(").")
    assert "x.npy" in got


def test_ragged_x_is_one_sentence():
    got = refusal(arrays.check_arrays, {"x": [[1.0, 2.0, 3.0], [1.0, 2.0]], "y": [0, 1]}, "the arrays")
    assert got == ("the arrays: x is not an array of numbers (ragged lists? pad them to one length and give "
                   "lengths).")


def test_ragged_per_step_y_is_one_sentence():
    x = np.zeros((2, 3))
    got = refusal(arrays.check_arrays, {"x": x, "y": [[0, 1, 0], [1, 0]]}, "the arrays")
    assert got == "the arrays: y is not an array of numbers."


@pytest.mark.parametrize("own, says", [(True, "validation from x_val"), (False, "held out from x by a fixed seed")])
def test_the_description_says_where_validation_comes_from(tmp_path, own, says):
    extra = dict(x_val=np.ones((3, 4, 1)), y_val=np.array([1, 0, 1])) if own else {}
    path = write(tmp_path / "d.npz", **extra)
    t = load_task(task_spec("npz", str(path)))
    assert says in t.description, t.description
    other = "held out from x by a fixed seed" if own else "validation from x_val"
    assert other not in t.description
