"""lnrnn/training/setup.py's build hands a group of more than one process to the model's BatchNorm layers: with 2 or 3
processes (rank 0, built in one process), a BN cell's statistics at every step of an update go through the group's
allreduce; with one process they never do (the fused kernels: nothing to add up), and an LN cell, which never mixes
rows, ignores the group. The digits run of test_values260_setup (64 steps, hidden 3, a batch of 8, float32)."""
import numpy as np
import pytest

from lnrnn.training.setup import build
from test_values260_setup import digits


class Group:
    """Rank 0 of ``size`` processes in one: allreduce records each buffer it is handed and adds nothing."""

    def __init__(self, size):
        self.root, self.size, self.sums = True, size, []

    def allreduce(self, buf):
        self.sums.append(buf.size)


def update(tmp_path, cell, size):
    group = Group(size)
    setup = build(digits(tmp_path, cell=cell), False, set(), group)
    x, y = setup.task.batch("train", np.arange(8))
    assert x.shape[0] == 64
    group.sums.clear()
    setup.model.loss_and_grad(x, y)
    return group.sums, x.shape[0]


@pytest.mark.parametrize("size", [2, 3])
@pytest.mark.parametrize("cell", ["bn-lstm", "bn-rnn"])
def test_a_groups_batchnorm_statistics_go_through_its_allreduce(tmp_path, cell, size):
    sums, T = update(tmp_path, cell, size)
    assert len(sums) >= 2 * T   # forward and backward, every step
    assert all(n > 0 for n in sums)


@pytest.mark.parametrize("cell,size", [("bn-lstm", 1), ("bn-rnn", 1), ("ln-lstm", 2), ("lstm", 3)])
def test_one_process_or_a_cell_without_batchnorm_adds_nothing(tmp_path, cell, size):
    sums, _ = update(tmp_path, cell, size)
    assert sums == []
