"""predict, read and gradcheck on stand-in runs built in tmp_path: a handwriting run given to predict is refused
for what it is before its inputs are read (missing, misshapen or NaN inputs get that one line, nothing written);
read's closing sentence counts the lines it read (an .npz holds several), not the files; gradcheck refuses
--max-elems below 1 in one line, and its summary counts every check above the tolerance, whichever came last."""
import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.cli import main

from test_judge import reader_run
from test_sample import mdn_run


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(r, *words, code=2):
    assert r.exit_code == code and "Traceback" not in r.output, r.output + repr(r.exception)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# ---- predict: a handwriting run is refused before its inputs are read

@pytest.mark.parametrize("what", ["missing", "wide", "nan", "text"])
def test_predict_refuses_a_handwriting_run_whatever_its_inputs(tmp_path, what):
    mdn_run(tmp_path / "mdn")
    x = tmp_path / "x.npy"
    if what == "wide":
        np.save(x, np.zeros((2, 5, 7), np.float32))
    elif what == "nan":
        np.save(x, np.full((2, 5, 3), np.nan, np.float32))
    elif what == "text":
        x = tmp_path / "x.txt"
        x.write_text("1 2 3\n")
    out = tmp_path / "p.csv"
    msg = one_line_error(invoke("predict", "--checkpoint", tmp_path / "mdn", "--input", x, "--out", out),
                         "draws handwriting", "use lnrnn sample")
    assert str(x) not in msg
    assert not out.exists()


# ---- read: the sentence counts lines

def test_read_counts_the_lines_it_wrote_not_the_files(tmp_path):
    reader = reader_run(tmp_path / "reader", "a")
    rng = np.random.default_rng(0)
    lengths = [4, 3, 5]
    pts = np.concatenate([np.c_[rng.normal(size=(n, 2)), np.r_[np.zeros(n - 1), 1.0]] for n in lengths])
    np.savez(tmp_path / "three.npz", points=pts, lengths=np.array(lengths))
    np.save(tmp_path / "one.npy", pts[:4])
    out = tmp_path / "t.txt"
    r = invoke("read", "--checkpoint", reader, "--input", tmp_path / "three.npz", "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert out.read_text(encoding="utf-8") == "a\n" * 3
    assert f"Wrote the transcriptions of 3 lines to {out}." in r.stderr
    r = invoke("read", "--checkpoint", reader, "--input", tmp_path / "three.npz", "--input", tmp_path / "one.npy",
               "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert out.read_text(encoding="utf-8") == "a\n" * 4
    assert f"Wrote the transcriptions of 4 lines to {out}." in r.stderr
    r = invoke("read", "--checkpoint", reader, "--input", tmp_path / "one.npy", "--out", out, "-q")
    assert r.exit_code == 0 and f"Wrote the transcriptions of 1 line to {out}." in r.stderr, r.output


# ---- gradcheck: --max-elems, and the count of failures

@pytest.mark.parametrize("value", ["0", "-3"])
def test_gradcheck_refuses_max_elems_below_one(monkeypatch, value):
    from lnrnn.commands import gradcheck as cmd

    def never(*a, **k):
        raise AssertionError("a check ran")
    monkeypatch.setattr(cmd, "check_stack", never)
    monkeypatch.setattr(cmd, "check_model", never)
    one_line_error(invoke("gradcheck", "--cell", "rnn", "--max-elems", value, "-q"),
                   f"--max-elems must be at least 1, got {value}")


@pytest.mark.parametrize("value", ["nan", "-1e-6", "-inf", "inf"])
def test_gradcheck_refuses_a_tolerance_that_is_not_a_finite_number_of_at_least_0(monkeypatch, value):
    """NaN fails every check and inf passes every one: refused in one line before any check runs (0 asks for
    exact agreement: tests/commands/test_gradcheck_cli.py)."""
    from lnrnn.commands import gradcheck as cmd

    def never(*a, **k):
        raise AssertionError("a check ran")
    monkeypatch.setattr(cmd, "check_stack", never)
    monkeypatch.setattr(cmd, "check_model", never)
    one_line_error(invoke("gradcheck", "--cell", "rnn", "--tolerance", value, "-q"),
                   "--tolerance must be a finite number of at least 0")


@pytest.mark.parametrize("stack_err,model_err", [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0)])
def test_gradcheck_counts_every_failed_check(monkeypatch, stack_err, model_err):
    """Cell rnn: three stack checks (train, mask, chunk), then three whole-model ones (clf, clf-step, reg)."""
    from lnrnn.commands import gradcheck as cmd
    monkeypatch.setattr(cmd, "check_stack", lambda *a, **k: [("l0.Wx", stack_err), ("l0.Wh", stack_err)])
    monkeypatch.setattr(cmd, "check_model", lambda *a, **k: [("head.W", model_err)])
    r = invoke("gradcheck", "--cell", "rnn", "--tolerance", "0.5", "-q")
    rows = [ln for ln in r.output.splitlines() if ln.endswith(("ok", "FAIL"))]
    fails = sum(ln.endswith("FAIL") for ln in rows)
    assert len(rows) == 3 * 2 + 3 and fails == 3 * 2 * (stack_err > 0.5) + 3 * (model_err > 0.5)
    assert r.output.splitlines()[-1] == f"max relative error 1.00e+00; {fails} above tolerance 0.5"
    assert r.exit_code == 1
