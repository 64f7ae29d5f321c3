"""The run's eval rows against their definition: an evaluation after the k-th batch of an epoch (--eval-every,
a stop) is at epoch e + k / nb, where k counts the batches done (``Trainer.batch_in_epoch``), and its
samples are the epochs done times the training set plus this epoch's samples."""
from types import SimpleNamespace

import pytest

from lnrnn.training.recorder import RunRecorder


def trainer(epoch, done, samples):
    return SimpleNamespace(epoch=epoch, batch_in_epoch=done, step=epoch * 8 + done, sums={"samples": samples},
                           task=SimpleNamespace(size=lambda which: 100), opt=SimpleNamespace(lr=0.5),
                           train_time=1.25, compile_total=lambda: 0.5)


@pytest.mark.parametrize("epoch,done,samples,want_epoch", [
    (0, 1, 13, 0.125),            # the first batch of 8 done
    (2, 3, 39, 2.375),
    (1, 7, 91, 1.875),            # the epoch's last batch is the epoch's own evaluation; the one before it
])
def test_an_eval_row_is_at_the_batches_done(epoch, done, samples, want_epoch):
    row = RunRecorder(trainer(epoch, done, samples)).eval_row({"loss": 0.5, "acc": 0.75}, 8, "update")
    assert row["epoch"] == want_epoch
    assert row["step"] == epoch * 8 + done and row["samples"] == epoch * 100 + samples
    assert row["val_loss"] == 0.5 and row["val_acc"] == 0.75 and row["eval"] == "update" and row["lr"] == 0.5
