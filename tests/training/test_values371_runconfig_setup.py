"""Round 371: the run's settings (lnrnn/training/runconfig.py) and the run's start line and resumed settings
(lnrnn/training/setup.py), checked against their definitions: TrainConfig's defaults against the values its
comments and the run folder module document (lr 3e-3 decaying by 0.9 per epoch, --out runs/default =
rundir.DEFAULT_OUT); a .json config file read back as the table written with the json module; resume_config
returning the checkpoint's settings, not the command line's; describe's sentence written out by hand for a tiny
run (hidden 5, 2 layers, 1 epoch and 3 epochs) built from stand-ins, no task or kernel."""
import json
import os
from types import SimpleNamespace

from lnrnn.training import rundir
from lnrnn.training.runconfig import TrainConfig, read_config_file
from lnrnn.training.setup import describe, resume_config


def test_defaults_are_the_documented_ones():
    c = TrainConfig()
    assert (c.lr, c.lr_decay, c.batch_size, c.clip) == (3e-3, 0.9, 16, 1.0)
    assert c.out == os.path.join("runs", "default") == rundir.DEFAULT_OUT


def test_json_config_file_read_back(tmp_path):
    table = {"batch-size": 3, "hidden": 5, "cell": "ln-rnn", "lr": 0.25, "skip": True}
    p = tmp_path / "run.json"
    p.write_text(json.dumps(table), encoding="utf-8")
    assert read_config_file(str(p)) == table


def test_resume_config_is_the_checkpoints_settings():
    saved = dict(cell="ln-rnn", task="adding", hidden=5, layers=2, batch_size=3, steps=4, out="runs/a")
    given = TrainConfig(out="runs/a")  # the command line: nothing explicit
    cfg = resume_config(saved, given, explicit=[], budget={"max_steps": 7})
    assert isinstance(cfg, TrainConfig)
    assert (cfg.cell, cfg.task, cfg.hidden, cfg.layers, cfg.batch_size, cfg.steps) == ("ln-rnn", "adding", 5, 2, 3, 4)
    assert (cfg.max_steps, cfg.time_budget) == (7, None)


def _setup(**kw):
    cfg = TrainConfig(cell="ln-rnn", hidden=5, layers=2, batch_size=3, lr=0.01, lr_decay=0.5, clip=2.0,
                      seed=7, out="runs/x", **kw)
    model = SimpleNamespace(config={}, num_params=lambda: 12345)
    return SimpleNamespace(cfg=cfg, model=model, task=SimpleNamespace(description="a tiny task"), init_record=None)


def test_describe_written_out_by_hand():
    assert describe(_setup(epochs=3)) == (
        "Training ln-rnn (hidden 5, 2 layers, 12,345 parameters, float32) on a tiny task; adam lr 0.01 "
        "decay 0.5/epoch, clip 2, batch 3, 3 epochs, seed 7; writing to runs/x.")
    assert describe(_setup(epochs=1)) == (
        "Training ln-rnn (hidden 5, 2 layers, 12,345 parameters, float32) on a tiny task; adam lr 0.01 "
        "decay 0.5/epoch, clip 2, batch 3, 1 epoch, seed 7; writing to runs/x.")
