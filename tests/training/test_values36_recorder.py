"""lnrnn/training/recorder.py against its definitions, on a stand-in trainer: an epoch row's training means are
the head's means over the units it scored (a per-step classifier's steps, a density head's points, with its
nats per sequence over the sequences), not over the sequences trained on; --save-every-seconds 0 is off (no
save is ever due by the clock) and a positive one is due once that many seconds have passed, at the second
itself, on a stand-in clock."""
from types import SimpleNamespace

import pytest

from lnrnn.model.heads import make_head
from lnrnn.training import recorder
from lnrnn.training.recorder import RunRecorder


def epoch_trainer(head, sums, count, samples, epoch=1, n_train=12):
    return SimpleNamespace(sums={"sums": sums, "count": count, "samples": samples}, model=SimpleNamespace(head=head),
                           epoch=epoch, step=9, task=SimpleNamespace(size=lambda which: n_train),
                           opt=SimpleNamespace(lr=0.01), train_time=4.0, compile_total=lambda: 0.0)


def test_an_epoch_rows_means_are_over_the_scored_steps_of_a_per_step_head():
    """3 sequences of 5 scored steps each: loss and correct steps summed over 15 units."""
    head = make_head({"kind": "classifier", "outputs": 4, "per_step": True}, hidden_size=2)
    t = epoch_trainer(head, {"loss": 30.0, "acc": 9.0}, count=15, samples=3)
    row = RunRecorder(t).epoch_row({"loss": 1.5, "acc": 0.5}, epoch_wall=2.0)
    assert row["train_loss"] == pytest.approx(30.0 / 15) and row["train_acc"] == pytest.approx(9.0 / 15)
    assert row["val_loss"] == 1.5 and row["val_acc"] == 0.5
    assert row["epoch"] == 2 and row["samples"] == 2 * 12 and row["samples_per_s"] == 1.5   # 3 sequences in 2 s


def test_an_epoch_rows_density_head_means_points_and_sequences_apart():
    """A density head: the loss per scored point (count), nats per sequence over the sequences it read."""
    head = make_head({"kind": "mdn", "components": 2}, hidden_size=2)
    t = epoch_trainer(head, {"loss": 120.0, "nats_seq": 120.0, "seqs": 4}, count=40, samples=4)
    row = RunRecorder(t).epoch_row({"loss": 2.0, "nats_seq": 20.0}, epoch_wall=1.0)
    assert row["train_loss"] == pytest.approx(3.0) and row["train_nats_seq"] == pytest.approx(30.0)


def save_trainer(every_seconds, clock):
    return SimpleNamespace(save_pending=False, step=0, last_save_t=clock[0], high_streak=0,
                           cfg=SimpleNamespace(save_every=None, save_every_seconds=every_seconds))


@pytest.mark.parametrize("every_seconds, due_at", [
    (0.0, []),                         # off: never due by the clock
    (5.0, [5, 10, 15]),                # due at the fifth second after the last save, counted from each save
    (2.5, [3, 6, 9, 12, 15]),          # a second after the update that passes the mark
])
def test_save_every_seconds_is_due_once_that_many_seconds_passed(monkeypatch, every_seconds, due_at):
    clock = [100.0]
    monkeypatch.setattr(recorder, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    t = save_trainer(every_seconds, clock)
    due = []
    for step in range(1, 16):        # one update a second
        clock[0] = 100.0 + step
        t.step = step
        if RunRecorder(t).save_due():
            due.append(step)
            t.last_save_t = clock[0]    # what RunRecorder.save sets
    assert due == due_at
