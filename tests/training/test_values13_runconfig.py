"""lnrnn/training/runconfig.py by value: config.json names every setting by ``lnrnn train``'s own option name
(--save-every-seconds, --eval-batch-size: every underscore a hyphen), and a run folder's config.json read back
through --config gives the settings it was written from."""
import dataclasses
import json

from lnrnn.commands.train import train as train_command
from lnrnn.training.runconfig import NOT_KEPT, TrainConfig, option_name, write_run_config


def _long_options():
    return {o[2:] for p in train_command.params for o in p.opts if o.startswith("--")}


def test_config_json_keys_are_the_commands_option_names(tmp_path):
    cfg = TrainConfig(eval_batch_size=8, save_every=5, clip_output=100.0, state_noise=0.1, init_from="runs/a")
    write_run_config(str(tmp_path), cfg)
    keys = set(json.loads((tmp_path / "config.json").read_text()))
    assert {"save-every-seconds", "eval-batch-size", "clip-output", "state-noise", "init-from"} <= keys
    assert keys - _long_options() == set()
    for f in dataclasses.fields(TrainConfig):
        assert option_name(f.name) == f.name.replace("_", "-")
        assert f.name in NOT_KEPT or f.name == "out" or option_name(f.name) in _long_options()
