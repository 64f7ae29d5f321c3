"""lnrnn/training/recorder.py: what a resume restores and what a row counts, against their definitions. A
checkpoint read back by a run with another --best-metric starts that metric's best afresh (the old metric's
best value is no bar for the new one), with the same one keeps it; the blow-up streak and the run's first
loss come back as written (a resumed run in the middle of a streak stops where it would have); updates.jsonl's
"updates" is the number of updates in its window, whatever each update scored."""
import json
from types import SimpleNamespace

import numpy as np

from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import Trainer

CFG = dict(task="digits", split="32/16", hidden=4, batch_size=16, epochs=3, patience=4)


def written(tmp_path):
    a = Trainer(TrainConfig(**CFG, best_metric="acc", out=str(tmp_path / "a")), quiet=True, log=lambda m: None)
    try:
        a.step, a.epoch = 6, 1
        a.best = {"metric": "acc", "value": 0.75, "step": 4, "epoch": 1, "since": 1}
        a.initial_loss, a.high_streak = 2.5, 7
        return json.loads(json.dumps(a.recorder.meta())), a.recorder.arrays()
    finally:
        a.close()


def restored(tmp_path, meta, arrays, best_metric, name):
    b = Trainer(TrainConfig(**CFG, best_metric=best_metric, out=str(tmp_path / name)), quiet=True,
                log=lambda m: None)
    try:
        b.recorder.restore(meta, arrays)
        return dict(b.best), b.initial_loss, b.high_streak
    finally:
        b.close()


def test_a_resume_keeps_the_best_of_its_own_metric_only_and_the_blowup_state(tmp_path):
    meta, arrays = written(tmp_path)
    best, initial, streak = restored(tmp_path, meta, arrays, "acc", "same")
    assert best == {"metric": "acc", "value": 0.75, "step": 4, "epoch": 1, "since": 1}
    assert (initial, streak) == (2.5, 7)
    best, _, _ = restored(tmp_path, meta, arrays, "loss", "other")
    assert best == {"metric": "loss", "value": None, "step": None, "epoch": None, "since": 0}


class Rows:
    def __init__(self):
        self.rows = []

    def append(self, row):
        self.rows.append(row)


def test_the_update_rows_count_updates_and_average_over_scored_units():
    counts = [3, 5, 4, 7, 2]                     # scored units of each update
    losses = [1.0, 2.0, 4.0, 8.0, 16.0]          # each update's loss sum
    head = SimpleNamespace(mean=lambda sums, count: {"loss": sums["loss"] / count})
    model = SimpleNamespace(head=head, last_sums=None, last_count=None)
    t = SimpleNamespace(log_window={"sums": {"loss": 0.0}, "count": 0, "samples": 0}, model=model,
                        cfg=SimpleNamespace(log_every=2), epoch=0, batch_in_epoch=0, step=0,
                        opt=SimpleNamespace(lr=0.1), train_time=0.0, _new_sums=lambda: {"sums": {"loss": 0.0},
                                                                                         "count": 0, "samples": 0})
    r = RunRecorder(t)
    r.update_log = Rows()
    for k, (c, s) in enumerate(zip(counts, losses)):
        t.step = t.batch_in_epoch = k + 1
        model.last_sums, model.last_count = {"loss": s}, c
        r.log_update(10)
    got = r.update_log.rows
    assert [row["step"] for row in got] == [2, 4]
    assert [row["updates"] for row in got] == [2, 2]
    assert np.allclose([row["train_loss"] for row in got], [(1 + 2) / (3 + 5), (4 + 8) / (4 + 7)])
    assert t.log_window["samples"] == 1 and t.log_window["count"] == 2   # update 5, not yet written
