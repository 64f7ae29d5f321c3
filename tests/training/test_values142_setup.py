"""lnrnn/training/setup.py at its edges: read_resume refuses a checkpoint that lacks any one of the nine
records a resume continues from (the settings, the optimizer's slots, epoch, batch in the epoch, update count,
the shuffling generator, the epoch's sums, the training time, the metrics), naming it, and resumes one that
holds them all; build holds --batch-size against the training sequences' count, not the validation set's (40
training and 8 validation digits: a batch of all 40 builds, 41 is refused quoting 40)."""
import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import build, read_resume

# what a resume continues from (lnrnn.training.train writes them; a checkpoint without one cannot go on)
RECORDS = ["train", "optimizer", "epoch", "batch_in_epoch", "step", "rng", "epoch_sums", "train_time_s", "metrics"]


def whole_records(step=7):
    """The optimizer, shuffling generator and epoch sums a resume reads, each of its kind (a description other
    tests' stand-in runs can hold: setup.resume_problem accepts it)."""
    return {"optimizer": {"kind": "adam", "hyper": {"lr": 3e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8},
                          "step": step},
            "rng": np.random.default_rng(5).bit_generator.state,
            "epoch_sums": {"sums": {"loss": 1.5}, "count": 16, "samples": 16}}


def _run(tmp_path, drop=None):
    out = str(tmp_path / "run")
    cfg = TrainConfig(task="digits", split="40/8", hidden=4, batch_size=8, out=out)
    meta = {"model": {"cell": "ln-lstm"}, "train": dataclasses.asdict(cfg), **whole_records(7),
            "epoch": 1, "batch_in_epoch": 2, "step": 7, "train_time_s": 3.0, "metrics": []}
    if drop is not None:
        del meta[drop]
    save_checkpoint(out, {"param/W": np.ones((2, 3), np.float32)}, meta)
    return cfg


@pytest.mark.parametrize("missing", RECORDS)
def test_a_checkpoint_without_one_record_is_refused_naming_it(tmp_path, missing):
    cfg = _run(tmp_path, drop=missing)
    with pytest.raises(CheckpointError) as e:
        read_resume(cfg, set())
    assert str(e.value) == f"the checkpoint in {cfg.out} lacks {missing}; it cannot be resumed."


def test_a_checkpoint_with_every_record_resumes(tmp_path):
    cfg = _run(tmp_path)
    resumed, meta, arrays = read_resume(cfg, set())
    assert dataclasses.asdict(resumed) == dataclasses.asdict(cfg)
    assert (meta["step"], meta["batch_in_epoch"]) == (7, 2)
    np.testing.assert_array_equal(arrays["param/W"], np.ones((2, 3)))


GROUP = SimpleNamespace(root=True, size=1, allreduce=None)


def test_batch_size_is_held_against_the_training_sequences(tmp_path):
    cfg = TrainConfig(task="digits", split="40/8", hidden=3, batch_size=40, out=str(tmp_path / "a"))
    setup = build(cfg, False, set(), GROUP)
    assert (setup.task.size("train"), setup.task.size("val")) == (40, 8)
    assert setup.cfg.batch_size == 40                                  # all of it, 5 times the validation set
    too_many = dataclasses.replace(cfg, batch_size=41, out=str(tmp_path / "b"))
    with pytest.raises(UserError) as e:
        build(too_many, False, set(), GROUP)
    assert str(e.value) == "--batch-size 41 is larger than the 40 training sequences of digits."
