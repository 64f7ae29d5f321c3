"""lnrnn/files.py's edge cases, checked against what the process and the file system say: where /proc cannot
be read, umask() returns the umask and leaves it as it was (os.umask read here before and after); the refusals
of prepare_output_file and write_output_file name the option they were given (--npz, --judge-out), for a name
ending in a separator, a folder and a path below a file, write nothing and never call the writer; a missing
folder is created at the write, with the bytes written."""
import os

import pytest

from lnrnn import files
from lnrnn.errors import UserError


def test_umask_without_proc_returns_it_and_leaves_it(monkeypatch):
    def no_proc(*a, **k):
        raise OSError(2, "No such file or directory")

    monkeypatch.setattr(files, "open", no_proc, raising=False)
    old = os.umask(0o027)
    try:
        assert files.umask() == 0o027
        assert os.umask(0o027) == 0o027                                       # still what it was
    finally:
        os.umask(old)


def never(f):
    pytest.fail("the writer was called")


@pytest.mark.parametrize("option", ["--npz", "--judge-out"])
def test_refusals_name_the_option_given(tmp_path, option):
    (tmp_path / "f").write_text("x")
    (tmp_path / "dir").mkdir()
    cases = [(str(tmp_path / "new") + os.sep, f"{option} {str(tmp_path / 'new') + os.sep!r} names a folder"),
             (str(tmp_path / "dir"), f"{option} {tmp_path / 'dir'} is a folder"),
             (str(tmp_path / "f" / "a.npz"), f"so {option} {tmp_path / 'f' / 'a.npz'} cannot be written")]
    for path, words in cases:
        for call in (files.prepare_output_file, lambda p, o: files.write_output_file(p, never, o)):
            with pytest.raises(UserError) as e:
                call(path, option)
            assert words in str(e.value) and "--out" not in str(e.value)
    assert sorted(os.listdir(tmp_path)) == ["dir", "f"] and os.listdir(tmp_path / "dir") == []


def test_a_missing_folder_is_created_at_the_write(tmp_path):
    path = tmp_path / "a" / "b" / "p.npz"
    assert files.check_output_file(path, "--npz") == str(path)
    assert not os.path.exists(tmp_path / "a")                                  # the check creates nothing
    files.write_output_file(path, lambda f: f.write(b"abc"), "--npz")
    assert path.read_bytes() == b"abc" and os.listdir(tmp_path / "a" / "b") == ["p.npz"]
