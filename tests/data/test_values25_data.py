"""Stroke files and IAM-OnDB by value (round 25 of the planted bugs, tests/mutants/mutants_values25.py):
lengths stored as unsigned integers split the points as signed ones do, read_lines holds every line to the
point limit as the training reader does, a folder holding testset_v.txt without trainset.txt is told so
(not split at random behind the user's back), and the count of lines skipped for want of a transcription
takes its plural from the count (0 lines, 1 line, 2 lines)."""
import os

import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError
import test_strokes_data as sd                 # the IAM-OnDB writer and task lists
from test_values20_strokes import line         # (n, 3) stroke-3 of small steps, the pen lifted at the end
from test_values9_iamondb import ascii_file


# ---- stroke files

@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64, np.int16])
def test_lengths_of_any_integer_type_split_the_points(tmp_path, dtype):
    a, b, c = line(4, 1), line(2, 2), line(5, 3)
    lengths = np.array([4, 2, 5], dtype)
    np.savez(tmp_path / "pool.npz", strokes=np.concatenate([a, b, c]), lengths=lengths)
    got = stroke_files.load(str(tmp_path / "pool.npz"))["all"]
    assert [len(s) for s in got] == [4, 2, 5]
    np.testing.assert_array_equal(got[2], c)
    np.savez(tmp_path / "lines.npz", points=np.concatenate([a, b, c]), lengths=lengths)
    got = stroke_files.read_lines(str(tmp_path / "lines.npz"))
    assert [len(s) for s in got] == [4, 2, 5]
    np.testing.assert_array_equal(got[1], b)


def test_lengths_that_are_not_integers_are_refused(tmp_path):
    np.savez(tmp_path / "pool.npz", strokes=line(4, 1), lengths=np.array([4.0]))
    with pytest.raises(DataError, match="must be a 1-D integer array, not float64"):
        stroke_files.load(str(tmp_path / "pool.npz"))


def test_read_lines_holds_every_line_to_the_point_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(stroke_files, "MAX_POINTS", 5)
    np.savez(tmp_path / "two.npz", points=np.concatenate([line(5, 1), line(6, 2)]), lengths=np.array([5, 6]))
    with pytest.raises(DataError, match="sequence 1 of .* has 6 points, more than the limit of 5"):
        stroke_files.read_lines(str(tmp_path / "two.npz"))
    np.save(tmp_path / "one.npy", line(6, 3))
    with pytest.raises(DataError, match="more than the limit of 5"):
        stroke_files.read_lines(str(tmp_path / "one.npy"))
    np.save(tmp_path / "edge.npy", line(5, 3))
    assert len(stroke_files.read_lines(str(tmp_path / "edge.npy"))[0]) == 5      # the limit itself is allowed


# ---- IAM-OnDB

def test_a_validation_list_without_the_training_list_is_refused(tmp_path):
    sd.write_iam(tmp_path, forms=("a01-000u", "a01-000x", "a02-004"), lines=1)
    sd.write_task_lists(tmp_path / "tasks", ["a01-000u"], ["a01-000x"])
    os.remove(tmp_path / "tasks" / "trainset.txt")
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes", str(tmp_path)))
    assert f"{tmp_path / 'tasks'} holds IAM-OnDB's testset_v.txt but not trainset.txt" in str(e.value), str(e.value)


def blank_csr_line(base, form, k):
    """Make line k of the form's transcription blank (a line without text, skipped)."""
    path = ascii_file(base, form)
    with open(path, "rb") as f:
        body = f.read().decode("latin-1")
    with open(path, "wb") as f:
        f.write(body.replace(f"{form} line {k} caf\xe9", "").encode("latin-1"))


@pytest.mark.parametrize("blanked, said", [((), "6 with transcriptions"),
                                           (("a01-000u",), "5 with transcriptions"),
                                           (("a01-000u", "a01-000x"), "4 with transcriptions")])
def test_the_skipped_lines_take_the_plural_of_their_count(tmp_path, blanked, said):
    sd.write_iam(tmp_path, forms=("a01-000u", "a01-000x"), lines=3)
    for form in blanked:
        blank_csr_line(tmp_path, form, 2)          # a middle line: the lines around it keep their numbers
    t = load_task(task_spec("strokes", str(tmp_path)))
    n = len(blanked)
    assert t.extra["skipped_no_text"] == n
    assert said in t.description
    assert f", {n} {'line' if n == 1 else 'lines'} without one skipped" in t.description, t.description
