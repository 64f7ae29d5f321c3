"""Validation and checkpoints as researchers expect: --eval-every, the evaluation where a budget stops a run,
RUN/best by --best-metric, --keep N past checkpoints, --patience, metrics.csv, TensorBoard when installed,
and the run's budget on --resume. Values are checked against their definitions (an evaluation of the
checkpoint of that update; the arg-min over the rows), and every resume against the uninterrupted run."""
import csv
import json
import os
import signal
import sys

import numpy as np
import pytest

import lnrnn
from lnrnn.model.models import SequenceModel
from lnrnn.training import logs, train as train_module
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import read_jsonl

from test_cli import TINY, assert_clean_error, assert_ok, assert_same_run, invoke, reference_run  # noqa: F401

EVAL = ["--eval-every", 3, "--keep", 20, "--save-every", 3]  # a checkpoint kept at every evaluation


def rows(out):
    return read_jsonl(os.path.join(out, "metrics.jsonl"))


def past(out, step):
    return os.path.join(out, "checkpoints", f"update-{step:09d}")


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    out = tmp_path_factory.mktemp("eval") / "run"
    assert_ok(invoke("train", *TINY, *EVAL, "--out", out))
    return out


def test_eval_every_rows_are_evaluations_of_that_update(evaluated, reference_run):
    """Rows at 3, 6, 9, 12 besides the epoch ends 7, 14; each row's validation loss is what lnrnn eval
    says of the checkpoint of that update; evaluating changes nothing in training (the arrays are the
    reference run's, bit for bit)."""
    r = rows(evaluated)
    assert [x["step"] for x in r] == [3, 6, 7, 9, 12, 14]
    assert [x.get("eval") for x in r] == ["update", "update", None, "update", "update", None]
    assert r[0]["epoch"] == pytest.approx(3 / 7, abs=1e-6)
    for x in r:
        got = lnrnn.evaluate_run(past(evaluated, x["step"])).metrics
        assert got["loss"] == pytest.approx(x["val_loss"], rel=1e-6) and got["acc"] == x["val_acc"]
    a, b = load_checkpoint(str(reference_run))[1], load_checkpoint(str(evaluated))[1]
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_best_checkpoint_is_the_argmin_and_keep_prunes(evaluated, tmp_path):
    r = rows(evaluated)
    best_row = min(r, key=lambda x: x["val_loss"])  # the first of equal losses: only a strictly better one replaces
    meta, arrays = load_checkpoint(os.path.join(evaluated, "best"))
    assert meta["best"] == {"metric": "loss", "value": best_row["val_loss"], "step": best_row["step"],
                            "epoch": best_row["epoch"]}
    same = load_checkpoint(past(evaluated, best_row["step"]))[1]
    assert all(np.array_equal(arrays[k], same[k]) for k in arrays) and not any(k.startswith("optim/") for k in arrays)
    for cmd in (["eval", "--checkpoint", os.path.join(evaluated, "best")],
                ["export", "--checkpoint", os.path.join(evaluated, "best"), "--out", tmp_path / "w.safetensors"]):
        assert_ok(invoke(*cmd))
    # by accuracy: the first highest
    out = tmp_path / "acc"
    assert_ok(invoke("train", *TINY, "--eval-every", 3, "--best-metric", "acc", "--keep", 2, "--out", out))
    top = max(rows(out), key=lambda x: x["val_acc"])
    assert load_checkpoint(str(out / "best"))[0]["best"]["step"] == top["step"]
    assert sorted(os.listdir(out / "checkpoints")) == ["update-000000007", "update-000000014"]  # saved at 0, 7, 14
    assert load_checkpoint(past(out, 14))[0]["arrays_sha256"] == load_checkpoint(str(out))[0]["arrays_sha256"]
    assert_clean_error(invoke("train", "--out", out / "best", "--resume"), "holds the best checkpoint of a run")
    out = tmp_path / "none"
    assert_ok(invoke("train", *TINY, "--epochs", 1, "--best-metric", "none", "--out", out))
    assert not os.path.exists(out / "best")


def test_csv_matches_the_jsonl(evaluated):
    with open(os.path.join(evaluated, "metrics.csv")) as f:
        table = list(csv.DictReader(f))
    r = rows(evaluated)
    assert len(table) == len(r)
    for t, x in zip(table, r):
        for k, v in x.items():
            assert (float(t[k]) == pytest.approx(v)) if not isinstance(v, str) else t[k] == v, k


def test_tensorboard_absent_and_present(tmp_path, monkeypatch):
    if logs.tensorboard_available():
        out = tmp_path / "tb"
        assert_ok(invoke("train", *TINY, "--epochs", 1, "--out", out))
        assert any(f.startswith("events.") for f in os.listdir(out / "tensorboard"))
    monkeypatch.setitem(sys.modules, "tensorboard", None)  # import tensorboard raises ImportError
    assert not logs.tensorboard_available()
    out = tmp_path / "plain"
    assert_ok(invoke("train", *TINY, "--epochs", 1, "--out", out))
    assert not os.path.exists(out / "tensorboard")


def test_everything_survives_a_stop_and_resume(evaluated, tmp_path):
    """Stopped at update 5 (an evaluation of the state reached, kept apart from metrics.jsonl), resumed:
    arrays, metrics, metrics.csv, the best checkpoint and the kept ones equal the uninterrupted run's."""
    out = tmp_path / "run"
    r = invoke("train", *TINY, *EVAL, "--out", out, "--max-steps", 5)
    assert_ok(r)
    meta = load_checkpoint(str(out))[0]
    stop = meta["stop_eval"]
    assert stop["step"] == 5 and f"validation loss {stop['val_loss']:.4f}" in r.stdout and "at update 5" in r.stdout
    assert lnrnn.evaluate_run(str(out)).metrics["loss"] == pytest.approx(stop["val_loss"], rel=1e-6)
    assert [x["step"] for x in rows(out)] == [3]
    assert meta["budget"]["max_steps"] is None  # reached: a plain --resume trains on
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(evaluated, out)
    assert open(out / "metrics.csv").read().splitlines()[0] == open(evaluated / "metrics.csv").read().splitlines()[0]
    for sub in ("best", "checkpoints/update-000000012"):
        a, b = load_checkpoint(str(evaluated / sub)), load_checkpoint(str(out / sub))
        assert a[0].get("best") == b[0].get("best") and all(np.array_equal(a[1][k], b[1][k]) for k in a[1])
    # the stop's own checkpoint is kept too
    assert sorted(os.listdir(out / "checkpoints")) == sorted(os.listdir(evaluated / "checkpoints") + ["update-000000005"])


def scripted_losses(monkeypatch, losses):
    calls = []

    def fake(model, task, which="val", batch_size=500, group=None):
        calls.append(1)
        return {"loss": losses[min(len(calls), len(losses)) - 1], "acc": 0.5}
    monkeypatch.setattr(train_module, "evaluate", fake)
    return calls


def test_patience_stops_early_and_is_recorded(tmp_path, monkeypatch):
    """Validation losses 1.0, 0.9, 0.95, 0.97 at updates 2, 4, 6 and 7 (the epoch's end): with --patience 2
    the run stops at the fourth evaluation, says so, marks the row, and keeps update 4 as the best."""
    scripted_losses(monkeypatch, [1.0, 0.9, 0.95, 0.97, 0.5])
    out = tmp_path / "run"
    r = invoke("train", *TINY, "--eval-every", 2, "--patience", 2, "--out", out)
    assert_ok(r)
    assert "Stopped early (--patience 2: no better validation loss in 2 evaluations since update 4)" in r.stdout
    r_ = rows(out)
    assert [x["step"] for x in r_] == [2, 4, 6, 7] and r_[-1].get("early_stop") is True
    assert [x.get("early_stop") for x in r_[:-1]] == [None, None, None]
    meta = load_checkpoint(str(out))[0]
    assert meta["step"] == 7 and meta["early_stop"]["best_step"] == 4
    assert load_checkpoint(str(out / "best"))[0]["best"]["step"] == 4
    r = invoke("train", "--out", out, "--resume")
    assert_ok(r)
    assert "Nothing to do" in r.stdout and "stopped early at update 7" in r.stdout
    r = invoke("train", "--out", out, "--resume", "--patience", 5, "-q")  # 0.5 at update 8: a new best
    assert_ok(r)
    assert load_checkpoint(str(out))[0]["step"] == 14 and load_checkpoint(str(out / "best"))[0]["best"]["step"] == 8


def ctrl_c_at(monkeypatch, update):
    original = SequenceModel.loss_and_grad
    calls = []

    def stop(self, *args, **kw):
        calls.append(1)
        if len(calls) == update:
            os.kill(os.getpid(), signal.SIGINT)
        return original(self, *args, **kw)
    monkeypatch.setattr(SequenceModel, "loss_and_grad", stop)
    return original


def test_resume_keeps_the_budget_the_run_was_started_with(tmp_path, monkeypatch, reference_run):
    """Interrupted before its --max-steps 10, a run's suggested resume stops at 10 (the message says the
    limit holds); resumed again it trains on to the end, exactly the uninterrupted run."""
    out = tmp_path / "run"
    original = ctrl_c_at(monkeypatch, 4)
    msg = assert_clean_error(invoke("train", *TINY, "--out", out, "--max-steps", 10), "interrupted", code=130)
    assert "`lnrnn train --out" in msg and "--resume` (the run's --max-steps 10 still holds)" in msg
    monkeypatch.setattr(SequenceModel, "loss_and_grad", original)
    r = invoke("train", "--out", out, "--resume", "-q")
    assert_ok(r)
    assert load_checkpoint(str(out))[0]["step"] == 10 and "Stopped (reached --max-steps 10)" in r.stdout
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(reference_run, out)


def test_time_budget_is_the_runs_and_given_again_is_fresh(tmp_path, monkeypatch):
    out = tmp_path / "run"
    original = ctrl_c_at(monkeypatch, 3)
    assert_clean_error(invoke("train", *TINY, "--out", out, "--time-budget", 1000), "--time-budget 1000 s", code=130)
    monkeypatch.setattr(SequenceModel, "loss_and_grad", original)
    desc = out / "checkpoint.json"
    meta = json.loads(desc.read_text())
    assert meta["budget"]["time_budget"] == 1000 and 0 < meta["budget"]["used_s"] < 1000
    meta["budget"]["used_s"] = 1000.0  # as if the first invocation had used it all
    desc.write_text(json.dumps(meta))
    r = invoke("train", "--out", out, "--resume")
    assert_ok(r)
    assert "has used its --time-budget of 1000 s" in r.stdout and load_checkpoint(str(out))[0]["step"] == 3
    assert_ok(invoke("train", "--out", out, "--resume", "--time-budget", 1000, "-q"))  # 1000 s more
    assert load_checkpoint(str(out))[0]["step"] == 14


@pytest.mark.parametrize("args,words", [
    (["--eval-every", 0], "--eval-every must be at least 1"),
    (["--keep", -1], "--keep must be 0"),
    (["--patience", 0], "--patience must be at least 1"),
    (["--patience", 2, "--best-metric", "none"], "--patience counts evaluations"),
    (["--task", "strokes-synthetic", "--split", "40/10", "--hidden", 4, "--layers", 1, "--best-metric", "acc"],
     "--best-metric acc: the mdn head"),
])
def test_bad_settings_are_one_line(tmp_path, args, words):
    out = tmp_path / "run"
    assert_clean_error(invoke("train", *TINY, *args, "--out", out), words)
    assert not os.path.exists(out)
