"""lnrnn/training/rundir.py, worked out by hand: the default run folder's name (runs/default, then
runs/default-2 once it holds a run), the per-update log's cut at a checkpoint's update across 9, 10, 99, 100
with sync and close safe before the log is opened, and a folder another live run holds refused word for word
with the holder's pid, host and start read from its lock file, which is left as it was."""
import fcntl
import json
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import RunLock, UpdateLog, fresh_default, newest_default


def test_default_folder_is_runs_default_then_default_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert fresh_default() == os.path.join("runs", "default")
    with pytest.raises(UserError) as e:
        newest_default()
    assert str(e.value) == (f"--resume without --out resumes the newest run under {os.path.join('runs', 'default')}"
                            "[-N], and there is none; pass --out RUN_FOLDER to say which run to continue.")
    os.makedirs(os.path.join("runs", "default"))
    with open(os.path.join("runs", "default", "checkpoint.json"), "w") as f:
        f.write("{}")
    assert fresh_default() == os.path.join("runs", "default") + "-2"
    assert newest_default() == os.path.join("runs", "default")


def test_update_log_sync_and_close_before_start_do_nothing(tmp_path):
    log = UpdateLog(str(tmp_path))
    log.sync()
    log.close()
    assert os.listdir(tmp_path) == []


def test_update_log_keeps_rows_up_to_the_checkpoint_step_past_powers_of_ten(tmp_path):
    path = tmp_path / "updates.jsonl"
    rows = [{"step": s, "loss": s / 100} for s in (9, 10, 99, 100)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"step": 101, "lo')  # a torn tail
    log = UpdateLog(str(tmp_path)).start(99)
    log.append({"step": 109, "loss": 1.09})
    log.sync()
    log.close()
    assert log.f is None
    log.close()  # a second close is harmless
    got = [json.loads(line) for line in path.read_text().splitlines()]
    assert got == rows[:3] + [{"step": 109, "loss": 1.09}]


def test_a_folder_held_by_another_run_is_refused_naming_its_holder(tmp_path):
    lock = tmp_path / "lnrnn.lock"
    text = "4242 node7 2024-01-02T03:04:05\n"
    lock.write_text(text)
    fd = os.open(str(lock), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another open file: the run holding the folder
        with pytest.raises(UserError) as e:
            RunLock(str(tmp_path)).acquire()
        assert str(e.value) == (f"the run folder {tmp_path} is in use by another lnrnn run (pid 4242 on host node7, "
                                "started 2024-01-02T03:04:05); wait for it to end, or choose another --out.")
        assert lock.read_text() == text
        assert sorted(os.listdir(tmp_path)) == ["lnrnn.lock"]
    finally:
        os.close(fd)
