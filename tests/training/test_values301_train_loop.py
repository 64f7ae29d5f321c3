"""The training loop's counts and decisions at awkward sizes, against numbers worked out by hand here.

The run is TINY of test_values56_stop_place (the digits task, 40 training sequences, seed 5) with batches of 7:
nb = ceil(40 / 7) = 6 updates an epoch, five batches of 7 and a last short one of 5, and epoch e ends at update
6e. The batches of epoch e are the rows perm_e[0:7], [7:14], ..., [35:40] of the e-th permutation that
numpy.random.default_rng(5) draws, one generator carried across epochs (drawn in the test, not by the trainer).

    --max-steps 10     stops at update 10 = epoch 2 after its 4th batch (epoch index 1, batch 4); the state
                       reached is saved and evaluated at the stop (epoch 1 + 4/6 = 1.666667); a resume ends at
                       update 12 with the parameters of the run never cut
    --save-every 4     checkpoints at 0, 4 (mid-epoch), 6 (epoch end), 8 (mid-epoch), 12 (epoch end) and
                       13 (the --max-steps 13 stop): updates past 9 -> 10
    --eval-every 4     evaluations at 4, 6 (end), 8, 12 (end), 16, 18 (end), ...

With the validation loss scripted per update as "worse, better, equal, worse, better"

    update     4     6     8     12    16    18
    loss       1.0   1.1   0.9   0.9   0.95  0.8
    since      0     1     0     1     2     -

--patience 2 stops at the evaluation of update 16 (mid-epoch 3, batch 4): its row is the last one and carries
early_stop; the best stays update 8 (the tie at 12 is not better)."""
import json
import os

import numpy as np
import pytest

import lnrnn.training.train as train_module
from lnrnn.training.checkpoint import PAST_DIR, load_checkpoint
from lnrnn.training.train import Trainer
from test_values56_stop_place import summary
from test_values_train_policies import rows
from test_values243_train_policies import params, resumed

B7 = dict(batch_size=7)
SIZES = [7, 7, 7, 7, 7, 5]


def kept(out):
    return sorted(os.listdir(out / PAST_DIR))


@pytest.fixture
def batches(monkeypatch):
    """Every (split, rows) the loop asks task_batch for."""
    got, real = [], train_module.task_batch

    def spy(task, split, idx, *a, **k):
        got.append((split, np.array(idx)))
        return real(task, split, idx, *a, **k)
    monkeypatch.setattr(train_module, "task_batch", spy)
    return got


def test_two_epochs_draw_two_permutations_in_batches_of_seven(tmp_path, batches):
    t, said = summary(tmp_path / "run", epochs=2, **B7)
    assert (t.step, t.epoch, t.batch_in_epoch) == (12, 2, 0)
    rng = np.random.default_rng(5)
    want = []
    for _ in range(2):
        perm = rng.permutation(40)
        want += [perm[i:i + 7] for i in range(0, 40, 7)]
    assert [s for s, _ in batches] == ["train"] * 12
    assert [len(i) for _, i in batches] == SIZES + SIZES
    for (_, got), w in zip(batches, want):
        assert np.array_equal(got, w)
    assert [(r["epoch"], r["step"], r["samples"]) for r in rows(tmp_path / "run")] == [(1, 6, 40), (2, 12, 80)]


def test_epoch_rows_train_means_are_the_sample_weighted_batch_means(tmp_path):
    """--log-every 1: updates.jsonl holds each batch's own means; the epoch's row is their mean weighted by the
    batch sizes 7, 7, 7, 7, 7, 5 (the sums over 40 sequences), for the loss and the accuracy."""
    out = tmp_path / "run"
    summary(out, epochs=1, log_every=1, **B7)
    with open(out / "updates.jsonl") as f:
        ups = [json.loads(line) for line in f if line.strip()]
    assert [u["step"] for u in ups] == [1, 2, 3, 4, 5, 6] and [u["updates"] for u in ups] == [1] * 6
    row = rows(out)[0]
    for m in ("loss", "acc"):
        want = sum(n * u["train_" + m] for n, u in zip(SIZES, ups)) / 40
        assert row["train_" + m] == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.fixture(scope="module")
def cut_at_ten(tmp_path_factory):
    base = tmp_path_factory.mktemp("cut10")
    whole, cut = base / "whole", base / "cut"
    summary(whole, epochs=2, **B7)
    summary(cut, epochs=2, max_steps=10, keep=20, **B7)
    at_cut = load_checkpoint(str(cut))[0], kept(cut)
    t, _ = resumed(cut, epochs=2, keep=20, **B7)
    return whole, cut, at_cut, t


def test_a_stop_at_update_ten_saves_and_evaluates_the_state_reached(cut_at_ten):
    whole, cut, (meta, past), t = cut_at_ten
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (10, 1, 4)
    assert past == [f"update-{s:09d}" for s in (0, 6, 10)]
    e = meta["stop_eval"]
    assert (e["step"], e["eval"], e["epoch"], e["samples"]) == (10, "stop", 1.666667, 40 + 4 * 7)
    assert [r["step"] for r in meta["metrics"]] == [6]


def test_the_resume_from_update_ten_ends_where_the_whole_run_ends(cut_at_ten):
    whole, cut, _, t = cut_at_ten
    assert (t.step, t.epoch, t.batch_in_epoch) == (12, 2, 0)
    assert kept(cut) == [f"update-{s:09d}" for s in (0, 6, 10, 12)]
    pw, pc = params(whole), params(cut)
    assert sorted(pw) == sorted(pc) and all(np.array_equal(pw[k], pc[k]) for k in pw)
    assert [r["val_loss"] for r in rows(whole)] == [r["val_loss"] for r in rows(cut)]


def test_save_every_four_writes_mid_epoch_checkpoints_past_nine(tmp_path):
    out = tmp_path / "run"
    t, said = summary(out, epochs=3, save_every=4, keep=20, max_steps=13, **B7)
    assert kept(out) == [f"update-{s:09d}" for s in (0, 4, 6, 8, 12, 13)]
    got = [load_checkpoint(str(out / PAST_DIR / d))[0] for d in kept(out)]
    assert [(m["step"], m["epoch"], m["batch_in_epoch"]) for m in got] == [
        (0, 0, 0), (4, 0, 4), (6, 1, 0), (8, 1, 2), (12, 2, 0), (13, 2, 1)]


VAL = {4: 1.0, 6: 1.1, 8: 0.9, 12: 0.9, 16: 0.95, 18: 0.8, 20: 0.7, 24: 0.6}


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})


def test_patience_two_fires_at_the_evaluation_of_update_sixteen(tmp_path, scripted):
    out = tmp_path / "run"
    t, said = summary(out, epochs=4, eval_every=4, patience=2, **B7)
    assert (t.step, t.epoch, t.batch_in_epoch) == (16, 2, 4)
    r = rows(out)
    assert [x["step"] for x in r] == [4, 6, 8, 12, 16]
    assert [x.get("early_stop", False) for x in r] == [False, False, False, False, True]
    assert t.early_stop == {"patience": 2, "metric": "loss", "best": 0.9, "best_step": 8, "step": 16}
    assert said.startswith("Stopped early (--patience 2: no better validation loss in 2 evaluations since "
                           "update 8) at epoch 3, 16 updates in "), said


def test_max_steps_and_patience_at_update_twelve_name_the_budget(tmp_path, monkeypatch):
    """Validation 0.8 after epoch 1 (update 6), 0.9 after epoch 2 (update 12, worse): --max-steps 12 is reached
    by epoch 2's last update, and that epoch's evaluation then spends --patience 1. The stop is the budget's
    (named as such), the early stop is recorded beside it."""
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": {6: 0.8, 12: 0.9}[self.step], "acc": 0.5})
    t, said = summary(tmp_path / "run", epochs=4, patience=1, max_steps=12, **B7)
    assert t.step == 12
    assert t.early_stop == {"patience": 1, "metric": "loss", "best": 0.8, "best_step": 6, "step": 12}
    assert said.startswith("Stopped (reached --max-steps 12) after epoch 2, 12 updates in "), said
