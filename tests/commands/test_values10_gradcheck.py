"""``lnrnn gradcheck``'s verdict at the edge: an error of exactly --tolerance passes (the check is err <=
tolerance), a hair above fails with exit 1."""
from click.testing import CliRunner

from lnrnn.cli import main


def _fake_checks(monkeypatch, err):
    from lnrnn.commands import gradcheck as cmd
    monkeypatch.setattr(cmd, "check_stack", lambda *a, **k: [("l0.Wx", err)])
    monkeypatch.setattr(cmd, "check_model", lambda *a, **k: [("head.W", err)])


def test_an_error_of_exactly_the_tolerance_passes(monkeypatch):
    _fake_checks(monkeypatch, 0.25)
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", "--tolerance", "0.25", "-q"])
    assert r.exit_code == 0, r.output
    assert "FAIL" not in r.output and r.output.strip().endswith("0 above tolerance 0.25")
    _fake_checks(monkeypatch, 0.25000001)
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", "--tolerance", "0.25", "-q"])
    assert r.exit_code == 1 and "FAIL" in r.output
