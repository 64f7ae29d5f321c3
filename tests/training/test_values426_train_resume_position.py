"""Where a resume takes up an epoch (lnrnn/training/train.py: Trainer._start and
batches_per_epoch), worked out on the tiny digits runs of test_values202_train_run: 40 training images in batches of 16
are NB = 3 updates an epoch (16 + 16 + 8), and a run stopped by --max-steps 2 saves batch_in_epoch 2.

Found by setting a stopped run's batch_in_epoch by hand and resuming: 5 (or NB itself) skipped the rest of the
epoch without a word, then ended it with the sums of 2 batches as if it had trained on all 3. A run saves inside
an epoch only before its last batch (at the last, the epoch ends and batch_in_epoch is 0 again), so 0 to NB - 1 are
the positions a checkpoint can hold; NB and more are refused word for word before anything is written, and the
largest, NB - 1, resumes with exactly the one batch left in the epoch."""
import json
import shutil

import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.rundir import METRICS_FILE, read_jsonl
from lnrnn.training.train import Trainer, train
from test_cli import assert_clean_error, invoke
from test_values202_train_run import TINY, cfg

N_TRAIN, B = 40, TINY["batch_size"]
NB = -(-N_TRAIN // B)  # 3: two full batches and one of 8
assert TINY["split"].startswith(f"{N_TRAIN}/") and NB == 3


def refusal(out, k):
    return (f"the checkpoint in {out} holds batch_in_epoch {k} (an epoch of the {N_TRAIN} training sequences it "
            f"resumes with is {NB} batches of {B}, so at most {NB - 1} of them are done when a run saves); its "
            "checkpoint.json is damaged: resume a whole copy of the run, or start a new one.")


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """A run stopped by --max-steps 2 inside its first epoch: (folder, checkpoint.json's text)."""
    out = tmp_path_factory.mktemp("v426") / "run"
    train(cfg(out, eval_every=None, max_steps=2), quiet=True, log=lambda m: None)
    text = (out / "checkpoint.json").read_text()
    meta = json.loads(text)
    assert (meta["epoch"], meta["batch_in_epoch"], meta["step"]) == (0, 2, 2)
    return out, text


def with_position(stopped, tmp_path, k):
    out, text = stopped
    copy = shutil.copytree(out, tmp_path / "run")
    meta = json.loads(text)
    meta["batch_in_epoch"] = k
    (copy / "checkpoint.json").write_text(json.dumps(meta))
    return copy


@pytest.mark.parametrize("k", [NB, NB + 1, 99])
def test_a_position_past_the_epochs_last_batch_is_refused_word_for_word(stopped, tmp_path, k):
    out = with_position(stopped, tmp_path, k)
    with pytest.raises(CheckpointError) as e:
        Trainer(cfg(out, eval_every=None), resume=True, quiet=True, log=lambda m: None)
    assert str(e.value) == refusal(out, k)


def test_the_refusal_through_the_command_changes_nothing_in_the_run(stopped, tmp_path):
    out = with_position(stopped, tmp_path, NB)
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    line = assert_clean_error(invoke("train", "--resume", "--out", out, "-q"), "holds batch_in_epoch 3")
    assert line == "Error: " + refusal(out, NB)
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before


@pytest.mark.parametrize("k", [NB - 1, 1])
def test_a_position_inside_the_epoch_trains_exactly_the_batches_left(stopped, tmp_path, k):
    out = with_position(stopped, tmp_path, k)
    steps_left = NB - k
    train(cfg(out, eval_every=None, max_steps=2 + steps_left, epochs=1), resume=True, explicit={"max_steps"},
          quiet=True, log=lambda m: None)
    rows = read_jsonl(out / METRICS_FILE)
    assert [(r["epoch"], r["step"]) for r in rows] == [(1, 2 + steps_left)]
    meta = json.loads((out / "checkpoint.json").read_text())
    assert (meta["epoch"], meta["batch_in_epoch"], meta["step"]) == (1, 0, 2 + steps_left)
