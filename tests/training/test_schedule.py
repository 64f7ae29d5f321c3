"""The learning-rate schedule a run actually used: lr * lr_decay**e during 0-based
epoch e, both the rate the optimizer holds at every update and the ``lr`` that metrics.jsonl records
for every finished epoch (its ``epoch`` field counts from 1). The resume tests compare two runs of the
same code, so an off-by-one epoch in the schedule would pass them; these compare with the formula.
"""
import os

import pytest
from click.testing import CliRunner

from lnrnn.training import optim
from lnrnn.cli import main
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train

LR, DECAY, EPOCHS = 0.02, 0.5, 3  # a decay of 0.5 makes an epoch's shift a factor of 2
# 64 training images in batches of 32: two updates per epoch
TINY = dict(task="digits", split="64/32", hidden=4, batch_size=32, epochs=EPOCHS, lr=LR, lr_decay=DECAY)


def expected(epoch0):
    return LR * DECAY ** epoch0


def metrics(out):
    return read_jsonl(os.path.join(out, "metrics.jsonl"))


def assert_metrics_schedule(out, epochs=EPOCHS):
    recs = metrics(out)
    assert [r["epoch"] for r in recs] == list(range(1, epochs + 1))
    for r in recs:
        assert r["lr"] == pytest.approx(expected(r["epoch"] - 1), rel=1e-12), \
            f"metrics.jsonl, epoch {r['epoch']}: lr {r['lr']} is not lr * lr_decay**{r['epoch'] - 1}"


@pytest.fixture
def lr_at_updates(monkeypatch):
    """The rate each optimizer update ran with, read inside Optimizer.step (before it updates)."""
    seen = []
    real = optim.Optimizer.step

    def step(self, params, grads):
        seen.append(self.lr)
        return real(self, params, grads)

    monkeypatch.setattr(optim.Optimizer, "step", step)
    return seen


def run(out, hook_log, **over):
    def hook(trainer):
        hook_log.append((trainer.epoch, trainer.step, trainer.opt.lr))
    cfg = TrainConfig(**{**TINY, **over, "out": str(out)})
    return train(cfg, quiet=True, log=lambda msg: None, hook=hook)


def test_lr_of_every_update_and_every_epoch_record(tmp_path, lr_at_updates):
    log = []
    run(tmp_path / "run", log)
    assert [(e, s) for e, s, _ in log] == [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6)]
    for epoch, step, lr in log:
        assert lr == pytest.approx(expected(epoch), rel=1e-12), \
            f"update {step} in 0-based epoch {epoch} ran at lr {lr}, not lr * lr_decay**{epoch} = {expected(epoch)}"
    assert lr_at_updates == pytest.approx([expected(e) for e, _, _ in log], rel=1e-12)
    assert_metrics_schedule(tmp_path / "run")


def test_schedule_after_resume_mid_epoch(tmp_path, lr_at_updates):
    """Stopped after update 3 (inside epoch 2), then resumed: the remaining updates keep the formula."""
    out = tmp_path / "run"
    first, rest = [], []
    run(out, first, max_steps=3)
    assert [(e, s) for e, s, _ in first] == [(0, 1), (0, 2), (1, 3)]
    cfg = TrainConfig(**{**TINY, "out": str(out)})
    train(cfg, resume=True, quiet=True, log=lambda msg: None,
          hook=lambda t: rest.append((t.epoch, t.step, t.opt.lr)))
    assert [(e, s) for e, s, _ in rest] == [(1, 4), (2, 5), (2, 6)]
    for epoch, step, lr in first + rest:
        assert lr == pytest.approx(expected(epoch), rel=1e-12), f"update {step}, epoch {epoch}: lr {lr}"
    assert lr_at_updates == pytest.approx([expected(e) for e, _, _ in first + rest], rel=1e-12)
    assert_metrics_schedule(out)


def test_cli_lr_decay_reaches_the_run(tmp_path):
    out = tmp_path / "cli"
    args = ["train", "--task", "digits", "--split", "64/32", "--hidden", "4", "--batch-size", "32",
            "--epochs", str(EPOCHS), "--lr", str(LR), "--lr-decay", str(DECAY), "-q", "--out", str(out)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert_metrics_schedule(out)
