"""lnrnn predict through click's CliRunner on an untrained digits checkpoint (no training: quick): sequences of another
length than the task's 64 steps are refused in one 'Error:' line naming both lengths (the training record the
checkpoint's task gives), before the model runs and with nothing written; with --force they are predicted with a
one-line warning, and the .csv and .npy hold, row for row, what lnrnn.api.predict gives for the same inputs in the
same batches (the .npy to the bit; one batch of all of them within float32 rounding: the head's product runs on
NumPy's BLAS, which chooses its code by the rows it gets); an --out that is a folder, ends in a separator or has
another suffix is refused before the run is loaded (a name ending in a separator as one without .csv or .npy)."""
import csv
import os

import numpy as np
import pytest

import lnrnn.api
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import assert_clean_error, invoke


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs") / "clf"
    m = build_model(dict(cell="lstm", norm="ln", input_size=1, hidden_size=4, num_layers=1, dtype="float32",
                         forget_bias=1.0, head=head_config("ce", 10, False)), seed=3)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 7, "epoch": 2, "task": {"task": "digits"},
                                          "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    return folder


def short_sequences(n=4, T=32):
    return np.random.default_rng(5).uniform(0.0, 1.0, size=(n, T))              # the digits task's range, T != 64


def test_another_length_is_refused_before_the_model_runs(run, tmp_path, monkeypatch):
    monkeypatch.setattr(lnrnn.api, "predict", lambda *a, **k: pytest.fail("predicted"))
    np.save(tmp_path / "x.npy", short_sequences())
    r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy", "--out", tmp_path / "o" / "p.csv", "-q")
    assert_clean_error(r, "they have 32 steps where the training sequences had 64")
    assert sorted(os.listdir(tmp_path)) == ["x.npy"]


def test_forced_predictions_are_the_apis_row_for_row(run, tmp_path):
    x = short_sequences()
    np.save(tmp_path / "x.npy", x)
    loaded = lnrnn.api.load_run(str(run))
    want = lnrnn.api.predict(loaded, x, batch_size=3)                         # the command's batches
    whole = lnrnn.api.predict(loaded, x)                                      # one batch: the head's product by
    assert list(whole.classes) == list(want.classes)                          # NumPy's BLAS moves the last bits
    np.testing.assert_allclose(whole.probabilities, want.probabilities, rtol=1e-6, atol=0)
    for out in (tmp_path / "o" / "p.csv", tmp_path / "o" / "p.npy"):
        r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy", "--out", out, "--force",
                   "--batch-size", 3, "-q")
        assert r.exit_code == 0, r.output + repr(r.exception)
        warnings = [line for line in r.stderr.splitlines() if line.startswith("Warning:")]
        assert len(warnings) == 1 and "32 steps where the training sequences had 64" in warnings[0]
        if out.suffix == ".csv":
            with open(out, newline="") as f:
                rows = list(csv.DictReader(f))
            got_index = [int(row["index"]) for row in rows]
            got_class = [int(row["class"]) for row in rows]
            got_prob = [float(row["probability"]) for row in rows]
            tol = 1e-5
        else:
            table = np.load(out, allow_pickle=False)
            got_index, got_class, got_prob = list(table["index"]), list(table["class"]), list(table["probability"])
            tol = 0.0                                                         # the API's own float32 values
        assert got_index == list(range(len(x)))
        assert got_class == [int(c) for c in want.classes]
        for i in range(len(x)):
            p = want.probabilities[i]
            assert abs(got_prob[i] - p.max()) <= tol * max(1.0, p.max()) and int(np.argmax(p)) == got_class[i]


@pytest.mark.parametrize("out, words", [("p.txt", "--out must end in .csv or .npy"),
                                        ("o" + os.sep, "names a folder; give a file name"),  # before the suffix
                                        ("d.csv", "is a directory")])                # click's own check
def test_a_bad_out_is_refused_before_the_run_is_loaded(run, tmp_path, monkeypatch, out, words):
    monkeypatch.setattr(lnrnn.api, "load_run", lambda *a, **k: pytest.fail("loaded"))
    np.save(tmp_path / "x.npy", short_sequences())
    (tmp_path / "d.csv").mkdir()
    r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy",
               "--out", os.path.join(str(tmp_path), out), "-q")  # a trailing separator kept
    assert_clean_error(r, words)
    assert sorted(os.listdir(tmp_path)) == ["d.csv", "x.npy"] and os.listdir(tmp_path / "d.csv") == []
