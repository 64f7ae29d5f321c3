"""Training's setup, config files, run folder and loop by value (round 25 of the planted bugs,
tests/mutants/mutants_values25.py): a resume of RUN/best/ (a trailing separator) pointed at RUN, a moved run
folder (given by --out, or a renamed default folder that --resume finds alone) resumed where it now is and the
old place left alone, a checkpoint with a setting this lnrnn does not know refused in one line, config files
that are not UTF-8 or give a list for a number refused in one line, the lock file gone when a run ends and a
lock of another host kept where flock is missing, the batch and epoch a NaN of the data is reported in counted
from 1, the best checkpoint written by a mid-epoch evaluation, and a save that waited for the loss made when
the run ends."""
import errno
import fcntl
import json
import os
import shutil
import socket
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import DataError, UserError
from lnrnn.training import rundir
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import LOCK_FILE, RunLock, holds_run, read_jsonl
from lnrnn.training.train import Trainer
from lnrnn.training.update import nonfinite
from test_cli import TINY, assert_clean_error, assert_ok, invoke

STEPS = 7  # TINY: 200 training images in batches of 32 -> 7 updates an epoch, 2 epochs


@pytest.fixture(scope="module")
def one_epoch(tmp_path_factory):
    """A finished run of TINY's model, one epoch (RUN/best holds its only evaluation)."""
    out = tmp_path_factory.mktemp("trained") / "run"
    assert_ok(invoke("train", *TINY, "--epochs", 1, "--out", out))
    return out


def copy_of(run, where):
    shutil.copytree(run, where)
    return where


# ---- resuming

def test_resuming_best_with_a_trailing_separator_names_the_run_folder(one_epoch, tmp_path):
    run = copy_of(one_epoch, tmp_path / "run")
    line = assert_clean_error(invoke("train", "--out", str(run / "best") + os.sep, "--resume", "-q"),
                              "holds the best checkpoint of a run")
    assert f"resume the run folder above it (--out {run})." in line, line


def test_a_moved_run_resumes_where_it_now_is(one_epoch, tmp_path):
    old = copy_of(one_epoch, tmp_path / "old")
    moved = copy_of(old, tmp_path / "moved")
    before = (old / "checkpoint.json").read_bytes()
    assert_ok(invoke("train", "--out", moved, "--resume", "--epochs", 2, "-q"))
    assert load_checkpoint(str(moved))[0]["step"] == 2 * STEPS
    assert (old / "checkpoint.json").read_bytes() == before and not (old / LOCK_FILE).exists()


def test_a_renamed_default_run_resumes_where_it_now_is(tmp_path, monkeypatch):
    """--resume without --out takes the newest default folder, which the run may have been renamed to since
    its checkpoint was written (runs/default -> runs/default-2): the run goes on there."""
    monkeypatch.chdir(tmp_path)
    assert_ok(invoke("train", *TINY, "--epochs", 1))
    os.rename(os.path.join("runs", "default"), os.path.join("runs", "default-2"))
    assert_ok(invoke("train", "--resume", "--epochs", 2, "-q"))
    assert load_checkpoint(os.path.join("runs", "default-2"))[0]["step"] == 2 * STEPS
    assert not os.path.exists(os.path.join("runs", "default"))


def test_a_setting_this_lnrnn_does_not_know_is_one_line(one_epoch, tmp_path):
    run = copy_of(one_epoch, tmp_path / "run")
    meta = json.loads((run / "checkpoint.json").read_text())
    meta["train"]["warp_drive"] = 9
    (run / "checkpoint.json").write_text(json.dumps(meta))
    line = assert_clean_error(invoke("train", "--out", run, "--resume", "-q"),
                              "training settings this lnrnn does not know")
    assert "warp_drive" in line, line


# ---- config files

def test_a_config_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "c.json"
    path.write_bytes('{"epochs": 1, "out": "caf\u00e9"}'.encode("latin-1"))
    assert_clean_error(invoke("train", "--config", path, "--out", tmp_path / "run", "-q"),
                       f"--config {path} is not valid JSON")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("text", ["batch-size = [32]\n", "epochs = [1, 2]\n", "lr = {value = 0.1}\n"])
def test_a_list_or_table_for_a_number_is_one_line(tmp_path, text):
    path = tmp_path / "c.toml"
    path.write_text(text)
    key = text.split(" ")[0]
    assert_clean_error(invoke("train", "--config", path, "--out", tmp_path / "run", "-q"),
                       f"--config {path}: bad value for '{key}'")
    assert not (tmp_path / "run").exists()


# ---- the run folder's lock

def test_the_lock_file_goes_when_the_run_ends(one_epoch, tmp_path):
    assert not (one_epoch / LOCK_FILE).exists()                 # a finished run leaves no lock behind
    folder = tmp_path / "f"
    folder.mkdir()
    lock = RunLock(str(folder)).acquire()
    assert (folder / LOCK_FILE).exists() and holds_run(str(folder))
    lock.release()
    assert not (folder / LOCK_FILE).exists() and not holds_run(str(folder))
    again = RunLock(str(folder)).acquire()
    assert again.note is None                                   # nothing stale to take over
    again.release()


def test_without_flock_another_hosts_lock_holds_the_folder(tmp_path, monkeypatch):
    def no_flock(fd, op):
        raise OSError(errno.ENOLCK, "No locks available")
    monkeypatch.setattr(fcntl, "flock", no_flock)
    me = socket.gethostname()
    (tmp_path / LOCK_FILE).write_text(f"{os.getpid() + 1} {me}-elsewhere 2020-01-01T00:00:00\n")
    with pytest.raises(UserError, match=f"in use by another lnrnn run .pid {os.getpid() + 1} on host {me}-elsewhere"):
        RunLock(str(tmp_path)).acquire()
    # on this host, a pid that is gone is stale: taken over with a note
    (tmp_path / LOCK_FILE).write_text(f"{2 ** 22 + 12345} {me} 2020-01-01T00:00:00\n")
    monkeypatch.setattr(rundir, "_alive", lambda pid: False)
    lock = RunLock(str(tmp_path)).acquire()
    assert lock.note is not None and "no longer running" in lock.note
    lock.release()


# ---- the loop

@pytest.mark.parametrize("batch, epoch", [(0, 0), (2, 1)])
def test_a_nan_in_the_data_names_its_batch_and_epoch_from_one(batch, epoch):
    trainer = SimpleNamespace(cfg=SimpleNamespace(task="npz"), batch_in_epoch=batch, epoch=epoch)
    x = np.zeros((3, 2, 1))
    x[1, 1, 0] = np.nan
    with pytest.raises(DataError) as e:
        nonfinite(trainer, ValueError("x holds NaN or infinite values"), x)
    # batch_in_epoch counts the batches done before this one: the one being trained is the next
    assert f"(batch {batch + 1} of epoch {epoch + 1})" in str(e.value), str(e.value)


VAL = {3: 1.0, 6: 0.7, 9: 0.8, 12: 0.9}   # --eval-every 3, --max-steps 12 < 14: every evaluation mid-epoch...


def test_a_better_mid_epoch_evaluation_writes_best(tmp_path, monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL.get(self.step, 5.0), "acc": 0.5})
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--eval-every", 3, "--max-steps", 12, "--out", out))
    rows = read_jsonl(out / "metrics.jsonl")
    # ...except at 7, the first epoch's end (5.0: never the best)
    assert [r["step"] for r in rows] == [3, 6, 7, 9, 12]
    best = min(rows, key=lambda r: r["val_loss"])
    assert best["step"] == 6
    assert load_checkpoint(str(out / "best"))[0]["step"] == 6


def test_a_save_that_waited_for_the_loss_is_made_at_the_end(tmp_path, monkeypatch):
    """The last update's loss is above the blow-up level (a streak of 1, no stop): the epoch's end saves
    nothing then, and the end of the run saves the state reached."""
    def high_at_the_last(self, loss):
        self.high_streak = 1 if self.step + 1 == 2 * STEPS else 0
    monkeypatch.setattr(Trainer, "_blown_up", high_at_the_last)
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--out", out))
    assert load_checkpoint(str(out))[0]["step"] == 2 * STEPS
