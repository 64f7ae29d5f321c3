"""Fine-tuning's shape refusals and the run lock's takeover note against what they were given: a refusal quotes
the checkpoint's setting as 'its model has' and this run's as 'this run', a boolean as on/off by its value,
and its fix names the checkpoint's value; taking over a stale lock names the dead run's pid, host and start
exactly as its lock file wrote them."""
import os
import socket
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.training.finetune import SHAPE_SETTINGS, Source, check_settings
from lnrnn.training.rundir import LOCK_FILE, RunLock

SAVED = {"cell": "lstm-ln", "hidden": 8, "layers": 2, "bidirectional": True, "dtype": "float64"}


def _source():
    return Source("RUN", {"train": dict(SAVED), "model": {}}, {"param/0": None})


def _refusal(**changes):
    cfg = SimpleNamespace(**{**SAVED, **changes})
    with pytest.raises(UserError) as e:
        check_settings(_source(), cfg)
    return str(e.value)


def test_every_setting_alike_passes():
    assert set(SAVED) == set(SHAPE_SETTINGS)
    check_settings(_source(), SimpleNamespace(**SAVED))


@pytest.mark.parametrize("name,ours", [("hidden", 16), ("layers", 1), ("cell", "rnn-ln"), ("dtype", "float32")])
def test_a_refusal_quotes_the_checkpoints_value_then_this_runs(name, ours):
    msg = _refusal(**{name: ours})
    theirs = SAVED[name]
    assert msg.startswith(f"--init-from RUN: its model has --{name} {theirs}, this run {ours}; ")
    assert f"give --{name} {theirs}, or start without --init-from." in msg


def test_a_boolean_is_on_or_off_by_its_value():
    msg = _refusal(bidirectional=False)
    assert "its model has --bidirectional on, this run off; " in msg
    assert "give --bidirectional on," in msg


def test_a_stale_locks_takeover_note_names_its_pid_host_and_start(tmp_path):
    pid, host, started = 2 ** 22 + 12345, "otherhost.example", "2026-01-02T03:04:05"
    (tmp_path / LOCK_FILE).write_text(f"{pid} {host} {started}\n")
    lock = RunLock(str(tmp_path)).acquire()
    try:
        assert lock.note == (f"Note: took over the lock of a run in {tmp_path} that is no longer running "
                             f"(pid {pid} on host {host}, started {started}).")
        mine = (tmp_path / LOCK_FILE).read_text().split()
        assert mine[:2] == [str(os.getpid()), socket.gethostname()]
    finally:
        lock.release()
    assert not (tmp_path / LOCK_FILE).exists()
