"""lnrnn/training/train.py's loop: the epoch's running count is the scored units of the batches seen (steps of a
per-step head that run and have a label), not their sequences, so the training means of the bar and metrics.jsonl
are the epoch's loss sum over its scored steps. A tiny run of the npz task (ragged lengths, unscored steps, 10
training sequences in batches of 4, 4, 2): the count after each update is the batches' counts added up, after
the epoch it is the scored steps of the whole training set counted here, and the epoch row's train_loss and
train_acc are the sums over that count."""
import numpy as np
import pytest

from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl

N, T, I = 10, 6, 2


def npz(tmp_path):
    rng = np.random.default_rng(5)
    lengths = rng.integers(1, T + 1, N)
    y = rng.integers(0, 3, (N, T))
    y[rng.random((N, T)) < 0.3] = -1                               # unscored steps
    y[np.arange(T)[None, :] >= lengths[:, None]] = -1
    x = rng.standard_normal((N, T, I))
    path = tmp_path / "data.npz"
    np.savez(path, x=x, y=y, lengths=lengths, x_val=x[:3], y_val=y[:3], lengths_val=lengths[:3])
    return path, int(np.count_nonzero(y >= 0))


def test_the_epochs_count_is_its_scored_steps(tmp_path):
    data, scored = npz(tmp_path)
    assert scored != N
    cfg = TrainConfig(task="npz", data_dir=str(data), cell="lstm", hidden=3, batch_size=4, epochs=1, seed=2,
                      dtype="float64", out=str(tmp_path / "run"), save_every_seconds=0)
    seen = []

    def hook(t):
        seen.append((t.model.last_count, t.model.last_sums["loss"], t.model.last_sums["acc"], t.sums["count"],
                     t.sums["sums"]["loss"]))

    train_mod.train(cfg, quiet=True, log=lambda m: None, hook=hook)
    counts = [c for c, *_ in seen]
    assert len(seen) == 3 and [s[3] for s in seen] == list(np.cumsum(counts))
    assert sum(counts) == scored
    loss, acc = sum(s[1] for s in seen), sum(s[2] for s in seen)
    assert seen[-1][4] == pytest.approx(loss, rel=1e-12)
    row = read_jsonl(tmp_path / "run" / "metrics.jsonl")[-1]
    assert row["train_loss"] == pytest.approx(loss / scored, rel=1e-9)
    assert row["train_acc"] == pytest.approx(acc / scored, rel=1e-9)
