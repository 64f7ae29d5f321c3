"""lnrnn/training/recorder.py by value on a small trainer: metrics.jsonl and metrics.csv hold every row of the
history, in order, over a non-monotonic run with updates past powers of ten (no row lost or repeated); a resume
into another model is refused naming each differing setting with the checkpoint's value first; the summary
names the best checkpoint whenever a best exists, a value of 0 included; an epoch's samples_per_s is the
sequences trained on divided by the epoch's wall time."""
import csv
import json

import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import Trainer

CFG = dict(task="digits", split="32/16", hidden=4, batch_size=16, epochs=3)


def _trainer(tmp_path, name, **kw):
    return Trainer(TrainConfig(**{**CFG, **kw}, out=str(tmp_path / name)), quiet=True, log=lambda m: None)


def test_metrics_files_hold_every_row_in_order(tmp_path):
    a = _trainer(tmp_path, "a")
    (tmp_path / "a").mkdir(exist_ok=True)
    try:
        losses = [0.9, 1.2, 0.5, 0.7, 0.5, 0.3]                          # worse, better, worse, a tie, better
        steps = [9, 10, 99, 100, 999, 1000]
        a.history = []
        for i, (s, v) in enumerate(zip(steps, losses)):
            a.history.append({"epoch": i + 1, "step": s, "val_loss": v, "val_acc": 1.0 - v / 2})
            a.recorder.write_metrics(draw=False)
            rows = read_jsonl(tmp_path / "a" / "metrics.jsonl")
            assert rows == a.history
            with open(tmp_path / "a" / "metrics.csv", newline="") as f:
                got = list(csv.DictReader(f))
            assert [int(r["step"]) for r in got] == steps[:i + 1]
            assert [float(r["val_loss"]) for r in got] == losses[:i + 1]
    finally:
        a.close()


def test_a_resume_into_another_model_names_what_differs(tmp_path):
    a = _trainer(tmp_path, "a")
    try:
        meta, arrays = json.loads(json.dumps(a.recorder.meta())), a.recorder.arrays()
    finally:
        a.close()
    b = _trainer(tmp_path, "b", hidden=6)
    try:
        with pytest.raises(CheckpointError) as e:
            b.recorder.restore(meta, arrays)
    finally:
        b.close()
    assert "hidden_size 4 in the checkpoint vs 6 requested" in str(e.value)


@pytest.mark.parametrize("metric,value", [("acc", 0.0), ("loss", 0.0), ("acc", 0.25)])
def test_the_summary_names_any_best(tmp_path, metric, value):
    a = _trainer(tmp_path, "a", best_metric=metric)
    try:
        a.best = {"metric": metric, "value": value, "step": 100, "epoch": 2, "since": 1}
        a.history = []
        text = a.recorder.summary(None)
    finally:
        a.close()
    assert "best checkpoint" in text and "at update 100)" in text


@pytest.mark.parametrize("samples,count,wall", [(32, 32, 2.0), (32, 480, 2.0), (7, 1000, 0.5)])
def test_samples_per_second_counts_sequences(tmp_path, samples, count, wall):
    a = _trainer(tmp_path, "a")
    try:
        sums = a._new_sums()
        sums["sums"] = {k: 1.0 for k in sums["sums"]}
        a.sums = {**sums, "count": count, "samples": samples}
        row = a.recorder.epoch_row({"loss": 1.0, "acc": 0.5}, wall)
    finally:
        a.close()
    assert row["samples_per_s"] == round(samples / wall, 1)
