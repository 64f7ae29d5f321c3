"""The run lock's liveness check: a process that exists but belongs to another user (kill(pid, 0) raises
EPERM) is alive, so on a file system without flock its folder is held, as one whose kill succeeds; only a
pid that does not exist (ESRCH) is stale."""
import errno
import fcntl
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training import rundir
from lnrnn.training.rundir import LOCK_FILE, RunLock


def _kill_raising(exc):
    def kill(pid, sig):
        assert sig == 0
        if exc is not None:
            raise exc(errno.EPERM if exc is PermissionError else errno.ESRCH, "fake")
    return kill


@pytest.mark.parametrize("exc, alive", [(None, True), (PermissionError, True), (ProcessLookupError, False)])
def test_alive_by_what_kill_says(monkeypatch, exc, alive):
    monkeypatch.setattr(os, "kill", _kill_raising(exc))
    assert rundir._alive(4242) is alive


@pytest.mark.parametrize("exc, held", [(PermissionError, True), (None, True), (ProcessLookupError, False)])
def test_without_flock_another_users_live_pid_holds_the_folder(tmp_path, monkeypatch, exc, held):
    def no_flock(fd, op):
        raise OSError(errno.ENOLCK, "No locks available")
    monkeypatch.setattr(fcntl, "flock", no_flock)
    me = socket.gethostname()
    pid = os.getpid() + 7
    (tmp_path / LOCK_FILE).write_text(f"{pid} {me} 2020-01-01T00:00:00\n")
    monkeypatch.setattr(os, "kill", _kill_raising(exc))
    if held:
        with pytest.raises(UserError, match=f"in use by another lnrnn run .pid {pid} on host {me}"):
            RunLock(str(tmp_path)).acquire()
        assert (tmp_path / LOCK_FILE).read_text().split()[0] == str(pid)   # left as it was
    else:
        lock = RunLock(str(tmp_path)).acquire()
        assert lock.note is not None and f"pid {pid}" in lock.note
        lock.release()
