"""When the run's decisions fire, against counts worked out by hand here. The run is TINY of
test_values56_stop_place: 40 training sequences in batches of 16, so nb = ceil(40 / 16) = 3 updates an epoch
(16, 16, 8 sequences) and epoch e ends at update 3e.

With the validation loss scripted per epoch end as "worse, better, worse, better (a tie)":

    epoch         1    2    3    4     5
    update        3    6    9    12    15
    loss          0.9  1.0  0.8  0.85  0.8
    better        yes  no   yes  no    no (ties 0.8)
    since         0    1    0    1     2

the best is update 9 (not 15: a tie is not better); --patience 1 stops as epoch 2 ends (update 6). A checkpoint
is written at update 0 and as every epoch ends, so --keep 10 holds update 0, 3, 6, 9, 12, 15."""
import os

import numpy as np
import pytest

from lnrnn.training.checkpoint import PAST_DIR, load_checkpoint
from lnrnn.training.train import Trainer
from test_values56_stop_place import summary
from test_values_train_policies import rows
from test_values243_train_policies import params, resumed

VAL = {3: 0.9, 6: 1.0, 9: 0.8, 12: 0.85, 15: 0.8}


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})


def kept(out):
    return sorted(os.listdir(out / PAST_DIR))


def test_best_is_update_nine_over_worse_better_worse_tie(tmp_path, scripted):
    """RUN/best is written as epochs 1 and 3 end and at no other: its arrays are --keep's copy of update 9,
    not those of update 15 (which ties it) nor of 12."""
    out = tmp_path / "run"
    t, said = summary(out, epochs=5, keep=10)
    assert t.step == 15 and [r["val_loss"] for r in rows(out)] == [0.9, 1.0, 0.8, 0.85, 0.8]
    assert kept(out) == [f"update-{s:09d}" for s in (0, 3, 6, 9, 12, 15)]
    best = load_checkpoint(str(out / "best"))[0]
    assert best["step"] == 9 and best["epoch"] == 3
    assert best["best"] == {"metric": "loss", "value": 0.8, "step": 9, "epoch": 3}
    got = params(out / "best")
    for s, same in ((9, True), (12, False), (15, False)):
        other = params(out / PAST_DIR / f"update-{s:09d}")
        assert sorted(got) == sorted(other)
        assert all(np.array_equal(got[k], other[k]) for k in other) == same
    meta = load_checkpoint(str(out))[0]
    assert meta["best_state"]["since"] == 2 and meta["best_state"]["step"] == 9


def test_checkpoints_written_exactly_as_each_epoch_ends(tmp_path, scripted):
    """No --save-every: update 0 and updates 3, 6, 9, 12 (epoch ends), each copy its own update, epoch and
    batch 0; not one update later."""
    out = tmp_path / "run"
    t, said = summary(out, keep=10)
    assert kept(out) == [f"update-{s:09d}" for s in (0, 3, 6, 9, 12)]
    for e, s in enumerate((0, 3, 6, 9, 12)):
        meta = load_checkpoint(str(out / PAST_DIR / f"update-{s:09d}"))[0]
        assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (s, e, 0)


def test_keep_three_every_update_past_nine(tmp_path):
    """--save-every 1 --keep 3 --max-steps 10: the copies of updates 8, 9, 10 are left, each describing its
    own update: 8 = epoch 2 + 2 batches, 9 = 3 epochs, 10 = epoch 3 + 1 batch."""
    out = tmp_path / "run"
    t, said = summary(out, save_every=1, keep=3, max_steps=10)
    assert kept(out) == ["update-000000008", "update-000000009", "update-000000010"]
    got = [load_checkpoint(str(out / PAST_DIR / d))[0] for d in kept(out)]
    assert [(m["step"], m["epoch"], m["batch_in_epoch"]) for m in got] == [(8, 2, 2), (9, 3, 0), (10, 3, 1)]
    assert load_checkpoint(str(out))[0]["step"] == 10


def test_max_steps_at_an_epoch_end_finishes_that_epoch(tmp_path):
    """--max-steps 3 = nb: the stop comes after the epoch's last update, which ends the epoch as usual (its
    metrics row, the counters moved on), not as a mid-epoch stop with an evaluation of its own."""
    out = tmp_path / "run"
    t, said = summary(out, max_steps=3)
    assert (t.step, t.epoch, t.batch_in_epoch) == (3, 1, 0)
    assert [(r["epoch"], r["step"]) for r in rows(out)] == [(1, 3)]
    meta = load_checkpoint(str(out))[0]
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (3, 1, 0) and "stop_eval" not in meta
    assert said.startswith("Stopped (reached --max-steps 3) after epoch 1, 3 updates in "), said


def test_two_epochs_are_six_updates_and_two_rows(tmp_path):
    out = tmp_path / "run"
    t, said = summary(out, epochs=2)
    assert (t.step, t.epoch) == (6, 2)
    assert [(r["epoch"], r["step"]) for r in rows(out)] == [(1, 3), (2, 6)]
    assert said.startswith("Done: 2 epochs, 6 updates in "), said


def test_max_steps_and_patience_at_the_same_epoch_end(tmp_path, scripted):
    """Update 6 reaches --max-steps 6 before epoch 2's evaluation, which then spends --patience 1: the run
    stops for the budget (it is named), the early stop is recorded; without --max-steps it stops early there."""
    out = tmp_path / "budget"
    t, said = summary(out, patience=1, max_steps=6)
    assert t.step == 6
    assert said.startswith("Stopped (reached --max-steps 6) after epoch 2, 6 updates in "), said
    assert load_checkpoint(str(out))[0]["early_stop"] == {"patience": 1, "metric": "loss", "best": 0.9,
                                                          "best_step": 3, "step": 6}
    t, said = summary(tmp_path / "early", patience=1)
    assert t.step == 6
    assert said.startswith("Stopped early (--patience 1: no better validation loss in 1 evaluation since update 3) "
                           "after epoch 2, 6 updates in "), said


@pytest.fixture(scope="module")
def cut_and_whole(tmp_path_factory):
    """Two epochs uninterrupted, and cut at update 4 (epoch 2 after its first batch) then resumed."""
    base = tmp_path_factory.mktemp("resume")
    whole, cut = base / "whole", base / "cut"
    summary(whole, epochs=2)
    t0, _ = summary(cut, epochs=2, max_steps=4)
    t1, said = resumed(cut, epochs=2)
    return whole, cut, (t0.step, t0.epoch, t0.batch_in_epoch), t1


def test_a_resume_mid_epoch_runs_only_the_rest_of_it(cut_and_whole):
    """Resumed at update 4 (epoch 1, batch 1 of 3): updates 5 and 6 finish epoch 2; rows at 3 and 6."""
    whole, cut, at_cut, t = cut_and_whole
    assert at_cut == (4, 1, 1)
    assert (t.step, t.epoch, t.batch_in_epoch) == (6, 2, 0)
    assert [(r["epoch"], r["step"]) for r in rows(cut)] == [(1, 3), (2, 6)]


def test_a_resume_mid_epoch_ends_where_the_uninterrupted_run_ends(cut_and_whole):
    """The parameters and the optimizer's slots after update 6, and both epochs' validation losses, are
    those of the run never cut."""
    whole, cut, _, _ = cut_and_whole
    mw, aw = load_checkpoint(str(whole))
    mc, ac = load_checkpoint(str(cut))
    assert mw["step"] == mc["step"] == 6 and mw["optimizer"]["step"] == mc["optimizer"]["step"] == 6
    assert sorted(aw) == sorted(ac) and any(not k.startswith("param/") for k in aw)
    assert all(np.array_equal(aw[k], ac[k]) for k in aw)
    assert [r["val_loss"] for r in rows(cut)] == [r["val_loss"] for r in rows(whole)]
