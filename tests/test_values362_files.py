"""lnrnn/files.py, nineteenth pass, against the module's docstring: a command's output under folders that do not
exist yet is written with the very bytes its writer gave (binary), the folders made first, with the permissions
the umask gives (0o666 less the mask, read here with os.umask); a second write replaces the first, nothing but the
file left beside it; a Ctrl-C (KeyboardInterrupt) inside the writer leaves the old file as it was and no temp
file behind, and still stops the program."""
import os
import stat

import pytest

from lnrnn.files import atomic_write, write_output_file


def current_umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_an_output_under_missing_folders_holds_the_bytes_written(tmp_path):
    target = tmp_path / "new" / "deeper" / "out.bin"
    data = bytes([0, 1, 2, 255, 10, 13])
    assert write_output_file(str(target), lambda f: f.write(data), option="--npz") == str(target)
    assert target.read_bytes() == data
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o666 & ~current_umask()
    write_output_file(str(target), lambda f: f.write(b"second"), option="--npz")
    assert target.read_bytes() == b"second"
    assert os.listdir(target.parent) == ["out.bin"]


def test_a_ctrl_c_inside_the_writer_keeps_the_old_file_and_no_temp_file(tmp_path):
    target = tmp_path / "kept.txt"
    target.write_bytes(b"old\n")

    def interrupted(f):
        f.write(b"half of the new")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(str(target), interrupted)
    assert target.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["kept.txt"]
