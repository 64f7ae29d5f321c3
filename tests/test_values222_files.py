"""Output files (lnrnn/files.py): a name with a trailing separator is refused as a folder, word for word, and
nothing is written; an existing folder given as the file is refused naming it as the user typed it."""
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.files import check_output_file, write_output_file


def test_a_trailing_separator_is_refused_and_nothing_written(tmp_path):
    text = str(tmp_path / "pic.svg") + os.sep
    for call in (lambda: check_output_file(text), lambda: write_output_file(text, lambda f: f.write(b"x"))):
        with pytest.raises(UserError) as e:
            call()
        assert str(e.value) == f"--out {text!r} names a folder; give a file name."
    assert os.listdir(tmp_path) == []


def test_a_folder_given_as_the_file_is_named_as_typed(tmp_path, monkeypatch):
    (tmp_path / "plots").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError) as e:
        check_output_file("plots", option="--npz")
    assert str(e.value) == "--npz plots is a folder; give a file name inside it."
    assert os.listdir(tmp_path / "plots") == []
