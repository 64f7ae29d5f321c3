"""lnrnn/training/recorder.py and plan.py, eighteenth pass, on hand-made trainer states. The metrics files
read back equal to the rows written out here (rank 0 alone writes them), TensorBoard gets the newest row only;
the learning curve is redrawn once exactly 30.0 s have passed since its last drawing and not at 29.5, its
title says '1 layer' and '2 layers', it is drawn from updates.jsonl's rows, and a drawing clears the pending
mark; a resume of a run that stopped early at --patience 2 trains on with --patience 3 (the resumed run's,
not the checkpoint's) and stays stopped with 2; a resume with the run's own --lr records no schedule change,
one with a new --lr at the start of epoch 2 records lr 0.1 * 0.5 ** 2 = 0.025 -> 0.01; --clip-gates on an
LN RNN is refused naming the cell as given."""
import json
import os
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.training import recorder as recorder_mod
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig

ROWS = [{"epoch": 1, "step": 3, "val_loss": 1.25}, {"epoch": 2, "step": 6, "val_loss": 0.75},
        {"epoch": 3, "step": 9, "val_loss": 1.5}]


class Board:
    def __init__(self):
        self.added = []

    def add(self, rows):
        self.added.append(list(rows))


def writer(out, root=True, rows=ROWS):
    t = SimpleNamespace(group=SimpleNamespace(root=root), cfg=SimpleNamespace(out=str(out)), history=list(rows))
    return RunRecorder(t)


def clock(monkeypatch, now):
    monkeypatch.setattr(recorder_mod, "time", SimpleNamespace(perf_counter=lambda: now[0]))


def test_rank_zero_writes_the_rows_and_the_newest_to_tensorboard(tmp_path, monkeypatch):
    clock(monkeypatch, [0.0])
    rec = writer(tmp_path)
    rec.curve_t, rec.tb = 0.0, Board()
    rec.write_metrics(draw=False)
    with open(tmp_path / "metrics.jsonl") as f:
        assert [json.loads(line) for line in f] == ROWS
    with open(tmp_path / "metrics.csv") as f:
        assert f.read() == "epoch,step,val_loss\n1,3,1.25\n2,6,0.75\n3,9,1.5\n"
    assert rec.tb.added == [[{"epoch": 3, "step": 9, "val_loss": 1.5}]]
    assert rec.curve_pending is False


def test_other_ranks_write_no_metrics(tmp_path):
    rec = writer(tmp_path, root=False)
    rec.curve_t, rec.tb = 0.0, Board()
    rec.write_metrics()
    assert os.listdir(tmp_path) == [] and rec.tb.added == [] and rec.curve_pending is False


def test_the_curve_is_redrawn_at_exactly_thirty_seconds(tmp_path, monkeypatch):
    now = [129.5]
    clock(monkeypatch, now)
    rec = writer(tmp_path)
    rec.curve_t = 100.0
    drawn = []
    rec.draw_curve = lambda: drawn.append(now[0])
    rec.write_metrics()                        # 29.5 s since the last drawing: not yet
    assert drawn == [] and rec.curve_pending is True
    now[0] = 130.0                             # 30.0 s: now
    rec.write_metrics()
    assert drawn == [130.0]


def curve_trainer(out, layers):
    return SimpleNamespace(cfg=SimpleNamespace(out=str(out), cell="ln-rnn", hidden=5, task="digits", layers=layers,
                                               optimizer="adam", lr=0.003, batch_size=7, seed=11),
                           history=list(ROWS), model=SimpleNamespace(head=SimpleNamespace(kind="classifier")))


@pytest.mark.parametrize("layers, title", [
    (1, "ln-rnn H=5 on digits (1 layer, adam lr 0.003, batch 7, seed 11)"),
    (2, "ln-rnn H=5 on digits (2 layers, adam lr 0.003, batch 7, seed 11)")])
def test_the_curve_is_drawn_from_updates_jsonl_with_its_title(tmp_path, monkeypatch, layers, title):
    updates = [{"step": 2, "epoch": 0.666667, "lr": 0.003, "train_loss": 2.5, "updates": 2},
               {"step": 4, "epoch": 1.333333, "lr": 0.003, "train_loss": 2.0, "updates": 2}]
    (tmp_path / "updates.jsonl").write_text("".join(json.dumps(r) + "\n" for r in updates))
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    drawn = []
    monkeypatch.setattr(recorder_mod, "write_learning_curves",
                        lambda path, runs, title, loss_label: drawn.append((path, runs, title, loss_label)))
    clock(monkeypatch, [500.0])
    rec = RunRecorder(curve_trainer(tmp_path, layers))
    rec.curve_t, rec.curve_pending = 400.0, True
    rec.draw_curve()
    label = "ln-rnn H=5 on digits"
    assert drawn == [(os.path.join(str(tmp_path), "learning_curve.svg"), [(label, ROWS, updates)], title,
                      "cross-entropy loss (nats)")]
    assert rec.curve_t == 500.0 and rec.curve_pending is False


MODEL = {"cell": "rnn", "norm": "none", "input_size": 8, "hidden_size": 4, "num_layers": 1, "dtype": "float64",
         "forget_bias": 1.0, "head": {"kind": "classifier", "objective": "ce", "num_classes": 10}, "state_noise": 0.0}


def stopped_run(patience, lr=0.1):
    """A trainer about to resume (--patience, --lr as given now) and the checkpoint of a run that stopped early
    at update 12, as epoch 2 ended: validation losses 1.0, 0.8, 0.9, 0.8 (the tie is no better), --patience 2."""
    logged = []
    t = SimpleNamespace(model=SimpleNamespace(config=dict(MODEL), flat=[None], load_arrays=lambda named: None),
                        opt=SimpleNamespace(load_state_dict=lambda d, flat: None), group=SimpleNamespace(size=1),
                        cfg=SimpleNamespace(out="runs/x", batch_size=7, reproducible=False, best_metric="loss",
                                            patience=patience, lr=lr, lr_decay=0.5),
                        log=logged.append, _new_sums=lambda: {"sums": {"loss": 0.0, "acc": 0.0}, "count": 0,
                                                              "samples": 0},
                        best={"metric": "loss", "value": None, "step": 0, "epoch": 0, "since": 0})
    meta = {"model": dict(MODEL), "optimizer": {"kind": "sgd", "hyper": {}, "step": 12},
            "epoch": 2, "batch_in_epoch": 0, "step": 12, "rng": None,
            "epoch_sums": {"sums": {"loss": 0.0, "acc": 0.0}, "count": 0, "samples": 0},
            "metrics": [], "train_time_s": 1.5, "train": {"lr": 0.1, "lr_decay": 0.5, "patience": 2},
            "best_state": {"metric": "loss", "value": 0.8, "step": 6, "epoch": 1, "since": 2},
            "early_stop": {"patience": 2, "metric": "loss", "best": 0.8, "best_step": 6, "step": 12}}
    return t, meta, logged


def test_a_larger_patience_on_resume_trains_on():
    t, meta, logged = stopped_run(patience=3)
    RunRecorder(t).restore(meta, {})
    assert t.early_stop is None                  # 2 evaluations without a better loss < 3
    assert t.best == {"metric": "loss", "value": 0.8, "step": 6, "epoch": 1, "since": 2}
    assert (t.epoch, t.batch_in_epoch, t.step) == (2, 0, 12) and logged == []


def test_the_same_patience_on_resume_stays_stopped():
    t, meta, _ = stopped_run(patience=2)
    RunRecorder(t).restore(meta, {})
    assert t.early_stop == {"patience": 2, "metric": "loss", "best": 0.8, "best_step": 6, "step": 12}


def test_a_resume_records_a_schedule_change_only_for_a_new_lr():
    t, meta, _ = stopped_run(patience=3)
    RunRecorder(t).restore(meta, {})
    assert t.lr_change is None and t.lr_changes == []
    t, meta, _ = stopped_run(patience=3, lr=0.01)
    RunRecorder(t).restore(meta, {})
    change = {"step": 12, "epoch": 2, "lr": [0.1 * 0.5 ** 2, 0.01], "lr_decay": [0.5, 0.5]}
    assert t.lr_changes == [change] and t.lr_change == change and t.cfg.lr == 0.01


def test_clip_gates_on_an_ln_rnn_is_refused_naming_the_cell_given():
    with pytest.raises(UserError) as e:
        validate(resolve_defaults(TrainConfig(task="digits", cell="ln-rnn", clip_gates=1.0)))
    assert str(e.value) == "--clip-gates clips the LSTM gates' derivatives; --cell ln-rnn has no gates."


def test_an_unknown_head_is_refused_quoting_it():
    with pytest.raises(UserError) as e:
        validate(resolve_defaults(TrainConfig(task="digits", head="MDN")))
    assert str(e.value) == "--head must be one of mdn, ctc, not 'MDN'."
