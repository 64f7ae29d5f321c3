"""lnrnn/training/train.py and update.py, eighteenth pass: the loop counted by hand at an awkward size.

The run is TINY of test_values56_stop_place with --split 7/5 (7 training sequences, 5 held out) and --batch-size 3:
nb = ceil(7 / 3) = 3 updates an epoch, batches of 3, 3 and 1 rows taken in the order of the epoch's permutation,
each epoch's permutation the next draw of numpy's default_rng(5) (nothing else draws from it).

    batches      epoch e's update k reads rows perm_e[3k:3k + 3] of the training split, never the held-out one
    cadence      --eval-every 2 over two epochs: mid-epoch rows at updates 2 (epoch 2/3, 6 samples) and 4
                 (epoch 1 + 1/3, 7 + 3 = 10 samples); updates 3 and 6 end the epochs (their own rows, 7 and 14
                 samples); update 6 is an epoch end, so no mid-epoch row there
    means        an epoch row's train_loss is the sum of its 3 updates' loss sums over the sum of their counts; the
                 run's initial loss is the first update's mean (its sum over its count), not its sum
    idle resume  a finished run resumed with nothing left says so in one line and writes nothing"""
import os

import numpy as np

from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import train
from test_values56_stop_place import TINY, summary
from test_values301_train_loop import batches  # noqa: F401 (the fixture: every (split, rows) the loop reads)
from test_values_train_policies import rows
from test_values243_train_policies import params, resumed

SEVEN = dict(split="7/5", batch_size=3)


def hand_batches(epochs):
    rng = np.random.default_rng(5)
    want = []
    for _ in range(epochs):
        perm = rng.permutation(7)
        want += [perm[0:3], perm[3:6], perm[6:7]]
    return want


def test_seven_sequences_in_batches_of_three_are_three_updates_an_epoch(tmp_path, batches):
    t, said = summary(tmp_path / "run", epochs=2, **SEVEN)
    assert (t.step, t.epoch, t.batch_in_epoch) == (6, 2, 0)
    train_reads = [(s, r) for s, r in batches if s == "train"]
    assert [s for s, _ in batches].count("train") == len(batches) == 6   # the loop reads the training split only
    want = hand_batches(2)
    assert len(train_reads) == len(want)
    for (_, got), w in zip(train_reads, want):
        np.testing.assert_array_equal(got, w)


def test_eval_every_two_rows_land_at_updates_two_three_four_and_six(tmp_path):
    out = tmp_path / "run"
    summary(out, epochs=2, eval_every=2, **SEVEN)
    got = [(r["step"], r["epoch"], r["samples"], r.get("eval")) for r in rows(out)]
    assert got == [(2, round(2 / 3, 6), 6, "update"), (3, 1, 7, None), (4, round(1 + 1 / 3, 6), 10, "update"),
                   (6, 2, 14, None)]


def test_epoch_train_loss_is_the_sums_over_the_counts_and_the_initial_loss_the_first_mean(tmp_path):
    out = tmp_path / "run"
    seen = []

    def hook(t):
        seen.append((t.model.last_sums["loss"], t.model.last_count, t.initial_loss))
    cfg = TrainConfig(**{**TINY, "out": str(out), "epochs": 2, **SEVEN})
    train(cfg, quiet=True, log=lambda msg: None, hook=hook)
    assert [c for _, c, _ in seen] == [3, 3, 1, 3, 3, 1]   # per-sequence labels: one scored unit a row
    first = seen[0][0] / seen[0][1]
    assert all(abs(i - first) <= 1e-12 * abs(first) for _, _, i in seen)
    epochs = [r for r in rows(out) if "train_loss" in r]
    for e, r in enumerate(epochs):
        part = seen[3 * e:3 * e + 3]
        want = sum(s for s, _, _ in part) / sum(c for _, c, _ in part)
        assert abs(r["train_loss"] - want) <= 1e-9 * abs(want), e


def snapshot(out):
    got = {}
    for root, _, files in os.walk(out):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                got[os.path.relpath(p, out)] = (fh.read(), os.stat(p).st_mtime_ns)
    return got


def test_a_finished_run_resumed_says_nothing_is_left_and_writes_nothing(tmp_path):
    out = tmp_path / "run"
    summary(out, epochs=1, **SEVEN)
    before = snapshot(out)
    t, said = resumed(out, epochs=1, **SEVEN)
    assert said == [f"Nothing to do: the run in {out} has finished 1 epoch (--epochs 1); pass a larger --epochs to "
                    "train it further."]
    assert t.step == 3
    assert snapshot(out) == before


def test_a_run_cut_at_update_four_and_resumed_ends_as_the_uncut_run(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    summary(whole, epochs=2, **SEVEN)
    t, _ = summary(cut, epochs=2, max_steps=4, **SEVEN)
    assert (t.step, t.epoch, t.batch_in_epoch) == (4, 1, 1)
    t, _ = resumed(cut, epochs=2, **SEVEN)
    assert (t.step, t.epoch) == (6, 2)
    a, b = params(whole), params(cut)
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    assert [r["train_loss"] for r in rows(whole)] == [r["train_loss"] for r in rows(cut)]
