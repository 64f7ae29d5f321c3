"""The npz task's checks (lnrnn/data/arrays.py) and the stroke-3 file reader (lnrnn/data/stroke_files.py) against
their docstrings and the exact words of their messages: labels up to 99,999 make 100,000 classes (C = the largest
label + 1) and 100,000 is refused naming the limit; an x_val of another input width, and a y_val of the other
layout, refused word for word without any lengths_val; x kept in its own compact dtype (uint8 stays uint8, bool
becomes 0/1 uint8) and a text x refused naming its dtype; the built task's batches float32 (T, B, I) by default
with their lengths; a folder holding one .npz resolved to that file; a text strokes array refused naming its dtype
and shape; an object .npy of sequences read, with allow_pickle, into the same float64 sequences."""
import os

import numpy as np
import pytest

from lnrnn.data import arrays, stroke_files
from test_values220_arrays import _load      # tasks.load_task of an npz file's spec
from test_values228_arrays import _refusal   # check_arrays' DataError sentence
from test_values232_iamondb import refused   # the DataError's one-line sentence


# ---- arrays.py ----

def test_labels_up_to_99999_make_100000_classes_and_100000_is_refused():
    x = np.zeros((3, 4), np.float32)
    out = arrays.check_arrays({"x": x, "y": np.array([0, 99_999, 1])})
    assert (out["objective"], out["num_classes"]) == ("ce", 100_000)
    said = _refusal({"x": x, "y": np.array([0, 100_000, 1])})
    assert said == ("the arrays: y holds the label 100000, out of range: classes are numbered 0..C-1, so it would "
                    "make 100,001 classes (at most 100,000) where y holds 3 distinct labels; renumber them "
                    "(numpy.unique(y, return_inverse=True)), or pass --objective mse for regression.")


def test_x_val_of_another_width_refused_without_lengths_val():
    x, y = np.zeros((3, 4, 2), np.float32), np.array([0, 1, 0])
    said = _refusal({"x": x, "y": y, "x_val": np.zeros((2, 4, 3), np.float32), "y_val": np.array([1, 0])})
    assert said == "the arrays: x has 2 inputs per step but x_val has 3; they must match."
    said = _refusal({"x": x, "y": np.zeros((3, 4), np.int64), "x_val": np.zeros((2, 5, 2), np.float32),
                     "y_val": np.array([1, 0])})
    assert said == ("the arrays: y and y_val must both be per sequence or both per step, not (3, 4) and (2,).")


def test_x_keeps_its_compact_dtype_and_text_is_refused_by_dtype():
    y = np.array([0, 1, 1])
    pixels = np.arange(3 * 5, dtype=np.uint8).reshape(3, 5) * 17
    out = arrays.check_arrays({"x": pixels, "y": y})
    assert out["x"].dtype == np.uint8 and out["x"].shape == (3, 5, 1)
    np.testing.assert_array_equal(out["x"][:, :, 0], pixels)
    ink = np.array([[True, False], [False, False], [True, True]])
    out = arrays.check_arrays({"x": ink, "y": y})
    assert out["x"].dtype == np.uint8
    np.testing.assert_array_equal(out["x"][:, :, 0], ink.astype(np.uint8))
    said = _refusal({"x": np.array([["a", "b"], ["c", "d"], ["e", "f"]]), "y": y})
    assert said == "the arrays: x must hold numbers, not <U1 (object or text arrays are refused)."


def test_batches_are_float32_time_major_with_their_lengths(tmp_path):
    N, T, I = 5, 4, 3
    x = np.random.default_rng(3).random((N, T, I))
    lengths = np.array([4, 1, 3, 2, 4])
    path = tmp_path / "mine.npz"
    np.savez(path, x=x, y=np.array([0, 1, 2, 1, 0]), lengths=lengths, x_val=x[:2], y_val=np.array([2, 0]),
             lengths_val=lengths[:2])
    task = _load(path)
    xb, yb, lb = task.batch("train", np.array([3, 0]))
    assert xb.dtype == np.float32 and xb.shape == (T, 2, I)
    np.testing.assert_array_equal(xb, x[[3, 0]].transpose(1, 0, 2).astype(np.float32))
    np.testing.assert_array_equal(yb, [1, 0])
    np.testing.assert_array_equal(lb, [2, 4])
    xb, yb, lb = task.batch("val", np.array([1]))
    assert xb.dtype == np.float32
    np.testing.assert_array_equal(lb, [1])


# ---- stroke_files.py ----

def _stroke3(n, seed):
    rng = np.random.default_rng(seed)
    seq = rng.normal(size=(n, 3))
    seq[:, 2] = rng.integers(0, 2, n)
    return seq


def test_a_folder_holding_one_npz_resolves_to_that_file(tmp_path):
    folder = tmp_path / "strokes"
    folder.mkdir()
    seqs = [_stroke3(4, 1), _stroke3(3, 2)]
    stroke_files.save_npz(folder / "mine.npz", seqs)
    found = stroke_files.find_file(str(folder))
    assert found == os.path.join(str(folder), "mine.npz")
    parts = stroke_files.load(found)
    assert list(parts) == ["all"]
    for got, want in zip(parts["all"], seqs):
        np.testing.assert_array_equal(got, want)


def test_text_strokes_refused_naming_dtype_and_shape(tmp_path):
    path = str(tmp_path / "text.npz")
    np.savez(path, strokes=np.array([["1", "2", "0"], ["3", "4", "1"]]), lengths=np.array([2]))
    assert refused(stroke_files.load, path) == (
        f"{path}: strokes must be a numeric (N, 3) array of (dx, dy, pen), not <U1 (2, 3).")


def test_object_npy_of_sequences_read_with_allow_pickle(tmp_path):
    seqs = [_stroke3(3, 5), _stroke3(2, 6).astype(np.float32), np.array([[1, 2, 1]])]
    arr = np.empty(3, dtype=object)
    arr[:] = seqs
    path = str(tmp_path / "seqs.npy")
    np.save(path, arr, allow_pickle=True)
    parts = stroke_files.load(path, allow_pickle=True)
    assert list(parts) == ["all"] and len(parts["all"]) == 3
    for got, want in zip(parts["all"], seqs):
        assert got.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_array_equal(got, want.astype(np.float64))
