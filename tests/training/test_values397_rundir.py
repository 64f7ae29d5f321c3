"""lnrnn/training/rundir.py at the edges of the lock's life, checked against what must hold by definition: a
lock file its holder removes between this run's open and its flock is not kept (the run ends holding the file
now at DIR/lnrnn.lock, and a second run is refused), one replaced by a new holder's file is refused naming that
holder; a flock that fails for a reason other than a missing flock is raised with the lock file closed; a
release whose lock file cannot be removed (a folder made read-only during the run, or a read-only file system)
still closes the lock, and the next lock on the folder is taken, not refused as in use. Path shapes: a run folder
given with a trailing separator, one not yet existing under a read-only folder, and a name that is a file, each
refused or accepted word for word."""
import errno
import fcntl
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training import rundir
from lnrnn.training.rundir import LOCK_FILE, RunLock, check_writable

NEW_HOLDER = "4242 node7 2024-01-02T03:04:05\n"
FD_DIR = "/proc/self/fd"

needs_proc_fd = pytest.mark.skipif(not os.path.isdir(FD_DIR), reason="needs /proc/self/fd to list open files")


def open_on(path):
    """The descriptors of this process open on ``path`` (by the path the kernel reports for each)."""
    found = []
    for name in os.listdir(FD_DIR):
        try:
            if os.readlink(os.path.join(FD_DIR, name)) == str(path):
                found.append(int(name))
        except OSError:
            pass
    return found


def first_flock_does(monkeypatch, action):
    """Run ``action(fd)`` just before this process's first flock call, then lock as the kernel would."""
    real = fcntl.flock
    calls = []

    def flock(fd, op):
        if not calls:
            calls.append(fd)
            action(fd)
        return real(fd, op)

    monkeypatch.setattr(rundir.fcntl, "flock", flock)
    return calls


def test_a_lock_file_removed_before_the_flock_is_not_kept(tmp_path, monkeypatch):
    out = str(tmp_path)
    path = os.path.join(out, LOCK_FILE)
    # the holder that was ending removes its file between this run's open and its flock
    calls = first_flock_does(monkeypatch, lambda fd: os.unlink(path))
    lock = RunLock(out).acquire()
    try:
        assert len(calls) == 1
        assert os.path.exists(path)  # the folder shows its lock ...
        assert os.path.samestat(os.fstat(lock.fd), os.stat(path))  # ... and it is the file this run holds
        fields = open(path).read().split()
        assert fields[:2] == [str(os.getpid()), socket.gethostname()]
        monkeypatch.undo()
        with pytest.raises(UserError, match=r"is in use by another lnrnn run \(pid "):
            RunLock(out).acquire()  # a second run opens that same file and finds it flocked
    finally:
        lock.release()
    assert os.listdir(out) == []


def test_a_lock_file_replaced_before_the_flock_is_refused_naming_the_new_holder(tmp_path, monkeypatch):
    out = str(tmp_path)
    path = os.path.join(out, LOCK_FILE)
    held = []

    def replace(fd):  # the old holder removed its file, a new run created its own and flocked it
        os.unlink(path)
        with open(path, "w") as f:
            f.write(NEW_HOLDER)
        new = os.open(path, os.O_RDWR)
        fcntl.flock(new, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.append(new)

    first_flock_does(monkeypatch, replace)
    try:
        with pytest.raises(UserError) as e:
            RunLock(out).acquire()
        assert str(e.value) == (f"the run folder {out} is in use by another lnrnn run (pid 4242 on host node7, "
                                "started 2024-01-02T03:04:05); wait for it to end, or choose another --out.")
        assert open(path).read() == NEW_HOLDER  # the new holder's file untouched
    finally:
        for fd in held:
            os.close(fd)


@needs_proc_fd
@pytest.mark.parametrize("code", [errno.EIO, errno.EBADF])
def test_another_flock_failure_is_raised_with_the_lock_file_closed(tmp_path, monkeypatch, code):
    out = str(tmp_path)
    path = os.path.join(out, LOCK_FILE)

    def flock(fd, op):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(rundir.fcntl, "flock", flock)
    with pytest.raises(OSError) as e:
        RunLock(out).acquire()
    assert e.value.errno == code  # not one of the errnos that mean "no flock here": not a pid check either
    assert open_on(path) == []


@needs_proc_fd
@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS, errno.EPERM])
def test_a_lock_file_that_cannot_be_removed_is_still_released(tmp_path, monkeypatch, code):
    out = str(tmp_path)
    path = os.path.join(out, LOCK_FILE)
    lock = RunLock(out).acquire()
    line = open(path).read()
    real_unlink = os.unlink

    def unlink(p, *a, **k):
        if p == path:  # the folder was made read-only while the run went on (or its file system was)
            raise OSError(code, os.strerror(code), p)
        return real_unlink(p, *a, **k)

    monkeypatch.setattr(rundir.os, "unlink", unlink)
    lock.release()
    monkeypatch.undo()
    assert not lock.held
    assert open_on(path) == []  # the flock went with the descriptor
    assert open(path).read() == line  # the file stays as written
    again = RunLock(out).acquire()  # the flock is free: the folder is taken, not refused as in use
    try:
        assert again.held
        assert os.path.samestat(os.fstat(again.fd), os.stat(path))
        assert again.note is None  # the file named this process, no other run's: nothing to take over
    finally:
        again.release()
    assert os.listdir(out) == []


def denied_in(folder):
    """write_error as a read-only ``folder`` answers for a user the file mode applies to (not root)."""
    def write_error(probe):
        if probe == folder:
            return PermissionError(errno.EACCES, os.strerror(errno.EACCES), probe)
        return None
    return write_error


@pytest.mark.parametrize("sep", ["", os.sep])
def test_a_run_folder_not_yet_existing_under_a_read_only_folder(tmp_path, monkeypatch, sep):
    ro = str(tmp_path / "ro")
    os.mkdir(ro)
    monkeypatch.setattr(rundir, "write_error", denied_in(ro))
    out = os.path.join(ro, "runs", "a") + sep
    with pytest.raises(UserError) as e:
        check_writable(out)
    assert str(e.value) == (f"cannot write to {ro}, where the run folder {out} would be created, (Permission "
                            "denied); choose another --out or make it writable.")
    assert os.listdir(ro) == []  # nothing created on the way
    check_writable(os.path.join(str(tmp_path), "runs", "a") + sep)  # a writable ancestor: accepted
    assert os.listdir(tmp_path) == ["ro"]


@pytest.mark.parametrize("sep", ["", os.sep])
def test_a_read_only_run_folder_is_named_as_given(tmp_path, monkeypatch, sep):
    ro = str(tmp_path / "ro")
    os.mkdir(ro)
    monkeypatch.setattr(rundir, "write_error", denied_in(ro))
    with pytest.raises(UserError) as e:
        check_writable(ro + sep)
    assert str(e.value) == (f"cannot write to the run folder {ro + sep} (Permission denied); choose another --out "
                            "or make it writable.")


@pytest.mark.parametrize("sep", ["", os.sep])
def test_a_name_that_is_a_file_is_refused(tmp_path, sep):
    f = tmp_path / "notes.txt"
    f.write_text("x")
    with pytest.raises(UserError) as e:
        check_writable(str(f) + sep)
    assert str(e.value) == f"{f}{sep} is a file, not a folder; choose another --out."
    with pytest.raises(UserError) as e:
        check_writable(os.path.join(str(f), "run") + sep)
    assert str(e.value) == f"{f} (in the way of {os.path.join(str(f), 'run')}{sep}) is a file, not a folder; " \
                           "choose another --out."


def test_a_lock_in_a_folder_given_with_a_trailing_separator(tmp_path):
    out = str(tmp_path) + os.sep
    lock = RunLock(out).acquire()
    try:
        assert os.listdir(tmp_path) == [LOCK_FILE]
        with pytest.raises(UserError) as e:
            RunLock(str(tmp_path)).acquire()  # the same folder named without the separator
        assert str(e.value).startswith(f"the run folder {tmp_path} is in use by another lnrnn run (pid "
                                       f"{os.getpid()} on host {socket.gethostname()}, started ")
    finally:
        lock.release()
    assert os.listdir(tmp_path) == []
