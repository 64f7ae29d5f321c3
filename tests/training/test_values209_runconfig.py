"""A --config file's refusals word for word and its values reaching lnrnn train's options
(lnrnn/training/runconfig.py): a string given to a flag and a fraction given to an integer option are each
refused in one sentence that quotes the value as the file wrote it (Python's repr: 'yes', 2.5) and ends in
one full stop (click's own refusal of 'abc' for an integer too); a JSON file's values, written here, arrive as the option types the command line would give."""
import pytest

from lnrnn.commands.train import train
from lnrnn.errors import UserError
from lnrnn.training.runconfig import apply_config_file


def _apply(path, text, args=()):
    path.write_text(text)
    ctx = train.make_context("train", list(args))
    options = {k: v for k, v in ctx.params.items() if k not in ("quiet", "resume", "config_file")}
    given = apply_config_file(ctx, str(path), options, settable=set(options))
    return options, given


@pytest.mark.parametrize("name,text,line", [
    ("c.toml", 'skip = "yes"\n', "bad value for 'skip': Invalid value: 'yes' is not a valid boolean."),
    ("c.json", '{"hidden": 2.5}', "bad value for 'hidden': Invalid value: 2.5 is not a valid integer."),
    ("c.toml", 'hidden = "abc"\n',   # click's own refusal ends in a full stop: the line keeps only one
     "bad value for 'hidden': Invalid value for '--hidden': 'abc' is not a valid integer."),
])
def test_a_refused_value_is_quoted_as_written_in_one_sentence(tmp_path, name, text, line):
    path = tmp_path / name
    with pytest.raises(UserError) as e:
        _apply(path, text)
    assert str(e.value) == f"--config {path}: {line}"
    assert not str(e.value).endswith("..") and "\n" not in str(e.value)


def test_a_json_files_values_reach_the_options_and_the_command_line_wins(tmp_path):
    options, given = _apply(tmp_path / "c.json", '{"hidden": 12, "lr": 1, "skip": true, "batch-size": 8.0, '
                                                 '"cell": "ln-rnn"}', args=["--hidden", "5"])
    assert given == {"lr", "skip", "batch_size", "cell"}
    assert options["hidden"] == 5 and type(options["hidden"]) is int
    assert options["lr"] == 1.0 and type(options["lr"]) is float
    assert options["skip"] is True and options["batch_size"] == 8 and type(options["batch_size"]) is int
    assert options["cell"] == "ln-rnn"
