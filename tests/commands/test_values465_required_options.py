"""Every option a command cannot work without (lnrnn/commands/*.py, ``required=True``), left out while the command's
other required options are given: click's usage error naming it word for word on one stderr line (exit code 2),
before anything is read or made, the folder as it was. REQUIRED is the table a user reads in each command's --help;
an option that stops being required fails here (``lnrnn predict`` without --out otherwise reached its own file-name
check and said "not None")."""
import os

import pytest

from test_values229_options import invoke

# (command words, the option as click names it, the other required options with values)
REQUIRED = [
    (["eval"], "--checkpoint", []),
    (["sample"], "--checkpoint", []),
    (["data", "mnist"], "--dest", []),
    (["predict"], "--checkpoint", ["--input", "x.npy", "--out", "p.csv"]),
    (["predict"], "--input' / '--data-dir", ["--checkpoint", "r", "--out", "p.csv"]),
    (["predict"], "--out", ["--checkpoint", "r", "--input", "x.npy"]),
    (["read"], "--checkpoint", ["--input", "x.npy"]),
    (["read"], "--input", ["--checkpoint", "r"]),
    (["export"], "--checkpoint", ["--out", "w.pt"]),
    (["export"], "--out", ["--checkpoint", "r"]),
    (["plot"], "--out", ["r"]),
]


@pytest.mark.parametrize("words, option, rest", REQUIRED, ids=lambda v: v if isinstance(v, str) else None)
def test_a_required_option_left_out_is_named_before_anything_is_read(tmp_path, monkeypatch, words, option, rest):
    monkeypatch.chdir(tmp_path)
    os.mkdir("r")                                   # a folder where a run would be: left as it is
    r = invoke([*words, *rest])
    assert r.exit_code == 2, r.output
    assert r.stderr == f"Error: Missing option '{option}'. ('lnrnn {' '.join(words)} --help' lists the options.)\n"
    assert r.stdout == ""
    assert os.listdir(tmp_path) == ["r"] and os.listdir("r") == []
