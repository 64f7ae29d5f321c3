"""The smaller commands' output lines word for word and what they pass on to the library, with the library's
calls replaced by stand-ins that record their arguments: lnrnn gradcheck's table (one row per check result,
columns 8, 8 and 11 wide and the error in 9.2e, an error equal to --tolerance ok), its summary line and exit
status, and the lengths and sizes its whole-model checks receive (B + 2 full rows, one of T - 2 steps, one
empty; B + 4 rows; --max-elems); lnrnn eval --json's object and the set, data and batch options handed to
evaluate_run; lnrnn export's sentence and the file handed to export_run; lnrnn predict's closing sentence
over two inputs on an untrained checkpoint of test_values_eval_predict."""
import json
from types import SimpleNamespace as NS

import numpy as np
import pytest

import lnrnn.api
import lnrnn.commands.gradcheck as gc
import lnrnn.interop.export
from test_cli import invoke
from test_values_eval_predict import _digits, _run

ARGV = ["gradcheck", "--cell", "lstm", "--steps", 4, "--batch", 2, "--input", 3, "--hidden", 4, "--layers", 1,
        "--max-elems", 7, "--tolerance", 1e-6, "-q"]


def row(name, mode, pname, err, verdict):
    return name.ljust(8) + " " + mode.ljust(8) + " " + pname.ljust(11) + " " + err.rjust(9) + "  " + verdict


@pytest.fixture
def checks(monkeypatch):
    """check_stack -> one error 2.5e-7; check_model -> the errors in `model_errs` (by head), recorded."""
    calls = NS(model=[], model_errs={})

    def check_stack(*a, **kw):
        return [("W", 2.5e-7)]

    def check_model(*a, **kw):
        calls.model.append((a, kw))
        return calls.model_errs.get(a[2:], [("head.W", 1e-6), ("b", 0.0)])
    monkeypatch.setattr(gc, "check_stack", check_stack)
    monkeypatch.setattr(gc, "check_model", check_model)
    return calls


def test_gradcheck_rows_summary_and_exit_when_every_check_passes(checks):
    r = invoke(*ARGV)
    assert r.exit_code == 0, r.output
    model_rows = lambda mode: [row("lstm", mode, "head.W", "1.00e-06", "ok"), row("lstm", mode, "b", "0.00e+00", "ok")]
    want = [row("lstm", m, "W", "2.50e-07", "ok") for m in ("train", "mask", "chunk")]
    want += model_rows("write") + model_rows("clf") + model_rows("clf-step") + model_rows("reg")
    want += ["max relative error 1.00e-06; 0 above tolerance 1e-06"]
    assert r.stdout.splitlines() == want


def test_gradcheck_counts_the_one_failure_and_exits_1(checks):
    checks.model_errs[("regression", False)] = [("head.W", 1.5e-6)]
    r = invoke(*ARGV)
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[-2:] == [row("lstm", "reg", "head.W", "1.50e-06", "FAIL"),
                          "max relative error 1.50e-06; 1 above tolerance 1e-06"]
    assert sum(line.endswith("FAIL") for line in lines) == 1


def test_gradcheck_model_checks_get_padded_lengths_rows_and_max_elems(checks):
    r = invoke(*ARGV)
    assert r.exit_code == 0, r.output
    padded = [4, 4, 4, 4, 2, 0]                     # B + 2 = 4 full rows, one of T - 2, one empty
    got = [(a[2:], None if kw["lengths"] is None else list(kw["lengths"])) for a, kw in checks.model]
    assert got == [(("mdn",), padded), (("classifier", False), None), (("classifier", True), padded),
                   (("regression", False), None)]
    assert {(kw["B"], kw["T"], kw["max_elems"], kw["num_layers"]) for _, kw in checks.model} == {(6, 4, 7, 1)}


@pytest.fixture
def fake_eval(monkeypatch):
    calls = []
    run = NS(config={"cell": "lstm", "head": {"kind": "ce"}}, epoch=2, step=7, describe=lambda: "an LSTM")
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: run)

    def evaluate_run(r, which, **kw):
        calls.append((r, which, kw))
        return NS(metrics={"loss": 0.5, "acc": 0.75}, task=NS(description="digits", spec={"task": "digits"}),
                  sequences=1)
    monkeypatch.setattr(lnrnn.api, "evaluate_run", evaluate_run)
    return run, calls


def test_eval_json_object_and_the_options_passed_on(fake_eval):
    run, calls = fake_eval
    r = invoke("eval", "--checkpoint", "somewhere", "--set", "train", "--data-dir", "d", "--split", "8/2",
               "--eval-batch-size", 3, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"checkpoint": "somewhere", "set": "train", "loss": 0.5, "acc": 0.75,
                                    "accuracy": 0.75, "sequences": 1, "epoch": 2, "step": 7,
                                    "model": {"cell": "lstm", "head": {"kind": "ce"}}, "task": {"task": "digits"}}
    assert calls == [(run, "train", {"data_dir": "d", "split": "8/2", "batch_size": 3})]


def test_eval_without_json_is_one_sentence(fake_eval):
    r = invoke("eval", "--checkpoint", "somewhere")
    assert r.exit_code == 0, r.output
    assert len(r.stdout.splitlines()) == 1
    assert r.stdout.startswith("an LSTM, on val of digits: ") and r.stdout.endswith(" (1 sequence).\n")


def test_export_writes_to_out_and_says_so(monkeypatch, tmp_path):
    calls = []
    run = NS(config={"cell": "lstm"}, describe=lambda: "a plain LSTM run")
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: run if path == "runs/a" else None)
    monkeypatch.setattr(lnrnn.api, "export_run", lambda *a: calls.append(a) or {"a": 1, "b": 2, "c": 3})
    monkeypatch.setattr(lnrnn.interop.export, "pytorch_compatible", lambda config: True)
    out = str(tmp_path / "w.safetensors")
    r = invoke("export", "--checkpoint", "runs/a", "--out", out)
    assert r.exit_code == 0, r.output
    assert calls == [(run, out, "safetensors")]
    assert r.stdout == f"Wrote 3 tensors of a plain LSTM run to {out}; the rnn.* tensors load into torch.nn.LSTM.\n"


def test_predict_sentence_over_two_inputs(tmp_path):
    folder = _run(tmp_path / "clf", {"task": "digits"}, 1, 10)
    x = _digits(4)
    a, b, out = tmp_path / "a.npy", tmp_path / "b.npy", tmp_path / "p.csv"
    np.save(a, x[:3])
    np.save(b, x[3:])
    r = invoke("predict", "--checkpoint", folder, "--input", a, "--input", b, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Wrote the predicted classes of 4 sequences to {out} ({a}: 3; {b}: 1).\n"
