"""``lnrnn gradcheck`` through click's CliRunner: one line per parameter, exit status follows the errors."""
from click.testing import CliRunner

from lnrnn.cli import main


def test_gradcheck_passes_and_prints_one_line_per_parameter():
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "ln-lstm", "--cell", "bn-rnn", "--layers", "1"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()  # progress goes to stderr
    # per stack mode: ln-lstm 9 params + x + h0 + c0 = 12; bn-rnn 5 params + x + h0 = 7
    # per model mode (clf, clf-step, reg): the stack's params + head W, b: ln-lstm 11, bn-rnn 7
    def count(cell, mode):
        return sum(ln.split()[:2] == [cell, mode] for ln in lines)
    for mode in ("train", "mask", "chunk"):
        assert count("ln-lstm", mode) == 12 and count("bn-rnn", mode) == 7, mode
    assert count("bn-rnn", "infer") == 7 and count("ln-lstm", "infer") == 0
    for mode in ("clf", "clf-step", "reg"):
        assert count("ln-lstm", mode) == 11 and count("bn-rnn", mode) == 7, mode
    # the synthesis network (LSTM cells only): the layer's 9 params + the window's Wp, bp + head W, b
    assert count("ln-lstm", "write") == 13 and count("bn-rnn", "write") == 0
    assert all(ln.endswith("ok") for ln in lines[:-1])
    assert "0 above tolerance" in lines[-1]


def test_gradcheck_exits_nonzero_when_an_error_exceeds_tolerance():
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", "--layers", "1", "--tolerance", "0"])
    assert r.exit_code == 1
    assert "FAIL" in r.output


def test_gradcheck_rejects_nonsense_sizes():
    r = CliRunner().invoke(main, ["gradcheck", "--hidden", "0"])
    assert r.exit_code == 2
    assert "--hidden must be at least 1" in r.output and "Traceback" not in r.output


def _fake_checks(monkeypatch, err):
    """The command with every check replaced by one that reports a single error ``err`` (no model is built)."""
    from lnrnn.commands import gradcheck as cmd
    monkeypatch.setattr(cmd, "check_stack", lambda *a, **k: [("l0.Wx", err)])
    monkeypatch.setattr(cmd, "check_model", lambda *a, **k: [("head.W", err)])


def test_the_default_tolerance_is_float64s_one_in_a_million(monkeypatch):
    _fake_checks(monkeypatch, 5e-7)
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", "-q"])
    assert r.exit_code == 0, r.output
    assert "0 above tolerance 1e-06" in r.output
    _fake_checks(monkeypatch, 5e-6)
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", "-q"])
    assert r.exit_code == 1 and "FAIL" in r.output and "above tolerance 1e-06" in r.output


def test_bn_cells_need_two_rows_and_other_cells_one(monkeypatch):
    _fake_checks(monkeypatch, 0.0)
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "bn-lstm", "--batch", "1"])
    assert r.exit_code == 2 and "--batch must be at least 2 for BN cells" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "ln-rnn", "--batch", "1", "-q"])
    assert r.exit_code == 0, r.output
