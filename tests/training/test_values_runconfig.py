"""lnrnn/training/runconfig.py: config.json holds the settings that define a run (no None, not where it was
written nor when one invocation stops), a config file's name is matched whatever the case of its
extension, and a file's numbers go through click's types: 32.0 is the integer 32, 32.5 is refused."""
import dataclasses
import json

import pytest

from lnrnn.commands.train import train
from lnrnn.errors import UserError
from lnrnn.training.runconfig import CONFIG_FILE, TrainConfig, apply_config_file, read_config_file, write_run_config


def test_config_json_keeps_the_runs_settings_only(tmp_path):
    cfg = TrainConfig(task="adding", steps=30, hidden=8, layers=1, out=str(tmp_path / "elsewhere"), max_steps=5,
                      time_budget=60.0, tbptt=None, lr=1e-2)
    write_run_config(str(tmp_path), cfg)
    got = json.loads((tmp_path / CONFIG_FILE).read_text())
    assert None not in got.values()
    want = {f.name.replace("_", "-"): getattr(cfg, f.name) for f in dataclasses.fields(cfg)
            if getattr(cfg, f.name) is not None and f.name not in ("out", "max_steps", "time_budget")}
    assert got == want
    assert {"out", "max-steps", "time-budget", "tbptt", "patience"}.isdisjoint(got)
    assert got["steps"] == 30 and got["lr"] == 1e-2 and got["batch-size"] == 16


@pytest.mark.parametrize("name", ["run.JSON", "Run.Json", "run.TOML"])
def test_the_extension_in_any_case(tmp_path, name):
    path = tmp_path / name
    path.write_text('{"hidden": 12}' if name.lower().endswith(".json") else "hidden = 12\n")
    assert read_config_file(str(path)) == {"hidden": 12}
    with pytest.raises(UserError, match="name a .toml or .json file"):
        read_config_file(str(tmp_path / "run.yaml"))


def _apply(tmp_path, text):
    path = tmp_path / "c.toml"
    path.write_text(text)
    ctx = train.make_context("train", [])
    options = {k: v for k, v in ctx.params.items() if k not in ("quiet", "resume", "config_file")}
    given = apply_config_file(ctx, str(path), options, settable=set(options))
    return options, given


def test_whole_floats_are_integers_and_others_are_refused(tmp_path):
    options, given = _apply(tmp_path, "batch-size = 32.0\nlr = 0.5\n")
    assert options["batch_size"] == 32 and type(options["batch_size"]) is int and options["lr"] == 0.5
    assert given == {"batch_size", "lr"}
    with pytest.raises(UserError, match="bad value for 'batch-size'"):
        _apply(tmp_path, "batch-size = 32.5\n")
    with pytest.raises(UserError, match="bad value for 'hidden'"):
        _apply(tmp_path, "hidden = true\n")
    options, _ = _apply(tmp_path, "lr = 1\n")                      # an integer where a float goes: fine
    assert options["lr"] == 1.0


@pytest.mark.parametrize("text,key", [("quiet = true\n", "'quiet'"), ("resume = true\n", "'resume'"),
                                      ('config-file = "other.toml"\n', "'config-file'"),
                                      ("hiden = 8\n", "'hiden'")])
def test_a_file_sets_only_the_options_it_is_given(tmp_path, text, key):
    with pytest.raises(UserError, match=f"unknown key {key}; the keys are lnrnn train's options"):
        _apply(tmp_path, text)


@pytest.mark.parametrize("text", ["skip = 1\n", 'skip = "yes"\n', "bidirectional = 0\n", 'reproducible = "true"\n'])
def test_a_flag_takes_true_or_false_only(tmp_path, text):
    with pytest.raises(UserError, match="bad value for '(skip|bidirectional|reproducible)'"):
        _apply(tmp_path, text)
    options, given = _apply(tmp_path, text.split("=")[0] + "= true\n")
    assert given == {text.split(" ")[0].replace("-", "_")} and options[text.split(" ")[0]] is True
