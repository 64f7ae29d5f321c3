"""A run folder (``lnrnn train --out DIR``): checked for writability before any work, and held by one
run at a time.

The lock is ``DIR/lnrnn.lock``, a file holding the holder's ``pid host start-time``, with an exclusive
``fcntl.flock`` on it for the life of the run. The kernel drops a flock when its process dies (kill -9,
a crash, a lost node on a local file system), so a lock file whose flock can be taken is stale: the run
that wrote it is gone, and the new run takes it over with a note. The pid and host are only for the
messages. A run that ends (or fails) removes the file. On a file system without flock (some network
mounts) the pid decides: a live pid on this host holds the folder; a dead one is stale; another
host's pid holds it until someone removes the file.
"""
import errno
import fcntl
import os
import socket
import tempfile
import time

from lnrnn.errors import UserError

LOCK_FILE = "lnrnn.lock"


def check_writable(out):
    """UserError unless ``out`` is a writable folder, or a folder that can be created (its nearest
    existing ancestor is a writable folder). Creates nothing: the probe is an unnamed temporary file."""
    path = os.path.abspath(out)
    probe = path
    while not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    if not os.path.isdir(probe):
        what = f"{out}" if probe == path else f"{probe} (in the way of {out})"
        raise UserError(f"{what} is a file, not a folder; choose another --out.")
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as e:
        where = f"the run folder {out}" if probe == path else f"{probe}, where the run folder {out} would be created,"
        raise UserError(f"cannot write to {where} ({e.strerror or e}); choose another --out or make it "
                        "writable.") from None


def _holder(text):
    """'pid host started' -> (pid or None, host, started)."""
    parts = text.split()
    try:
        pid = int(parts[0])
    except (IndexError, ValueError):
        return None, "?", "?"
    return pid, (parts[1] if len(parts) > 1 else "?"), (" ".join(parts[2:]) or "?")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunLock:
    """lock = RunLock(out).acquire(); ...; lock.release(). ``note`` is set when a stale lock was taken over."""

    def __init__(self, out):
        self.out = out
        self.path = os.path.join(out, LOCK_FILE)
        self.fd = None
        self.note = None

    def _in_use(self, text):
        pid, host, started = _holder(text)
        who = f"pid {pid} on host {host}, started {started}" if pid is not None else "a process that wrote no pid"
        return UserError(f"the run folder {self.out} is in use by another lnrnn run ({who}); wait for it to end, "
                         "or choose another --out.")

    def acquire(self):
        me = socket.gethostname()
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                flocked = True
            except BlockingIOError:
                text = os.read(fd, 4096).decode("utf-8", "replace")
                os.close(fd)
                raise self._in_use(text) from None
            except OSError as e:
                if e.errno not in (errno.ENOLCK, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS):
                    os.close(fd)
                    raise
                flocked = False
            # A holder that just ended removes the file: then this fd locks a file nobody else will open.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        text = os.read(fd, 4096).decode("utf-8", "replace")
        pid, host, started = _holder(text)
        if text.strip() and pid != os.getpid():
            if not flocked and (host != me or _alive(pid)):
                os.close(fd)
                raise self._in_use(text)
            self.note = (f"Note: took over the lock of a run in {self.out} that is no longer running (pid {pid} on "
                         f"host {host}, started {started}).")
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {me} {time.strftime('%Y-%m-%dT%H:%M:%S')}\n".encode())
        self.fd = fd
        return self

    def release(self):
        if self.fd is None:
            return
        try:
            os.unlink(self.path)  # while still locked: a waiting run then finds no file or a new one
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    @property
    def held(self):
        return self.fd is not None
