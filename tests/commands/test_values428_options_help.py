"""Every option of every lnrnn command that has a default value says it in --help (lnrnn/commands/*.py: each
option's show_default, or "Default: ..." in its own words where a value needs explaining, as --clip-gates 0 for
off): a user reads what leaving an option out does. Checked on click's own help records, option by option, so that
one option's default cannot be read off another's line."""
import enum

import click
import pytest

from lnrnn.cli import main


def value_default(p):
    """Whether p is an option with a value as default: not a flag, not repeatable, not None or click's "no default"
    marker."""
    return (isinstance(p, click.Option) and not p.is_flag and not p.multiple and p.default is not None
            and not isinstance(p.default, enum.Enum))


OPTIONS = [(name, p) for name, cmd in sorted(main.commands.items()) for p in cmd.params if value_default(p)]


def test_the_commands_with_value_defaults_are_all_there():
    assert {"train", "sample", "gradcheck", "predict", "plot", "read", "export", "eval"} <= {n for n, _ in OPTIONS}


def default_in_help(cmd, name, option):
    """Whether option's default is in its own line of cmd's --help: shown by click, or said in words."""
    ctx = click.Context(cmd, info_name=name)
    _, help_text = option.get_help_record(ctx)
    said = " ".join(help_text.split())
    value = option.default
    shown = f"[default: {value}]" in said or f"[default: {value};" in said  # a range adds "; x>=0"
    in_words = f"Default: {value:g}" in said if isinstance(value, float) else f"Default: {value}" in said
    return shown or in_words, said


@pytest.mark.parametrize("name, option", OPTIONS, ids=[f"{n}-{p.name}" for n, p in OPTIONS])
def test_an_options_default_is_in_its_help(name, option):
    ok, said = default_in_help(main.commands[name], name, option)
    assert ok, (name, option.name, said)
