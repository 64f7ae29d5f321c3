"""lnrnn/files.py on the shapes an output path takes: written through write_output_file and read back byte
for byte (relative, nested under missing folders, replacing an older file); refused before anything is
written when it ends in a separator, names a folder, sits under a file (that file named, with the output),
or under a folder that cannot be written (the nearest existing folder named); a writer that fails leaves the
folder as it was, no temporary file behind."""
import errno
import os
import tempfile

import pytest

from lnrnn import files
from lnrnn.errors import UserError
from lnrnn.files import atomic_write, check_output_file, write_output_file


def _tree(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, ds, fs in os.walk(root) for n in ds + fs)


@pytest.mark.parametrize("rel", ["out.bin", "a/out.bin", "a/b/c/out.bin", "./a/out.bin"])
def test_written_and_read_back_under_missing_folders_relative_to_the_working_folder(tmp_path, monkeypatch, rel):
    monkeypatch.chdir(tmp_path)
    data = bytes(range(256)) * 3
    assert write_output_file(rel, lambda f: f.write(data)) == rel
    assert open(tmp_path / os.path.normpath(rel), "rb").read() == data
    write_output_file(rel, lambda f: f.write(b"second"))
    assert open(tmp_path / os.path.normpath(rel), "rb").read() == b"second"
    assert not [p for p in _tree(tmp_path) if ".tmp-" in p]


@pytest.mark.parametrize("rel, words", [("new" + os.sep, "names a folder; give a file name"),
                                        ("a/b" + os.sep, "names a folder; give a file name"),
                                        ("dir", "is a folder; give a file name inside it"),
                                        ("", "names no file"), (" ", "names no file")])
def test_a_folder_or_no_name_is_refused_before_anything_is_written(tmp_path, monkeypatch, rel, words):
    monkeypatch.chdir(tmp_path)
    os.mkdir("dir")
    with pytest.raises(UserError, match=words):
        write_output_file(rel, lambda f: f.write(b"x"), option="--npz")
    assert _tree(tmp_path) == ["dir"]


@pytest.mark.parametrize("rel", ["f.txt/out.bin", "f.txt/a/b/out.bin"])
def test_a_file_in_the_way_is_named_not_the_output(tmp_path, monkeypatch, rel):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f.txt").write_text("in the way")
    with pytest.raises(UserError) as e:
        check_output_file(rel, option="--npz")
    assert str(e.value) == (f"{tmp_path / 'f.txt'} is a file, not a folder, so --npz {rel} cannot be written "
                            "there; choose another --npz.")
    assert _tree(tmp_path) == ["f.txt"]


def _deny(monkeypatch, folder):
    """A folder that cannot be written (as root, permission bits do not stop a write: the probe is refused)."""
    real = tempfile.TemporaryFile

    def probe(*args, dir=None, **kw):
        if os.path.abspath(dir) == str(folder):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(*args, dir=dir, **kw)
    monkeypatch.setattr(tempfile, "TemporaryFile", probe)


def test_a_folder_that_cannot_be_written_is_named_before_any_work(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    _deny(monkeypatch, ro)
    assert isinstance(files.write_error(str(ro)), PermissionError)
    assert files.write_error(str(tmp_path)) is None
    with pytest.raises(UserError) as e:
        check_output_file(str(ro / "x.npz"))
    assert str(e.value) == f"cannot write to {ro} (Permission denied); choose another --out or make it writable."
    with pytest.raises(UserError) as e:
        check_output_file(str(ro / "a" / "x.npz"))
    assert str(e.value).startswith(f"cannot write to {ro}, where --out {ro / 'a' / 'x.npz'} would be created "
                                   "(Permission denied)")
    check_output_file(str(tmp_path / "x.npz"))
    assert _tree(tmp_path) == ["ro"]


@pytest.mark.parametrize("error", [ValueError("the writer's own bug"), OSError(errno.ENOSPC, "No space left")])
def test_a_failed_writer_leaves_the_folder_as_it_was(tmp_path, error):
    (tmp_path / "old.bin").write_bytes(b"old")

    def write(f):
        f.write(b"half of it")
        raise error
    with pytest.raises(type(error)):
        atomic_write(str(tmp_path / "old.bin"), write)
    with pytest.raises(type(error)):
        atomic_write(str(tmp_path / "new.bin"), write)
    assert _tree(tmp_path) == ["old.bin"] and (tmp_path / "old.bin").read_bytes() == b"old"


@pytest.mark.parametrize("rel, ok", [("./a/../out.bin", False), ("a/b/../../out.bin", False), ("a/b/../out.bin", False),
                                     ("there/../out.bin", True), ("there/../there/out.bin", True)])
def test_a_step_up_out_of_a_missing_folder_is_refused_before_any_work_and_agrees_with_the_write(tmp_path, monkeypatch,
                                                                                               rel, ok):
    # the file system walks into every folder before '..' leaves it; os.path.abspath does not look: the early
    # check and the write must give the same answer (the write itself is what the OS decides)
    monkeypatch.chdir(tmp_path)
    os.mkdir("there")
    try:
        fd = os.open(rel, os.O_WRONLY | os.O_CREAT, 0o644)  # what the OS makes of the path, made by hand
        os.close(fd)
        os.unlink(rel)
        os_ok = True
    except OSError:
        os_ok = False
    assert os_ok == ok
    if ok:
        assert check_output_file(rel) == rel
        write_output_file(rel, lambda f: f.write(b"x"))
        assert open(os.path.normpath(rel), "rb").read() == b"x"
    else:
        first = rel.split("/..")[0]
        with pytest.raises(UserError, match=rf"goes up \('\.\.'\) from {first}, which does not exist"):
            check_output_file(rel)
        before = _tree(tmp_path)
        with pytest.raises(UserError, match="does not exist"):
            write_output_file(rel, lambda f: f.write(b"x"))
        assert _tree(tmp_path) == before
