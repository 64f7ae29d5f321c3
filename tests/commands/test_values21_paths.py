"""Relative output paths, as a user types them from the folder they work in: a file name without a folder
(--out samples.png, the sampler's default), a file under folders that do not exist yet, a name ending in a
separator (a folder), a name that is an existing folder; lnrnn data mnist --dest new/sub (relative, missing)
is made, and --dest naming a file is refused."""
import os

import pytest

from lnrnn.commands.data import check_dest
from lnrnn.errors import UserError
from lnrnn.files import check_output_file, prepare_output_file


def test_relative_output_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert check_output_file("samples.png") == "samples.png"
    assert check_output_file(os.path.join("runs", "new", "c.png")) == os.path.join("runs", "new", "c.png")
    assert not os.path.exists("runs")                         # checking creates nothing
    prepare_output_file(os.path.join("runs", "new", "c.png"))
    assert os.path.isdir(os.path.join("runs", "new")) and not os.path.exists(os.path.join("runs", "new", "c.png"))
    with pytest.raises(UserError, match="names a folder"):
        check_output_file("out" + os.sep)
    with pytest.raises(UserError, match="is a folder"):
        check_output_file("runs")
    open("plain", "w").close()
    with pytest.raises(UserError, match="is a file, not a folder"):
        check_output_file(os.path.join("plain", "x.png"))


def test_a_relative_dest_that_does_not_exist_yet_is_made(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check_dest(os.path.join("data", "mnist"))
    assert os.path.isdir(tmp_path / "data" / "mnist")
    check_dest("data" + os.sep)                               # there already, with a trailing separator
    open("afile", "w").close()
    with pytest.raises(UserError, match="is a file, not a folder"):
        check_dest(os.path.join("afile", "sub"))
