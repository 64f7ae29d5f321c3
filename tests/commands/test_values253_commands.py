"""The plumbing of lnrnn predict, read, eval and export, with the run and the library calls replaced by
recorders: every --input given reaches the reader of predict, in order, with the run's task and input size; a
difference from the training data is refused in one exact 'Error:' line joining the differences with '; ' and
the model never runs, and --force turns it into one exact warning; lnrnn read hands the library no batch size
when --batch-size is not given (its help: the run's evaluation batch size) and the number given when it is;
lnrnn eval prints its sentence (not JSON) unless --json is given, with the loss named for a classifier and the
accuracy in percent written out here by hand. (lnrnn export without --out: test_values437_export.)"""
import json
import types

import pytest

import lnrnn.api
import lnrnn.predict_io

from test_cli import assert_clean_error, invoke
from test_values125_read_eval import fake_api  # noqa: F401 (the fixture)
from test_values215_predict_plot import N, _never, fake_predict  # noqa: F401 (the fixture)


def test_every_input_reaches_predicts_reader_in_order(fake_predict, monkeypatch, tmp_path):  # noqa: F811
    seen = []
    inner = lnrnn.predict_io.read_inputs

    def read_inputs(paths, task, size):
        seen.append((list(paths), task, size))
        return inner(paths, task, size)
    monkeypatch.setattr(lnrnn.predict_io, "read_inputs", read_inputs)
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", tmp_path, "--input", "b.npy", "--input", "a.npy", "--data-dir", "c",
               "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert seen == [(["b.npy", "a.npy", "c"], "digits", 1)]
    assert r.stdout == f"Wrote the predicted classes of 5 sequences to {out} (seqs.npy: 5).\n"


DIFFERS = ["100 steps a sequence, not 784", "values up to 255, not 1"]


def test_sequences_unlike_the_training_data_refused_in_one_sentence(fake_predict, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.setattr(lnrnn.predict_io, "check_like_training", lambda xs, record: list(DIFFERS))
    monkeypatch.setattr(lnrnn.api, "predict", _never)
    out = tmp_path / "sub" / "p.csv"
    r = invoke("predict", "--checkpoint", "runs/a", "--input", "seqs.npy", "--out", out, "-q")
    assert r.exit_code == 2, r.output
    assert r.stderr == ("Error: the sequences of seqs.npy cannot be what the run in runs/a was trained on: "
                        "100 steps a sequence, not 784; values up to 255, not 1; scale or cut them as its training "
                        "data were, or pass --force to predict anyway.\n")
    assert list(tmp_path.iterdir()) == []


def test_force_turns_the_refusal_into_one_warning(fake_predict, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.setattr(lnrnn.predict_io, "check_like_training", lambda xs, record: list(DIFFERS))
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", "runs/a", "--input", "seqs.npy", "--out", out, "--force", "-q")
    assert r.exit_code == 0, r.output
    assert r.stderr == ("Warning: the sequences of seqs.npy cannot be what the run in runs/a was trained on: "
                        "100 steps a sequence, not 784; values up to 255, not 1; predicting anyway (--force).\n")
    assert len(fake_predict["predict"]) == 1
    assert r.stdout == f"Wrote the predicted classes of 5 sequences to {out} (seqs.npy: 5).\n"


def test_no_differences_no_warning(fake_predict, tmp_path):  # noqa: F811
    r = invoke("predict", "--checkpoint", "runs/a", "--input", "seqs.npy", "--out", tmp_path / "p.csv", "-q")
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert len(fake_predict["predict"]) == 1


@pytest.mark.parametrize("given, want", [([], None), (["--batch-size", "7"], 7), (["--batch-size", "1"], 1)])
def test_read_hands_on_no_batch_size_unless_one_is_given(fake_api, given, want):  # noqa: F811
    r = invoke("read", "--checkpoint", "x", "--input", "a.npy", "--input", "b.npy", *given, "-q")
    assert r.exit_code == 0, r.output
    assert [kw["batch_size"] for kw in fake_api] == [want]
    assert [kw["beam"] for kw in fake_api] == [1]
    assert r.stdout == "かな\nab\n"


@pytest.fixture
def fake_eval(monkeypatch):
    seen = []
    run = types.SimpleNamespace(config={"head": {"kind": "classifier"}, "cell": "ln-lstm"}, epoch=3, step=360,
                                describe=lambda: "ln-lstm H=4 (3 epochs)")
    task = types.SimpleNamespace(spec={"task": "digits"}, description="digits (8 x 8 images, pixel by pixel)")

    def evaluate_run(r, which, **kw):
        assert r is run
        seen.append(dict(kw, which=which))
        return types.SimpleNamespace(metrics={"loss": 0.41234, "acc": 0.872}, task=task, sequences=359)
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path, **k: run)
    monkeypatch.setattr(lnrnn.api, "evaluate_run", evaluate_run)
    return seen


def test_eval_prints_its_sentence_unless_json_is_asked_for(fake_eval):
    r = invoke("eval", "--checkpoint", "runs/a")
    assert r.exit_code == 0, r.output
    assert r.stdout == ("ln-lstm H=4 (3 epochs), on val of digits (8 x 8 images, pixel by pixel): cross-entropy loss "
                        "0.4123 nats, accuracy 87.20% (359 sequences).\n")
    assert [kw["which"] for kw in fake_eval] == ["val"]
    r = invoke("eval", "--checkpoint", "runs/a", "--set", "train", "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert (got["set"], got["accuracy"], got["sequences"], got["step"]) == ("train", 0.872, 359, 360)
    assert [kw["which"] for kw in fake_eval] == ["val", "train"]
