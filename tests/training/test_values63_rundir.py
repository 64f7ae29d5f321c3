"""lnrnn/training/rundir.py on the shapes a path takes: default run folders numbered past 9 and 99 (the
first free number, counted by hand from the folders made here), a folder that merely exists (no checkpoint,
no lock) is free; the per-update log read back row for row, its torn last row forgiven and a bad middle
line named by its own 1-based number; --out relative, with a trailing separator, nested under missing
folders, under a file, or a file itself; a stale lock taken over leaves exactly the new holder's one line."""
import json
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training import rundir
from lnrnn.training.checkpoint import DESCRIPTION
from lnrnn.training.rundir import LOCK_FILE, RunLock, check_writable, read_jsonl


def _run_in(folder):
    """A folder that holds a run as holds_run defines it: a checkpoint description file."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, DESCRIPTION), "w") as f:
        f.write("{}")


def _first_free(base, made):
    """By hand: 1 stands for base itself, n >= 2 for base-n; the smallest number whose folder holds no run."""
    taken = {n for n, holds in made.items() if holds}
    n = 1
    while n in taken:
        n += 1
    return base if n == 1 else f"{base}-{n}"


@pytest.mark.parametrize("runs", [[1], [1, 2], list(range(1, 11)), list(range(1, 11)) + [12],
                                  [n for n in range(1, 101)], [2, 3]])
def test_fresh_default_is_the_first_number_without_a_run(tmp_path, runs):
    base = str(tmp_path / "runs" / "default")
    made = {}
    for n in runs:
        _run_in(base if n == 1 else f"{base}-{n}")
        made[n] = True
    os.makedirs(f"{base}-{max(runs) + 1}")          # a folder that exists but holds nothing is free
    made[max(runs) + 1] = False
    assert rundir.fresh_default(base) == _first_free(base, made)
    numbers = [n for n, _ in rundir.default_folders(base)]
    assert numbers == sorted(made) and numbers[0] == min(made)


def test_default_folders_number_the_base_1_and_the_others_by_their_suffix(tmp_path):
    base = str(tmp_path / "default")
    for name in ("default", "default-10", "default-9", "default-100", "default-2"):
        os.makedirs(tmp_path / name)
    (tmp_path / "default-7").write_text("a file, not a run folder")
    os.makedirs(tmp_path / "default-x")
    assert rundir.default_folders(base) == [(1, base), (2, base + "-2"), (9, base + "-9"), (10, base + "-10"),
                                            (100, base + "-100")]


def test_an_existing_base_with_a_run_is_never_handed_out_again(tmp_path):
    base = str(tmp_path / "default")
    _run_in(base)
    assert rundir.fresh_default(base) == base + "-2"
    os.makedirs(base + "-2")
    with open(os.path.join(base + "-2", LOCK_FILE), "w") as f:   # a run just starting there
        f.write(f"{os.getpid()} {socket.gethostname()} now\n")
    assert rundir.fresh_default(base) == base + "-3"


ROWS = [{"step": 5, "loss": 0.5}, {"step": 10, "loss": 0.25}, {"step": 15, "loss": 0.125}]


def _lines(rows):
    return "".join(json.dumps(r) + "\n" for r in rows)


def test_jsonl_rows_read_back_and_a_torn_last_row_forgiven_only_when_asked(tmp_path):
    path = tmp_path / "updates.jsonl"
    path.write_text(_lines(ROWS) + "\n")
    assert read_jsonl(str(path)) == ROWS
    path.write_text(_lines(ROWS) + '{"step": 20, "lo')                 # a kill during the fourth write
    assert read_jsonl(str(path), torn_tail_ok=True) == ROWS
    with pytest.raises(UserError, match="line 4"):
        read_jsonl(str(path))


@pytest.mark.parametrize("bad", [0, 1, 2])
def test_a_bad_line_is_named_by_its_own_number(tmp_path, bad):
    lines = _lines(ROWS).splitlines(keepends=True)
    lines[bad] = "not json\n"
    path = tmp_path / "metrics.jsonl"
    path.write_text("".join(lines))
    for torn in (False, True):                            # a whole bad line is never a torn tail
        with pytest.raises(UserError, match=f"line {bad + 1}:"):
            read_jsonl(str(path), torn_tail_ok=torn)


def test_the_update_log_resumed_keeps_rows_up_to_the_step_and_appends_whole_lines(tmp_path):
    path = tmp_path / rundir.UPDATES_FILE
    path.write_text(_lines(ROWS) + '{"step": 20, "lo')
    log = rundir.UpdateLog(str(tmp_path)).start(10)
    log.append({"step": 15, "loss": 1.0})
    log.append({"step": 20, "loss": 2.0})
    log.close()
    assert read_jsonl(str(path)) == ROWS[:2] + [{"step": 15, "loss": 1.0}, {"step": 20, "loss": 2.0}]


@pytest.mark.parametrize("out", ["new", "runs/new", "runs/a/b/c", "runs/new" + os.sep, "."])
def test_a_relative_out_is_checked_from_the_working_folder(tmp_path, monkeypatch, out):
    monkeypatch.chdir(tmp_path)
    check_writable(out)
    assert os.listdir(tmp_path) == []                      # the check creates nothing


def test_a_file_itself_or_in_the_way_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_text("x")
    with pytest.raises(UserError, match="^f is a file, not a folder; choose another --out"):
        check_writable("f")
    with pytest.raises(UserError, match=f"^{tmp_path / 'f'} \\(in the way of f/run/x\\) is a file"):
        check_writable("f/run/x")
    for blank in ("", "  "):
        with pytest.raises(UserError, match="names no folder"):
            check_writable(blank)


def test_a_folder_that_cannot_be_written_is_named_with_where_the_run_would_be(tmp_path, monkeypatch):
    denied = OSError(13, "Permission denied")
    monkeypatch.setattr(rundir, "write_error", lambda folder: denied if folder == str(tmp_path) else None)
    with pytest.raises(UserError, match=f"^cannot write to the run folder {tmp_path} .Permission denied."):
        check_writable(str(tmp_path))
    with pytest.raises(UserError, match=f"^cannot write to {tmp_path}, where the run folder {tmp_path}/a/b would "
                                        "be created, .Permission denied."):
        check_writable(str(tmp_path / "a" / "b"))


def test_a_stale_lock_taken_over_holds_only_the_new_holders_line(tmp_path):
    stale = f"999999999 {'some-other-host-with-a-long-name.example.org'} 2020-01-01T00:00:00 and a long tail\n"
    (tmp_path / LOCK_FILE).write_text(stale)              # nobody holds its flock: the run that wrote it is gone
    lock = RunLock(str(tmp_path)).acquire()
    try:
        text = (tmp_path / LOCK_FILE).read_text()
        assert text.endswith("\n") and text.count("\n") == 1
        pid, host, started = text.split()
        assert (int(pid), host) == (os.getpid(), socket.gethostname()) and len(started) == 19
        assert lock.note is not None and "pid 999999999 on host some-other-host" in lock.note
    finally:
        lock.release()
    assert not (tmp_path / LOCK_FILE).exists()
