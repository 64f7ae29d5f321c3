"""Training settings in a file: ``lnrnn train --config FILE`` reads them, and every run folder keeps the ones
it ran with in ``config.json``, which ``--config`` accepts back.

A config file is TOML (``.toml``, read with the standard library's ``tomllib``, Python 3.11+) or JSON
(``.json``): one table/object of ``lnrnn train``'s options under their option names, ``batch-size = 32``
(``batch_size`` is accepted too). Options given on the command line override the file. An unknown key or a
value the option refuses is one sentence naming the file and the key. Values go through the same click
types as the command line (choices, numbers, flags), so a file can say nothing the CLI could not.

The run folder's ``config.json`` holds the settings that define the run, task defaults resolved (hidden
size, layers, ...), and leaves out where it was written (``out``) and the stop conditions of one
invocation (``max-steps``, ``time-budget``): ``lnrnn train --config runs/a/config.json --out runs/b``
trains the same run again.
"""
import dataclasses
import json
import os

from lnrnn.errors import UserError

CONFIG_FILE = "config.json"
NOT_KEPT = ("out", "max_steps", "time_budget")  # where, and when one invocation stops: not the run's settings


def option_name(field_name):
    return field_name.replace("_", "-")


def write_run_config(out, cfg):
    """Write DIR/config.json from a TrainConfig (task defaults already resolved); None values left out."""
    from lnrnn.files import atomic_write_text
    values = {option_name(k): v for k, v in dataclasses.asdict(cfg).items() if k not in NOT_KEPT and v is not None}
    atomic_write_text(os.path.join(out, CONFIG_FILE), json.dumps(values, indent=2) + "\n")


def read_config_file(path):
    """The {key: value} table of a .toml or .json config file; UserError for anything unreadable."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".toml", ".json"):
        raise UserError(f"--config {path}: name a .toml or .json file.")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise UserError(f"--config {path} does not exist.") from None
    except OSError as e:
        raise UserError(f"--config {path} cannot be read ({e.strerror or e}).") from None
    if ext == ".json":
        try:
            table = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise UserError(f"--config {path} is not valid JSON ({e}).") from None
    else:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            raise UserError(f"--config {path}: reading TOML needs Python 3.11 or later; write the file as "
                            "JSON.") from None
        try:
            table = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise UserError(f"--config {path} is not valid TOML ({e}).") from None
    if not isinstance(table, dict):
        raise UserError(f"--config {path} must hold one table of options, not a {type(table).__name__}.")
    return table


def apply_config_file(ctx, path, options, settable):
    """Fill ``options`` (the command's keyword arguments) from the file for every key the command line
    did not give. ``settable``: the option (parameter) names a file may set. -> the names it set."""
    import click
    from click.core import ParameterSource

    params = {p.name: p for p in ctx.command.params}
    given = set()
    for key, value in read_config_file(path).items():
        name = str(key).replace("-", "_")
        if name not in settable or name not in params:
            known = ", ".join(sorted(option_name(n) for n in settable))
            raise UserError(f"--config {path}: unknown key {key!r}; the keys are lnrnn train's options: {known}.")
        if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
            continue  # the command line wins
        if value is None:
            continue
        param = params[name]
        kind = param.type
        bad = ((isinstance(value, bool) != isinstance(kind, click.types.BoolParamType))
               or isinstance(value, (list, dict))
               or (kind is click.INT and isinstance(value, float) and not value.is_integer()))
        try:
            if bad:
                raise click.BadParameter(f"{value!r} is not a valid {kind.name}")
            options[name] = param.type_cast_value(ctx, value)
        except click.BadParameter as e:
            why = e.format_message().rstrip(".")
            raise UserError(f"--config {path}: bad value for {option_name(name)!r}: {why}.") from None
        given.add(name)
    return given
