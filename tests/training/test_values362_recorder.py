"""lnrnn/training/recorder.py, nineteenth pass, on hand-made trainer states, against the figures written out by
hand. An epoch's metrics row: the training means (sums / count), the validation metrics under val_ (both kept,
neither overwriting the other), samples = epochs done x training set, time_s and compile_s to 3 decimals,
samples per second = samples / wall; the learning curve is drawn from updates.jsonl's rows with the torn last line
of a killed run skipped, under the title its settings spell; a checkpoint's description names the data record
and the text record each under its own key, the stop's evaluation when there is one and no init record when the
run did not start from one; the last line of a run whose validation loss went down and up again gives the last
evaluation and the best one apart, and names each file written under the run's folder."""
import dataclasses
import json
import os
from types import SimpleNamespace

from lnrnn.training import recorder as recorder_mod
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig
from lnrnn.version import __version__ as lnrnn_version


def means(sums, count):
    return {k: v / count for k, v in sums.items()}


def test_an_epoch_row_keeps_the_training_means_and_the_validation_metrics_apart():
    t = SimpleNamespace(sums={"sums": {"loss": 6.0, "acc": 3.0}, "count": 4, "samples": 12}, epoch=1, step=10,
                        model=SimpleNamespace(head=SimpleNamespace(mean=means)),
                        task=SimpleNamespace(size=lambda split: {"train": 12, "val": 5}[split]),
                        opt=SimpleNamespace(lr=0.01), train_time=12.34567, compile_total=lambda: 1.23456)
    row = RunRecorder(t).epoch_row({"loss": 0.5, "acc": 0.8}, 2.0)
    assert row == {"epoch": 2, "step": 10, "samples": 24, "lr": 0.01, "train_loss": 1.5, "train_acc": 0.75,
                   "val_loss": 0.5, "val_acc": 0.8, "time_s": 12.346, "compile_s": 1.235, "samples_per_s": 6.0}


def test_the_curve_is_drawn_from_the_updates_without_a_torn_last_line(tmp_path, monkeypatch):
    rows = [{"step": 1, "train_loss": 2.5}, {"step": 2, "train_loss": 2.0}]
    with open(tmp_path / "updates.jsonl", "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows) + '{"step": 3, "train_lo')   # killed mid-row
    drawn = []
    monkeypatch.setattr(recorder_mod, "write_learning_curves", lambda path, runs, **kw: drawn.append((path, runs, kw)))
    history = [{"epoch": 1, "step": 2, "val_loss": 2.1}]
    t = SimpleNamespace(cfg=SimpleNamespace(out=str(tmp_path), cell="ln-rnn", hidden=5, task="digits", layers=2,
                                            optimizer="adam", lr=0.003, batch_size=7, seed=11),
                        history=history, model=SimpleNamespace(head=SimpleNamespace(kind="classifier")))
    rec = RunRecorder(t)
    rec.curve_pending = True
    rec.draw_curve()
    assert len(drawn) == 1
    path, runs, kw = drawn[0]
    assert path == os.path.join(str(tmp_path), "learning_curve.svg")
    assert runs == [("ln-rnn H=5 on digits", history, rows)]
    assert kw == {"title": "ln-rnn H=5 on digits (2 layers, adam lr 0.003, batch 7, seed 11)",
                  "loss_label": "cross-entropy loss (nats)"}
    assert rec.curve_pending is False


def meta_trainer(tmp_path, stop_eval):
    cfg = TrainConfig(out=str(tmp_path), hidden=5, layers=1)
    return SimpleNamespace(
        opt=SimpleNamespace(state_dict=lambda flat: {"kind": "adam", "hyper": {"lr": 0.003}, "step": 7, "slots": {}}),
        model=SimpleNamespace(flat=[None], config={"cell": "lstm", "hidden_size": 5}),
        task=SimpleNamespace(spec={"task": "digits-binary"}), cfg=cfg, epoch=1, batch_in_epoch=2, step=7,
        epoch_rng={"seed": 3}, sums={"sums": {"loss": 1.0}, "count": 2, "samples": 2}, train_time=3.5,
        compile_total=lambda: 0.25, initial_loss=2.3, high_streak=0, history=[{"epoch": 1, "val_loss": 0.9}],
        log_window={"sums": {"loss": 0.0}, "count": 0, "samples": 0},
        best={"metric": "loss", "value": 0.9, "step": 5, "epoch": 1, "since": 0},
        stopping=SimpleNamespace(budget_record=lambda: {"max_steps": None, "time_budget": None, "used_s": 3.5}),
        setup=SimpleNamespace(init_record=None, data_record={"sha256": "ab12"}, text_record={"alphabet": "xyz"}),
        lr_changes=[], stop_eval=stop_eval, early_stop=None, group=SimpleNamespace(size=1))


def test_a_checkpoint_description_names_each_record_under_its_own_key(tmp_path):
    stop_eval = {"epoch": 1.5, "step": 7, "val_loss": 0.95, "eval": "stop"}
    t = meta_trainer(tmp_path, stop_eval)
    meta = RunRecorder(t).meta()
    assert meta == {
        "model": {"cell": "lstm", "hidden_size": 5}, "task": {"task": "digits-binary"},
        "train": dataclasses.asdict(t.cfg), "optimizer": {"kind": "adam", "hyper": {"lr": 0.003}, "step": 7},
        "epoch": 1, "batch_in_epoch": 2, "step": 7, "rng": {"seed": 3},
        "epoch_sums": {"sums": {"loss": 1.0}, "count": 2, "samples": 2}, "train_time_s": 3.5,
        "compile_time_s": 0.25, "blowup": {"initial_loss": 2.3, "streak": 0},
        "metrics": [{"epoch": 1, "val_loss": 0.9}], "log_window": {"sums": {"loss": 0.0}, "count": 0, "samples": 0},
        "lnrnn_version": lnrnn_version,
        "best_state": {"metric": "loss", "value": 0.9, "step": 5, "epoch": 1, "since": 0},
        "budget": {"max_steps": None, "time_budget": None, "used_s": 3.5},
        "stop_eval": stop_eval, "data": {"sha256": "ab12"}, "text": {"alphabet": "xyz"}, "ranks": 1}
    assert "stop_eval" not in RunRecorder(meta_trainer(tmp_path, None)).meta()


def test_the_last_line_gives_the_last_evaluation_and_the_best_apart(tmp_path):
    out = str(tmp_path)
    for name in ("checkpoint.json", "metrics.jsonl"):          # no learning_curve.svg drawn yet
        (tmp_path / name).write_text("{}\n")
    history = [{"epoch": 1, "step": 10, "val_loss": 0.6, "val_acc": 0.5},
               {"epoch": 2, "step": 20, "val_loss": 0.4, "val_acc": 0.7},
               {"epoch": 3, "step": 30, "val_loss": 0.5, "val_acc": 0.75}]
    t = SimpleNamespace(cfg=SimpleNamespace(out=out, epochs=3), history=history, stop_eval=None, step=30,
                        model=SimpleNamespace(metrics=("loss", "acc")), train_time=72.4, compile_this=0.0,
                        best={"metric": "loss", "value": 0.4, "step": 20, "epoch": 2, "since": 1})
    line = RunRecorder(t).summary(None)
    assert line == (f"Done: 3 epochs, 30 updates in 1:12 of training; validation loss 0.5000, accuracy 75.00% after "
                    f"epoch 3; best checkpoint {os.path.join(out, 'best')} (validation loss 0.4000 at update 20); "
                    f"checkpoint {os.path.join(out, 'checkpoint.json')}, metrics {os.path.join(out, 'metrics.jsonl')}.")
