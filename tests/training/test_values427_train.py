"""A run stopped on an epoch's last batch (lnrnn/training/train.py: the loop's stop inside and at the end of an
epoch), worked out on the tiny digits runs of test_values202_train_run: 40 training images in batches of 16 are NB = 3
updates an epoch, so --max-steps 3 stops on the first epoch's last batch and --max-steps 2 one batch before it.

A stop on the last batch is the epoch's end: the epoch's evaluation is written to metrics.jsonl, the checkpoint is
the next epoch's start (epoch 1, batch 0) and the summary says "after epoch 1"; a stop inside the epoch writes no
row (there is no --eval-every), keeps its position (epoch 0, batch 2) and says "at epoch 1". Counted by hand from
the sizes, not read back from the code."""
import json

import pytest

from lnrnn.training.rundir import METRICS_FILE
from lnrnn.training.train import train
from test_values202_train_run import TINY, cfg

NB = 3
assert TINY["split"] == "40/20" and TINY["batch_size"] == 16


@pytest.mark.parametrize("max_steps, position, rows, where", [
    (NB, (1, 0, NB), [(1, NB)], "after epoch 1"),
    (NB - 1, (0, NB - 1, NB - 1), [], "at epoch 1"),
    (NB + 1, (1, 1, NB + 1), [(1, NB)], "at epoch 2"),
])
def test_a_stop_on_the_epochs_last_batch_ends_the_epoch(tmp_path, max_steps, position, rows, where):
    out, said = tmp_path / "run", []
    train(cfg(out, eval_every=None, max_steps=max_steps), quiet=True, log=said.append)
    meta = json.loads((out / "checkpoint.json").read_text())
    assert (meta["epoch"], meta["batch_in_epoch"], meta["step"]) == position
    path = out / METRICS_FILE
    got = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    assert [(r["epoch"], r["step"]) for r in got] == rows
    summary = said[-1]
    assert summary.startswith(f"Stopped (reached --max-steps {max_steps}) {where}, {max_steps} updates in "), summary
