"""``evaluate`` with a group of ranks (lnrnn/training/evaluation.py): from two ranks up the batches are dealt out
(``distributed.evaluate``: batch i on rank i mod N), so each rank reads only its own share of the split and the
ranks' sums, added by the group, give the figures of one process; a group of one process reads every batch
itself and adds nothing over the group. The group here stands in for MPI: its allreduce adds the other ranks'
rows, computed beforehand by the same code, as MPI would."""
import numpy as np
import pytest

from lnrnn.training.evaluation import evaluate
from test_values_evaluation import _model, _task


class Ranks:
    """Rank ``rank`` of ``size``: records what it is asked to add; adds ``others`` (the other ranks' rows)."""

    def __init__(self, rank, size, others=()):
        self.rank, self.size, self.others, self.added = rank, size, list(others), []

    def allreduce(self, buf):
        self.added.append(buf.copy())
        for o in self.others:
            buf += o


def _reading(task):
    """Make task.batch record the first sample of every batch it reads -> that record (a list)."""
    read, plain = [], task.batch

    def batch(which, idx, dtype=np.float32):
        read.append(int(idx[0]))
        return plain(which, idx, dtype)
    task.batch = batch
    return read


@pytest.mark.parametrize("size", [2, 3])
def test_ranks_read_their_own_batches_and_add_to_one_processs_figures(size):
    model, task = _model(), _task(n_val=7)
    whole = evaluate(model, task, "val", batch_size=2)      # batches of samples 0-1, 2-3, 4-5, 6
    rows = []
    for r in range(size):       # each rank's own rows, as its allreduce would receive them
        g, read = Ranks(r, size), _reading(task)
        evaluate(model, task, "val", batch_size=2, group=g)
        assert read == [2 * i for i in range(r, 4, size)], (r, read)   # batch i on rank i mod size only
        assert len(g.added) == 1
        rows.append(g.added[0])
        task = _task(n_val=7)
    for r in range(size):
        g = Ranks(r, size, others=[rows[k] for k in range(size) if k != r])
        got = evaluate(model, task, "val", batch_size=2, group=g)
        assert got.keys() == whole.keys()
        for k in whole:
            assert got[k] == pytest.approx(whole[k], rel=1e-12), (r, k)


def test_a_group_of_one_reads_every_batch_and_adds_nothing():
    model, task = _model(), _task(n_val=7)
    read, g = _reading(task), Ranks(0, 1)
    got = evaluate(model, task, "val", batch_size=3, group=g)
    assert read == [0, 3, 6] and g.added == []
    assert got == evaluate(model, _task(n_val=7), "val", batch_size=3)
