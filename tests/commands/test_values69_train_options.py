"""lnrnn/commands/train.py, options.py and training/runconfig.py: each option reaches the trainer (a stand-in that
records what it is handed) with the value given: --quiet, --window-norm's documented values none, ln and bn (and
nothing else); a --config file's values where the command line is silent, the command line's where both speak,
a null in the file leaving the option's default; a --config file that is no table is one line naming --config,
with no run folder made. And a run folder's config.json, read back with --config, hands the trainer the same
settings again (the folder and one invocation's stop conditions apart, which config.json does not keep)."""
import dataclasses
import json
import os

import pytest

from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig, write_run_config

from test_cli import assert_clean_error, invoke


@pytest.fixture
def trainer(monkeypatch):
    """The (cfg, keyword arguments) of every call of the trainer."""
    calls = []
    monkeypatch.setattr(train_mod, "train", lambda cfg, resume=False, **kw: calls.append((cfg, kw)))
    return calls


@pytest.mark.parametrize("flags,quiet", [((), False), (("-q",), True), (("--quiet",), True)])
def test_quiet_reaches_the_trainer(tmp_path, trainer, flags, quiet):
    r = invoke("train", "--out", tmp_path / "run", *flags)
    assert r.exit_code == 0, r.output
    ((cfg, kw),) = trainer
    assert kw["quiet"] is quiet


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_every_documented_window_norm_reaches_the_config(tmp_path, trainer, norm):
    r = invoke("train", "--out", tmp_path / "run", "--window-norm", norm, "-q")
    assert r.exit_code == 0, r.output
    assert trainer[0][0].window_norm == norm


def test_a_cell_name_is_no_window_norm(tmp_path, trainer):
    assert_clean_error(invoke("train", "--out", tmp_path / "run", "--window-norm", "ln-lstm", "-q"), "--window-norm")
    assert trainer == [] and not os.path.exists(tmp_path / "run")


@pytest.mark.parametrize("text", ["[1, 2]", '"batch-size"', "3", "[]"])
def test_a_config_file_that_is_no_table_is_one_line(tmp_path, trainer, text):
    (tmp_path / "c.json").write_text(text)
    assert_clean_error(invoke("train", "--config", tmp_path / "c.json", "--out", tmp_path / "run", "-q"), "--config")
    assert trainer == [] and not os.path.exists(tmp_path / "run")


def test_the_command_line_wins_over_the_file(tmp_path, trainer):
    (tmp_path / "c.json").write_text(json.dumps({"batch-size": 8, "lr": 0.5, "cell": "lstm", "seed": 7}))
    r = invoke("train", "--config", tmp_path / "c.json", "--batch-size", 4, "--cell", "rnn", "--out", tmp_path / "r",
               "-q")
    assert r.exit_code == 0, r.output
    cfg = trainer[0][0]
    assert (cfg.batch_size, cfg.cell) == (4, "rnn")      # given on the command line
    assert (cfg.lr, cfg.seed) == (0.5, 7)                # from the file alone


def test_a_null_in_the_file_keeps_the_default(tmp_path, trainer):
    (tmp_path / "c.json").write_text(json.dumps({"lr": None, "clip": None, "epochs": 3}))
    r = invoke("train", "--config", tmp_path / "c.json", "--out", tmp_path / "r", "-q")
    assert r.exit_code == 0, r.output
    cfg, default = trainer[0][0], TrainConfig()
    assert (cfg.lr, cfg.clip, cfg.epochs) == (default.lr, default.clip, 3)


def test_a_run_folders_config_gives_the_same_settings_again(tmp_path, trainer):
    ran = TrainConfig(cell="bn-rnn", task="adding", steps=12, hidden=5, layers=2, batch_size=9, lr=0.02,
                      lr_decay=0.5, optimizer="rmsprop", clip=0.0, clip_gates=3.0, seed=4, dtype="float64",
                      keep=2, max_steps=40, time_budget=9.0, out=str(tmp_path / "a"), log_every=3)
    os.makedirs(ran.out)
    write_run_config(ran.out, ran)
    kept = json.load(open(os.path.join(ran.out, "config.json")))
    assert "out" not in kept and "max-steps" not in kept and "time-budget" not in kept
    assert kept["batch-size"] == 9 and kept["lr-decay"] == 0.5          # option names, not field names
    r = invoke("train", "--config", os.path.join(ran.out, "config.json"), "--out", tmp_path / "b", "-q")
    assert r.exit_code == 0, r.output
    want = dataclasses.replace(ran, out=str(tmp_path / "b"), max_steps=None, time_budget=None)
    assert trainer[0][0] == want
