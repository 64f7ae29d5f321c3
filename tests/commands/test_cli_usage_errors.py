"""click's own usage errors (a value of the wrong type, an unknown option or command) are one line on stderr,
as every other refusal is: the sentence click gives and the command whose ``--help`` lists what it takes, exit
2, no usage block above it. ``lnrnn`` alone still shows the group's usage and its commands."""
import pytest
from click.testing import CliRunner

from lnrnn.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), prog_name="lnrnn")


@pytest.mark.parametrize("args, sentence, where, listed", [
    (("train", "--epochs", "abc"), "Invalid value for '--epochs': 'abc' is not a valid integer.", "lnrnn train",
     "options"),
    (("sample", "--bias", "x"), "Invalid value for '--bias'", "lnrnn sample", "options"),
    (("eval", "--no-such-option"), "No such option '--no-such-option'", "lnrnn eval", "options"),
    (("--no-such-option",), "No such option '--no-such-option'", "lnrnn", "commands and options"),
    (("no-such-command",), "No such command 'no-such-command'.", "lnrnn", "commands and options"),
])
def test_a_usage_error_is_one_line_naming_where_help_is(args, sentence, where, listed):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert isinstance(r.exception, SystemExit)
    assert r.stderr.splitlines() == [r.stderr.strip()], r.stderr          # one line, nothing above it
    line = r.stderr.strip()
    assert line.startswith("Error: " + sentence), line
    assert line.endswith(f"('{where} --help' lists the {listed}.)"), line
    assert "Usage:" not in r.output and "Try '" not in r.output


def test_the_group_alone_still_shows_its_usage_and_commands():
    r = run()
    assert r.output.startswith("Usage: lnrnn [OPTIONS] COMMAND"), r.output
    assert "Error:" not in r.output
    for command in ("train", "sample", "eval", "info"):
        assert f"  {command} " in r.output
