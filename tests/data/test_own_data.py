"""Your own data: `lnrnn train --task npz --data-dir FILE` and `lnrnn.fit`, their splits, objectives, padded
sequences, and one clean line (exit 2, nothing written) for every malformed file or array."""
import json
import os

import numpy as np
import pytest

import lnrnn
from lnrnn.data.arrays import VAL_FRACTION
from lnrnn.data.tasks import load_task
from lnrnn.errors import DataError, UserError
from lnrnn.training.checkpoint import load_checkpoint

from test_cli import assert_clean_error, assert_ok, invoke

SMALL = ["--hidden", "4", "--batch-size", "8", "--epochs", "1", "-q"]


def sequences(N=50, T=6, I=2, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((N, T, I)).astype(np.float32)
    return x, (x[:, :, 0].sum(1) > 0).astype(np.int64)


def save(tmp_path, name="d.npz", **arrays):
    path = tmp_path / name
    np.savez(path, **arrays)
    return path


def test_classes_with_a_held_out_split(tmp_path):
    """Integer labels train a classifier; 10% are held out by the fixed seed's permutation, exactly those."""
    x, y = sequences()
    path = save(tmp_path, x=x, y=y)
    out = tmp_path / "run"
    r = invoke("train", "--task", "npz", "--data-dir", path, *SMALL, "--out", out)
    assert_ok(r)
    assert "2 classes" in r.stdout and "45 train / 5 validation" in r.stdout
    meta, _ = load_checkpoint(str(out))
    assert meta["model"]["head"] == {"kind": "classifier", "outputs": 2, "per_step": False}
    task = load_task(meta["task"])
    perm = np.random.default_rng(0).permutation(50)
    n_val = int(round(50 * VAL_FRACTION))
    assert np.array_equal(task.x_val, x[perm[50 - n_val:]]) and np.array_equal(task.y_train, y[perm[:50 - n_val]])
    res = json.loads(invoke("eval", "--checkpoint", out, "--json").stdout)
    assert res["sequences"] == 5 and res["loss"] == pytest.approx(meta["metrics"][-1]["val_loss"], rel=1e-6)
    # --split counts
    r = invoke("train", "--task", "npz", "--data-dir", path, "--split", "30/20", *SMALL, "--out", tmp_path / "s")
    assert_ok(r)
    assert "30 train / 20 validation" in r.stdout


def test_objective_from_the_dtype_or_the_flag(tmp_path):
    x, y = sequences()
    target = x[:, :, 1].mean(1)
    for arrays, flag, kind in (({"y": target}, [], "regression"),
                               ({"y": y.astype(np.float32)}, ["--objective", "ce"], "classifier"),
                               ({"y": y}, ["--objective", "mse"], "regression")):
        path = save(tmp_path, x=x, **arrays)
        out = tmp_path / f"run-{kind}-{len(flag)}"
        assert_ok(invoke("train", "--task", "npz", "--data-dir", path, *flag, *SMALL, "--out", out))
        assert load_checkpoint(str(out))[0]["model"]["head"]["kind"] == kind
    path = save(tmp_path, x=x, y=target)
    assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, "--objective", "ce", *SMALL,
                              "--out", tmp_path / "no"), "y holds fractional values")
    assert not os.path.exists(tmp_path / "no")
    assert_clean_error(invoke("train", "--objective", "ce", *SMALL, "--out", tmp_path / "no"),
                       "task digits-binary does not take --objective")


def test_padded_sequences_are_scored_at_their_own_length(tmp_path):
    """With lengths, each sequence is read up to its own last step: the evaluated loss of a padded set
    equals the sum over the sequences run one by one, unpadded (padding filled with large values that
    would change every result were they read)."""
    x, y = sequences(N=40, T=8)
    lengths = np.random.default_rng(1).integers(2, 9, 40)
    for n, L in enumerate(lengths):
        x[n, L:] = 50.0
    x_val, y_val, l_val = x[:10], y[:10], lengths[:10]
    path = save(tmp_path, x=x[10:], y=y[10:], lengths=lengths[10:], x_val=x_val, y_val=y_val, lengths_val=l_val)
    out = tmp_path / "run"
    r = invoke("train", "--task", "npz", "--data-dir", path, *SMALL, "--out", out)
    assert_ok(r)
    assert "30 train / 10 validation (validation from x_val)" in r.stdout
    run = lnrnn.load_run(out)
    got = lnrnn.evaluate_run(run).metrics["loss"]
    total = 0.0
    for n in range(10):
        xb = np.ascontiguousarray(x_val[n:n + 1, :l_val[n]].transpose(1, 0, 2))
        sums, count = run.model.loss_sums(xb, y_val[n:n + 1])
        total += sums["loss"]
    assert got == pytest.approx(total / 10, rel=1e-5)


def test_per_step_targets_with_unscored_steps(tmp_path):
    x, _ = sequences(N=30, T=5)
    y = (x[:, :, 0] > 0).astype(np.int64)
    y[:, :2] = -1
    path = save(tmp_path, x=x, y=y)
    out = tmp_path / "run"
    assert_ok(invoke("train", "--task", "npz", "--data-dir", path, *SMALL, "--out", out))
    meta, _ = load_checkpoint(str(out))
    assert meta["model"]["head"] == {"kind": "classifier", "outputs": 2, "per_step": True}
    run = lnrnn.load_run(out)
    task = load_task(meta["task"])
    xb = np.ascontiguousarray(task.x_val.transpose(1, 0, 2))
    sums, count = run.model.loss_sums(xb, task.y_val)
    assert count == 3 * len(task.x_val)  # the two -1 steps of each sequence are not scored


BAD = [
    (lambda x, y: {"x": x}, "lacks y"),
    (lambda x, y: {"x": x[:, :, :, None], "y": y}, "x must be (N, T, I) or (N, T)"),
    (lambda x, y: {"x": np.where(x > 2, np.nan, x), "y": y}, "x holds NaN or infinite values"),
    (lambda x, y: {"x": x, "y": y, "lengths": np.full(len(x), 7)}, "lengths must lie between 1 and T=6"),
    (lambda x, y: {"x": x, "y": y, "lengths": np.zeros(len(x), np.int64)}, "lengths must lie between 1 and T=6"),
    (lambda x, y: {"x": x, "y": y - 1}, "holds the label -1"),
    (lambda x, y: {"x": x, "y": y[:-1]}, "y must be (50,)"),
    (lambda x, y: {"x": x, "y": np.zeros_like(y)}, "holds 1 class"),
    (lambda x, y: {"x": x, "y": y, "x_val": x}, "x_val without y_val"),
    (lambda x, y: {"x": x, "y": y, "x_val": x[:, :, :1], "y_val": y}, "x_val has 1"),
    (lambda x, y: {"x": x.astype(str), "y": y}, "x must hold numbers"),
    (lambda x, y: {"x": x, "y": y, "labels": y}, "does not read"),
]


@pytest.mark.parametrize("make,words", BAD, ids=[w for _, w in BAD])
def test_malformed_files_are_one_line_and_nothing_is_written(tmp_path, make, words):
    x, y = sequences()
    path = save(tmp_path, **make(x, y))
    out = tmp_path / "run"
    assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, *SMALL, "--out", out), words)
    assert not os.path.exists(out)
    arrays = make(x, y)
    if "labels" not in arrays:  # fit() takes keywords: an unknown array cannot reach it
        with pytest.raises(DataError, match=words.replace("(", r"\(").replace(")", r"\)")):
            lnrnn.fit(arrays.get("x"), arrays.get("y"), out=str(tmp_path / "fit"), lengths=arrays.get("lengths"),
                      x_val=arrays.get("x_val"), y_val=arrays.get("y_val"))
        assert not os.path.exists(tmp_path / "fit")


def test_files_that_are_not_npz(tmp_path):
    x, y = sequences()
    npy = tmp_path / "x.npy"
    np.save(npy, x)
    text = tmp_path / "notes.npz"
    text.write_text("not a zip")
    ragged = tmp_path / "ragged.npz"
    np.savez(ragged, x=np.array([x[0], x[1, :3]], dtype=object), y=y[:2])
    for path, words in ((npy, "holds a single array (.npy)"), (text, "is not"), (ragged, "object array"),
                        (tmp_path / "missing.npz", "does not exist"), (tmp_path, "is a folder")):
        assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, *SMALL, "--out", tmp_path / "r"),
                           words)
    assert_clean_error(invoke("train", "--task", "npz", *SMALL, "--out", tmp_path / "r"), "pass --data-dir FILE.npz")
    path = save(tmp_path, x=x, y=y, x_val=x, y_val=y)
    assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, "--split", "10/5", *SMALL,
                              "--out", tmp_path / "r"), "drop --split")
    assert_clean_error(invoke("train", "--task", "npz", "--data-dir", save(tmp_path, "b.npz", x=x, y=y),
                              "--split", "40/20", *SMALL, "--out", tmp_path / "r"), "holds only 50")
    assert not os.path.exists(tmp_path / "r")


def test_fit_trains_and_returns_the_run(tmp_path):
    x, y = sequences()
    out = tmp_path / "fit"
    run = lnrnn.fit(x[:40], y[:40], cell="lstm", out=str(out), x_val=x[40:], y_val=y[40:], hidden=4, epochs=2,
                    batch_size=8)
    assert isinstance(run, lnrnn.api.Run) and run.step == 10 and run.train_config["cell"] == "lstm"
    assert np.array_equal(np.load(out / "data.npz")["x_val"], x[40:])
    res = lnrnn.evaluate_run(run)
    assert res.sequences == 10 and res.metrics["loss"] == pytest.approx(run.meta["metrics"][-1]["val_loss"], rel=1e-6)
    with pytest.raises(UserError, match="already holds a run"):
        lnrnn.fit(x, y, out=str(out))
    with pytest.raises(UserError, match="no training option 'task'"):
        lnrnn.fit(x, y, out=str(tmp_path / "t"), task="digits")
    with pytest.raises(UserError, match="--hidden must be at least 1"):
        lnrnn.fit(x, y, out=str(tmp_path / "h"), hidden=0)
    assert not os.path.exists(tmp_path / "t") and not os.path.exists(tmp_path / "h")
    assert "fit" in dir(lnrnn)
