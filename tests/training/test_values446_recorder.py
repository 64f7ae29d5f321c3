"""lnrnn/training/recorder.py: a periodic save (--save-every) that falls due while the loss is above the blow-up level
waits, and is written at the first update back below it, whatever that update's number; one that falls due again
while it waits is written once. Walked over 40 updates with --save-every 10, the loss high at updates 10, 20, 21, 33
and 40, through RunRecorder.save_due and RunRecorder.save itself (its files stood in for as test_values398_recorder
does): the saves land at 11, 22 and 30, nothing waits for 33 (no save was due), and the one due at 40 is still
waiting when the walk ends."""
from lnrnn.training.recorder import RunRecorder
from test_values398_recorder import Log, save_trainer, stand_in_saves

HIGH = {10, 20, 21, 33, 40}


def test_a_save_that_waits_for_the_loss_is_written_once_it_is_back(tmp_path, monkeypatch):
    events = []
    t = save_trainer(tmp_path, events)
    t.step, t.cfg.save_every = 0, 10
    rec = RunRecorder(t)
    rec.update_log = Log(events)
    written = stand_in_saves(monkeypatch, rec, events)
    waiting = []
    for step in range(1, 41):
        t.step = step
        t.high_streak = 1 if step in HIGH else 0
        if rec.save_due():
            rec.save()
        if t.save_pending:
            waiting.append(step)
    assert [meta["step"] for _, _, meta in written] == [11, 22, 30]
    assert t.saved_step == 30
    assert waiting == [10, 20, 21, 40]   # 33: high, but nothing due
