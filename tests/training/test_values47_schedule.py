"""The learning-rate schedule across several resumes that change it, against the rule written here: the rate
of epoch e + 1 is the rate of epoch e times the --lr-decay of the invocation that trained epoch e (a
change of --lr-decay alone is a change, from the epoch it resumes at, keeping the rate in effect), and
a resume that changes nothing continues every earlier change; a resume's new --lr applies from the update it
resumes at, mid-epoch too. Each change is recorded where it happened, and a run resumed without a change
is bit for bit the run that went on in one invocation."""
import os

import numpy as np
import pytest

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import read_jsonl

from test_cli import TINY, assert_ok, invoke

NB = 7
ARGS = [a for a in TINY if a not in ("--epochs", "2")]


def epoch_lrs(out):
    return [r["lr"] for r in read_jsonl(os.path.join(out, "metrics.jsonl")) if "eval" not in r]  # epoch rows only


def by_the_rule(lr0, decays):
    """Each epoch's rate: lr0, then times the decay of the invocation that trained the epoch before."""
    lrs = [lr0]
    for d in decays[:-1]:
        lrs.append(lrs[-1] * d)
    return lrs


def test_three_resumes_two_changes_of_the_decay_alone(tmp_path):
    out = tmp_path / "run"
    assert_ok(invoke("train", *ARGS, "--epochs", 1, "--lr", 0.01, "--lr-decay", 0.5, "--out", out))
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 2, "--lr-decay", 0.8, "-q"))
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 3, "-q"))
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 4, "--lr-decay", 0.25, "-q"))
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 5, "-q"))
    want = by_the_rule(0.01, [0.5, 0.8, 0.8, 0.25, 0.25])
    assert epoch_lrs(out) == pytest.approx(want, rel=1e-12)
    changes = load_checkpoint(str(out))[0]["lr_changes"]
    assert [(c["step"], c["epoch"], c["lr_decay"]) for c in changes] == [(NB, 1, [0.5, 0.8]), (3 * NB, 3, [0.8, 0.25])]
    assert [x for c in changes for x in c["lr"]] == pytest.approx([want[1], want[1], want[3], want[3]], rel=1e-12)


def test_a_resume_without_a_change_continues_the_changed_schedule_bit_for_bit(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for out in (one, two):
        assert_ok(invoke("train", *ARGS, "--epochs", 1, "--lr", 0.01, "--lr-decay", 0.5, "--out", out))
    assert_ok(invoke("train", "--out", one, "--resume", "--epochs", 3, "--lr-decay", 0.8, "-q"))
    assert_ok(invoke("train", "--out", two, "--resume", "--epochs", 2, "--lr-decay", 0.8, "-q"))
    assert_ok(invoke("train", "--out", two, "--resume", "--epochs", 3, "-q"))
    assert epoch_lrs(one) == epoch_lrs(two) == pytest.approx(by_the_rule(0.01, [0.5, 0.8, 0.8]), rel=1e-12)
    (m1, x1), (m2, x2) = load_checkpoint(str(one)), load_checkpoint(str(two))
    assert x1.keys() == x2.keys() and all(np.array_equal(x1[k], x2[k]) for k in x1)
    assert m1["lr_changes"] == m2["lr_changes"] and m1["step"] == m2["step"] == 3 * NB


def test_a_new_rate_from_the_middle_of_an_epoch_then_a_new_decay(tmp_path):
    """Stopped at update 10 (epoch 2 of 7 updates), resumed with --lr 0.002: epoch 2's row has the new rate
    (it applies from update 11), epoch 3 its decay (0.5); resumed again at epoch 3's end with --lr-decay 0.9:
    epoch 4 has 0.5 of epoch 3, epoch 5 0.9 of epoch 4."""
    out = tmp_path / "run"
    assert_ok(invoke("train", *ARGS, "--epochs", 3, "--max-steps", 10, "--lr", 0.01, "--lr-decay", 0.5,
                     "--out", out))
    assert_ok(invoke("train", "--out", out, "--resume", "--lr", 0.002, "-q"))
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 5, "--lr-decay", 0.9, "-q"))
    assert epoch_lrs(out) == pytest.approx([0.01, 0.002, 0.001, 0.0005, 0.00045], rel=1e-12)
    changes = load_checkpoint(str(out))[0]["lr_changes"]
    assert [(c["step"], c["epoch"]) for c in changes] == [(10, 1), (3 * NB, 3)]
    assert changes[0]["lr"] == pytest.approx([0.005, 0.002]) and changes[1]["lr"] == pytest.approx([0.0005, 0.0005])
