"""Resumes that change or keep options (lnrnn/training/train.py, recorder.py, setup.py), on the tiny run of
test_values202_train_run (NB = 3 updates an epoch), worked out here by hand:

- Four invocations of a 4-epoch run at lr 0.05, decay 0.9, each stopped by --max-steps at an epoch's end (3, 6, 9):
  the second gives --lr 0.01 (the rate in effect, 0.05 * 0.9 = 0.045, becomes 0.01 from update 3), the third changes
  nothing, the fourth gives --lr 0.002 (the rate then, 0.01 * 0.9**(3 - 1) = 0.0081 since the change at epoch 1,
  becomes 0.002 from update 9). Each change is announced with its own rates and update; the third invocation's
  checkpoints keep the first change; metrics.jsonl's learning rates are 0.05, 0.01, 0.009, 0.002.
- A run started with --init-from resumes after its source is gone: the source was read once, when the run began.
- A --max-steps the run has not reached is inherited by a resume that does not give it: a run of --max-steps 5
  whose process failed after its save at update 2 (--save-every 2) resumes and stops at update 5, not at the 6 of
  its epochs."""
import json
import os
import shutil

import pytest

from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train
from test_values202_train_run import cfg

NB = 3


def meta(out):
    with open(os.path.join(str(out), "checkpoint.json"), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def schedule(tmp_path_factory):
    out = tmp_path_factory.mktemp("v236s") / "run"
    logs = []
    for k, (explicit, kw) in enumerate([((), {}), (("lr", "max_steps"), dict(lr=0.01)), (("max_steps",), {}),
                                        (("lr", "max_steps"), dict(lr=0.002))]):
        log = []
        train(cfg(out, epochs=4, eval_every=None, max_steps=NB * (k + 1), **kw), resume=k > 0, explicit=explicit,
              quiet=True, log=log.append)
        logs.append(log)
        if k == 2:
            third = meta(out)
    return out, logs, third


def test_each_schedule_change_is_announced_with_its_own_rates(schedule):
    _, logs, _ = schedule
    assert f"Changing the schedule: learning rate {0.05 * 0.9:g} -> 0.01 from update 3." in logs[1]
    assert f"Changing the schedule: learning rate {0.01 * 0.9 ** 2:g} -> 0.002 from update 9." in logs[3]
    assert f"{0.01 * 0.9 ** 2:g}" == "0.0081"
    assert not any(line.startswith("Changing the schedule") for line in logs[2])


def test_a_resume_without_changes_keeps_the_earlier_change(schedule):
    _, _, third = schedule
    assert third["step"] == 9
    change = third["lr_changes"]
    assert [(c["step"], c["epoch"]) for c in change] == [(3, 1)]
    assert change[0]["lr"] == pytest.approx([0.045, 0.01]) and change[0]["lr_decay"] == [0.9, 0.9]


def test_the_epochs_learning_rates_follow_both_changes(schedule):
    out, _, _ = schedule
    lrs = [r["lr"] for r in read_jsonl(os.path.join(str(out), "metrics.jsonl"))]
    assert lrs == pytest.approx([0.05, 0.01, 0.01 * 0.9, 0.002], rel=1e-12)


def test_a_fine_tuned_run_resumes_after_its_source_is_gone(tmp_path):
    source, run = tmp_path / "source", tmp_path / "run"
    train(cfg(source, epochs=1, eval_every=None), quiet=True, log=lambda msg: None)
    train(cfg(run, init_from=str(source), eval_every=None, max_steps=2), quiet=True, log=lambda msg: None)
    shutil.rmtree(str(source))
    log = []
    train(cfg(run), resume=True, quiet=True, log=log.append)
    assert meta(run)["step"] == 2 * NB
    assert log[-1].startswith("Done: 2 epochs, 6 updates in ")


def test_a_resume_inherits_the_max_steps_it_has_not_reached(tmp_path):
    def fail(t):
        if t.step == 3:
            raise RuntimeError("the process failed")

    out = tmp_path / "run"
    with pytest.raises(RuntimeError):
        train(cfg(out, eval_every=None, max_steps=5, save_every=2), quiet=True, log=lambda msg: None, hook=fail)
    assert meta(out)["step"] == 2
    log = []
    train(cfg(out), resume=True, quiet=True, log=log.append)
    assert meta(out)["step"] == 5
    assert log[-1].startswith("Stopped (reached --max-steps 5) at epoch 2, 5 updates in ")
