"""lnrnn gradcheck's plan and lines with the checks replaced by recorders (the calls fixture of
test_values215_gradcheck): without options every check gets the defaults --help names (T 5, B 3, I 3, H 4, two
layers, 40 elements; the model checks B + 4 = 7 rows); a BN cell's infer check runs the stack with
training=False after train's training=True; an LSTM's write check gets the padded batch written out by hand
([T] * (B + 2) + [T - 2, 0]); the progress bar counts the checks of the docstring's modes (7 for ln-lstm, 7 for
bn-rnn, 14 for both), not the cells; each result line is the cell, mode and parameter padded to 8, 8 and 11
columns and the error as %9.2e, word for word."""
import re

import numpy as np
import pytest

from lnrnn.commands import gradcheck as cmd

from test_cli import invoke
from test_values215_gradcheck import calls  # noqa: F401 (the fixture)


@pytest.fixture
def bars(monkeypatch):
    seen = []

    class Progress:
        tty = False

        def __init__(self, total, label="", quiet=False, unit=""):
            seen.append(dict(total=total, label=label, unit=unit))

        def update(self, n=1):
            pass

        def close(self):
            pass
    monkeypatch.setattr(cmd, "Progress", Progress)
    return seen


def test_without_options_every_check_gets_the_defaults_help_names(calls):  # noqa: F811
    r = invoke("gradcheck", "--cell", "rnn", "-q")
    assert r.exit_code == 0, r.output
    assert len(calls) == 6  # train, mask, chunk; clf, clf-step, reg
    for kind, kw in calls:
        assert (kw["T"], kw["I"], kw["H"], kw["num_layers"], kw["max_elems"], kw["seed"]) == (5, 3, 4, 2, 40, 0)
    assert [kw["B"] for kind, kw in calls] == [3, 7, 3, 7, 7, 7]
    helps = invoke("gradcheck", "--help").stdout
    for option, default in (("--steps", 5), ("--batch", 3), ("--input", 3), ("--hidden", 4), ("--layers", 2),
                            ("--max-elems", 40), ("--seed", "0; x>=0")):
        line = " ".join(helps.split(option + " ", 1)[1].split("--", 1)[0].split())
        assert f"[default: {default}]" in line, (option, line)


def test_a_bn_cells_infer_check_runs_without_training(calls):  # noqa: F811
    r = invoke("gradcheck", "--cell", "bn-rnn", "--steps", 4, "--batch", 3, "-q")
    assert r.exit_code == 0, r.output
    stacks = [kw for kind, kw in calls if kind == "stack"]
    assert [kw.get("training") for kw in stacks] == [True, False, None, None]   # train, infer, mask, chunk
    assert [kw.get("t0") for kw in stacks] == [None, None, None, 4]


def test_an_lstms_write_check_gets_the_padded_batch(calls):  # noqa: F811
    r = invoke("gradcheck", "--cell", "ln-lstm", "--steps", 4, "--batch", 3, "-q")
    assert r.exit_code == 0, r.output
    models = [kw for kind, kw in calls if kind == "model"]
    assert [kw["head"] for kw in models] == ["mdn", "classifier", "classifier", "regression"]
    write = models[0]
    assert write["window"] == 2 and write["B"] == 7
    np.testing.assert_array_equal(write["lengths"], [4, 4, 4, 4, 4, 2, 0])


@pytest.mark.parametrize("cells, total", [(["ln-lstm"], 7), (["bn-rnn"], 7), (["ln-lstm", "bn-rnn"], 14),
                                          (["rnn"], 6)])
def test_the_bar_counts_checks_not_cells(calls, bars, cells, total):  # noqa: F811
    r = invoke("gradcheck", *[a for c in cells for a in ("--cell", c)])
    assert r.exit_code == 0, r.output
    assert bars == [dict(total=total, label="gradcheck", unit="checks")]
    assert len(calls) == total


def test_result_lines_word_for_word(monkeypatch, bars):
    errs = iter([1.2345e-7, 0.5, 9.876e-10, 3e-3, 0.0, 2.5e-4])

    def check(cell, norm, *a, **kw):
        return [("Wx", next(errs))]
    monkeypatch.setattr(cmd, "check_stack", check)
    monkeypatch.setattr(cmd, "check_model", check)
    r = invoke("gradcheck", "--cell", "rnn", "--tolerance", "0.01")
    assert r.exit_code == 1, r.output
    assert r.stdout.splitlines() == [
        "rnn      train    Wx           1.23e-07  ok",
        "rnn      mask     Wx           5.00e-01  FAIL",
        "rnn      chunk    Wx           9.88e-10  ok",
        "rnn      clf      Wx           3.00e-03  ok",
        "rnn      clf-step Wx           0.00e+00  ok",
        "rnn      reg      Wx           2.50e-04  ok",
        "max relative error 5.00e-01; 1 above tolerance 0.01",
    ]
    assert re.fullmatch(r"rnn {6}train {4}Wx {10} 1\.23e-07  ok", r.stdout.splitlines()[0])
