"""lnrnn/training/setup.py's read_resume over checkpoints saved here: the keys a resume needs counted in
order in the refusal, a checkpoint from before budgets were kept resumed with no budget at all (not the
train settings' old one), and a best/ folder given with a trailing separator refused word for word, naming the
run folder above it, while the run folder itself resumes."""
import dataclasses
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import read_resume

from test_values142_setup import whole_records


def _save_run(folder, drop=(), **extra):
    train = dataclasses.asdict(TrainConfig(cell="lstm", hidden=4, out=folder, max_steps=40, time_budget=60.0))
    meta = {"model": {"hidden_size": 4}, "train": train, **whole_records(10), "epoch": 1,
            "batch_in_epoch": 0, "step": 10, "train_time_s": 1.5, "metrics": [], **extra}
    for k in drop:
        del meta[k]
    save_checkpoint(folder, {"w": np.ones(2)}, meta)


@pytest.mark.parametrize("drop, named", [(("metrics",), "metrics"), (("rng", "metrics"), "rng, metrics"),
                                         (("train_time_s",), "train_time_s")])
def test_a_checkpoint_lacking_resume_keys_is_refused_naming_them(tmp_path, drop, named):
    out = str(tmp_path / "run")
    _save_run(out, drop=drop)
    with pytest.raises(CheckpointError) as e:
        read_resume(TrainConfig(out=out), [])
    assert str(e.value) == f"the checkpoint in {out} lacks {named}; it cannot be resumed."


def test_a_checkpoint_without_a_budget_resumes_with_none(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)  # no "budget": saved before budgets were kept
    cfg, meta, _ = read_resume(TrainConfig(out=out), [])
    assert (cfg.max_steps, cfg.time_budget) == (None, None)
    assert (cfg.cell, cfg.hidden, cfg.out) == ("lstm", 4, out)
    out2 = str(tmp_path / "run2")
    _save_run(out2, budget={"max_steps": 90})
    cfg, _, _ = read_resume(TrainConfig(out=out2), [])
    assert (cfg.max_steps, cfg.time_budget) == (90, None)


def test_a_best_folder_with_a_trailing_separator_is_refused_naming_the_run(tmp_path):
    run = str(tmp_path / "run")
    _save_run(run)
    _save_run(os.path.join(run, "best"), best=True)
    best = os.path.join(run, "best") + os.sep
    with pytest.raises(CheckpointError) as e:
        read_resume(TrainConfig(out=best), [])
    assert str(e.value) == (f"{best} holds the best checkpoint of a run, not a run to resume; resume the run "
                            f"folder above it (--out {run}).")
    cfg, meta, _ = read_resume(TrainConfig(out=run), [])
    assert meta["step"] == 10 and cfg.out == run
