"""lnrnn/data/stroke_files.py on files written here with numpy.savez / numpy.save: the strokes-npz task's
description counting the file's sequences (2, 21 and 1001 of them: 1/1, 19/2 and 901/100 held out, the nearest
whole number to a tenth, at least 1), a folder holding no stroke file or two named word for word, a file's own
split under sketch-rnn's 'valid' name read and its bad pen column refused naming valid_strokes, and a lone line
of no point counted from 1 in an .npz of points without lengths and in an .npy."""
import numpy as np
import pytest

from lnrnn.data import stroke_files
from test_values232_stroke_files import refusal, rows
from test_values244_strokes import zigzag


@pytest.mark.parametrize("n, n_train, n_val", [(2, 1, 1), (21, 19, 2), (1001, 901, 100)])
def test_the_description_counts_the_files_sequences(tmp_path, n, n_train, n_val):
    path = str(tmp_path / "pool.npz")
    stroke_files.save_npz(path, [zigzag(5)] * n)
    t = stroke_files.build({"task": "strokes-npz", "data_dir": path})
    assert t.size("train") == n_train and t.size("val") == n_val
    assert t.description == (f"stroke-3 sequences from {path} ({n} sequences, 10% held out): {n_train} train / "
                             f"{n_val} validation lines of 5-5 points (dx, dy, pen), offsets divided by the "
                             "training std (2, 0.5); 0 glitch steps longer than 1000 dropped")


def test_a_folder_without_exactly_one_stroke_file_is_refused(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "notes.txt").write_text("no strokes here")
    (folder / "old.npz").mkdir()                                          # a folder, not a file
    assert refusal(stroke_files.find_file, str(folder)) == (
        f"{folder} holds 0 .npz/.npy files (none); pass --data-dir with the one file to read.")
    np.save(folder / "b.npy", rows(3))
    np.savez(folder / "a.npz", strokes=rows(3), lengths=np.array([3]))
    assert refusal(stroke_files.find_file, str(folder)) == (
        f"{folder} holds 2 .npz/.npy files (a.npz, b.npy); pass --data-dir with the one file to read.")


def test_the_files_own_split_under_sketch_rnns_valid_name(tmp_path):
    path = str(tmp_path / "split.npz")
    train, valid = rows(5), rows(4, 1)
    np.savez(path, train_strokes=train, train_lengths=np.array([2, 3]), valid_strokes=valid,
             valid_lengths=np.array([4]))
    parts = stroke_files.load(path)
    assert sorted(parts) == ["train", "val"]
    assert [s.tolist() for s in parts["train"]] == [train[:2].tolist(), train[2:].tolist()]
    assert [s.tolist() for s in parts["val"]] == [valid.tolist()]
    bad = valid.copy()
    bad[1, 2] = 0.5
    np.savez(path, train_strokes=train, train_lengths=np.array([2, 3]), valid_strokes=bad,
             valid_lengths=np.array([4]))
    assert refusal(stroke_files.load, path) == (f"{path}: the pen column of valid_strokes holds values other than "
                                                "0 and 1.")


def test_a_lone_line_of_no_point_is_line_1(tmp_path):
    npz, npy = str(tmp_path / "one.npz"), str(tmp_path / "one.npy")
    np.savez(npz, points=np.zeros((0, 3)))                                # no lengths: the whole array is one line
    assert refusal(stroke_files.read_lines, npz) == f"{npz}: line 1 has no point; every line needs at least one."
    np.save(npy, np.zeros((0, 3)))
    assert refusal(stroke_files.read_lines, npy) == f"{npy}: line 1 has no point; every line needs at least one."
    np.savez(npz, points=rows(4))
    assert [s.tolist() for s in stroke_files.read_lines(npz)] == [rows(4).tolist()]
