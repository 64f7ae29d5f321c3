"""lnrnn/data/stroke_files.py in its formats, files written here with numpy: save_npz with a validation split
reads back both splits sequence by sequence (not the training set twice); find_file returns the one .npz of
a folder as a path that opens from any working directory; sketch-rnn files name their validation array
'valid' or 'val' and both load (object arrays, allow_pickle) and are refused without allow_pickle;
read_lines' .npy refuses NaN, an (N, 2) array and a pen of 0.5, and returns a good line as float64 rows."""
import os

import numpy as np
import pytest

from lnrnn.errors import DataError
from lnrnn.data.stroke_files import find_file, load, read_lines, save_npz


def seqs(rng, sizes):
    out = []
    for n in sizes:
        s = rng.normal(size=(n, 3))
        s[:, 2] = rng.integers(0, 2, n)
        out.append(s)
    return out


def assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_save_npz_keeps_both_splits(tmp_path):
    rng = np.random.default_rng(116)
    train, val = seqs(rng, [3, 1, 4]), seqs(rng, [2, 5])
    save_npz(tmp_path / "s.npz", train, val)
    with np.load(tmp_path / "s.npz") as f:                 # the file's arrays by their definition
        np.testing.assert_array_equal(f["val_lengths"], [2, 5])
        np.testing.assert_array_equal(f["val_strokes"], np.concatenate(val))
    parts = load(str(tmp_path / "s.npz"))
    assert_same(parts["train"], train)
    assert_same(parts["val"], val)


def test_find_file_in_a_folder_opens_from_elsewhere(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    save_npz(folder / "only.npz", seqs(np.random.default_rng(0), [2, 2]))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    path = find_file(str(folder))
    assert os.path.samefile(path, folder / "only.npz")
    assert len(load(path)["all"]) == 2


def _object_array(items):
    a = np.empty(len(items), dtype=object)
    for i, s in enumerate(items):
        a[i] = s
    return a


@pytest.mark.parametrize("val_name", ["valid", "val"])
def test_sketch_rnn_files_name_their_validation_set_either_way(tmp_path, val_name):
    rng = np.random.default_rng(7)
    train, val = seqs(rng, [3, 2]), seqs(rng, [4])
    path = str(tmp_path / "sk.npz")
    np.savez(path, train=_object_array(train), **{val_name: _object_array(val)})
    parts = load(path, allow_pickle=True)
    assert_same(parts["train"], train)
    assert_same(parts["val"], val)
    with pytest.raises(DataError, match="pickle"):
        load(path)


@pytest.mark.parametrize("bad,words", [
    (np.array([[0.0, 1.0, 0.0], [np.nan, 1.0, 1.0]]), "NaN"),
    (np.zeros((4, 2)), "(N, 3)"),
    (np.array([[0.0, 1.0, 0.5]]), "pen"),
])
def test_a_bad_npy_line_is_refused(tmp_path, bad, words):
    np.save(tmp_path / "line.npy", bad)
    with pytest.raises(DataError) as e:
        read_lines(str(tmp_path / "line.npy"))
    assert words in str(e.value)


def test_a_good_npy_line_reads_as_float64_rows(tmp_path):
    line = np.array([[0, 0, 0], [3, -1, 1], [2, 2, 0]], dtype=np.int32)
    np.save(tmp_path / "line.npy", line)
    (got,) = read_lines(str(tmp_path / "line.npy"))
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, line.astype(np.float64))
