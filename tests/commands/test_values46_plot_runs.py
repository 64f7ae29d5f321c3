"""lnrnn plot of several run folders: one folder given twice (by any spelling) is refused, not drawn as two runs
under one label; two runs whose folders share a name (runs/a/r, runs/b/r) are labelled by their paths, not both
"r"; distinct names keep their short labels."""
import json
import os
import re

import pytest
from click.testing import CliRunner

from lnrnn.cli import main


def fake_run(folder, acc):
    """A run folder holding what lnrnn plot reads: metrics.jsonl, one row per epoch."""
    os.makedirs(folder)
    rows = [{"epoch": e, "step": 10 * e, "samples": 100 * e, "lr": 0.003, "train_loss": 1.0 / e, "train_acc": acc / 2,
             "val_loss": 1.1 / e, "val_acc": acc, "time_s": float(e)} for e in (1, 2, 3)]
    with open(os.path.join(folder, "metrics.jsonl"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))


def legend(svg_path):
    """The run labels in the picture's legend: texts '<label> (final validation ...)'."""
    text = open(svg_path, encoding="utf-8").read()
    return sorted(set(re.findall(r">([^<>]+) \(final validation", text)))


def invoke(*args):
    return CliRunner().invoke(main, ["plot", *args])


@pytest.mark.parametrize("second", ["r", "./r", "r/", os.path.join("..", "w", "r")])
def test_one_run_given_twice_is_refused_and_nothing_is_drawn(tmp_path, monkeypatch, second):
    (tmp_path / "w").mkdir()
    monkeypatch.chdir(tmp_path / "w")
    fake_run("r", 0.5)
    res = invoke("r", second, "--out", "c.svg")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.stderr.strip().splitlines()[-1] == f"Error: r and {second} are the same run folder; give each run once."
    assert not os.path.exists("c.svg")


def test_runs_whose_folders_share_a_name_are_labelled_by_their_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fake_run(os.path.join("a", "r"), 0.5)
    fake_run(os.path.join("b", "r"), 0.7)
    res = invoke(os.path.join("a", "r"), os.path.join("b", "r") + os.sep, "--out", "c.svg")
    assert res.exit_code == 0, res.output
    assert "(2 runs," in res.output
    assert legend("c.svg") == [os.path.join("a", "r"), os.path.join("b", "r")]


def test_runs_of_distinct_names_keep_their_short_labels(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fake_run(os.path.join("a", "r1"), 0.5)
    fake_run(os.path.join("b", "r2"), 0.7)
    res = invoke(os.path.join("a", "r1"), os.path.join("b", "r2"), "--out", "c.svg")
    assert res.exit_code == 0, res.output
    assert legend("c.svg") == ["r1", "r2"]
