"""Every option with a value as default says it in --help, for every command each lnrnn/commands module defines,
the subcommands of a group included (lnrnn data mnist's --subset and --mirror; test_values428_options_help reads the
top-level commands only), each command being the one the CLI runs under its name. The check is
test_values428_options_help.default_in_help: click's own help record of the option, shown or said in words."""
import click
import pytest

from lnrnn.cli import main
from lnrnn.commands import data, eval as eval_command, export, gradcheck, info, plot, predict, read, sample, train
from test_values428_options_help import default_in_help, value_default

MODULES = [data, eval_command, export, gradcheck, info, plot, predict, read, sample, train]


def defined(module):
    """[(path, command)]: the click commands module defines ("data", then "data mnist" for a group's)."""
    own = [obj for obj in vars(module).values()
           if isinstance(obj, click.Command) and getattr(obj.callback, "__module__", None) == module.__name__]
    subs = [sub for obj in own for sub in getattr(obj, "commands", {}).values()]
    out = []
    for obj in own:
        if not any(obj is sub for sub in subs):            # a group's subcommand goes under the group's name
            out.append((obj.name, obj))
            out += [(f"{obj.name} {sub.name}", sub) for sub in getattr(obj, "commands", {}).values()]
    return out


COMMANDS = [pc for m in MODULES for pc in defined(m)]
OPTIONS = [(path, cmd, p) for path, cmd in COMMANDS for p in cmd.params if value_default(p)]


def test_each_module_defines_the_command_the_cli_runs_under_its_name():
    assert all(defined(m) for m in MODULES), [m.__name__ for m in MODULES if not defined(m)]
    for path, cmd in COMMANDS:
        group, _, sub = path.partition(" ")
        assert (main.commands[group].commands[sub] if sub else main.commands[group]) is cmd, path
    assert {"data mnist", "plot", "train"} <= {path for path, _, _ in OPTIONS}


@pytest.mark.parametrize("path, cmd, option", OPTIONS, ids=[f"{p}-{o.name}".replace(" ", "-") for p, _, o in OPTIONS])
def test_an_options_default_is_in_its_help(path, cmd, option):
    ok, said = default_in_help(cmd, path, option)
    assert ok, (path, option.name, said)
