"""A --config file read back (lnrnn/training/runconfig.py) and the documented defaults (lnrnn/config.py,
TrainConfig): a .json file goes through JSON and a .toml file through TOML, each read back key by key; a TOML
file that is not TOML is refused word for word with the standard library's own complaint; --bidirectional is
an opt-in flag (docs/commands.md: 'with --bidirectional every layer also runs ...'); a strokes task's stack is
Graves's 3 x 400 skip stack (README), the others' 1 x 64."""
import tomllib

import pytest

from lnrnn.commands.train import train
from lnrnn.config import task_defaults
from lnrnn.errors import UserError
from lnrnn.training.runconfig import TrainConfig
from test_values209_runconfig import _apply


def test_a_json_file_is_read_as_json_key_by_key(tmp_path):
    options, given = _apply(tmp_path / "c.json", '{"hidden": 12, "cell": "ln-rnn", "lr": 0.5}')
    assert given == {"hidden", "cell", "lr"}
    assert (options["hidden"], options["cell"], options["lr"]) == (12, "ln-rnn", 0.5)


def test_a_toml_file_is_read_as_toml_key_by_key(tmp_path):
    options, given = _apply(tmp_path / "c.toml", 'hidden = 7\ncell = "bn-lstm"\nclip = 2.5\n')
    assert given == {"hidden", "cell", "clip"}
    assert (options["hidden"], options["cell"], options["clip"]) == (7, "bn-lstm", 2.5)


def test_a_file_that_is_not_toml_is_refused_naming_toml(tmp_path):
    text = "hidden = \n"
    with pytest.raises(tomllib.TOMLDecodeError) as stdlib:
        tomllib.loads(text)
    path = tmp_path / "c.toml"
    with pytest.raises(UserError) as e:
        _apply(path, text)
    assert str(e.value) == f"--config {path} is not valid TOML ({stdlib.value})."


def test_bidirectional_is_off_unless_asked_for():
    assert TrainConfig().bidirectional is False
    assert train.make_context("train", []).params["bidirectional"] is False
    assert train.make_context("train", ["--bidirectional"]).params["bidirectional"] is True


def test_task_defaults_are_the_documented_stacks():
    for task in ("strokes-synthetic", "strokes-kanjivg"):   # README: Graves's 3 x 400 skip stack
        d = task_defaults(task)
        assert (d["layers"], d["hidden"], d["skip"]) == (3, 400, True)
    d = task_defaults("digits")
    assert (d["layers"], d["hidden"], d["skip"]) == (1, 64, False)
