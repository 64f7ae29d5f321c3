"""lnrnn/training/rundir.py: check_writable accepts a run folder that does not exist yet (two levels below
an existing folder) and creates nothing; fresh_default never reuses a folder that holds a run, also past
runs/default-9 and -99 (the next number is the smallest one free, counted by value, not by name order);
RunLock.release is harmless before acquire and a second time, and never removes a lock file it does not
hold."""
import os

from lnrnn.training.rundir import LOCK_FILE, RunLock, check_writable, fresh_default


def test_a_run_folder_that_does_not_exist_yet_is_writable(tmp_path):
    check_writable(str(tmp_path / "runs" / "new"))
    check_writable(str(tmp_path))
    assert os.listdir(tmp_path) == []


def _runs(tmp_path, numbers):
    base = tmp_path / "default"
    for n in numbers:
        d = tmp_path / ("default" if n == 1 else f"default-{n}")
        d.mkdir()
        (d / LOCK_FILE).write_text("")          # a folder that holds a run
    return str(base)


def test_fresh_default_takes_the_smallest_free_number_past_9_and_99(tmp_path):
    taken = set(range(1, 12)) | set(range(13, 101))
    base = _runs(tmp_path, sorted(taken))
    want = min(k for k in range(1, 200) if k not in taken)   # 12
    assert fresh_default(base) == f"{base}-{want}"
    (tmp_path / f"default-{want}").mkdir()
    (tmp_path / f"default-{want}" / LOCK_FILE).write_text("")
    assert fresh_default(base) == f"{base}-101"


def test_release_without_a_held_lock_touches_nothing(tmp_path):
    other = RunLock(str(tmp_path)).acquire()      # another run holds the folder
    mine = RunLock(str(tmp_path))
    mine.release()                                # never acquired
    assert os.path.exists(tmp_path / LOCK_FILE) and other.held
    other.release()
    other.release()                               # a second time
    assert not other.held and not os.path.exists(tmp_path / LOCK_FILE)
