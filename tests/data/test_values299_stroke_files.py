"""The stroke files read back value by value and refused word for word: save_npz's pickle-free layout (strokes
concatenated, lengths counting each sequence's rows: 3 and 2; per split with train_ and val_ prefixes); a packed
file whose strokes hold NaN refused naming the strokes array; a sequence of 10,001 points refused as sequence 1
(counted from 0) of strokes; a pickled train + valid file read with allow_pickle into its own train and validation
sequences; and read_lines naming an .npz's arrays in sorted order when it has no points or strokes; nothing written
beside any refused file."""
import os

import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.errors import DataError
from test_values275_stroke_files import _refused  # the strokes-npz task's DataError text, nothing written

P = np.array([[0.0, 0.0, 0.0], [1.5, -2.0, 0.0], [3.0, 1.0, 1.0]])   # 3 rows
Q = np.array([[0.0, 0.0, 0.0], [-4.0, 0.25, 1.0]])                  # 2 rows


def test_save_npz_layout_read_back_value_by_value(tmp_path):
    path = tmp_path / "two.npz"
    stroke_files.save_npz(path, [P, Q])
    with np.load(path, allow_pickle=False) as d:
        assert sorted(d.files) == ["lengths", "strokes"]
        np.testing.assert_array_equal(d["lengths"], [3, 2])
        np.testing.assert_array_equal(d["strokes"], np.concatenate([P, Q]))
    parts = stroke_files.load(str(path))
    assert list(parts) == ["all"] and len(parts["all"]) == 2
    np.testing.assert_array_equal(parts["all"][0], P)
    np.testing.assert_array_equal(parts["all"][1], Q)
    split = tmp_path / "split.npz"
    stroke_files.save_npz(split, [Q, P, Q], val=[P])
    with np.load(split, allow_pickle=False) as d:
        np.testing.assert_array_equal(d["train_lengths"], [2, 3, 2])
        np.testing.assert_array_equal(d["val_lengths"], [3])
    parts = stroke_files.load(str(split))
    assert [len(s) for s in parts["train"]] == [2, 3, 2] and [len(s) for s in parts["val"]] == [3]


def test_nan_in_packed_strokes_refused_naming_strokes(tmp_path):
    path = tmp_path / "nan.npz"
    bad = np.concatenate([P, Q])
    bad[3, 1] = np.nan
    np.savez(path, strokes=bad, lengths=np.array([3, 2]))
    assert _refused(tmp_path, path) == f"{path}: strokes holds NaN or infinite values."


def test_too_long_sequence_refused_by_its_index_from_zero(tmp_path):
    path = tmp_path / "long.npz"
    long = np.zeros((10001, 3))
    long[-1, 2] = 1.0
    np.savez(path, strokes=np.concatenate([Q, long, P]), lengths=np.array([2, 10001, 3]))
    assert _refused(tmp_path, path) == (f"{path}: sequence 1 of strokes has 10,001 points, more than the limit of "
                                        "10,000; split it or drop it.")


def test_pickled_train_and_valid_read_into_their_own_splits(tmp_path):
    path = tmp_path / "sketch.npz"
    train, valid = np.empty(2, object), np.empty(1, object)
    train[0], train[1], valid[0] = P, Q, Q * [2.0, 2.0, 1.0]
    np.savez(path, train=train, valid=valid)
    parts = stroke_files.load(str(path), allow_pickle=True)
    assert [len(s) for s in parts["train"]] == [3, 2] and [len(s) for s in parts["val"]] == [2]
    np.testing.assert_array_equal(parts["train"][0], P)
    np.testing.assert_array_equal(parts["train"][1], Q)
    np.testing.assert_array_equal(parts["val"][0], [[0.0, 0.0, 0.0], [-8.0, 0.5, 1.0]])


def test_read_lines_names_the_arrays_sorted(tmp_path):
    path = tmp_path / "other.npz"
    np.savez(path, zeta=P, alpha=Q)
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(DataError) as e:
        stroke_files.read_lines(path)
    assert sorted(os.listdir(tmp_path)) == before
    assert str(e.value) == (f"{path} has arrays alpha, zeta; expected points (or strokes), (S, 3) stroke-3, with "
                            "lengths (n,) for several lines.")
    lines = stroke_files.read_lines(_saved(tmp_path))
    assert len(lines) == 2
    np.testing.assert_array_equal(lines[0], P)
    np.testing.assert_array_equal(lines[1], Q)


def _saved(tmp_path):
    path = tmp_path / "pts.npz"
    np.savez(path, points=np.concatenate([P, Q]), lengths=np.array([3, 2]))
    return path
