"""lnrnn export (lnrnn/commands/export.py) without --out: a usage error naming --out, before the run is loaded
(the library's load_run and export_run replaced by a function that fails the test), and nothing written."""
import lnrnn.api

from test_cli import assert_clean_error, invoke
from test_values215_predict_plot import _never


def test_export_without_out_is_a_usage_error_before_the_run(monkeypatch, tmp_path):
    monkeypatch.setattr(lnrnn.api, "load_run", _never)
    monkeypatch.setattr(lnrnn.api, "export_run", _never)
    monkeypatch.chdir(tmp_path)
    r = invoke("export", "--checkpoint", "runs/a")
    line = assert_clean_error(r, "Missing option '--out'.")
    assert line.startswith("Error: Missing option '--out'. ("), line
    assert list(tmp_path.iterdir()) == []
