"""lnrnn predict, read and eval with the run and the library calls replaced by recorders (round 237 of the
planted bugs, tests/mutants/mutants_values237.py): which option reaches which call, --batch-size's documented
default of 500 in predict's help and in its call, each head's words in predict's sentence, read's lines printed
in order with nothing written, eval --json as one JSON object holding the metrics written out here."""
import json
from types import SimpleNamespace

import numpy as np
import pytest

import lnrnn.api
import lnrnn.data.stroke_files
import lnrnn.predict_io

from test_cli import assert_ok, invoke


def fake_run(kind="classifier", per_step=False):
    head = SimpleNamespace(kind=kind, per_step=per_step)
    return SimpleNamespace(model=SimpleNamespace(head=head), task_spec={"task": "npz"}, meta={"step": 40},
                           config={"input_size": 3, "head": {"kind": kind}}, epoch=3, step=40,
                           describe=lambda: "a run")


@pytest.fixture
def predict_calls(monkeypatch):
    calls = {}
    run = fake_run()
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: run)
    monkeypatch.setattr(lnrnn.api, "require_predictable", lambda r: None)
    x = np.zeros((3, 5, 3))

    def read_inputs(inputs, task, size):
        calls["read"] = (inputs, task, size)
        return x, [(str(inputs[0]), None, 3)]
    monkeypatch.setattr(lnrnn.predict_io, "read_inputs", read_inputs)
    monkeypatch.setattr(lnrnn.predict_io, "check_like_training", lambda x, record: [])
    monkeypatch.setattr(lnrnn.predict_io, "training_record", lambda meta: None)

    def predict(r, xs, batch_size, progress):
        calls["batch_size"] = batch_size
        return "preds"
    monkeypatch.setattr(lnrnn.api, "predict", predict)
    monkeypatch.setattr(lnrnn.predict_io, "write_predictions", lambda out, preds: calls.get("rows_to_write", 3))
    calls["run"] = run
    return calls


def test_predict_batch_size_default_is_500_in_the_help_and_the_call(tmp_path, predict_calls):
    r = invoke("predict", "--help")
    assert_ok(r)
    assert "Sequences per forward pass (affects memory only). [default: 500]" in " ".join(r.output.split())
    assert_ok(invoke("predict", "--checkpoint", tmp_path / "run", "--input", tmp_path / "a.npy", "--out",
                     tmp_path / "p.csv", "-q"))
    assert predict_calls["batch_size"] == 500
    assert predict_calls["read"] == ((str(tmp_path / "a.npy"),), "npz", 3)


def test_predict_batch_size_given_reaches_the_call(tmp_path, predict_calls):
    assert_ok(invoke("predict", "--checkpoint", tmp_path / "run", "--input", tmp_path / "a.npy", "--out",
                     tmp_path / "p.csv", "-q", "--batch-size", 7))
    assert predict_calls["batch_size"] == 7


@pytest.mark.parametrize("kind, per_step, rows, words", [
    ("classifier", False, 3, "predicted classes of 3 sequences to {out} "),
    ("classifier", True, 15, "predicted classes per step of 3 sequences to {out} (15 rows, one per step) "),
    ("regression", False, 3, "predicted values of 3 sequences to {out} "),
    ("ctc", False, 3, "predicted label sequences of 3 sequences to {out} "),
])
def test_predict_names_what_each_head_wrote(tmp_path, predict_calls, kind, per_step, rows, words):
    predict_calls["run"].model.head = SimpleNamespace(kind=kind, per_step=per_step)
    predict_calls["rows_to_write"] = rows
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", tmp_path / "run", "--input", tmp_path / "a.npy", "--out", out, "-q")
    assert_ok(r)
    assert r.output.splitlines() == ["Wrote the " + words.format(out=out) + f"({tmp_path / 'a.npy'}: 3)."]


def test_read_prints_the_lines_in_order_and_writes_nothing(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: fake_run("ctc"))
    monkeypatch.setattr(lnrnn.api, "require_reader", lambda r: None)
    monkeypatch.setattr(lnrnn.data.stroke_files, "read_lines", lambda f: [str(f) + ":1", str(f) + ":2"])

    def read(run, lines, beam, batch_size, progress):
        seen.update(lines=lines, beam=beam, batch_size=batch_size)
        return ["text " + line[-1] for line in lines]
    monkeypatch.setattr(lnrnn.api, "read", read)
    monkeypatch.chdir(tmp_path)
    r = invoke("read", "--checkpoint", "run", "--input", "b.npy", "--input", "a.npy", "-q")
    assert_ok(r)
    assert r.output.splitlines() == ["text 1", "text 2", "text 1", "text 2"]
    assert seen == {"lines": ["b.npy:1", "b.npy:2", "a.npy:1", "a.npy:2"], "beam": 1, "batch_size": None}
    assert list(tmp_path.iterdir()) == []


def test_eval_json_is_one_object_of_the_metrics(tmp_path, monkeypatch):
    run = fake_run()
    task = SimpleNamespace(spec={"task": "npz", "path": "x.npz"}, description="the npz task")
    res = SimpleNamespace(metrics={"loss": 0.5, "acc": 0.75}, task=task, sequences=12)
    asked = {}

    def evaluate_run(r, which, data_dir, split, batch_size):
        asked.update(which=which, data_dir=data_dir, split=split)
        return res
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: run)
    monkeypatch.setattr(lnrnn.api, "evaluate_run", evaluate_run)
    r = invoke("eval", "--checkpoint", "some/run", "--set", "train", "--json")
    assert_ok(r)
    assert json.loads(r.output) == {"checkpoint": "some/run", "set": "train", "loss": 0.5, "acc": 0.75,
                                    "accuracy": 0.75, "sequences": 12, "epoch": 3, "step": 40,
                                    "model": {"input_size": 3, "head": {"kind": "classifier"}},
                                    "task": {"task": "npz", "path": "x.npz"}}
    assert asked == {"which": "train", "data_dir": None, "split": None}
