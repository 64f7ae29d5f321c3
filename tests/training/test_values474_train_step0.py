"""lnrnn/training/train.py's Trainer stopped before its first update (a tiny float64 digits run, 40 training samples
in batches of 16: 16, 16, 8): a SIGTERM that arrives while the run folder is being opened stops the run at update 0
with the step-0 checkpoint holding no blow-up record yet (no first loss, no updates above it), and the run resumed
from there trains exactly as the same run never stopped: the same updates, losses and parameters."""
import signal

import numpy as np
import pytest

from lnrnn.errors import TrainingInterrupted
from lnrnn.training import recorder as recorder_mod
from lnrnn.training import train as train_mod
from lnrnn.training.checkpoint import load_checkpoint
from test_values393_train import quiet_log, tiny


def test_a_run_stopped_before_its_first_update_keeps_no_blow_up_record_and_resumes_as_if_never_stopped(
        tmp_path, monkeypatch):
    real_open = recorder_mod.RunRecorder.open

    def open_then_signal(self):
        real_open(self)
        if self.trainer.step == 0:
            signal.raise_signal(signal.SIGTERM)  # arrives before the first batch is read

    stopped, whole = str(tmp_path / "stopped"), str(tmp_path / "whole")
    monkeypatch.setattr(recorder_mod.RunRecorder, "open", open_then_signal)
    with pytest.raises(TrainingInterrupted) as e:
        train_mod.train(tiny(tmp_path, out=stopped), quiet=True, log=quiet_log)
    assert e.value.exit_code == 128 + signal.SIGTERM
    meta, _ = load_checkpoint(stopped)
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (0, 0, 0)
    assert meta["blowup"] == {"initial_loss": None, "streak": 0}  # no loss seen, no update above it
    monkeypatch.setattr(recorder_mod.RunRecorder, "open", real_open)

    seen = {}

    def hook(key):
        return lambda t: seen.setdefault(key, []).append((t.step, t.initial_loss, t.high_streak))

    resumed = train_mod.train(tiny(tmp_path, out=stopped), resume=True, quiet=True, log=quiet_log, hook=hook("r"))
    never = train_mod.train(tiny(tmp_path, out=whole), quiet=True, log=quiet_log, hook=hook("w"))
    assert [s for s, _, _ in seen["r"]] == [1, 2, 3, 4, 5, 6]
    assert seen["r"] == seen["w"]  # the same first loss, set by update 1, and no streak in either
    assert all(streak == 0 for _, _, streak in seen["r"])
    assert [r["train_loss"] for r in resumed.history] == [r["train_loss"] for r in never.history]
    for k, v in never.model.params.items():
        np.testing.assert_array_equal(resumed.model.params[k], v)
    meta, _ = load_checkpoint(stopped)
    assert meta["blowup"] == {"initial_loss": seen["w"][0][1], "streak": 0}
