"""lnrnn plot of a run folder whose metrics.jsonl or updates.jsonl is not a file (lnrnn/commands/plot.py:
read_run_curves, _log_path), on run folders written as test_values173_plot's fake_run writes them.

Found by putting a folder where a run's logs go: a metrics.jsonl folder beside a checkpoint was called "no
evaluations yet (it stopped before its first epoch ended ...)", and without a checkpoint "has no metrics.jsonl";
an updates.jsonl folder was passed over as a log not written yet, drawing the picture without the run's per-update
line. Each is now refused word for word, naming the path, with no picture written; a link to a missing file is
refused alike. A run without updates.jsonl at all (older lnrnn) is still drawn."""
import json
import os

import pytest

from test_cli import assert_clean_error, invoke
from test_values173_plot import fake_run


def refusal(path, name):
    return (f"Error: {path} is not a file, where lnrnn train writes the run's {name}; remove or rename it, or point "
            "lnrnn plot at another run folder.")


def replaced(folder, name, how):
    path = os.path.join(folder, name)
    if os.path.lexists(path):
        os.remove(path)
    if how == "folder":
        os.mkdir(path)
    else:
        os.symlink(os.path.join(folder, "missing"), path)
    return path


@pytest.mark.parametrize("how", ["folder", "dangling link"])
@pytest.mark.parametrize("kind", [None, "classifier"])
def test_a_metrics_log_that_is_not_a_file_is_refused_word_for_word(tmp_path, how, kind):
    run = fake_run(tmp_path / "a", kind=kind)
    path = replaced(run, "metrics.jsonl", how)
    out = tmp_path / "p.svg"
    line = assert_clean_error(invoke("plot", run, "--out", out), "is not a file")
    assert line == refusal(path, "metrics.jsonl")
    assert not out.exists()


@pytest.mark.parametrize("how", ["folder", "dangling link"])
def test_an_updates_log_that_is_not_a_file_is_refused_word_for_word(tmp_path, how):
    run = fake_run(tmp_path / "a")
    path = replaced(run, "updates.jsonl", how)
    out = tmp_path / "p.svg"
    line = assert_clean_error(invoke("plot", run, "--out", out), "is not a file")
    assert line == refusal(path, "updates.jsonl")
    assert not out.exists()


def test_a_run_without_an_updates_log_is_still_drawn(tmp_path):
    run = fake_run(tmp_path / "a")
    assert not os.path.lexists(os.path.join(run, "updates.jsonl"))
    out = tmp_path / "p.svg"
    r = invoke("plot", run, "--out", out)
    assert r.exit_code == 0, r.output
    assert out.stat().st_size > 0


def test_a_run_with_an_updates_log_draws_its_rows(tmp_path):
    """The file is read when it is one: a damaged row there is refused, so it was not passed over."""
    run = fake_run(tmp_path / "a")
    with open(os.path.join(run, "updates.jsonl"), "w") as f:
        f.write(json.dumps({"step": "x", "epoch": 0.5, "time_s": 1.0}) + "\n")
    assert_clean_error(invoke("plot", run, "--out", tmp_path / "p.svg"), "updates.jsonl is damaged (line 1")
