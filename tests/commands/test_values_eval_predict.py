"""lnrnn eval and lnrnn predict, value for value, on untrained checkpoints (no training: quick): eval --json's
figures are evaluate_run's on the validation set unless --set train, its epoch and step the checkpoint's,
its accuracy the accuracy; predict takes --batch-size 1, and says rows per step only for a per-step head."""
import csv
import json

import numpy as np
import pytest
from test_cli import invoke

from lnrnn.api import evaluate_run
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint


def _run(folder, task, input_size, classes, per_step=False):
    m = build_model(dict(cell="lstm", norm="ln", input_size=input_size, hidden_size=4, num_layers=1, dtype="float32",
                         forget_bias=1.0, head=head_config("ce", classes, per_step)), seed=1)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 7, "epoch": 2, "task": task,
                                          "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    return {"clf": _run(base / "clf", {"task": "digits"}, 1, 10),
            "step": _run(base / "step", {"task": "copy", "steps": 5}, 10, 8, per_step=True)}


def test_eval_json_is_the_validation_sets_figures(runs):
    r = invoke("eval", "--checkpoint", runs["clf"], "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    val, train = evaluate_run(str(runs["clf"]), "val"), evaluate_run(str(runs["clf"]), "train")
    assert val.metrics["loss"] != train.metrics["loss"]            # the two sets tell apart
    assert got["set"] == "val" and got["sequences"] == val.sequences == 360
    assert got["loss"] == val.metrics["loss"] and got["acc"] == val.metrics["acc"]
    assert got["accuracy"] == got["acc"] and 0 <= got["accuracy"] <= 1
    assert (got["epoch"], got["step"]) == (2, 7)
    r = invoke("eval", "--checkpoint", runs["clf"], "--json", "--set", "train")
    got = json.loads(r.stdout)
    assert got["set"] == "train" and got["loss"] == train.metrics["loss"] and got["sequences"] == 1437


def test_eval_sentence_names_the_set(runs):
    r = invoke("eval", "--checkpoint", runs["clf"])
    assert r.exit_code == 0, r.output
    assert ", on val of " in r.stdout and "(360 sequences)." in r.stdout and "accuracy" in r.stdout


def _digits(n):
    from sklearn.datasets import load_digits
    return load_digits().images[:n].reshape(n, 64) / 16             # the task's own scale: 0..1


def test_predict_in_batches_of_one_says_one_row_per_sequence(runs, tmp_path):
    np.save(tmp_path / "x.npy", _digits(3))
    r = invoke("predict", "--checkpoint", runs["clf"], "--input", tmp_path / "x.npy", "--out", tmp_path / "p.csv",
               "--batch-size", 1, "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"Wrote the predicted classes of 3 sequences to {tmp_path / 'p.csv'} (")
    assert "per step" not in r.stdout and "rows" not in r.stdout
    with open(tmp_path / "p.csv", newline="") as f:
        assert [row["index"] for row in csv.DictReader(f)] == ["0", "1", "2"]
    r = invoke("predict", "--checkpoint", runs["clf"], "--input", tmp_path / "x.npy", "--out", tmp_path / "q.csv",
               "--batch-size", 0)
    assert r.exit_code == 2 and "--batch-size must be at least 1, not 0." in r.stderr


def test_predict_of_a_per_step_head_says_its_rows(runs, tmp_path):
    from lnrnn.data.tasks import load_task
    x = load_task({"task": "copy", "steps": 5}).x_val[:2].astype(np.float32)    # (2, 25, 10)
    np.save(tmp_path / "x.npy", x)
    r = invoke("predict", "--checkpoint", runs["step"], "--input", tmp_path / "x.npy", "--out", tmp_path / "p.csv",
               "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Wrote the predicted classes per step of 2 sequences to ")
    assert "(50 rows, one per step)" in r.stdout
    with open(tmp_path / "p.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == 50
