"""lnrnn read (lnrnn/commands/read.py) wants its lines: without --input it stops at click's usage error (exit 2,
--input named), before the run is loaded (the library's load_run and read replaced by a function that fails the
test), and nothing written, --out given or not."""
import lnrnn.api

from test_cli import assert_clean_error, invoke
from test_values215_predict_plot import _never


def test_read_without_input_is_a_usage_error_before_the_run(monkeypatch, tmp_path):
    monkeypatch.setattr(lnrnn.api, "load_run", _never)
    monkeypatch.setattr(lnrnn.api, "read", _never)
    monkeypatch.chdir(tmp_path)
    for extra in ((), ("--out", "texts.txt")):
        r = invoke("read", "--checkpoint", "runs/a", *extra)
        line = assert_clean_error(r, "Missing option '--input'.")
        assert line.startswith("Error: Missing option '--input'."), line
        assert list(tmp_path.iterdir()) == []
