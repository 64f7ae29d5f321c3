"""The training loop's end-of-run duties, printed lines and resumes, against values worked out by hand here.

The run is TINY of test_values56_stop_place (the digits task, 40 training sequences, seed 5, --lr 0.05, Adam)
in batches of 7: nb = ceil(40 / 7) = 6 updates an epoch, five batches of 7 and a last short one of 5, so epoch e
ends at update 6e and counts 5 * 7 + 5 = 40 samples (a bar counting full batches would say 42).

    the curve        with CURVE_REDRAW_S endless, learning_curve.svg is drawn only when the run ends, its loss axis
the classifier's 'cross-entropy loss (nats)', its title
                     'rnn H=4 on digits (1 layer, adam lr 0.05, batch 7, seed 5)'
    a waiting save   a hook raises the blow-up streak to 2 after update 6, the epoch's last: the epoch's save
                     waits for the loss; the run ends there (--epochs 1) and writes it: update 6, streak 2,
                     the initial loss the first update's loss (updates.jsonl's row 1 with --log-every 1)
    printed lines    --eval-every 4 over two epochs: mid-epoch evaluations at updates 4 and 8 only (6 and 12 are
                     epoch ends, evaluated by the epoch's own row); each epoch's closing line at 40/40
    a cut at 10      --max-steps 10 with --log-every 4: updates.jsonl's window then holds updates 9 and 10, the
                     epoch's sums updates 7 to 10; resumed to the end of epoch 2 it equals the run never cut"""
import io
import re

import numpy as np
import pytest

import lnrnn.training.recorder as recorder_module
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train
from test_values56_stop_place import TINY, summary
from test_values_train_policies import rows
from test_values243_train_policies import resumed

B7 = dict(batch_size=7)


def updates(out):
    return read_jsonl(out / "updates.jsonl")


def test_one_epoch_draws_the_curve_with_its_loss_axis_and_title(tmp_path, monkeypatch):
    """CURVE_REDRAW_S made endless (a cold compile may take longer than it): only the run's end draws."""
    monkeypatch.setattr(recorder_module, "CURVE_REDRAW_S", float("inf"))
    out = tmp_path / "run"
    t, said = summary(out, epochs=1, **B7)
    svg = (out / "learning_curve.svg").read_text()
    assert "cross-entropy loss (nats)" in svg
    assert "rnn H=4 on digits (1 layer, adam lr 0.05, batch 7, seed 5)" in svg
    assert said.endswith(f", curve {out / 'learning_curve.svg'}."), said


def test_a_save_waiting_for_the_loss_is_written_when_the_run_ends(tmp_path):
    out = tmp_path / "run"

    def hook(t):
        if t.step == 6:
            t.high_streak = 2
    cfg = TrainConfig(**{**TINY, "out": str(out), "epochs": 1, "log_every": 1, "keep": 20, **B7})
    t = train(cfg, quiet=True, log=lambda msg: None, hook=hook)
    meta = load_checkpoint(str(out))[0]
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (6, 1, 0)
    assert t.saved_step == 6
    first = updates(out)[0]
    assert first["step"] == 1
    assert meta["blowup"]["streak"] == 2
    assert meta["blowup"]["initial_loss"] == pytest.approx(first["train_loss"], rel=1e-12)


def test_printed_lines_name_the_mid_epoch_evaluations_and_forty_of_forty(tmp_path):
    out, stream = tmp_path / "run", io.StringIO()
    cfg = TrainConfig(**{**TINY, "out": str(out), "epochs": 2, "eval_every": 4, **B7})
    train(cfg, quiet=False, stream=stream, log=lambda msg: None)
    lines = stream.getvalue().splitlines()
    notes = [re.match(r"update (\d+): val ", x).group(1) for x in lines if re.match(r"update \d+: val ", x)]
    assert notes == ["4", "8"]
    closing = [x for x in lines if "| val " in x]
    assert len(closing) == 2
    assert closing[0].startswith("epoch 1/2 [") and closing[1].startswith("epoch 2/2 [")
    assert all("] 40/40 " in x for x in closing), closing


@pytest.fixture(scope="module")
def cut_at_ten(tmp_path_factory):
    base = tmp_path_factory.mktemp("cut10")
    whole, cut = base / "whole", base / "cut"
    summary(whole, epochs=2, log_every=4, **B7)
    summary(cut, epochs=2, log_every=4, max_steps=10, **B7)
    at_cut = load_checkpoint(str(cut))
    t, _ = resumed(cut, epochs=2, log_every=4, **B7)
    return whole, cut, at_cut, t


def test_a_resume_at_update_ten_equals_the_run_never_cut(cut_at_ten):
    whole, cut, (meta, arrays), t = cut_at_ten
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (10, 1, 4)
    # the window (updates 9, 10) and the epoch's sums (updates 7..10, 4 batches of 7) are not the same thing
    assert meta["log_window"]["samples"] == 2 and meta["epoch_sums"]["samples"] == 28
    names = sorted(k for k in arrays if k.startswith("param/"))
    assert names == sorted("param/" + k for k in t.model.params)
    assert any(k.startswith("optim/") for k in arrays)
    assert (t.step, t.epoch, t.batch_in_epoch) == (12, 2, 0)
    aw, ac = load_checkpoint(str(whole))[1], load_checkpoint(str(cut))[1]
    assert sorted(aw) == sorted(ac)
    for k in aw:
        assert np.array_equal(aw[k], ac[k]), k
    rw, rc = rows(whole), rows(cut)
    assert [r["step"] for r in rw] == [r["step"] for r in rc] == [6, 12]
    for a, b in zip(rw, rc):
        for m in ("train_loss", "train_acc", "val_loss", "val_acc", "lr", "samples"):
            assert b[m] == pytest.approx(a[m], rel=1e-12, abs=1e-15), m
