"""What a run writes and what a resume carries over, against an uninterrupted twin and against sums kept here.

A tiny run (digits, 40 training samples in batches of 16: 3 updates an epoch, 2 epochs) stopped by --max-steps 4
inside epoch 2 and resumed must end with the parameters, metrics.jsonl rows and updates.jsonl rows of the same
run made in one go: the resumed epoch draws the permutation the epoch started with and trains only the batches
left, the history and the open updates.jsonl window (its sums as well as its count) come back. Each epoch's
train_ columns are the means of that epoch's updates alone (the hook reads every update's sums), updates.jsonl's
rows are the means of their --log-every updates and count updates, the lr column is lr * lr_decay**epoch (the
task's decay, 0.9), the val_ columns score the validation split, a BatchNorm run's checkpoint keeps the buffers
(its running statistics), and a --max-steps stop's summary names --max-steps."""
import numpy as np
import pytest

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.evaluation import evaluate
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=5, lr=0.05,
            save_every_seconds=0, log_every=3)
NB = 3                                   # updates an epoch: 16, 16, 8
VOLATILE = ("time_s", "compile_s", "samples_per_s")


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def quiet_train(c, **kw):
    return train(c, quiet=True, log=lambda m: None, **kw)


def rows(path):
    return [{k: v for k, v in r.items() if k not in VOLATILE} for r in read_jsonl(path)]


def params(trainer):
    return {k: np.array(v) for k, v in trainer.model.params.items()}


@pytest.fixture(scope="module")
def one_go(tmp_path_factory):
    out = tmp_path_factory.mktemp("one_go") / "run"
    seen = []

    def hook(t):
        seen.append((t.epoch, t.step, dict(t.model.last_sums), t.model.last_count))
    trainer = quiet_train(cfg(out), hook=hook)
    return out, trainer, seen


def test_a_run_resumed_inside_an_epoch_ends_as_the_run_made_in_one_go(one_go, tmp_path):
    out, whole, _ = one_go
    part = tmp_path / "run"
    first = quiet_train(cfg(part, max_steps=4))
    assert (first.step, first.epoch, first.batch_in_epoch) == (4, 1, 1)       # stopped inside epoch 2
    steps = []
    resumed = quiet_train(cfg(part), resume=True, hook=lambda t: steps.append(t.step))
    assert steps == [5, 6]                                                      # only the batches left
    assert resumed.step == 6 and resumed.epoch == 2
    a, b = params(whole), params(resumed)
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(b[k], a[k], err_msg=k)
    assert rows(part / "metrics.jsonl") == rows(out / "metrics.jsonl")
    assert len(rows(part / "metrics.jsonl")) == 2
    assert rows(part / "updates.jsonl") == rows(out / "updates.jsonl")


def test_epoch_rows_hold_that_epochs_own_means_and_its_rate(one_go):
    out, trainer, seen = one_go
    metrics = read_jsonl(out / "metrics.jsonl")
    assert [r["epoch"] for r in metrics] == [1, 2] and [r["step"] for r in metrics] == [3, 6]
    for e, r in enumerate(metrics):
        mine = [(s, c) for ep, _, s, c in seen if ep == e]
        assert len(mine) == NB
        count = sum(c for _, c in mine)
        for m in trainer.model.metrics:
            assert r["train_" + m] == pytest.approx(sum(s[m] for s, _ in mine) / count, rel=1e-12), (e, m)
        assert r["lr"] == pytest.approx(TINY["lr"] * trainer.cfg.lr_decay ** e, rel=1e-12)   # the task's decay
        assert r["samples"] == 40 * (e + 1)


def test_update_rows_are_the_means_of_their_updates(one_go):
    out, trainer, seen = one_go
    updates = read_jsonl(out / "updates.jsonl")
    assert [u["step"] for u in updates] == [3, 6]
    for u in updates:
        window = [(s, c) for _, step, s, c in seen if u["step"] - 3 < step <= u["step"]]
        count = sum(c for _, c in window)
        assert u["updates"] == 3
        for m in trainer.model.metrics:
            assert u["train_" + m] == pytest.approx(sum(s[m] for s, _ in window) / count, rel=1e-12)


def test_val_columns_score_the_validation_split(one_go):
    out, trainer, _ = one_go
    last = read_jsonl(out / "metrics.jsonl")[-1]
    val = evaluate(trainer.model, trainer.task, "val", 7)          # another batching: the same means
    train_split = evaluate(trainer.model, trainer.task, "train", 7)
    for m in trainer.model.metrics:
        assert last["val_" + m] == pytest.approx(val[m], rel=1e-9, abs=1e-12)
    assert val["loss"] != pytest.approx(train_split["loss"], rel=1e-9)


def test_a_batchnorm_runs_checkpoint_keeps_its_running_statistics(tmp_path):
    out = tmp_path / "run"
    trainer = quiet_train(cfg(out, cell="bn-rnn", epochs=1))
    meta, arrays = load_checkpoint(str(out))
    buffers = trainer.model.buffers
    assert buffers                                                  # BatchNorm keeps running statistics
    assert {k for k in arrays if k.startswith("buffer/")} == {"buffer/" + k for k in buffers}
    for k, v in buffers.items():
        np.testing.assert_array_equal(arrays["buffer/" + k], v, err_msg=k)
    for k, v in trainer.model.params.items():
        np.testing.assert_array_equal(arrays["param/" + k], v, err_msg=k)


def test_a_max_steps_stop_names_max_steps(tmp_path):
    said = []
    train(cfg(tmp_path / "run", max_steps=2), quiet=True, log=said.append)
    summary = said[-1]
    assert summary.startswith("Stopped (reached --max-steps 2)"), summary
    assert "without --max-steps it trains on to --epochs 2; give --max-steps again for a new limit" in summary
    assert "--time-budget" not in summary
