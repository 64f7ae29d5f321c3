"""lnrnn/training/runconfig.py through ``lnrnn train``'s own click context: every field of a run written to
config.json comes back through --config equal and of its option's type (an integral 8.0 for --hidden is the int
8, a 1 for --lr the float 1.0), defaults included; the options a file gave are reported under their field names;
--eval-batch-size at its bound 1 is taken and 0 refused; an unknown key is one sentence that lists exactly the
keys a file may set."""
import dataclasses
import json

import pytest

from lnrnn.commands.train import train as train_command
from lnrnn.errors import UserError
from lnrnn.training.runconfig import NOT_KEPT, TrainConfig, apply_config_file, write_run_config

NOT_SETTABLE = {"quiet", "resume", "config_file"}  # the command's parameters that are not run settings


def _read_back(tmp_path, table, name="c.json"):
    path = tmp_path / name
    path.write_text(json.dumps(table))
    ctx = train_command.make_context("train", [])
    options = {k: v for k, v in ctx.params.items() if k not in NOT_SETTABLE}
    given = apply_config_file(ctx, str(path), options, set(options))
    return options, given


def test_every_field_round_trips_through_config_json(tmp_path):
    cfg = TrainConfig(cell="bn-lstm", task="adding", steps=12, hidden=9, layers=2, skip=True, batch_size=5,
                      epochs=3, lr=0.25, lr_decay=0.5, optimizer="sgd", clip=2.5, clip_gates=3.0, forget_bias=0.0,
                      init="identity", seed=1234567, dtype="float64", eval_every=10, best_metric="acc", keep=3,
                      patience=100, save_every=1000, save_every_seconds=0.0, tbptt=4, state_noise=0.0,
                      log_every=1, eval_batch_size=1, reproducible=True)
    write_run_config(str(tmp_path), cfg)
    table = json.loads((tmp_path / "config.json").read_text())
    assert not {k.replace("-", "_") for k in table} & set(NOT_KEPT)
    options, given = _read_back(tmp_path, table)
    assert given == {k.replace("-", "_") for k in table}
    for f in dataclasses.fields(TrainConfig):
        if f.name in NOT_KEPT:
            continue
        want = getattr(cfg, f.name)
        assert options[f.name] == want, f.name
        if want is not None:
            assert type(options[f.name]) is type(want), f.name


def test_defaults_round_trip_too(tmp_path):
    cfg = TrainConfig()
    write_run_config(str(tmp_path), cfg)
    options, _ = _read_back(tmp_path, json.loads((tmp_path / "config.json").read_text()))
    for f in dataclasses.fields(TrainConfig):
        if f.name not in NOT_KEPT and getattr(cfg, f.name) is not None:
            assert options[f.name] == getattr(cfg, f.name), f.name


def test_values_take_the_options_types(tmp_path):
    options, given = _read_back(tmp_path, {"hidden": 8.0, "batch-size": 4, "lr": 1, "lr_decay": 1,
                                           "save-every-seconds": 0, "bidirectional": True})
    assert given == {"hidden", "batch_size", "lr", "lr_decay", "save_every_seconds", "bidirectional"}
    assert type(options["hidden"]) is int and options["hidden"] == 8
    assert type(options["batch_size"]) is int and options["batch_size"] == 4
    for k in ("lr", "lr_decay", "save_every_seconds"):
        assert type(options[k]) is float, k
    assert options["lr"] == 1.0 and options["bidirectional"] is True
    TrainConfig(**options)


def test_eval_batch_size_at_its_bound(tmp_path):
    options, given = _read_back(tmp_path, {"eval-batch-size": 1})
    assert options["eval_batch_size"] == 1 and given == {"eval_batch_size"}
    with pytest.raises(UserError) as e:
        _read_back(tmp_path, {"eval-batch-size": 0}, "d.json")
    msg = str(e.value)
    assert "\n" not in msg and "'eval-batch-size'" in msg and "d.json" in msg


def test_an_unknown_key_lists_exactly_the_settable_keys(tmp_path):
    with pytest.raises(UserError) as e:
        _read_back(tmp_path, {"hidden": 4, "colour": "red"})
    msg = str(e.value)
    assert "\n" not in msg and "'colour'" in msg
    listed = msg.split("options: ", 1)[1].rstrip(".").split(", ")
    want = sorted(p.name.replace("_", "-") for p in train_command.params if p.name not in NOT_SETTABLE)
    assert listed == want
    for k in ("config", "resume", "quiet", "config-file"):
        assert k not in listed
    with pytest.raises(UserError, match="'resume'"):
        _read_back(tmp_path, {"resume": True}, "e.json")
