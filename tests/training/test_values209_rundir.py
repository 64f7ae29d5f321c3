"""Run folders (lnrnn/training/rundir.py): the lock of a run in use names its holder as the lock file wrote it
(pid, host and start time, one line), and the update log of a run resumed in the middle keeps the rows up to
the resumed update, drops the later ones and the torn tail, and shows every appended row to a reader at once
(before the log is closed), all compared with rows written and read here with json."""
import fcntl
import json
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import LOCK_FILE, UPDATES_FILE, RunLock, UpdateLog


def refusal_while_held(out, line):
    """Write ``line`` into the run folder's lock file, hold the lock through another open file (as another
    process holds it) and return what RunLock(out).acquire() raises, in words."""
    path = os.path.join(out, LOCK_FILE)
    with open(path, "w") as f:
        f.write(line)
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(UserError) as e:
            RunLock(out).acquire()
    finally:
        os.close(fd)
    return str(e.value)


def test_a_run_in_use_is_named_by_its_lock_in_one_line(tmp_path):
    out = str(tmp_path)
    assert refusal_while_held(out, "4242 otherhost 2026-11-30T10:00:00\n") == (
        f"the run folder {out} is in use by another lnrnn run (pid 4242 on host otherhost, started "
        "2026-11-30T10:00:00); wait for it to end, or choose another --out.")


def test_the_update_log_resumed_in_the_middle_shows_each_row_at_once(tmp_path):
    rows = [{"step": s, "loss": 1.0 / s} for s in (10, 20, 30, 40)]
    with open(tmp_path / UPDATES_FILE, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows) + '{"step": 5')   # a torn last row
    log = UpdateLog(str(tmp_path)).start(20)
    try:
        new = [{"step": 30, "loss": 0.5}, {"step": 40, "loss": 0.25}]
        for i, r in enumerate(new):
            log.append(r)
            with open(tmp_path / UPDATES_FILE) as f:      # read while the log is still open
                got = [json.loads(line) for line in f]
            assert got == rows[:2] + new[:i + 1]
    finally:
        log.close()
