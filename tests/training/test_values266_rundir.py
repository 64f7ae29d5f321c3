"""Run folders (lnrnn/training/rundir.py): --resume without --out takes the one default folder holding a
checkpoint when there is only one (among folders without), and refuses word for word when there is none;
a blank --out is refused quoting it as typed; a folder held by a run is refused naming the folder (not its
lock file), the holder's pid, host and start time read from the lock file, with the lock file untouched."""
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import RunLock, check_writable, newest_default


def test_resume_takes_the_only_default_folder_with_a_checkpoint(tmp_path):
    base = str(tmp_path / "default")
    for name in ("default", "default-2", "default-10"):
        os.makedirs(tmp_path / name)
    with pytest.raises(UserError) as e:
        newest_default(base)
    assert str(e.value) == (f"--resume without --out resumes the newest run under {base}[-N], and there is none; "
                            "pass --out RUN_FOLDER to say which run to continue.")
    (tmp_path / "default-10" / "checkpoint.json").write_text("{}")
    assert newest_default(base) == f"{base}-10"


@pytest.mark.parametrize("out", ["", "   "])
def test_a_blank_out_is_refused_as_typed(tmp_path, out):
    with pytest.raises(UserError) as e:
        check_writable(out)
    assert str(e.value) == (f"--out '{out}' names no folder; give a run folder, or leave --out out for "
                            "runs/default.")


def test_a_held_folder_is_refused_naming_the_folder_and_its_holder(tmp_path):
    out = str(tmp_path / "run")
    os.makedirs(out)
    lock = RunLock(out).acquire()
    try:
        written = (tmp_path / "run" / "lnrnn.lock").read_text()
        pid, host, started = written.split()
        assert int(pid) == os.getpid() and host == socket.gethostname()
        with pytest.raises(UserError) as e:
            RunLock(out).acquire()
        assert str(e.value) == (f"the run folder {out} is in use by another lnrnn run (pid {os.getpid()} on host "
                                f"{socket.gethostname()}, started {started}); wait for it to end, or choose "
                                "another --out.")
        assert (tmp_path / "run" / "lnrnn.lock").read_text() == written
    finally:
        lock.release()
