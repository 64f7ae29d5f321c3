"""lnrnn/files.py, twentieth pass, against the module's docstring: atomic_write writes a temp file beside the target
(a hidden '.tmp-' name in the target's own folder, the only new entry there while the writer runs), flushes it and
fsyncs it before the rename (at the fsync the file already holds every byte written, and the file synced is the one
that becomes the target), and a temp file that cannot be made (its folder missing) is an OSError naming the target;
prepare_output_file names '--out' when no option is given, and hands back the path as text, the missing folders
made and no file."""
import errno
import glob
import os
import pathlib

import pytest

from lnrnn.errors import UserError
from lnrnn.files import atomic_write, check_output_file, prepare_output_file


def test_a_temp_file_that_cannot_be_made_is_an_os_error_naming_the_target(tmp_path):
    target = str(tmp_path / "missing" / "out.bin")
    calls = []
    with pytest.raises(OSError) as info:
        atomic_write(target, calls.append)
    assert info.value.errno == errno.ENOENT
    assert info.value.filename == target
    assert calls == []
    assert os.listdir(tmp_path) == []


def test_the_temp_file_is_hidden_beside_the_target(tmp_path):
    target = tmp_path / "out.bin"
    seen = {}

    def writer(f):
        seen["all"] = sorted(os.listdir(tmp_path))
        seen["visible"] = glob.glob(os.path.join(str(tmp_path), "*"))
        f.write(b"data")

    atomic_write(str(target), writer)
    assert len(seen["all"]) == 1
    assert seen["all"][0].startswith(".tmp-")
    assert seen["visible"] == []
    assert os.listdir(tmp_path) == ["out.bin"]
    assert target.read_bytes() == b"data"


def test_the_bytes_are_flushed_and_fsynced_before_the_rename(tmp_path, monkeypatch):
    target = tmp_path / "out.bin"
    data = b"abc\n" * 10          # far under the writer's buffer: only a flush puts it in the file
    synced = []
    real_fsync = os.fsync

    def spy(fd):
        st = os.fstat(fd)
        synced.append((st.st_size, st.st_ino, target.exists()))
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    atomic_write(str(target), lambda f: f.write(data))
    monkeypatch.undo()
    assert target.read_bytes() == data
    assert len(synced) == 1
    size, ino, target_there = synced[0]
    assert size == len(data)
    assert ino == os.stat(target).st_ino     # the file synced is the one renamed over the target
    assert not target_there


def test_prepare_names_out_when_no_option_is_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError) as info:
        prepare_output_file("")
    assert str(info.value) == "--out '' names no file; give a file name."
    with pytest.raises(UserError) as info:
        prepare_output_file("nope/../x.csv")
    assert str(info.value) == ("--out nope/../x.csv goes up ('..') from nope, which does not exist, so it cannot be "
                               "written there; give the path without that step.")
    assert os.listdir(tmp_path) == []


def test_prepare_and_check_hand_back_the_path_as_text(tmp_path):
    target = tmp_path / "a" / "b" / "p.npz"
    got = check_output_file(target)
    assert type(got) is str and got == str(target)
    assert not (tmp_path / "a").exists()
    got = prepare_output_file(pathlib.Path(target), option="--npz")
    assert type(got) is str and got == str(target)
    assert (tmp_path / "a" / "b").is_dir()
    assert os.listdir(tmp_path / "a" / "b") == []
