"""A --config file (lnrnn/training/runconfig.py) and TrainConfig's defaults: values of the wrong type are
refused word for word naming the key and the option's type (an integer for a flag, a flag for a float, a list
for an integer); a whole float given to an integer option and a number given to a float option arrive as the
command line's types would; an option given on the command line is kept against the file's value even when
the file gives it in another spelling; the defaults are the documented ones (the TrainConfig comments, the
README's checkpoint every 10 minutes, docs/commands.md's --block-rows 32)."""
import pytest

from lnrnn.errors import UserError
from lnrnn.training.runconfig import TrainConfig
from test_values209_runconfig import _apply


@pytest.mark.parametrize("text,line", [
    ('{"bidirectional": 1}', "bad value for 'bidirectional': Invalid value: 1 is not a valid boolean."),
    ('{"lr": true}', "bad value for 'lr': Invalid value: True is not a valid float."),
    ('{"layers": [2, 3]}', "bad value for 'layers': Invalid value: [2, 3] is not a valid integer."),
])
def test_a_value_of_the_wrong_type_is_refused_naming_key_and_type(tmp_path, text, line):
    path = tmp_path / "c.json"
    with pytest.raises(UserError) as e:
        _apply(path, text)
    assert str(e.value) == f"--config {path}: {line}"


def test_values_arrive_as_the_options_types(tmp_path):
    options, given = _apply(tmp_path / "c.json", '{"layers": 3.0, "clip": 2, "eval-every": 100.0}')
    assert given == {"layers", "clip", "eval_every"}
    assert options["layers"] == 3 and type(options["layers"]) is int
    assert options["clip"] == 2.0 and type(options["clip"]) is float
    assert options["eval_every"] == 100 and type(options["eval_every"]) is int


def test_the_command_line_wins_over_the_file(tmp_path):
    options, given = _apply(tmp_path / "c.toml", 'batch_size = 64\nseed = 7\n', args=["--batch-size", "11"])
    assert given == {"seed"}
    assert options["batch_size"] == 11 and options["seed"] == 7


def test_the_defaults_are_the_documented_ones():
    d = TrainConfig()
    assert (d.cell, d.batch_size, d.lr, d.lr_decay, d.optimizer, d.clip, d.clip_gates) == \
        ("ln-lstm", 16, 3e-3, 0.9, "adam", 1.0, 0.0)
    assert (d.forget_bias, d.init, d.seed, d.dtype, d.block_rows) == (1.0, "orthogonal", 0, "float32", 32)
    assert (d.keep, d.best_metric, d.log_every, d.device, d.out) == (0, "loss", 10, "cpu", "runs/default")
    assert d.save_every_seconds == 10 * 60          # README: a checkpoint every 10 minutes
