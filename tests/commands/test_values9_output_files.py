"""lnrnn/files.py by value: what a write error tells the user to do for each errno (a full disk or quota:
free space; permissions or a read-only file system: make it writable), the mode of written files under
different umasks (open()'s 0o666 less the umask), and the refusal of an unwritable folder naming where a
missing folder would have been created only when there is one."""
import errno
import os
import stat

import pytest

from lnrnn import files
from lnrnn.errors import UserError


SPACE, WRITABLE = "free some space there", "make the folder writable"


@pytest.mark.parametrize("code, hint", [(errno.ENOSPC, SPACE), (errno.EDQUOT, SPACE), (errno.EFBIG, SPACE),
                                        (errno.EACCES, WRITABLE), (errno.EPERM, WRITABLE), (errno.EROFS, WRITABLE),
                                        (errno.EIO, "check that file system")])
def test_each_write_error_says_what_to_do(code, hint):
    assert files.space_hint(OSError(code, os.strerror(code))) == hint


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_get_the_mode_the_umask_gives(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        files.atomic_write_text(tmp_path / "a.txt", "x")
        files.write_output_file(tmp_path / "new" / "b.bin", lambda f: f.write(b"y"))
    finally:
        os.umask(old)
    for p in (tmp_path / "a.txt", tmp_path / "new" / "b.bin"):
        assert stat.S_IMODE(os.stat(p).st_mode) == mode, p


def test_an_unwritable_folder_names_where_a_missing_one_would_be_made(tmp_path, monkeypatch):
    denied = OSError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(files, "write_error", lambda folder: denied if os.path.samefile(folder, tmp_path) else None)
    with pytest.raises(UserError) as e:
        files.check_output_file(str(tmp_path / "out.npz"))
    assert str(e.value) == (f"cannot write to {tmp_path} (Permission denied); choose another --out or make it "
                            "writable.")
    deep = tmp_path / "a" / "b" / "out.npz"
    with pytest.raises(UserError) as e:
        files.check_output_file(str(deep), "--npz")
    assert str(e.value) == (f"cannot write to {tmp_path}, where --npz {deep} would be created (Permission denied); "
                            "choose another --npz or make it writable.")
    assert not (tmp_path / "a").exists()
