"""Every option of every lnrnn command that has a default says it in the command's --help (click's "[default: X]" after
the help text, or the help's own "Default: X"), and the figure shown is the default itself: the option's help
record, the part of --help that click writes for it, is found in the --help the user reads (its line breaks aside).
lnrnn predict's --batch-size (500 sequences a forward pass) is one of them and is checked on its own too, in the
help the command prints. Flags and options without a default (required paths, texts) are left out."""
import re

import click
import pytest

from lnrnn.cli import main
from test_cli import invoke
from test_values125_train_options import _squash

SHOWN = re.compile(r"\[default: ([^;\]]*)[;\]]|Default: (\S+?)\.?(?:\s|$)")


def commands(cmd=main, path=()):
    """(path words, click command) of every command under lnrnn."""
    if isinstance(cmd, click.Group):
        for name, sub in sorted(cmd.commands.items()):
            yield from commands(sub, path + (name,))
    else:
        yield path, cmd


def with_defaults(cmd):
    return [p for p in cmd.params if isinstance(p, click.Option) and not p.is_flag
            and p.default is not None and type(p.default).__name__ != "Sentinel"]


def shows(value, default):
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return float(value) == float(default)
    return value == str(default)


def assert_defaults_shown(path):
    """Every option of ``lnrnn <path>`` with a default shows it, as it is, in the help the command prints."""
    cmd = dict(commands())[path]
    ctx = click.Context(cmd, info_name=path[-1])
    helped = "".join(invoke(*path, "--help").output.split())   # (wrapping splits a long URL or choice list)
    for opt in with_defaults(cmd):
        flags, text = opt.get_help_record(ctx)
        text = _squash(text)
        m = SHOWN.search(text)
        assert m, f"lnrnn {' '.join(path)} {flags}: its default {opt.default!r} is not shown"
        assert shows(m.group(1) or m.group(2), opt.default), (flags, m.group(0), opt.default)
        assert "".join(text.split()) in helped, flags


@pytest.mark.parametrize("path", [p for p, _ in commands()], ids="-".join)
def test_every_default_is_shown_as_it_is(path):
    assert_defaults_shown(path)


def test_the_walk_reaches_every_command_with_defaults():
    found = {" ".join(p): len(with_defaults(c)) for p, c in commands()}
    assert found["predict"] >= 1 and found["train"] >= 19 and found["data mnist"] >= 2   # (more may come)
    assert found["gradcheck"] >= 8 and found["sample"] >= 5 and found["read"] >= 1


def test_predict_batch_size_shows_500():
    helped = _squash(invoke("predict", "--help").output)
    assert "--batch-size INTEGER Sequences per forward pass (affects memory only). [default: 500]" in helped
