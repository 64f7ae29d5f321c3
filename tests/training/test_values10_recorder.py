"""lnrnn/training/recorder.py over a scripted validation history (worse, better, worse, worse, worse): the
samples of every metrics row against their definition (each update takes a batch of 32 of the 200 training
sequences, the last of an epoch the 8 left), and a run stopped early by --patience 3 and resumed: with the
same --patience it stays stopped (its third evaluation since the best has been), with --patience 4 it trains
on."""
import os

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import Trainer

from test_cli import TINY, assert_ok, invoke

# validation loss by update under --eval-every 2 (7 updates an epoch: evaluations at 2, 4, 6, 7, 8, 10, ...):
# the best at 6, then 7, 8 and 10 are worse: --patience 3 stops at 10; 12 and 14 are better again
VAL = {2: 1.0, 4: 1.1, 6: 0.9, 7: 0.95, 8: 0.97, 10: 0.99, 12: 0.5, 14: 0.4}
N_TRAIN, BATCH, PER_EPOCH = 200, 32, 7


def rows(out):
    return read_jsonl(os.path.join(out, "metrics.jsonl"))


def samples_by(step):
    """Training sequences seen after ``step`` updates: whole epochs, then 32 per update of this one."""
    return N_TRAIN * (step // PER_EPOCH) + BATCH * (step % PER_EPOCH)


def test_rows_count_their_samples_and_a_stop_by_patience_survives_a_resume_with_the_same_patience(
        tmp_path, monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--eval-every", 2, "--patience", 3, "--out", out))
    r = rows(out)
    assert [x["step"] for x in r] == [2, 4, 6, 7, 8, 10]
    assert [x["samples"] for x in r] == [samples_by(x["step"]) for x in r] == [64, 128, 192, 200, 232, 296]
    assert ["eval" in x for x in r] == [True, True, True, False, True, True]   # update 7 ends epoch 1
    assert load_checkpoint(str(out))[0]["early_stop"]["patience"] == 3

    assert_ok(invoke("train", "--out", out, "--resume", "--patience", 3, "-q"))
    assert [x["step"] for x in rows(out)] == [2, 4, 6, 7, 8, 10]              # nothing trained
    meta = load_checkpoint(str(out))[0]
    assert meta["step"] == 10 and meta["early_stop"] is not None

    assert_ok(invoke("train", "--out", out, "--resume", "--patience", 4, "-q"))
    r = rows(out)
    assert [x["step"] for x in r] == [2, 4, 6, 7, 8, 10, 12, 14]
    assert r[-1]["samples"] == samples_by(14) == 2 * N_TRAIN and "eval" not in r[-1]
