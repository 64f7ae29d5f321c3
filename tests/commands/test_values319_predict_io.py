"""Round 319: what lnrnn predict reads and where lnrnn writes, against hand-written values. check_inputs on
bool and complex64 sequences (kept as read, refused word for word); check_like_training's range sentence with
both ends of the training range; IDX images of a mnist-rows run read row by row; a pickled .npy, a 3-byte file
and a file of another magic number refused word for word (numpy's own message quoted by asking numpy here); a
folder whose images file is named with a dot (t10k-images.idx3-ubyte) found; read_inputs numbering the first
file's sequences from 0; --out's refusals (a suffix alone, a folder) naming --out; atomic_write keeping the old
file on a writer's own error and naming the target on a full disk met inside the writer's clean-up, with
write_output_file's sentence written out here."""
import errno
import os

import numpy as np
import pytest

from lnrnn.errors import DataError, UserError
from lnrnn.files import atomic_write, write_output_file
from lnrnn.predict_io import (INPUTS, _images_as_sequences, _read_one, check_inputs, check_like_training, check_out,
                              input_files, read_inputs)


def _refusal(cls, fn, *args):
    with pytest.raises(cls) as e:
        fn(*args)
    return str(e.value)


def test_bool_sequences_are_read_as_they_are():
    x = np.array([[True, False, True], [False, False, True]])
    got = check_inputs(x, 1)
    assert got.shape == (2, 3, 1)
    assert got[:, :, 0].tolist() == [[True, False, True], [False, False, True]]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sequences_of_either_width_are_refused(dtype):
    x = np.ones((2, 3), dtype=dtype)
    assert _refusal(UserError, check_inputs, x, 1) == f"the sequences must be real numbers, not {dtype} values."


def test_range_sentence_names_both_ends_of_the_training_range():
    # training range [0.5, 2.5]; slack 0.1 of its width 2 widens it to [0.3, 2.7]; 2.75 is past it
    x = np.array([[0.5, 1.0, 2.75, 1.5]])[:, :, None]
    got = check_like_training(x, {"steps": 4, "min": 0.5, "max": 2.5}, slack=0.1)
    assert got == ["their values span 0.5 to 2.75 where the training data's spanned 0.5 to 2.5"]


def test_mnist_rows_images_are_read_row_by_row():
    images = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4) * 10
    x = _images_as_sequences(images, "mnist-rows", "imgs")
    assert x.shape == (2, 3, 4) and x.dtype == np.float32
    # row r of image n is step r: pixel (n, r, c) = 10 * (12 n + 4 r + c), over 255
    for n in range(2):
        for r in range(3):
            for c in range(4):
                assert abs(float(x[n, r, c]) - 10 * (12 * n + 4 * r + c) / 255.0) < 1e-6


def test_a_pickled_npy_is_refused_with_numpys_own_reason(tmp_path):
    path = tmp_path / "seqs.npy"
    np.save(path, np.array([[1, "a"]], dtype=object), allow_pickle=True)
    try:
        np.load(path, allow_pickle=False)
    except ValueError as e:
        reason = str(e)
    got = _refusal(DataError, _read_one, str(path), "digits")
    assert got == f"{path} is not a .npy array lnrnn reads without pickle ({reason})."


@pytest.mark.parametrize("raw", [b"abc", b"\x00\x00\x09\x99" + bytes(12)], ids=["3-bytes", "magic-2457"])
def test_a_short_file_or_another_magic_number_is_neither(tmp_path, raw):
    path = tmp_path / "seqs.bin"
    path.write_bytes(raw)
    got = _refusal(DataError, _read_one, str(path), "mnist")
    assert got == (f"{path} is neither a .npy nor an IDX images file (its first bytes say neither); predict "
                   f"reads {INPUTS}.")


def test_a_folder_finds_an_images_file_named_with_a_dot(tmp_path):
    (tmp_path / "t10k-images.idx3-ubyte").write_bytes(b"x")
    (tmp_path / "t10k-labels.idx1-ubyte").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("x")
    assert input_files(str(tmp_path)) == [str(tmp_path / "t10k-images.idx3-ubyte")]


def test_read_inputs_numbers_the_first_files_sequences_from_zero(tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.zeros((2, 5), np.float32))
    np.save(b, np.ones((3, 5), np.float32))
    x, where = read_inputs([str(a), str(b)], "digits", 1)
    assert x.shape == (5, 5, 1)
    assert where == [(str(a), 0, 2), (str(b), 2, 3)]


def test_a_suffix_alone_is_refused_under_out(tmp_path):
    path = str(tmp_path / "runs" / ".csv")
    said = _refusal(UserError, check_out, path)
    assert said == f"--out {path!r} is a suffix alone; give the file a name before .csv."
    assert list(tmp_path.iterdir()) == []


def test_a_folder_is_refused_under_out(tmp_path):
    (tmp_path / "p.csv").mkdir()
    path = str(tmp_path / "p.csv")
    assert _refusal(UserError, check_out, path) == f"--out {path} is a folder; give a file name inside it."
    assert [p.name for p in tmp_path.iterdir()] == ["p.csv"] and list((tmp_path / "p.csv").iterdir()) == []


def test_a_writers_own_error_is_raised_as_it_is_and_the_old_file_kept(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("old\n")

    def write(f):
        f.write(b"half")
        raise ValueError("the writer's own")
    with pytest.raises(ValueError, match="^the writer's own$"):
        atomic_write(str(path), write)
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["p.csv"]


def test_a_full_disk_inside_a_writers_clean_up_names_the_target(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("old\n")

    def write(f):
        try:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        except OSError:
            raise RuntimeError("clean-up failed too")
    with pytest.raises(OSError) as e:
        atomic_write(str(path), write)
    assert (e.value.errno, e.value.strerror, e.value.filename) == (errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
    got = _refusal(UserError, write_output_file, str(path), write)
    assert got == (f"cannot write --out {path} ({os.strerror(errno.ENOSPC)}): free some space there or choose "
                   "another --out; nothing was written.")
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["p.csv"]
