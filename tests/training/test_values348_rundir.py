"""lnrnn/training/rundir.py, worked out by hand: the lock file's documented name and contents (DIR/lnrnn.lock,
'pid host start'), a lock file whose first field is no number refused as held by a process that wrote no pid,
and a folder on a file system without flock (each errno the module names) refused word for word while another
host's run holds it, its lock file left as written."""
import errno
import fcntl
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import RunLock, fresh_default, holds_run

HOLDER = "4242 node7 2024-01-02T03:04:05\n"


def test_the_lock_is_dir_lnrnn_lock_holding_pid_and_host(tmp_path):
    lock = RunLock(str(tmp_path)).acquire()
    try:
        assert os.listdir(tmp_path) == ["lnrnn.lock"]
        fields = (tmp_path / "lnrnn.lock").read_text().split()
        assert fields[:2] == [str(os.getpid()), socket.gethostname()]
        assert holds_run(str(tmp_path))  # a run just starting: locked, no checkpoint yet
        assert fresh_default(str(tmp_path)) == f"{tmp_path}-2"
    finally:
        lock.release()
    assert os.listdir(tmp_path) == []
    assert fresh_default(str(tmp_path)) == str(tmp_path)


def test_a_lock_file_without_a_pid_is_refused_as_no_pid(tmp_path):
    lock = tmp_path / "lnrnn.lock"
    lock.write_text("node7 4242\n")  # fields in the wrong order: the first one is no pid
    fd = os.open(str(lock), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(UserError) as e:
            RunLock(str(tmp_path)).acquire()
        assert str(e.value) == (f"the run folder {tmp_path} is in use by another lnrnn run (a process that wrote "
                                "no pid); wait for it to end, or choose another --out.")
    finally:
        os.close(fd)
    assert lock.read_text() == "node7 4242\n"


@pytest.mark.parametrize("code", [errno.ENOLCK, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS])
def test_without_flock_another_hosts_lock_is_refused(tmp_path, monkeypatch, code):
    lock = tmp_path / "lnrnn.lock"
    lock.write_text(HOLDER)

    def no_flock(fd, op):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(fcntl, "flock", no_flock)
    with pytest.raises(UserError) as e:
        RunLock(str(tmp_path)).acquire()
    assert str(e.value) == (f"the run folder {tmp_path} is in use by another lnrnn run (pid 4242 on host node7, "
                            "started 2024-01-02T03:04:05); wait for it to end, or choose another --out.")
    assert os.listdir(tmp_path) == ["lnrnn.lock"]
    assert lock.read_text() == HOLDER
