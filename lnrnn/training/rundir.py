"""A run folder (``lnrnn train --out DIR``): checked for writability before any work, held by one run at a
time, named afresh when ``--out`` is not given, and the per-update log it keeps.

Default folders: without ``--out``, ``lnrnn train`` takes the first of ``runs/default``, ``runs/default-2``,
``runs/default-3``, ... that holds no run (``fresh_default``), so a second ``lnrnn train`` never refuses;
``lnrnn train --resume`` without ``--out`` resumes the newest of them (``newest_default``).

The per-update log ``DIR/updates.jsonl`` (``UpdateLog``) gets one row every K updates, appended and flushed
as training goes. A checkpoint at update S covers the rows up to S (they were written before it, and it
fsyncs them); on resume the rows after S (written after the checkpoint a kill -9 left) are cut off, and
training writes them again, identical up to the wall-clock fields: no row lost, none twice.

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
import glob
import json
import os
import re
import socket
import time

from lnrnn.errors import SHOWN, UserError
from lnrnn.files import nearest_existing, write_error

LOCK_FILE = "lnrnn.lock"
UPDATES_FILE = "updates.jsonl"
METRICS_FILE = "metrics.jsonl"        # one JSON object per finished epoch (lnrnn.training.train)
CURVE_FILE = "learning_curve.svg"     # every metric against updates, redrawn as the run goes
RUN_LOGS = (METRICS_FILE, UPDATES_FILE, CURVE_FILE)  # the files a run rewrites beside its checkpoint
DEFAULT_OUT = os.path.join("runs", "default")  # the --out of `lnrnn train` when none is given


def holds_run(folder):
    """True when ``folder`` holds a run's checkpoint or is locked by a run (a run just starting)."""
    from lnrnn.training.checkpoint import checkpoint_exists
    return os.path.isdir(folder) and (checkpoint_exists(folder) or os.path.exists(os.path.join(folder, LOCK_FILE)))


def default_folders(base=DEFAULT_OUT):
    """Existing ``base``, ``base-2``, ``base-3``, ... -> [(number, path)] in number order."""
    found = [(1, base)] if os.path.isdir(base) else []
    pat = re.compile(re.escape(os.path.basename(base)) + r"-(\d+)$")
    for p in glob.glob(glob.escape(base) + "-*"):
        m = pat.match(os.path.basename(p))
        if m and os.path.isdir(p) and int(m.group(1)) >= 2:
            found.append((int(m.group(1)), p))
    return sorted(found)


def fresh_default(base=DEFAULT_OUT):
    """The first of base, base-2, base-3, ... that holds no run (for a new run without --out)."""
    taken = {n for n, p in default_folders(base) if holds_run(p)}
    n = next(k for k in range(1, len(taken) + 2) if k not in taken)
    return base if n == 1 else f"{base}-{n}"


def newest_default(base=DEFAULT_OUT):
    """The default folder whose checkpoint was written last (for --resume without --out); UserError if none."""
    from lnrnn.training.checkpoint import DESCRIPTION, checkpoint_exists
    runs = [p for _, p in default_folders(base) if checkpoint_exists(p)]
    if not runs:
        raise UserError(f"--resume without --out resumes the newest run under {base}[-N], and there is none; "
                        "pass --out RUN_FOLDER to say which run to continue.")
    return max(runs, key=lambda p: os.path.getmtime(os.path.join(p, DESCRIPTION)))


def read_jsonl(path, torn_tail_ok=False):
    """The rows of a run's JSON-lines log (metrics.jsonl, updates.jsonl); a last line cut short by a kill is skipped
    when torn_tail_ok. Lines are decoded one by one, so bytes that are not UTF-8 (a damaged file) are refused as a
    bad line, not a traceback; each row must be as lnrnn writes it (``_row_problem``), so that a hand-edited or
    damaged line is refused in one sentence by the resume, the curve and lnrnn plot alike."""
    rows = []
    with open(path, "rb") as f:
        lines = [line for line in f if line.strip()]
    for i, line in enumerate(lines):
        try:
            rows.append(json.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            if torn_tail_ok and i == len(lines) - 1 and not line.endswith(b"\n"):
                break
            raise UserError(f"{path} is not valid JSON lines (line {i + 1}: {e}).") from None
        why = _row_problem(rows[-1])
        if why:
            raise UserError(f"{path} is damaged (line {i + 1}: {why}); repair or delete that line.")
    return rows


def _row_problem(row):
    """What keeps ``row`` from being a log row as lnrnn writes it (a JSON object whose step, epoch and time_s
    are numbers and whose train_<m> and val_<m> are numbers or null), or None."""
    if not isinstance(row, dict):
        return f"{_shown(row)} is not a JSON object"
    for k, v in row.items():
        split, _, m = k.partition("_")
        metric = split in ("train", "val") and m
        if k in ("step", "epoch", "time_s") or metric:
            if not (isinstance(v, (int, float)) and not isinstance(v, bool) or (metric and v is None)):
                return f"{k} is {_shown(v)}, not a number"
    return None


def _shown(value):
    from lnrnn.sample import shortened  # here: only a damaged row pays for importing the sampler
    return shortened(value, SHOWN)


class UpdateLog:
    """DIR/updates.jsonl, exact across kills and resumes (see the module docstring)."""

    def __init__(self, out):
        self.path = os.path.join(out, UPDATES_FILE)
        self.f = None

    def start(self, step):
        """Keep the rows up to update ``step`` (the checkpoint's), drop later ones, open for appending."""
        rows = read_jsonl(self.path, torn_tail_ok=True) if os.path.exists(self.path) else []
        from lnrnn.files import atomic_write_text
        atomic_write_text(self.path, "".join(json.dumps(r) + "\n" for r in rows if r.get("step", 0) <= step))
        self.f = open(self.path, "a")
        return self

    def append(self, row):
        self.f.write(json.dumps(row) + "\n")
        self.f.flush()

    def sync(self):
        """Make the rows written so far durable (before a checkpoint that covers them is written)."""
        if self.f is not None:
            os.fsync(self.f.fileno())

    def close(self):
        if self.f is not None:
            self.f.close()
            self.f = None


def check_writable(out):
    """UserError unless ``out`` is a writable folder, or a folder that can be created (its nearest
    existing ancestor is a writable folder). Creates nothing: the probe is an unnamed temporary file. An empty
    name is refused (abspath would read it as the current folder, which no run folder can be made as)."""
    if not str(out).strip():
        raise UserError(f"--out {str(out)!r} names no folder; give a run folder, or leave --out out for "
                        "runs/default.")
    path = os.path.abspath(out)
    probe = nearest_existing(path)
    if not os.path.isdir(probe):
        what = f"{out}" if probe == path else f"{probe} (in the way of {out})"
        raise UserError(f"{what} is a file, not a folder; choose another --out.")
    e = write_error(probe)
    if e is not None:
        where = f"the run folder {out}" if probe == path else f"{probe}, where the run folder {out} would be created,"
        raise UserError(f"cannot write to {where} ({e.strerror or e}); choose another --out or make it "
                        "writable.")
    for name in RUN_LOGS:  # a folder there would end the run at its first epoch, its write refused
        log = os.path.join(path, name)
        if os.path.isdir(log) and not os.path.islink(log):
            raise UserError(f"{os.path.join(out, name)} is a folder, where lnrnn train writes the run's {name}; "
                            "remove or rename it, or choose another --out.")


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
