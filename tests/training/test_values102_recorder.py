"""lnrnn/training/recorder.py by value: opening a run at update s keeps updates.jsonl's rows up to and
including s (the checkpoint covers them) and drops the later ones, so that the rows written after a resume
continue without a row lost or repeated (steps past powers of ten: 9, 10, 99, 100, 1000); a checkpoint's epoch,
batch within the epoch and update come back as they were; RUN/best/checkpoint.json records the best's metric,
value, update and epoch."""
import json
import os
from types import SimpleNamespace

import numpy as np

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import Trainer

CFG = dict(task="digits", split="32/16", hidden=4, batch_size=16, epochs=3)


def _steps(path):
    return [r["step"] for r in read_jsonl(path)]


def test_a_resume_keeps_the_rows_its_checkpoint_covers(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    written = [1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001]
    (out / "updates.jsonl").write_text("".join(json.dumps({"step": s, "train_loss": 1.0 / s}) + "\n"
                                               for s in written))
    for resume_at, then in ((1000, [1001, 1002]), (100, [101]), (10, [11, 20])):
        fake = SimpleNamespace(cfg=TrainConfig(**CFG, out=str(out)), group=SimpleNamespace(root=True),
                               step=resume_at, epoch=1, batch_in_epoch=1)
        rec = RunRecorder(fake)
        rec.open()
        try:
            assert _steps(out / "updates.jsonl") == [s for s in written if s <= resume_at]
            for s in then:
                rec.update_log.append({"step": s})
        finally:
            rec.close()
        written = [s for s in written if s <= resume_at] + then
        assert _steps(out / "updates.jsonl") == written
    assert written == [1, 9, 10, 11, 20]


def test_epoch_batch_and_update_come_back_and_the_best_keeps_its_update(tmp_path):
    a = Trainer(TrainConfig(**CFG, best_metric="acc", out=str(tmp_path / "a")), quiet=True, log=lambda m: None)
    try:
        a.step, a.epoch, a.batch_in_epoch = 1001, 2, 1
        a.best = {"metric": "acc", "value": 0.5, "step": 1000, "epoch": 2, "since": 0}
        meta = json.loads(json.dumps(a.recorder.meta()))
        arrays = a.recorder.arrays()
        a.recorder.save_best()
    finally:
        a.close()
    best_meta, best_arrays = load_checkpoint(str(tmp_path / "a" / "best"))
    assert best_meta["best"] == {"metric": "acc", "value": 0.5, "step": 1000, "epoch": 2}
    assert best_meta["step"] == 1001 and (best_meta["epoch"], best_meta["batch_in_epoch"]) == (2, 1)
    assert set(best_arrays) == {k for k in arrays if not k.startswith("optim/")}
    b = Trainer(TrainConfig(**CFG, best_metric="acc", out=str(tmp_path / "b")), quiet=True, log=lambda m: None)
    try:
        b.recorder.restore(meta, arrays)
        assert (b.epoch, b.batch_in_epoch, b.step) == (2, 1, 1001)
        assert b.best["step"] == 1000
        for k, v in b.recorder.model_arrays().items():
            np.testing.assert_array_equal(v, arrays[k])
    finally:
        b.close()
    assert not os.path.exists(tmp_path / "b" / "best")
