"""A run resumed from a checkpoint whose description holds no log window (lnrnn/training/recorder.py, the resume;
older versions wrote none, the record is optional): the window starts empty, so the first updates.jsonl row after
the resume averages the updates since the resume alone, over their own scored units, where the same run resumed
with its window averages the update before the stop in too. Checked against each other: a digits run of batch 8
stopped at update 3 with rows every 2 updates, its window (update 3: the loss sum s3 over 8 sequences) read from
checkpoint.json, resumed to update 4 both ways."""
import json
import shutil

import pytest

from lnrnn.training.rundir import read_jsonl
from test_cli import assert_ok, invoke


def rows(out):
    return read_jsonl(out / "updates.jsonl")


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    out = tmp_path_factory.mktemp("window") / "run"
    assert_ok(invoke("train", "--task", "digits", "--split", "40/8", "--hidden", 3, "--batch-size", 8,
                     "--max-steps", 3, "--log-every", 2, "--out", out))
    return out


def test_a_resume_without_a_window_averages_the_updates_after_it_alone(stopped, tmp_path):
    meta = json.loads((stopped / "checkpoint.json").read_text())
    window = meta["log_window"]
    assert window["count"] == 8 and window["samples"] == 1 and [r["step"] for r in rows(stopped)] == [2]
    kept, lost = tmp_path / "kept", tmp_path / "lost"
    shutil.copytree(stopped, kept)
    shutil.copytree(stopped, lost)
    del meta["log_window"]
    (lost / "checkpoint.json").write_text(json.dumps(meta))
    for out in (kept, lost):
        assert_ok(invoke("train", "--out", out, "--resume", "--max-steps", 4))
    a, b = rows(kept)[-1], rows(lost)[-1]
    assert a["step"] == b["step"] == 4 and a["updates"] == 2 and b["updates"] == 1
    s4 = a["train_loss"] * 16 - window["sums"]["loss"]        # update 4's loss sum, from the run that kept update 3
    assert b["train_loss"] == pytest.approx(s4 / 8, rel=1e-9)
    assert b["train_acc"] == pytest.approx(a["train_acc"] * 2 - window["sums"]["acc"] / 8, abs=1e-12)
