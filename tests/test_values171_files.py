"""lnrnn/files.py against what the file system and the errno table say: a writer that wraps an OSError in
another exception (raise ... from e) comes out of atomic_write as an OSError with that errno, that strerror and
the target's name, leaving the old file whole and no temporary file; atomic_write_text writes the text's UTF-8
bytes (str.encode here), non-ASCII included; a relative path that goes up ('..') from a folder that does not
exist is refused before any work, like an absolute one, with its sentence; a path whose walk up stays in
folders that exist passes, and one that is a folder or ends in a separator is refused."""
import errno
import os

import pytest

from lnrnn import files
from lnrnn.errors import UserError


class Wrapped(RuntimeError):
    pass


def test_wrapped_os_error_comes_out_as_the_os_error(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")

    def writer(f):
        f.write(b"half")
        try:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        except OSError as e:
            raise Wrapped("the writer failed") from e

    with pytest.raises(OSError) as e:
        files.atomic_write(str(target), writer)
    assert not isinstance(e.value, Wrapped)
    assert (e.value.errno, e.value.strerror, e.value.filename) == (errno.ENOSPC, os.strerror(errno.ENOSPC),
                                                                    str(target))
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]          # no .tmp- left behind


def test_exception_without_os_error_is_raised_as_is(tmp_path):
    def writer(f):
        raise Wrapped("no file system involved")

    with pytest.raises(Wrapped):
        files.atomic_write(str(tmp_path / "x"), writer)
    assert list(tmp_path.iterdir()) == []


def test_text_is_written_as_utf8(tmp_path):
    text = "café, naïve, Ωmega → ∑ 漢字\n"
    path = tmp_path / "t.json"
    files.atomic_write_text(str(path), text)
    assert path.read_bytes() == text.encode("utf-8")
    assert path.read_text(encoding="utf-8") == text


def test_relative_path_going_up_from_a_missing_folder_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = os.path.join("nope", "..", "out.npz")
    # by hand: 'nope' does not exist in the working folder, so the kernel cannot resolve 'nope/..'
    assert not os.path.isdir(tmp_path / "nope")
    with pytest.raises(UserError) as e:
        files.check_output_file(text, "--npz")
    assert str(e.value) == (f"--npz {text} goes up ('..') from nope, which does not exist, so it cannot be written "
                            "there; give the path without that step.")
    with pytest.raises(UserError):
        files.write_output_file(text, lambda f: pytest.fail("the writer was called"), "--npz")
    assert list(tmp_path.iterdir()) == []                                     # nothing created


def test_relative_path_going_up_from_an_existing_folder_passes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    text = os.path.join("a", "..", "b", "out.npz")                            # b does not exist yet: made at write
    assert files.check_output_file(text) == text
    files.write_output_file(text, lambda f: f.write(b"xyz"))
    assert (tmp_path / "b" / "out.npz").read_bytes() == b"xyz"


def test_folder_and_trailing_separator_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    with pytest.raises(UserError) as e:
        files.check_output_file("d")
    assert str(e.value) == "--out d is a folder; give a file name inside it."
    with pytest.raises(UserError) as e:
        files.check_output_file("new" + os.sep)
    assert str(e.value) == f"--out {'new' + os.sep!r} names a folder; give a file name."
    assert not os.path.exists("new")
