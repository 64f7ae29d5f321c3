"""lnrnn/commands/options.py through the command line, word for word: --optimizer takes the optimizers' names as
written (a name in capitals is refused with the list, in OPTIMIZERS' order, before anything else is read or
made); every command that reads a run says "Missing option '--checkpoint'" without one, before its other
checks; `lnrnn train --help` lists the model stack and then the task stack in the order options.py writes them,
with --split's TRAIN/VAL and --checkpoint's RUN_FOLDER as their metavars."""
import os
import re

import pytest
from click.testing import CliRunner

from lnrnn.cli import main

OPTIMIZER_LIST = "'adam', 'rmsprop', 'rmsprop-momentum', 'rmsprop-graves', 'sgd'"   # OPTIMIZERS, as written


def invoke(args):
    return CliRunner().invoke(main, args, prog_name="lnrnn")


@pytest.mark.parametrize("name", ["ADAM", "Adam", "SGD", "RMSProp"])
def test_an_optimizer_in_capitals_is_refused_with_the_list(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    r = invoke(["train", "--optimizer", name, "--hidden", "many", "--epochs", "1"])
    assert r.exit_code == 2
    assert r.stderr == (f"Error: Invalid value for '--optimizer': '{name}' is not one of {OPTIMIZER_LIST}. "
                        "('lnrnn train --help' lists the options.)\n")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command,rest", [("predict", ["--input", "x.npy", "--out", "p.txt"]),
                                          ("eval", ["--split", "8000/2000"]),
                                          ("export", ["--out", "w.pt"])])
def test_a_command_without_a_run_says_the_checkpoint_is_missing_first(tmp_path, monkeypatch, command, rest):
    monkeypatch.chdir(tmp_path)
    r = invoke([command, *rest])
    assert r.exit_code == 2
    assert r.stderr == (f"Error: Missing option '--checkpoint'. ('lnrnn {command} --help' lists the options.)\n")
    assert os.listdir(tmp_path) == []


def test_train_help_lists_the_shared_stacks_in_their_written_order():
    out = invoke(["train", "--help"]).output
    listed = [m.group(1) for m in re.finditer(r"^  (--[a-z-]+)", out, re.M)]
    stacks = ["--cell", "--hidden", "--layers", "--init", "--skip", "--bidirectional", "--window", "--window-norm",
              "--forget-bias", "--dtype",
              "--task", "--data-dir", "--split", "--steps", "--charset", "--allow-pickle"]
    start = listed.index("--cell")
    assert listed[start:start + len(stacks)] == stacks
    assert re.search(r"^  --split TRAIN/VAL ", out, re.M)
    assert re.search(r"^  --checkpoint RUN_FOLDER ", invoke(["eval", "--help"]).output, re.M)
