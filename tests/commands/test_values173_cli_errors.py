"""Bad input to the commands through click's CliRunner, as a shell would run ``lnrnn ...``: each gives exactly one
``Error:`` line on stderr, a non-zero exit and nothing written, and is refused before any run is loaded or any
check computed (the loader and the checks are replaced by fakes that fail if called). A usage error's hint names
the whole command a user would type (``'lnrnn export --help'``), not its last word."""
import os

import pytest
from click.testing import CliRunner

import lnrnn.api
from lnrnn.cli import main
from lnrnn.commands import gradcheck as gradcheck_cmd


def lnrnn_cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="lnrnn")


def error_lines(result):
    return [line for line in result.stderr.splitlines() if line.startswith("Error:")]


@pytest.fixture
def no_compute(monkeypatch, tmp_path):
    def refuse(*a, **k):
        raise AssertionError("the bad input should have been refused before this")
    monkeypatch.setattr(lnrnn.api, "load_run", refuse)
    monkeypatch.setattr(gradcheck_cmd, "check_stack", refuse)
    monkeypatch.setattr(gradcheck_cmd, "check_model", refuse)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command, listed", [
    (["export"], "options"), (["gradcheck"], "options"), (["data", "mnist"], "options"), (["plot"], "options"),
])
def test_an_unknown_option_is_one_line_naming_the_whole_command(command, listed):
    r = lnrnn_cli(*command, "--no-such-option")
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), r.stderr
    assert "Usage:" not in r.stderr
    assert f"('lnrnn {' '.join(command)} --help' lists the {listed}.)" in lines[0]


def test_an_unknown_command_names_the_group_and_its_commands():
    r = lnrnn_cli("no-such-command")
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "('lnrnn --help' lists the commands and options.)" in lines[0], r.stderr


BAD = [
    # (arguments, what the one sentence must name)
    (["export", "--checkpoint", "run", "--out", "weights.pt"], ".safetensors"),
    (["export", "--checkpoint", "run", "--out", "newdir" + os.sep], "newdir"),
    (["sample", "--checkpoint", "run", "--out", "pic.txt"], "pic.txt"),
    (["sample", "--checkpoint", "run", "--out", "s.png", "--bias", "nan"], "--bias"),
    (["sample", "--checkpoint", "run", "--out", "s.png", "--steps", "0"], "--steps"),
    (["sample", "--checkpoint", "run", "--out", "s.png", "--npz", "pts.npy"], "pts.npz"),
    (["read", "--checkpoint", "run", "--input", "line.npy", "--beam", "0"], "--beam"),
    (["gradcheck", "--tolerance", "nan", "-q"], "--tolerance"),
    (["gradcheck", "--hidden", "0", "-q"], "--hidden"),
    (["gradcheck", "--cell", "bn-rnn", "--batch", "1", "-q"], "--batch"),
]


@pytest.mark.parametrize("args, named", BAD, ids=[" ".join(a[:1] + a[-2:]) for a, _ in BAD])
def test_bad_input_is_one_error_line_before_anything_runs(no_compute, args, named):
    r = lnrnn_cli(*args)
    assert r.exit_code != 0
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    errors = error_lines(r)
    assert len(errors) == 1, r.stderr
    assert named in errors[0]
    assert "Traceback" not in r.output
    assert os.listdir(no_compute) == []
