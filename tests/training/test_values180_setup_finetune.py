"""read_resume's refusals (lnrnn/training/setup.py) and fine-tuning's source checks (lnrnn/training/finetune.py)
against sentences and records built here from the checkpoint written in the test: a checkpoint lacking two
records is refused naming both, in the order a resume reads them; --resume on a folder that exists but holds no
checkpoint (or on no folder) is refused before any reading; --init-from's record quotes the source's update
count and whether it is a best checkpoint; a checkpoint of another --dtype is refused by check_settings, as
every other shape setting is."""
import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.training.finetune import Source, check_settings, describe_record, read_source
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import read_resume


def _save(out, drop=(), **extra):
    cfg = TrainConfig(task="digits", split="40/8", hidden=4, batch_size=8, out=out)
    meta = {"model": {"cell": "ln-lstm"}, "train": dataclasses.asdict(cfg), "optimizer": {"name": "adam"},
            "epoch": 3, "batch_in_epoch": 0, "step": 12, "rng": {"state": 1}, "epoch_sums": {"loss": 1.0},
            "train_time_s": 2.0, "metrics": [], "task": {"task": "digits"}, **extra}
    for k in drop:
        del meta[k]
    save_checkpoint(out, {"param/W": np.ones((2, 3), np.float32)}, meta)
    return cfg


def test_a_checkpoint_lacking_two_records_is_refused_naming_both(tmp_path):
    out = str(tmp_path / "run")
    cfg = _save(out, drop=("step", "epoch"))
    with pytest.raises(CheckpointError) as e:
        read_resume(cfg, set())
    assert str(e.value) == f"the checkpoint in {out} lacks epoch, step; it cannot be resumed."


@pytest.mark.parametrize("make", [True, False])
def test_resume_on_a_folder_without_a_checkpoint_is_refused_first(tmp_path, make):
    out = tmp_path / "run"
    if make:
        out.mkdir()
        (out / "notes.txt").write_text("not a checkpoint")
    with pytest.raises(CheckpointError) as e:
        read_resume(SimpleNamespace(out=str(out)), set())
    assert str(e.value) == (f"--resume: there is no checkpoint in {out} to resume; drop --resume to start a new run "
                            "there.")


@pytest.mark.parametrize("best", [False, True])
def test_an_init_from_record_quotes_the_sources_update(tmp_path, best):
    out = str(tmp_path / "src")
    _save(out, best=best)                              # update 12 of epoch 3
    rec = read_source(out).record
    assert rec == {"path": out, "step": 12, "best": best, "cell": "ln-lstm", "task": "digits"}
    assert describe_record(rec) == f"{out} ({'its best checkpoint, ' if best else ''}update 12)"


SAVED = {"cell": "ln-lstm", "hidden": 4, "layers": 1, "bidirectional": False, "dtype": "float64"}


@pytest.mark.parametrize("name,ours", [("dtype", "float32"), ("hidden", 8), ("bidirectional", True)])
def test_check_settings_refuses_each_shape_setting_another_run_differs_in(name, ours):
    source = Source("runs/a", {"train": dict(SAVED)}, {})
    check_settings(source, SimpleNamespace(**SAVED))   # the same shape: no refusal
    cfg = SimpleNamespace(**{**SAVED, name: ours})
    onoff = {True: "on", False: "off"}
    theirs = onoff.get(SAVED[name], SAVED[name]) if isinstance(SAVED[name], bool) else SAVED[name]
    mine = onoff.get(ours, ours) if isinstance(ours, bool) else ours
    with pytest.raises(UserError) as e:
        check_settings(source, cfg)
    assert str(e.value) == (f"--init-from runs/a: its model has --{name} {theirs}, this run {mine}; the shapes must "
                            f"match: give --{name} {theirs}, or start without --init-from.")
