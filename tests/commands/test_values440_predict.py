"""lnrnn predict wants its sequences: without --input it stops at click's usage error (exit 2, the option named),
before any run folder is read."""
from test_cli import invoke


def test_predict_without_input_is_a_usage_error(tmp_path):
    result = invoke("predict", "--checkpoint", str(tmp_path / "no-run"), "--out", str(tmp_path / "p.csv"))
    assert result.exit_code == 2, result.output
    assert "Missing option '--input'" in result.output
    assert "no checkpoint" not in result.output and not (tmp_path / "p.csv").exists()
