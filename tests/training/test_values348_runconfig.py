"""lnrnn/training/runconfig.py against its docstring: a run folder's settings are DIR/config.json, every field
under its option name but out, max-steps, time-budget and the unset ones, read back equal; a config file
named without .toml or .json refused word for word though its text is valid TOML; a missing file said not to
exist."""
import dataclasses
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training.runconfig import TrainConfig, read_config_file, write_run_config


def test_config_json_is_the_run_folders_settings(tmp_path):
    cfg = TrainConfig(cell="bn-rnn", task="adding", steps=100, hidden=10, layers=2, skip=True, window=0,
                      window_norm="ln", batch_size=9, epochs=99, lr=0.25, clip_gates=1.5, keep=10,
                      max_steps=1000, time_budget=9.5, out=str(tmp_path), init_from="runs/a", state_noise=0.1)
    write_run_config(str(tmp_path), cfg)
    assert os.listdir(tmp_path) == ["config.json"]
    want = {}
    for f in dataclasses.fields(TrainConfig):
        v = getattr(cfg, f.name)
        if f.name not in ("out", "max_steps", "time_budget") and v is not None:
            want[f.name.replace("_", "-")] = v
    assert read_config_file(str(tmp_path / "config.json")) == want
    assert want["window"] == 0 and want["init-from"] == "runs/a" and "data-dir" not in want


@pytest.mark.parametrize("name", ["settings", "settings.yaml", "settings.json.bak"])
def test_a_config_without_toml_or_json_suffix_is_refused(tmp_path, name):
    path = tmp_path / name
    path.write_text("epochs = 3\n")
    with pytest.raises(UserError) as e:
        read_config_file(str(path))
    assert str(e.value) == f"--config {path}: name a .toml or .json file."


def test_a_missing_config_does_not_exist(tmp_path):
    path = tmp_path / "nope.json"
    with pytest.raises(UserError) as e:
        read_config_file(str(path))
    assert str(e.value) == f"--config {path} does not exist."
    assert os.listdir(tmp_path) == []
