"""lnrnn/training/runconfig.py on files written here: a .toml that is not TOML and a file holding something
other than one table are refused in one sentence that names what was found (a list, a str), and config.json
written for a run reads back through --config into the very settings it was written from, field by field."""
import dataclasses
import json

import pytest

from lnrnn.commands.train import train
from lnrnn.errors import UserError
from lnrnn.training.runconfig import (CONFIG_FILE, NOT_KEPT, TrainConfig, apply_config_file, read_config_file,
                                      write_run_config)


@pytest.mark.parametrize("text", ["hidden = \n", "[train\nhidden = 8\n", "hidden = 8\nhidden = 9\n", "lr = 1e\n"])
def test_a_toml_file_that_is_not_toml_is_one_sentence(tmp_path, text):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=r"is not valid TOML \("):
        read_config_file(str(path))


@pytest.mark.parametrize("value", [[1, 2], "hidden", 3, 2.5, True])
def test_a_file_that_is_not_one_table_names_what_it_holds(tmp_path, value):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(value))
    with pytest.raises(UserError) as e:
        read_config_file(str(path))
    assert str(e.value).endswith(f"must hold one table of options, not a {type(value).__name__}.")
    assert "<class" not in str(e.value)


def test_config_json_reads_back_into_the_settings_it_was_written_from(tmp_path):
    cfg = TrainConfig(cell="bn-rnn", task="adding", steps=12, hidden=6, layers=2, batch_size=5, epochs=3, lr=0.02,
                      lr_decay=0.5, optimizer="sgd", clip=2.5, forget_bias=0.5, seed=7, dtype="float64",
                      eval_every=4, best_metric="acc", keep=3, patience=2, save_every=6, save_every_seconds=0.0,
                      log_every=3, skip=True, bidirectional=True, reproducible=True, out=str(tmp_path / "x"),
                      max_steps=9, time_budget=5.0)
    write_run_config(str(tmp_path), cfg)
    ctx = train.make_context("train", [])
    options = {k: v for k, v in ctx.params.items() if k not in ("quiet", "resume", "config_file")}
    given = apply_config_file(ctx, str(tmp_path / CONFIG_FILE), options, settable=set(options))
    want = {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg)
            if getattr(cfg, f.name) is not None and f.name not in NOT_KEPT}
    assert given == set(want)
    for k, v in want.items():
        assert options[k] == v and type(options[k]) is type(v), k
