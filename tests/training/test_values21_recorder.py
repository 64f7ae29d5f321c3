"""updates.jsonl's rows come every --log-every updates of the run (by the update count, across epoch ends and a
resume in the middle of an epoch), not by the batch within the epoch: epochs of 3 batches, --log-every 2, the
rows at updates 2, 4, 6, 8 and 10 with the fractional epoch of each; after a resume at update 4 (epoch 2, batch 1)
the rows go on at 6, 8, 10 with the updates since the last row."""
from types import SimpleNamespace

from lnrnn.training.recorder import RunRecorder


class Rows:
    def __init__(self):
        self.rows = []

    def append(self, row):
        self.rows.append(row)


def new_sums():
    return {"sums": {"loss": 0.0}, "count": 0, "samples": 0}


def run(first, last, nb=3, log_every=2):
    """Updates first..last (1-based) of a run whose epochs have nb batches -> the rows written."""
    head = SimpleNamespace(mean=lambda sums, count: {"loss": sums["loss"] / count})
    model = SimpleNamespace(head=head, last_sums=None, last_count=None)
    t = SimpleNamespace(log_window=new_sums(), model=model, cfg=SimpleNamespace(log_every=log_every), epoch=0,
                        batch_in_epoch=0, step=0, opt=SimpleNamespace(lr=0.1), train_time=0.0, _new_sums=new_sums)
    r = RunRecorder(t)
    r.update_log = Rows()
    for step in range(first, last + 1):
        t.step, t.epoch, t.batch_in_epoch = step, (step - 1) // nb, (step - 1) % nb + 1
        model.last_sums, model.last_count = {"loss": float(step)}, 1
        r.log_update(nb)
    return r.update_log.rows


def test_rows_every_log_every_updates_across_epoch_ends():
    rows = run(1, 10)
    assert [row["step"] for row in rows] == [2, 4, 6, 8, 10]
    # update s is batch (s - 1) % 3 + 1 of epoch (s - 1) // 3: its fractional epoch
    assert [row["epoch"] for row in rows] == [round((s - 1) // 3 + ((s - 1) % 3 + 1) / 3, 6) for s in (2, 4, 6, 8, 10)]
    assert [row["train_loss"] for row in rows] == [1.5, 3.5, 5.5, 7.5, 9.5]
    assert all(row["updates"] == 2 for row in rows)


def test_a_resume_in_the_middle_of_an_epoch_keeps_the_update_count():
    rows = run(5, 10)                                     # resumed after update 4: epoch 2, batch 1 done
    assert [row["step"] for row in rows] == [6, 8, 10]
    assert [row["updates"] for row in rows] == [2, 2, 2]
    assert [row["train_loss"] for row in rows] == [5.5, 7.5, 9.5]
