"""lnrnn plot (lnrnn/commands/plot.py) without --out: a usage error naming --out (click's exit code 2), before any run
folder is read (read_run_curves and write_learning_curves replaced by a function that fails the test), nothing
written, the run folder as it was; the same runs with --out draw."""
import os

from lnrnn.commands import plot as plot_cmd

from test_cli import assert_clean_error, assert_ok, invoke
from test_values173_plot import fake_run
from test_values215_predict_plot import _never


def test_plot_without_out_is_a_usage_error_before_the_runs(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    run = fake_run("r", kind="classifier")
    before = sorted(os.listdir(run))
    for work in ("read_run_curves", "write_learning_curves"):
        monkeypatch.setattr(plot_cmd, work, _never)
    for args in (["r"], ["r", "--x", "epoch"], ["r", "--title", "t"]):
        line = assert_clean_error(invoke("plot", *args), "Missing option '--out'.")
        assert line.startswith("Error: Missing option '--out'. ("), line
    assert sorted(os.listdir(tmp_path)) == ["r"] and sorted(os.listdir(run)) == before
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert_ok(invoke("plot", "r", "--out", "c.svg"))
    assert os.path.getsize(tmp_path / "c.svg") > 0
