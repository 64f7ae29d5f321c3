"""Every command's output options are checked before the run is read (tests/commands/test_values_output_paths.py
checks lnrnn.files and the writers themselves): a name with a trailing separator, a name under a file,
each refused in one line that names the option the user gave (--npz, --judge-out, --out), with exit
status 2 and nothing created. The run folder given does not exist, so an output checked only after
the run is read would be refused for the run instead."""
import os

import pytest
from click.testing import CliRunner

from lnrnn.cli import main

RUN = ("--checkpoint", "no-such-run")
SEP = os.sep
CASES = [  # arguments, words of the one error line
    (["sample", *RUN, "--out", "s.png", "--npz", f"new{SEP}"], f"--npz 'new{SEP}' names a folder"),
    (["sample", *RUN, "--out", "s.png", "--npz", f"a.txt{SEP}x.npz"], f"--npz a.txt{SEP}x.npz cannot be written"),
    (["sample", *RUN, "--text", "hi", "--judge", "no-reader", "--judge-out", f"new{SEP}"],
     f"--judge-out 'new{SEP}' names a folder"),
    (["sample", *RUN, "--text", "hi", "--judge", "no-reader", "--judge-out", f"a.txt{SEP}j.json"],
     f"--judge-out a.txt{SEP}j.json cannot be written"),
    (["sample", *RUN, "--out", f"a.txt{SEP}s.png"], f"--out a.txt{SEP}s.png cannot be written"),
    (["read", *RUN, "--input", "no-such.npy", "--out", f"new{SEP}"], f"--out 'new{SEP}' names a folder"),
    (["read", *RUN, "--input", "no-such.npy", "--out", f"a.txt{SEP}r.txt"], f"--out a.txt{SEP}r.txt cannot be written"),
    (["export", *RUN, "--out", f"new{SEP}w.safetensors{SEP}"], f"--out 'new{SEP}w.safetensors{SEP}' names a folder"),
    (["export", *RUN, "--out", f"a.txt{SEP}w.safetensors"], f"--out a.txt{SEP}w.safetensors cannot be written"),
    (["export", *RUN, "--out", "w.pt"], "--out w.pt ends in .pt, but lnrnn export writes safetensors"),
    (["plot", "no-such-run", "--out", f"a.txt{SEP}c.png"], f"--out a.txt{SEP}c.png cannot be written"),
    (["predict", *RUN, "--input", "no-such.npy", "--out", f"a.txt{SEP}p.csv"], f"--out a.txt{SEP}p.csv cannot be written"),
]
IDS = [f"{a[0]}-{a[-2].lstrip('-')}-{'sep' if a[-1].endswith(SEP) else 'under-a-file' if 'a.txt' in a[-1] else 'suffix'}"
       for a, _ in CASES]


@pytest.mark.parametrize("args,words", CASES, ids=IDS)
def test_a_bad_output_is_refused_before_the_run_is_read(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("keep")
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    errors = [line for line in r.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], r.stderr
    assert "Traceback" not in r.output
    assert sorted(os.listdir(tmp_path)) == ["a.txt"] and (tmp_path / "a.txt").read_text() == "keep"
