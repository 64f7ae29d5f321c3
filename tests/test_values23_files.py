"""lnrnn.files on the edges of an output path: a file under folders that do not exist yet is accepted and
written there; a failed write leaves no temporary file beside a new target and names the path the user gave;
space_hint's advice for each errno its docstring sorts (space, permissions, anything else)."""
import errno
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.files import atomic_write, check_output_file, space_hint, write_output_file


def test_a_file_under_missing_folders_is_accepted_and_written(tmp_path):
    target = tmp_path / "new" / "deeper" / "out.bin"
    assert check_output_file(str(target)) == str(target)
    assert not (tmp_path / "new").exists()                       # the check creates nothing
    write_output_file(str(target), lambda f: f.write(b"abc"))
    assert target.read_bytes() == b"abc"


def _full_disk(f):
    f.write(b"partial")
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("exists", [False, True])
def test_a_failed_write_leaves_no_temp_file_and_names_the_target(tmp_path, exists):
    target = tmp_path / "out.bin"
    if exists:
        target.write_bytes(b"old")
    with pytest.raises(OSError) as e:
        atomic_write(str(target), _full_disk)
    assert e.value.errno == errno.ENOSPC
    assert e.value.filename == str(target)
    assert sorted(os.listdir(tmp_path)) == (["out.bin"] if exists else [])
    if exists:
        assert target.read_bytes() == b"old"


def test_a_failed_command_output_leaves_nothing_new(tmp_path):
    target = tmp_path / "sub" / "out.bin"
    with pytest.raises(UserError, match="free some space") as e:
        write_output_file(str(target), _full_disk)
    assert str(target) in str(e.value)
    assert os.listdir(tmp_path / "sub") == []


@pytest.mark.parametrize("code, hint", [
    (errno.ENOSPC, "free some space there"), (errno.EDQUOT, "free some space there"),
    (errno.EFBIG, "free some space there"), (errno.EACCES, "make the folder writable"),
    (errno.EPERM, "make the folder writable"), (errno.EROFS, "make the folder writable"),
    (errno.EIO, "check that file system")])
def test_space_hint_by_errno(code, hint):
    assert space_hint(OSError(code, os.strerror(code))) == hint
