"""``evaluate`` with a group of ranks (lnrnn/training/evaluation.py): from two ranks up the batches are dealt out
(``distributed.evaluate``: batch i on rank i mod N), so each rank reads only its own share of the split and the
ranks' sums, added by the group, give the figures of one process; a group of one process reads every batch
itself and adds nothing over the group. The ranks run as coroutines of one thread (test_values43_distributed_shards'
``Coroutines``: the group's allreduce adds the ranks' buffers, as MPI would)."""
import numpy as np
import pytest

from lnrnn.training.evaluation import evaluate
from test_values43_distributed_shards import Coroutines, Solo
from test_values_evaluation import _model, _task


class Counted(Solo):
    """A group of one process that counts the collectives it is asked for."""

    def __init__(self):
        super().__init__(0, 1)
        self.calls = 0

    def allreduce(self, buf):
        self.calls += 1


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
    model = _model()
    whole = evaluate(model, _task(n_val=7), "val", batch_size=2)      # batches of samples 0-1, 2-3, 4-5, 6
    reads = [None] * size

    def rank(group):
        task = _task(n_val=7)
        reads[group.rank] = _reading(task)
        return evaluate(model, task, "val", batch_size=2, group=group)
    got = Coroutines(size).run(rank)
    for r in range(size):
        assert reads[r] == [2 * i for i in range(r, 4, size)], (r, reads[r])   # batch i on rank i mod size only
        assert got[r].keys() == whole.keys()
        for k in whole:
            assert got[r][k] == pytest.approx(whole[k], rel=1e-12), (r, k)


def test_a_group_of_one_reads_every_batch_and_adds_nothing():
    model, task = _model(), _task(n_val=7)
    read, g = _reading(task), Counted()
    got = evaluate(model, task, "val", batch_size=3, group=g)
    assert read == [0, 3, 6] and g.calls == 0
    assert got == evaluate(model, _task(n_val=7), "val", batch_size=3)
