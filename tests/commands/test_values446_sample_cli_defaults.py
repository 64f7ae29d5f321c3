"""Every command's --help shows the default of every option that has one (lnrnn/commands/*.py): an option that is
not a flag and has a default value prints "[default: V]" with V that value (``lnrnn sample``'s --out samples.png,
--steps, --count, --bias and --seed among them), or says "Default: " in its own words (train's --clip-gates); the
rendered help of each command holds each of those lines."""
import enum
import re

import click
import pytest

from lnrnn.cli import main as cli
from test_values125_train_options import _squash

COMMANDS = sorted(cli.commands)


def defaults_of(name):
    """[(option, default), ...] of command ``name``'s options that are not flags and have a default value."""
    cmd = cli.commands[name]
    return [(p, p.default) for p in cmd.params if isinstance(p, click.Option) and not p.is_flag
            and p.default is not None and not isinstance(p.default, enum.Enum)]   # click's UNSET: no default


def test_the_commands_have_defaults_to_show():
    assert {"sample", "train", "gradcheck", "read", "predict", "eval", "export", "plot"} <= set(COMMANDS)
    assert dict((p.name, d) for p, d in defaults_of("sample")) == {"steps": 700, "bias": 0.0, "seed": 0, "count": 4,
                                                                  "out": "samples.png"}


@pytest.mark.parametrize("name", COMMANDS)
def test_every_default_is_in_the_help(name):
    cmd = cli.commands[name]
    ctx = click.Context(cmd, info_name=name, parent=click.Context(cli, info_name="lnrnn"))
    text = _squash(cmd.get_help(ctx))
    for p, default in defaults_of(name):
        words = _squash(p.get_help_record(ctx)[1])
        m = re.search(r"\[default: ([^\]]+)\]", words)
        if m is None:
            assert "Default: " in words, f"{name} {p.opts[0]}: its default {default!r} is not shown"
        else:
            want = str(default).lower() if isinstance(default, bool) else str(default)
            assert m.group(1).split(";")[0] == want, (name, p.opts[0])   # "0; x>=0": click's range after it
            assert f"{p.opts[0]}" in text and m.group(0) in text, (name, p.opts[0])
