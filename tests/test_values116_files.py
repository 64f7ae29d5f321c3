"""lnrnn/files.py's output checks by path shape: write_output_file creates the missing folders of a file
whose folders do not exist yet (two levels deep) and writes exactly the bytes given, leaving no temporary
file behind; a name that is a folder, a name ending in a separator, an empty name and a path through a file
are refused with the option named and nothing written; a read-only folder is refused when the file system
honours its mode."""
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.files import check_output_file, write_output_file


def tree(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs + _)


def test_missing_folders_are_created_and_the_bytes_written(tmp_path):
    path = tmp_path / "a" / "b" / "out.bin"
    payload = bytes(range(256)) * 3
    assert write_output_file(path, lambda f: f.write(payload)) == str(path)
    assert path.read_bytes() == payload
    assert tree(tmp_path) == ["a", os.path.join("a", "b"), os.path.join("a", "b", "out.bin")]


def test_an_existing_file_is_replaced_whole(tmp_path):
    path = tmp_path / "out.bin"
    path.write_bytes(b"x" * 100)
    write_output_file(path, lambda f: f.write(b"yz"))
    assert path.read_bytes() == b"yz" and os.listdir(tmp_path) == ["out.bin"]


@pytest.mark.parametrize("make,words", [
    (lambda p: (p / "d").mkdir() or p / "d", "is a folder"),
    (lambda p: str(p / "new") + os.sep, "names a folder"),
    (lambda p: "  ", "names no file"),
    (lambda p: (p / "f").write_text("") or p / "f" / "out.bin", "is a file, not a folder"),
])
def test_a_path_that_cannot_be_a_file_is_refused_naming_the_option(tmp_path, make, words):
    path = make(tmp_path)
    before = tree(tmp_path)
    with pytest.raises(UserError, match=words) as e:
        write_output_file(path, lambda f: f.write(b"never"), option="--npz")
    assert "--npz" in str(e.value)
    assert tree(tmp_path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(UserError, match="cannot write to"):
            check_output_file(ro / "sub" / "out.svg", "--out")
        assert os.listdir(ro) == []
    finally:
        ro.chmod(0o755)
