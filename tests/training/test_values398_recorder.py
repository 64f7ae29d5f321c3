"""lnrnn/training/recorder.py on hand-made trainer states, checked against what must hold by definition. Opening
a new run's folder (update 0 of epoch 0) writes its step-0 checkpoint, opening a resumed one does not, and
closing the recorder leaves no descriptor open on updates.jsonl. A checkpoint is written inside the signal
guard, after the update rows it covers were made durable, and clears a waiting save (the next update is not due);
--save-every-seconds 10 is due at 10.0 s after the last save and not at 9.9. The best checkpoint goes to RUN/best/
(the model's arrays and the best record, the latest checkpoint untouched), also inside the signal guard. A
resume of a checkpoint written before the number of processes was recorded, in one process, says nothing, one of
2 processes says so word for word; an lnrnn 0.1 checkpoint's epoch sums [loss, correct, count, samples] come back
in that order; arrays that do not fit the model are refused word for word with the reason. updates.jsonl's time_s
is in seconds to 3 decimals; a run stopped by --patience says its last line word for word, advising a larger
--patience."""
import contextlib
import json
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training import recorder as recorder_mod
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig

FD_DIR = "/proc/self/fd"
needs_proc_fd = pytest.mark.skipif(not os.path.isdir(FD_DIR), reason="needs /proc/self/fd to list open files")

MODEL = {"cell": "rnn", "norm": "none", "input_size": 8, "hidden_size": 4, "num_layers": 1, "dtype": "float64",
         "forget_bias": 1.0, "head": {"kind": "classifier", "objective": "ce", "num_classes": 10}, "state_noise": 0.0}


def open_on(path):
    """The descriptors of this process open on ``path``."""
    found = []
    for name in os.listdir(FD_DIR):
        try:
            if os.readlink(os.path.join(FD_DIR, name)) == str(path):
                found.append(int(name))
        except OSError:
            pass
    return found


def folder_trainer(out, step=0, epoch=0, batch_in_epoch=0):
    return SimpleNamespace(cfg=TrainConfig(task="digits", hidden=4, out=str(out)), group=SimpleNamespace(root=True),
                           step=step, epoch=epoch, batch_in_epoch=batch_in_epoch)


@pytest.mark.parametrize("step, epoch, batch_in_epoch, saves", [
    (0, 0, 0, 1),        # a new run: its step-0 checkpoint
    (1, 0, 1, 0),        # resumed after its first update
    (6, 2, 0, 0),        # resumed as epoch 2 began
])
def test_opening_the_folder_saves_a_new_runs_step_zero_checkpoint_only(tmp_path, step, epoch, batch_in_epoch, saves):
    rec = RunRecorder(folder_trainer(tmp_path, step, epoch, batch_in_epoch))
    saved = []
    rec.save = lambda: saved.append(rec.trainer.step)
    rec.open()
    try:
        assert saved == [step] * saves
        assert os.path.exists(tmp_path / "config.json") and os.path.exists(tmp_path / "updates.jsonl")
    finally:
        rec.close()


@needs_proc_fd
def test_closing_the_recorder_leaves_updates_jsonl_closed(tmp_path):
    path = os.path.realpath(tmp_path / "updates.jsonl")
    rec = RunRecorder(folder_trainer(tmp_path, step=3, epoch=1, batch_in_epoch=1))
    rec.open()
    rec.update_log.append({"step": 4, "train_loss": 0.5})
    assert len(open_on(path)) == 1
    rec.close()
    assert open_on(path) == []
    assert [json.loads(line) for line in open(path)] == [{"step": 4, "train_loss": 0.5}]


class Flag:
    """A stop flag whose saving() marks where a second signal is held off."""

    def __init__(self, events):
        self.events = events

    @contextlib.contextmanager
    def saving(self):
        self.events.append("guard on")
        try:
            yield
        finally:
            self.events.append("guard off")


class Log:
    def __init__(self, events):
        self.events = events

    def sync(self):
        self.events.append("updates synced")


def save_trainer(out, events, keep=0, pending=False, now=(50.0,)):
    return SimpleNamespace(
        update=SimpleNamespace(sync_host=lambda: events.append("host synced")), flag=Flag(events),
        group=SimpleNamespace(root=True, size=1), step=12, epoch=1, batch_in_epoch=2, saved_step=0,
        save_pending=pending, last_save_t=now[0] - 100.0, high_streak=0,
        cfg=SimpleNamespace(out=str(out), keep=keep, save_every=None, save_every_seconds=0.0),
        model=SimpleNamespace(params={"W": np.arange(6.0).reshape(2, 3)}, buffers={"mean": np.zeros(3)}),
        best={"metric": "loss", "value": 0.25, "step": 10, "epoch": 1, "since": 1})


def stand_in_saves(monkeypatch, rec, events):
    written = []

    def save_checkpoint(out, arrays, meta):
        events.append("checkpoint written")
        written.append((out, sorted(arrays), meta))
        return os.path.join(out, "checkpoint.json")

    monkeypatch.setattr(recorder_mod, "save_checkpoint", save_checkpoint)
    monkeypatch.setattr(recorder_mod, "keep_past", lambda out, keep: events.append(f"keep {keep}"))
    rec.meta = lambda: {"step": rec.trainer.step}
    rec.arrays = lambda: {"param/W": 1}
    return written


def test_a_save_syncs_the_update_rows_first_inside_the_guard_and_clears_a_waiting_save(tmp_path, monkeypatch):
    events = []
    now = [250.0]
    monkeypatch.setattr(recorder_mod, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    t = save_trainer(tmp_path, events, keep=2, pending=True)
    rec = RunRecorder(t)
    rec.update_log = Log(events)
    written = stand_in_saves(monkeypatch, rec, events)
    assert rec.save() == os.path.join(str(tmp_path), "checkpoint.json")
    assert events == ["host synced", "guard on", "updates synced", "checkpoint written", "keep 2", "guard off"]
    assert written == [(str(tmp_path), ["param/W"], {"step": 12})]
    assert (t.saved_step, t.save_pending, t.last_save_t) == (12, False, 250.0)
    t.step = 13
    assert rec.save_due() is False          # the waiting save is done: the next update is not due


def test_save_every_seconds_is_due_ten_seconds_after_the_last_save(tmp_path, monkeypatch):
    now = [0.0]
    monkeypatch.setattr(recorder_mod, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    t = save_trainer(tmp_path, [])
    t.cfg.save_every_seconds, t.last_save_t = 10.0, 100.0
    rec = RunRecorder(t)
    due = {}
    for at in (100.0, 105.0, 109.9, 110.0, 130.0):
        now[0] = at
        due[at] = rec.save_due()
    assert due == {100.0: False, 105.0: False, 109.9: False, 110.0: True, 130.0: True}


def test_the_best_checkpoint_goes_to_run_best_inside_the_guard(tmp_path, monkeypatch):
    events = []
    out = tmp_path / "run"
    out.mkdir()
    (out / "checkpoint.json").write_text('{"step": 7}\n')     # the latest checkpoint, to be left as it is
    t = save_trainer(out, events)
    rec = RunRecorder(t)
    rec.meta = lambda: {"model": dict(MODEL), "step": t.step, "epoch": t.epoch}
    real = recorder_mod.save_checkpoint

    def save_checkpoint(folder, arrays, meta):
        events.append("checkpoint written")
        return real(folder, arrays, meta)

    monkeypatch.setattr(recorder_mod, "save_checkpoint", save_checkpoint)
    rec.save_best()
    assert events == ["host synced", "guard on", "checkpoint written", "guard off"]
    assert (out / "checkpoint.json").read_text() == '{"step": 7}\n'
    meta, arrays = load_checkpoint(str(out / "best"))
    assert (meta["model"], meta["step"], meta["epoch"]) == (MODEL, 12, 1)
    assert meta["best"] == {"metric": "loss", "value": 0.25, "step": 10, "epoch": 1}
    assert sorted(arrays) == ["buffer/mean", "param/W"]
    np.testing.assert_array_equal(arrays["param/W"], np.arange(6.0).reshape(2, 3))


def new_sums():
    return {"sums": {"loss": 0.0, "acc": 0.0}, "count": 0, "samples": 0}


def resuming(size=1, load_arrays=lambda named: None):
    logged = []
    t = SimpleNamespace(model=SimpleNamespace(config=dict(MODEL), flat=[None], load_arrays=load_arrays),
                        opt=SimpleNamespace(load_state_dict=lambda d, flat: None), group=SimpleNamespace(size=size),
                        cfg=SimpleNamespace(out="runs/x", batch_size=8, reproducible=False, best_metric="loss",
                                            patience=None, lr=0.1, lr_decay=0.5),
                        log=logged.append, _new_sums=new_sums,
                        best={"metric": "loss", "value": None, "step": None, "epoch": None, "since": 0})
    meta = {"model": dict(MODEL), "optimizer": {"kind": "sgd", "hyper": {}, "step": 5},
            "epoch": 1, "batch_in_epoch": 1, "step": 5, "rng": None,
            "epoch_sums": {"sums": {"loss": 0.0, "acc": 0.0}, "count": 0, "samples": 0},
            "metrics": [], "train_time_s": 1.5, "train": {"lr": 0.1, "lr_decay": 0.5}}
    return t, meta, logged


def test_a_checkpoint_without_its_process_count_resumes_in_one_process_without_a_note():
    t, meta, logged = resuming()
    assert "ranks" not in meta
    RunRecorder(t).restore(meta, {})
    assert logged == [] and t.step == 5


def test_a_checkpoint_of_two_processes_resumed_in_one_says_so():
    t, meta, logged = resuming()
    RunRecorder(t).restore({**meta, "ranks": 2}, {})
    assert logged == ["The run was trained as 2 processes and resumes as 1: each global batch of 8 is now split "
                      "1 way; the updates are the same up to floating-point summation order (BatchNorm "
                      "statistics are the global batch's either way)."]


def test_an_lnrnn_0_1_checkpoints_epoch_sums_come_back_in_their_order():
    t, meta, _ = resuming()
    RunRecorder(t).restore({**meta, "epoch_sums": [7.5, 12.0, 16, 20]}, {})   # loss sum, correct, count, samples
    assert t.sums == {"sums": {"loss": 7.5, "acc": 12.0}, "count": 16, "samples": 20}


def test_arrays_that_do_not_fit_the_model_are_refused_with_the_reason():
    def load_arrays(named):
        raise ValueError("param/W is (4, 6), the model's is (4, 8)")

    t, meta, _ = resuming(load_arrays=load_arrays)
    with pytest.raises(CheckpointError) as e:
        RunRecorder(t).restore(meta, {})
    assert str(e.value) == "the checkpoint in runs/x does not fit the model (param/W is (4, 6), the model's is (4, 8))."


class Rows:
    def __init__(self):
        self.rows = []

    def append(self, row):
        self.rows.append(row)


def test_an_update_rows_time_is_in_seconds_to_three_decimals():
    head = SimpleNamespace(mean=lambda sums, count: {"loss": sums["loss"] / count})
    model = SimpleNamespace(head=head, last_sums={"loss": 3.0}, last_count=4)
    t = SimpleNamespace(log_window={"sums": {"loss": 0.0}, "count": 0, "samples": 0}, model=model,
                        cfg=SimpleNamespace(log_every=1), epoch=0, batch_in_epoch=1, step=1,
                        opt=SimpleNamespace(lr=0.1), train_time=12.3456,
                        _new_sums=lambda: {"sums": {"loss": 0.0}, "count": 0, "samples": 0})
    rec = RunRecorder(t)
    rec.update_log = Rows()
    rec.log_update(4)
    assert rec.update_log.rows == [{"step": 1, "epoch": 0.25, "lr": 0.1, "train_loss": 0.75, "updates": 1,
                                    "time_s": 12.346}]


def test_a_run_stopped_by_patience_says_its_last_line_word_for_word(tmp_path):
    out = str(tmp_path)
    (tmp_path / "checkpoint.json").write_text("{}\n")
    history = [{"epoch": 1, "step": 6, "val_loss": 0.8}, {"epoch": 2, "step": 12, "val_loss": 0.9}]
    t = SimpleNamespace(cfg=SimpleNamespace(out=out, epochs=5), history=history, stop_eval=None, step=12, epoch=2,
                        batch_in_epoch=0, model=SimpleNamespace(metrics=("loss",)), train_time=61.0,
                        compile_this=0.0, best={"metric": "loss", "value": 0.8, "step": 6, "epoch": 1, "since": 1},
                        early_stop={"patience": 1, "metric": "loss", "best": 0.8, "best_step": 6, "step": 12})
    assert RunRecorder(t).summary("early") == (
        f"Stopped early (--patience 1: no better validation loss in 1 evaluation since update 6) after epoch 2, "
        f"12 updates in 1:01 of training; validation loss 0.9000 after epoch 2; best checkpoint "
        f"{os.path.join(out, 'best')} (validation loss 0.8000 at update 6); checkpoint "
        f"{os.path.join(out, 'checkpoint.json')}; to train further, resume with a larger --patience.")
