"""lnrnn/cli.py: what the group makes of the errors a command raises. A UserError is one `Error: <its sentence>`
line on stderr (the sentence as str() gives it, nothing around it) with the error's own exit code (2; 3 for a
diverged run; a subclass's own); a KeyboardInterrupt in any command but train is one line naming that command
with exit 130 (the shell's code for a process SIGINT ended), never click's "Aborted!"; anything else keeps its
traceback. And -h is --help, for the group and for a command."""
import pytest

import lnrnn.api
from lnrnn.errors import CheckpointError, TrainingDiverged, UserError

from test_cli import assert_clean_error, invoke


class _Odd(UserError):
    exit_code = 7


def _raising(exc):
    def f(*a, **k):
        raise exc
    return f


@pytest.mark.parametrize("exc,code", [(UserError("the folder x holds no run; train one first."), 2),
                                      (CheckpointError("checkpoint.json in x is not JSON; train again."), 2),
                                      (TrainingDiverged("the loss became NaN at update 3; lower --lr."), 3),
                                      (_Odd("an error of its own code."), 7)])
def test_a_user_error_is_its_sentence_with_its_exit_code(monkeypatch, exc, code):
    monkeypatch.setattr(lnrnn.api, "load_run", _raising(exc))
    r = invoke("eval", "--checkpoint", "somewhere")
    line = assert_clean_error(r, str(exc), code=code)
    assert line == "Error: " + str(exc)                        # the sentence itself, no repr around it
    assert r.stdout == ""


@pytest.mark.parametrize("command,argv", [("eval", ["--checkpoint", "x"]),
                                          ("read", ["--checkpoint", "x", "--input", "y.npy"])])
def test_ctrl_c_is_one_line_naming_the_command_with_exit_130(monkeypatch, command, argv):
    monkeypatch.setattr(lnrnn.api, "load_run", _raising(KeyboardInterrupt()))
    r = invoke(command, *argv, "-q") if command == "read" else invoke(command, *argv)
    want = (f"interrupted (Ctrl-C): lnrnn {command} stopped; every file it writes is left whole or untouched.")
    line = assert_clean_error(r, want, code=130)
    assert line == "Error: " + want
    assert "Aborted" not in r.output


def test_a_bug_keeps_its_exception(monkeypatch):
    monkeypatch.setattr(lnrnn.api, "load_run", _raising(ZeroDivisionError("a bug")))
    r = invoke("eval", "--checkpoint", "x")
    assert r.exit_code == 1 and isinstance(r.exception, ZeroDivisionError)


@pytest.mark.parametrize("argv", [[], ["train"], ["eval"], ["read"]])
def test_dash_h_is_help(argv):
    long, short = invoke(*argv, "--help"), invoke(*argv, "-h")
    assert long.exit_code == 0 and short.exit_code == 0, short.output
    assert short.output == long.output and "Usage: " in short.output
