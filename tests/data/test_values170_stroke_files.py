"""lnrnn/data/stroke_files.py's refusals, each one sentence compared word for word with what the file written
here holds: lengths that add up to another row count (both counts named), a sketch-rnn sequence named by its
0-based index (bad pen values, too many points), a file split with train_strokes but no train_lengths (its
arrays listed), and a folder named like a stroke file (no such file); and a packed file read back as the
sequences written."""
import numpy as np
import pytest

from lnrnn.data import stroke_files as SF
from lnrnn.errors import DataError


def rows(n, start=0):
    out = np.zeros((n, 3))
    out[:, 0] = np.arange(start, start + n)
    out[-1, 2] = 1.0
    return out


def refusal(fn, *args):
    with pytest.raises(DataError) as e:
        fn(*args)
    return str(e.value)


def test_a_packed_file_reads_back_as_written(tmp_path):
    path = tmp_path / "s.npz"
    seqs = [rows(2), rows(3, 10), rows(1, 20)]
    np.savez(path, strokes=np.concatenate(seqs), lengths=np.array([2, 3, 1]))
    got = SF.load(str(path))["all"]
    assert [g.tolist() for g in got] == [s.tolist() for s in seqs]


def test_lengths_that_do_not_add_up_name_both_counts(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, strokes=rows(5), lengths=np.array([2, 2]))
    assert refusal(SF.load, str(path)) == (f"{path}: the lengths beside strokes add up to 4 but it has 5 rows; "
                                           "the arrays do not belong together.")


def test_a_sketch_rnn_sequence_is_named_by_its_index(tmp_path):
    bad = rows(3)
    bad[1, 2] = 2.0
    train = np.empty(3, object)
    train[:] = [rows(2), bad, rows(4)]
    valid = np.empty(1, object)
    valid[:] = [rows(2)]
    path = tmp_path / "sketch.npz"
    np.savez(path, train=train, valid=valid)
    assert refusal(SF.load, str(path), True) == f"{path}: the pen column of train[1] holds values other than 0 and 1."
    train[:] = [rows(2), rows(2), rows(SF.MAX_POINTS + 1)]
    np.savez(path, train=train, valid=valid)
    assert refusal(SF.load, str(path), True) == (f"{path}: sequence 2 of train has 10,001 points, more than the "
                                                 "limit of 10,000; split it or drop it.")


def test_a_split_without_train_lengths_lists_its_arrays(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, train_strokes=rows(3), val_strokes=rows(2), val_lengths=np.array([2]))
    assert refusal(SF.load, str(path)) == (f"{path} has arrays train_strokes, val_lengths, val_strokes; expected "
                                           "strokes + lengths, train_/val_strokes + train_/val_lengths, or "
                                           "sketch-rnn's train + valid.")


def test_a_folder_named_like_a_stroke_file_is_no_such_file(tmp_path):
    folder = tmp_path / "line.npy"
    folder.mkdir()
    assert refusal(SF.read_lines, str(folder)) == f"{folder}: no such file."
    assert refusal(SF.read_lines, str(tmp_path / "gone.npz")) == f"{tmp_path / 'gone.npz'}: no such file."
