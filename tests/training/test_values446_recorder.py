"""lnrnn/training/recorder.py: a periodic save (--save-every) that falls due while the loss is above the blow-up
level waits, and is written at the first update back below it, whatever that update's number; one that falls due
again while it waits is written once. Walked over 40 updates with --save-every 10, the loss high at updates 10, 20,
21, 33 and 40, through RunRecorder.save_due and RunRecorder.save itself (its files stood in for): the saves land at
11, 22 and 30, nothing waits for 33 (no save was due), and the one due at 40 is still waiting when the walk ends."""
import os
from types import SimpleNamespace

import numpy as np

import lnrnn.training.recorder as recorder_mod
from lnrnn.training.recorder import RunRecorder

HIGH = {10, 20, 21, 33, 40}


def trainer(out):
    return SimpleNamespace(
        update=SimpleNamespace(sync_host=lambda: None), flag=None,
        group=SimpleNamespace(root=True, size=1), step=0, epoch=0, batch_in_epoch=0, saved_step=0,
        save_pending=False, last_save_t=0.0, high_streak=0,
        cfg=SimpleNamespace(out=str(out), keep=0, save_every=10, save_every_seconds=0.0),
        model=SimpleNamespace(params={"W": np.zeros(2)}, buffers={}))


def test_a_save_that_waits_for_the_loss_is_written_once_it_is_back(tmp_path, monkeypatch):
    written = []
    monkeypatch.setattr(recorder_mod, "save_checkpoint",
                        lambda out, arrays, meta: written.append(meta["step"]) or os.path.join(out, "c.json"))
    monkeypatch.setattr(recorder_mod, "time", SimpleNamespace(perf_counter=lambda: 1.0))
    t = trainer(tmp_path)
    rec = RunRecorder(t)
    rec.update_log, rec.meta, rec.arrays = None, (lambda: {"step": t.step}), (lambda: {"param/W": t.model.params["W"]})
    waiting = []
    for step in range(1, 41):
        t.step = step
        t.high_streak = 1 if step in HIGH else 0
        if rec.save_due():
            rec.save()
        if t.save_pending:
            waiting.append(step)
    assert written == [11, 22, 30]
    assert t.saved_step == 30
    assert waiting == [10, 20, 21, 40]   # 33: high, but nothing due
