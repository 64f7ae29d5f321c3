"""Every command's --help shows the default of every option that has one (lnrnn/commands/*.py), the commands of a group
(``lnrnn data mnist``) included: an option that is not a flag and has a default value prints "[default: V]" with V
that value (``lnrnn sample``'s --out samples.png, --steps, --count, --bias and --seed among them), or says "Default:
V" in its own words (train's --clip-gates), V the default's value; the rendered help of each command holds each of
those lines. ``assert_defaults_in_help`` is the check of one command (the predict and train help files call it too)."""
import enum
import re

import click
import pytest

from lnrnn.cli import main as cli
from test_values125_train_options import _squash


def walk(cmd=cli, path=()):
    """(path words, click command) of every command under lnrnn, those of a group (``lnrnn data mnist``) included."""
    if isinstance(cmd, click.Group):
        for name, sub in sorted(cmd.commands.items()):
            yield from walk(sub, path + (name,))
    else:
        yield path, cmd


PATHS = dict(walk())
COMMANDS = sorted(cli.commands)


def defaults_of(name):
    """[(option, default), ...] of command ``name``'s (a path of words, or one word) options that are not flags and
    have a default value."""
    cmd = PATHS[name if isinstance(name, tuple) else (name,)]
    return [(p, p.default) for p in cmd.params if isinstance(p, click.Option) and not p.is_flag
            and p.default is not None and not isinstance(p.default, enum.Enum)]   # click's UNSET: no default


def test_the_commands_have_defaults_to_show():
    assert {"sample", "train", "gradcheck", "read", "predict", "eval", "export", "plot"} <= set(COMMANDS)
    found = {" ".join(path): len(defaults_of(path)) for path in PATHS}     # at least these (more may come)
    assert found["predict"] >= 1 and found["train"] >= 19 and found["data mnist"] >= 2
    assert found["gradcheck"] >= 8 and found["read"] >= 1
    assert dict((p.name, d) for p, d in defaults_of("sample")) == {"steps": 700, "bias": 0.0, "seed": 0, "count": 4,
                                                                  "out": "samples.png"}


def assert_defaults_in_help(path):
    """Every option of ``lnrnn <path>`` with a default shows it, as it is, in the help the command prints."""
    cmd = PATHS[path]
    # help as wide as its longest line, so that no long URL or choice list is split where the terminal ends
    ctx = click.Context(cmd, info_name=path[-1], parent=click.Context(cli, info_name="lnrnn"), terminal_width=1000,
                        max_content_width=1000)
    text = _squash(cmd.get_help(ctx))
    for p, default in defaults_of(path):
        words = _squash(p.get_help_record(ctx)[1])
        m = re.search(r"\[default: ([^\]]+)\]", words)
        if m is None:
            said = re.search(r"Default: (\S+?)\.?(?:\s|$)", words)
            assert said, f"{' '.join(path)} {p.opts[0]}: its default {default!r} is not shown"
            assert float(said.group(1)) == float(default), (path, p.opts[0], said.group(0))   # train's --clip-gates
        else:
            want = str(default).lower() if isinstance(default, bool) else str(default)
            assert m.group(1).split(";")[0] == want, (path, p.opts[0])   # "0; x>=0": click's range after it
            assert f"{p.opts[0]}" in text and m.group(0) in text, (path, p.opts[0])
        assert words in text, (path, p.opts[0])


@pytest.mark.parametrize("path", sorted(PATHS), ids="-".join)
def test_every_default_is_in_the_help(path):
    assert_defaults_in_help(path)
