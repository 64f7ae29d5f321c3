"""lnrnn/commands/options.py and lnrnn/errors.py through the command line.

Options: a stack of shared options keeps the order it is written in (`lnrnn train --help` lists --cell,
--hidden, ..., --dtype, then --task, --data-dir, ..., --allow-pickle); every command that reads a run says
"Missing option '--checkpoint'" without one (exit 2), whatever else it was given; --charset offers exactly the
charsets strokes-kanjivg reads.

Errors: each kind a command raises leaves lnrnn as one "Error: ..." line with its exit code: 2 for bad input
(UserError, DataError, CheckpointError), 3 for a diverged run, 130 for an interrupted one, 128 + the signal for
a run a signal stopped; a missing checkpoint is a CheckpointError of exit 2 through a real command."""
import re
import signal

import click
import pytest
from click.testing import CliRunner

from lnrnn import errors
from lnrnn.cli import main
from lnrnn.data.kanjivg import CHARSETS
from lnrnn.training.stopping import interrupted

MODEL = ["cell", "hidden", "layers", "init", "skip", "bidirectional", "window", "window_norm", "forget_bias", "dtype"]
TASK = ["task", "data_dir", "split", "steps", "charset", "allow_pickle"]


def test_shared_option_stacks_keep_their_written_order():
    names = [p.name for p in main.commands["train"].params]
    for group in (MODEL, TASK):
        at = [names.index(n) for n in group]
        assert at == list(range(at[0], at[0] + len(group))), (group, names)
    out = CliRunner().invoke(main, ["train", "--help"]).output
    listed = [m.group(1) for m in re.finditer(r"^  (--[a-z-]+)", out, re.M)]     # the options, as --help lists them
    at = [listed.index("--" + n.replace("_", "-")) for n in MODEL + TASK]
    assert at == sorted(at), listed


@pytest.mark.parametrize("command,rest", [("eval", []), ("sample", []),
                                          ("predict", ["--input", "x.npz", "--out", "p.csv"]),
                                          ("read", ["--input", "x.npz"]), ("export", ["--out", "m.npz"])])
def test_every_command_reading_a_run_requires_its_checkpoint(tmp_path, command, rest):
    rest = [str(tmp_path / a) if a.endswith((".npz", ".csv")) else a for a in rest]
    r = CliRunner().invoke(main, [command, *rest])
    assert r.exit_code == 2, r.output
    assert "Missing option '--checkpoint'" in r.output, r.output


def test_charset_offers_the_charsets_kanjivg_reads():
    p = {p.name: p for p in main.commands["train"].params}["charset"]
    assert sorted(p.type.choices) == sorted(CHARSETS) == ["kana", "kanji", "latin"]
    for name in CHARSETS:   # each one parses (the command stops at --help's eager exit after parsing the rest)
        r = CliRunner().invoke(main, ["train", "--charset", name, "--help"])
        assert r.exit_code == 0, r.output


def _invoke_raising(monkeypatch, err):
    @click.command("boom")
    def boom():
        raise err
    monkeypatch.setitem(main.commands, "boom", boom)
    return CliRunner().invoke(main, ["boom"])


@pytest.mark.parametrize("err,code", [
    (errors.UserError("bad input; do this."), 2),
    (errors.DataError("a data set is missing; get it."), 2),
    (errors.CheckpointError("the checkpoint is corrupt; train again."), 2),
    (errors.TrainingDiverged("the loss became nan; try a lower --lr."), 3),
    (errors.TrainingInterrupted("interrupted; resume."), 130),
    (interrupted("interrupted (SIGTERM); resume.", signal.SIGTERM), 143),
    (interrupted("interrupted (SIGINT); resume.", signal.SIGINT), 130),
])
def test_each_error_is_one_line_with_its_exit_code(monkeypatch, err, code):
    r = _invoke_raising(monkeypatch, err)
    assert r.exit_code == code, (r.output, r.exception)
    assert isinstance(r.exception, SystemExit)                        # handled: no escaping exception
    assert r.output.strip().splitlines() == [f"Error: {err}"] and "Traceback" not in r.output


def test_a_missing_checkpoint_is_one_line_of_exit_2(tmp_path):
    from lnrnn.training.checkpoint import load_checkpoint
    with pytest.raises(errors.UserError):
        load_checkpoint(str(tmp_path / "absent"))
    r = CliRunner().invoke(main, ["eval", "--checkpoint", str(tmp_path / "absent")])
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), (r.output, r.exception)
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: no checkpoint at ")
