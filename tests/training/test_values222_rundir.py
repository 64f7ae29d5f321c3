"""Run locks (lnrnn/training/rundir.py): a second run in a folder whose lock this process already holds is
refused, naming the holder as the lock file holds it (read back here and split by hand), with the file left
as it was; a held lock written with a start time of two words; a lock released is no longer held, its file
is gone, a second release does nothing and the folder can be locked again."""
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import LOCK_FILE, RunLock
from test_values209_rundir import refusal_while_held


def _in_use(out, pid, host, started):
    return (f"the run folder {out} is in use by another lnrnn run (pid {pid} on host {host}, started {started}); "
            "wait for it to end, or choose another --out.")


def test_a_second_lock_on_a_held_folder_is_refused_and_the_lock_file_kept(tmp_path):
    out = str(tmp_path)
    first = RunLock(out).acquire()
    try:
        with open(os.path.join(out, LOCK_FILE), "rb") as f:
            before = f.read()
        pid, host, day = before.decode().split()
        assert (int(pid), host) == (os.getpid(), socket.gethostname())
        with pytest.raises(UserError) as e:
            RunLock(out).acquire()      # its own open file: the flock of the first one blocks it
        assert str(e.value) == _in_use(out, pid, host, day)
        with open(os.path.join(out, LOCK_FILE), "rb") as f:
            assert f.read() == before
        assert first.held
    finally:
        first.release()


def test_a_held_lock_names_a_start_time_of_several_words(tmp_path):
    out = str(tmp_path)
    assert refusal_while_held(out, "31337 node-7 Mon Nov 30 10:00:00 2026\n") == \
        _in_use(out, 31337, "node-7", "Mon Nov 30 10:00:00 2026")
    with open(os.path.join(out, LOCK_FILE)) as f:
        assert f.read() == "31337 node-7 Mon Nov 30 10:00:00 2026\n"


def test_a_released_lock_is_gone_and_a_second_release_does_nothing(tmp_path):
    out = str(tmp_path)
    lock = RunLock(out).acquire()
    assert lock.held and os.path.exists(os.path.join(out, LOCK_FILE))
    lock.release()
    assert not lock.held
    assert not os.path.exists(os.path.join(out, LOCK_FILE))
    lock.release()
    again = RunLock(out).acquire()
    try:
        assert again.held and again.note is None
    finally:
        again.release()
