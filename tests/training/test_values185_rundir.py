"""lnrnn/training/rundir.py: a stale lock taken over holds exactly the new holder's one line (its pid, this host
and a start time, from byte 0, no trace of the old text) and the note names the old holder; UpdateLog's rows
read back after a sync, and a sync or close after close is a no-op."""
import json
import os
import socket
import time

from lnrnn.training.rundir import LOCK_FILE, UPDATES_FILE, RunLock, UpdateLog


def test_a_stale_lock_taken_over_holds_only_the_new_holders_line(tmp_path):
    old = "4242 elsewhere 2020-01-01T00:00:00 with a long tail to be cut off\n"
    (tmp_path / LOCK_FILE).write_text(old)
    lock = RunLock(str(tmp_path)).acquire()
    try:
        raw = (tmp_path / LOCK_FILE).read_bytes()
        assert b"\x00" not in raw
        text = raw.decode()
        assert text.endswith("\n") and text.count("\n") == 1
        pid, host, started = text.split()
        assert int(pid) == os.getpid()
        assert host == socket.gethostname()
        time.strptime(started, "%Y-%m-%dT%H:%M:%S")
        assert "pid 4242 on host elsewhere" in lock.note
    finally:
        lock.release()
    assert not (tmp_path / LOCK_FILE).exists()


def test_update_rows_read_back_and_sync_after_close_is_a_no_op(tmp_path):
    rows = [{"step": s, "train_loss": 1.0 / s} for s in (3, 6, 9)]
    log = UpdateLog(str(tmp_path)).start(0)
    for r in rows:
        log.append(r)
    log.sync()
    got = [json.loads(line) for line in (tmp_path / UPDATES_FILE).read_text().splitlines()]
    assert got == rows
    log.close()
    log.sync()
    log.close()
    assert log.f is None
