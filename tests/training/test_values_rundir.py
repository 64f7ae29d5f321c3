"""lnrnn/training/rundir.py's folder numbering and update log on awkward histories: default folders past
ten (numbers, not text, order them), a gap left by a removed run reused, a folder whose name only starts
like a default one ignored, --resume taking the newest checkpoint (not the last name), the update log cut
at the checkpoint's own row, and a torn last row told apart from a corrupt one in the middle."""
import json
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training.checkpoint import DESCRIPTION
from lnrnn.training.rundir import (LOCK_FILE, UpdateLog, default_folders, fresh_default, newest_default,
                                   read_jsonl)


def make(base, n, run=True, mtime=None):
    """Folder base[-n]; with run, holding a checkpoint description (mtime: its modification time)."""
    path = str(base) if n == 1 else f"{base}-{n}"
    os.makedirs(path, exist_ok=True)
    if run:
        desc = os.path.join(path, DESCRIPTION)
        with open(desc, "w") as f:
            f.write("{}")
        if mtime is not None:
            os.utime(desc, (mtime, mtime))
    return path


def test_default_folders_in_number_order_past_ten(tmp_path):
    base = tmp_path / "default"
    for n in (1, 2, 9, 10, 11):
        make(base, n)
    os.makedirs(f"{base}-2-old")              # not a default folder
    os.makedirs(f"{base}-x")
    open(f"{base}-12", "w").close()           # a file, not a folder
    assert default_folders(str(base)) == [(n, str(base) if n == 1 else f"{base}-{n}") for n in (1, 2, 9, 10, 11)]


def test_fresh_default_is_the_first_free_number(tmp_path):
    base = str(tmp_path / "default")
    assert fresh_default(base) == base                                  # nothing yet
    for n in range(1, 11):
        make(base, n)
    assert fresh_default(base) == f"{base}-11"                        # ten runs: the eleventh
    os.remove(os.path.join(f"{base}-3", DESCRIPTION))                   # a folder whose run was removed
    assert fresh_default(base) == f"{base}-3"
    open(os.path.join(f"{base}-3", LOCK_FILE), "w").close()             # a run starting there holds it
    assert fresh_default(base) == f"{base}-11"


def test_resume_takes_the_newest_checkpoint_not_the_last_name(tmp_path):
    base = str(tmp_path / "default")
    make(base, 1, mtime=1_000_000)
    make(base, 9, mtime=2_000_000)
    newest = make(base, 10, mtime=3_000_000)
    make(base, 2, mtime=1_500_000)
    make(base, 11, run=False)                                            # a folder without a checkpoint
    assert newest_default(base) == newest
    with pytest.raises(UserError, match="--out"):
        newest_default(str(tmp_path / "none"))


def test_update_log_keeps_the_rows_up_to_the_checkpoints_step(tmp_path):
    path = tmp_path / "updates.jsonl"
    path.write_text("".join(json.dumps({"step": s, "loss": 1.0 / s}) + "\n" for s in (1, 2, 3, 4, 5)) + '{"step": 6, "lo')
    log = UpdateLog(str(tmp_path)).start(3)
    log.append({"step": 4, "loss": 9.0})
    log.close()
    assert [(r["step"], r["loss"]) for r in read_jsonl(str(path))] == [(1, 1.0), (2, 0.5), (3, 1 / 3), (4, 9.0)]


def test_a_torn_last_row_is_skipped_and_a_corrupt_middle_one_refused(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text('{"a": 1}\n{"a": 2}\n{"a"')
    assert read_jsonl(str(path), torn_tail_ok=True) == [{"a": 1}, {"a": 2}]
    with pytest.raises(UserError, match="line 3"):
        read_jsonl(str(path))
    path.write_text('{"a": 1}\n{"a" 2}\n{"a": 3}\n')
    with pytest.raises(UserError, match="line 2"):
        read_jsonl(str(path), torn_tail_ok=True)
    path.write_text('{"a": 1}\n{"a": 2\n')                              # a whole last line, corrupt
    with pytest.raises(UserError, match="line 2"):
        read_jsonl(str(path), torn_tail_ok=True)


def test_a_folder_numbered_one_is_not_a_default_folder(tmp_path):
    base = str(tmp_path / "default")
    make(base, 2)
    os.makedirs(f"{base}-1")                                             # runs/default is number 1
    make(f"{base}-01", 1)                                                 # 01: not a number we write either
    assert default_folders(base) == [(2, f"{base}-2")]
    assert fresh_default(base) == base


def test_a_stale_lock_is_taken_over_with_a_note_and_our_own_without(tmp_path):
    import socket
    import subprocess
    import sys

    from lnrnn.training.rundir import RunLock
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    (tmp_path / LOCK_FILE).write_text(f"{dead} {socket.gethostname()} 2026-01-01T00:00:00\n")
    lock = RunLock(str(tmp_path)).acquire()
    assert lock.note == (f"Note: took over the lock of a run in {tmp_path} that is no longer running (pid {dead} "
                         f"on host {socket.gethostname()}, started 2026-01-01T00:00:00).")
    assert (tmp_path / LOCK_FILE).read_text().split()[:2] == [str(os.getpid()), socket.gethostname()]
    lock.release()
    assert not (tmp_path / LOCK_FILE).exists()
    (tmp_path / LOCK_FILE).write_text(f"{os.getpid()} {socket.gethostname()} 2026-01-01T00:00:00\n")
    lock = RunLock(str(tmp_path)).acquire()                              # a file this process wrote: no note
    assert lock.note is None
    lock.release()
