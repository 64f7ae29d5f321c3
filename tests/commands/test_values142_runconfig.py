"""lnrnn/training/runconfig.py: config.json holds every setting of the run under its option's name (dashes),
with the value the run used, and none of where or when one invocation stops (out, max_steps, time_budget) nor a
setting left None; read back it is the same table. A bad value in a --config file is one `Error:` line that
names the key as the file and the command line spell it (batch-size, not batch_size) and the file."""
import dataclasses
import json

import pytest

from lnrnn.training.runconfig import CONFIG_FILE, TrainConfig, read_config_file, write_run_config

from test_cli import assert_clean_error, invoke


def test_config_json_holds_each_setting_under_its_option_name(tmp_path):
    cfg = TrainConfig(cell="bn-rnn", task="adding", steps=12, hidden=5, layers=2, skip=False, batch_size=3,
                      lr=0.125, clip=0.0, seed=0, keep=2, max_steps=9, time_budget=4.5, out="runs/x",
                      eval_every=6, dtype="float64")
    write_run_config(str(tmp_path), cfg)
    table = json.loads((tmp_path / CONFIG_FILE).read_text())
    want = {}
    for f in dataclasses.fields(TrainConfig):
        v = getattr(cfg, f.name)
        if f.name not in ("out", "max_steps", "time_budget") and v is not None:
            want["-".join(f.name.split("_"))] = v
    assert table == want
    assert table["skip"] is False and table["clip"] == 0.0 and table["seed"] == 0   # falsy, still settings
    assert "data-dir" not in table and "max-steps" not in table and "out" not in table
    assert read_config_file(str(tmp_path / CONFIG_FILE)) == want


@pytest.mark.parametrize("key, value", [("batch-size", "abc"), ("eval-every", 2.5), ("lr-decay", "fast"),
                                        ("save-every-seconds", [1])])
def test_a_bad_value_names_the_key_as_written(tmp_path, key, value):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"task": "digits", key: value}))
    line = assert_clean_error(invoke("train", "--config", path, "--out", tmp_path / "run"), f"bad value for {key!r}: ")
    assert f"--config {path}: " in line and "_" not in line.replace(str(path), "")
    assert not (tmp_path / "run").exists()
