"""lnrnn/data/stroke_files.py on files a user may hand it that are not what it reads, each refused as one
DataError sentence (never a traceback): a file the user may not read, in the strokes-npz task's load and in
lnrnn read's read_lines (the reason in words, as os.strerror gives it, the path once); a truncated .npz (its zip
directory cut off); an .npy whose header is damaged; a ragged sequence inside a pickled object array; float
lengths beside strokes; an .npz holding no arrays at all (named as none). The refusal of a pickled file gives its
advice: re-save pickle-free with a function that exists (every dotted lnrnn name in the sentence is imported and
called on a small line set), or opt in with allow_pickle. An IAM-OnDB .xml line is one line of its points."""
import errno
import functools
import importlib
import os
import re

import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data import stroke_files

from test_strokes_data import iam_xml
from test_values170_stroke_files import refusal  # the text of the DataError a call raises


def line_set():
    """Two stroke-3 lines: (3, 3) and (2, 3), pen 1 after each stroke's last point."""
    return [np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [3.0, -1.0, 1.0]]),
            np.array([[2.0, 2.0, 0.0], [1.0, 1.0, 1.0]])]


@pytest.mark.parametrize("reader", ["load", "read_lines"])
def test_a_file_the_user_may_not_read_is_one_sentence(tmp_path, monkeypatch, reader):
    path = tmp_path / "s.npz"
    stroke_files.save_npz(path, line_set())

    def denied(p):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(p))
    monkeypatch.setattr(arrays, "numpy_kind", denied)
    got = refusal(getattr(stroke_files, reader), str(path))
    assert got == f"cannot read {path}: {os.strerror(errno.EACCES)}."


def test_a_truncated_npz_is_one_sentence(tmp_path):
    path = tmp_path / "s.npz"
    stroke_files.save_npz(path, line_set())
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])          # the zip's central directory, at its end, is gone
    got = refusal(stroke_files.load, str(path))
    assert got.startswith(f"{path} is not a readable .npz/.npy file (") and got.endswith(").")


def test_an_npy_with_a_damaged_header_is_one_sentence_in_read_lines(tmp_path):
    path = tmp_path / "line.npy"
    np.save(path, line_set()[0])
    data = bytearray(path.read_bytes())
    start = data.index(b"{")
    data[start:start + 6] = b"{XXXX:"                  # the header dict no longer parses
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError):
        np.load(path)                                   # what numpy itself says: a ValueError
    got = refusal(stroke_files.read_lines, str(path))
    assert got.startswith(f"{path} is not a valid .npy/.npz file (") and got.endswith(").")


def test_a_ragged_sequence_in_an_object_array_is_one_sentence(tmp_path):
    path = tmp_path / "lines.npy"
    seqs = np.empty(2, dtype=object)
    seqs[0] = line_set()[0]
    seqs[1] = [[0.0, 0.0, 0.0], [1.0, 1.0]]            # a row of two values
    np.save(path, seqs, allow_pickle=True)
    trusted = functools.partial(stroke_files.load, allow_pickle=True)
    assert refusal(trusted, str(path)) == f"{path}: the array[1] is not a numeric array."


def test_float_lengths_are_refused_before_the_split(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, strokes=np.concatenate(line_set()), lengths=np.array([3.0, 2.0]))
    got = refusal(stroke_files.load, str(path))
    assert got == f"{path}: lengths beside strokes must be a 1-D integer array, not float64 (2,)."


def test_an_npz_without_arrays_names_none(tmp_path):
    path = tmp_path / "empty.npz"
    np.savez(path)
    got = refusal(stroke_files.load, str(path))
    assert got.startswith(f"{path} has arrays none; expected strokes + lengths, ")


def test_the_pickle_refusal_advises_a_function_that_exists(tmp_path):
    path = tmp_path / "sketch.npy"
    seqs = np.empty(2, dtype=object)
    seqs[0], seqs[1] = line_set()
    np.save(path, seqs, allow_pickle=True)
    got = refusal(stroke_files.load, str(path))
    assert got.startswith(f"{path} holds object arrays that need pickle, which can run arbitrary code; re-save it")
    assert "allow_pickle" in got.split("code;", 1)[1]
    named = re.findall(r"\blnrnn(?:\.\w+)+", got)
    assert named, got
    for dotted in named:
        module, _, attr = dotted.rpartition(".")
        fn = getattr(importlib.import_module(module), attr)
        out = tmp_path / "resaved.npz"
        fn(out, list(seqs))                              # the advised re-save works, and loads back as the lines
        back = stroke_files.load(str(out))["all"]
        assert [b.tolist() for b in back] == [s.tolist() for s in seqs]


def test_an_xml_line_is_one_line_of_its_points(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(iam_xml([[(10, 20), (13, 24), (15, 25)], [(20, 10), (22, 12)]]))
    got = stroke_files.read_lines(path)
    assert isinstance(got, list) and len(got) == 1
    assert got[0].shape == (5, 3) and got[0][:, 2].tolist() == [0, 0, 1, 0, 1]
