"""lnrnn/files.py: an output path that steps up ('..') out of a folder that does not exist is refused before
anything is made, naming that folder, while the same step out of an existing folder is written where the file
system puts it; a trailing separator, a folder, and a suffix alone are refused by shape; nothing is created by a
refusal."""
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.files import check_output_file, named_suffix, write_output_file


def listing(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, ds, fs in os.walk(root) for n in ds + fs)


@pytest.mark.parametrize("rel,missing", [
    ("nope/../x.csv", "nope"),
    ("a/nope/../x.csv", os.path.join("a", "nope")),
    ("a/../nope/../x.csv", os.path.join("a", "..", "nope")),
])
def test_a_step_up_out_of_a_missing_folder_is_refused_naming_it(tmp_path, monkeypatch, rel, missing):
    monkeypatch.chdir(tmp_path)
    os.makedirs("a")
    with pytest.raises(UserError) as e:
        write_output_file(rel, lambda f: f.write(b"x"))
    line = str(e.value)
    assert f"--out {rel} goes up ('..') from {missing}, which does not exist" in line
    assert listing(tmp_path) == ["a"]


def test_a_step_up_out_of_an_existing_folder_lands_where_the_file_system_puts_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.makedirs(os.path.join("a", "b"))
    write_output_file("a/b/../x.csv", lambda f: f.write(b"1,2\n"))
    with open(os.path.join("a", "b", "..", "x.csv"), "rb") as f:   # the path the OS walks
        assert f.read() == b"1,2\n"
    assert listing(tmp_path) == ["a", os.path.join("a", "b"), os.path.join("a", "x.csv")]


@pytest.mark.parametrize("rel,words", [
    ("out" + os.sep, "names a folder"),
    ("d", "is a folder"),
    ("", "names no file"),
])
def test_folder_shapes_are_refused_and_nothing_is_made(tmp_path, monkeypatch, rel, words):
    monkeypatch.chdir(tmp_path)
    os.makedirs("d")
    with pytest.raises(UserError) as e:
        check_output_file(rel, "--npz")
    assert words in str(e.value) and str(e.value).startswith("--npz")
    assert listing(tmp_path) == ["d"]


def test_a_suffix_alone_is_refused_and_a_suffix_is_read_case_blind(tmp_path):
    with pytest.raises(UserError, match="a suffix alone"):
        named_suffix(str(tmp_path / ".csv"), (".csv", ".npy"))
    assert named_suffix(str(tmp_path / "p.CSV"), (".csv", ".npy")) == ".csv"
    assert named_suffix(str(tmp_path / "p.npz"), (".csv", ".npy")) is None
