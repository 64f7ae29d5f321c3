"""lnrnn/training/distributed.py, seventeenth pass: the launcher's variables read one by one (a rank or size
announced by a later launcher's variable alone); the data-parallel sums written out by hand over a stand-in
communicator (rank 0 of 2, the other rank's gradient and metric sums worked out here from its own rows of the
global batch, normalized by the global batch's units counted by hand): the gradient, the metric means and the
stop votes of an update against one process's call on the whole batch; an allgather that stacks every rank's
rows in rank order; --reproducible's blocks summing the group's votes; a BatchNorm model's blocks in a group of
one with truncated BPTT, ragged lengths and state noise against one call (gradient and running statistics);
block twins keeping the output clip; an error (Ctrl-C, SystemExit) ending the whole group with its exit code."""
import sys
import types
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values239_distributed_group import Comm
from test_values260_distributed_group import LENGTHS, B, ragged, units
from test_values_distributed_options import MDN, PER_STEP, config


class FakeMPI:
    IN_PLACE = object()
    SUM = "sum"
    MAX = "max"


@pytest.fixture
def fake_mpi(monkeypatch):
    mod = types.ModuleType("mpi4py")
    mod.MPI = FakeMPI
    monkeypatch.setitem(sys.modules, "mpi4py", mod)
    return FakeMPI


class SumComm(Comm):
    """Rank r of n: each Allreduce adds the next of the other ranks' buffers (queued in call order); Allgatherv
    puts the other ranks' rows (by rank) around this rank's."""

    def __init__(self, rank, size, reduce_queue=(), rows_of=None):
        super().__init__(rank, size)
        self.queue = list(reduce_queue)
        self.rows_of = rows_of or {}
        self.ops = []

    def Allreduce(self, inplace, buf, op):
        assert inplace is FakeMPI.IN_PLACE
        self.ops.append(op)
        other = np.asarray(self.queue.pop(0))
        if op == FakeMPI.SUM:
            buf += other
        else:
            np.maximum(buf, other, out=buf)

    def Allgatherv(self, send, spec):
        out, counts = spec
        flat = out.reshape(-1)
        at = 0
        for r in range(self.s):
            part = send if r == self.r else self.rows_of[r]
            part = np.asarray(part).reshape(-1)
            assert part.size == counts[r]
            flat[at:at + part.size] = part
            at += part.size


@pytest.mark.parametrize("var", distributed.RANK_VARS)
def test_a_rank_announced_by_any_one_launcher_variable_alone(monkeypatch, var):
    for v in distributed.RANK_VARS + distributed.SIZE_VARS:
        monkeypatch.delenv(v, raising=False)
    assert distributed.launched_rank() == 0
    monkeypatch.setenv(var, "13")
    assert distributed.launched_rank() == 13


@pytest.mark.parametrize("var", distributed.SIZE_VARS)
def test_a_size_announced_by_any_one_launcher_variable_alone(monkeypatch, var):
    for v in distributed.RANK_VARS + distributed.SIZE_VARS:
        monkeypatch.delenv(v, raising=False)
    assert distributed.launched_size() == 1
    monkeypatch.setenv(var, "12")
    assert distributed.launched_size() == 12


def test_update_of_rank_0_of_2_adds_the_other_ranks_gradient_sums_and_votes(fake_mpi):
    """11 rows over 2 ranks: rank 0 holds rows [0, 6), rank 1 rows [6, 11) (the first 11 % 2 ranks one more).
    Rank 1's part is worked out here from its rows, the global batch's noise rows and the global units; the
    sum over the two ranks is one process's update of the whole batch."""
    head, key, tbptt = PER_STEP, 23, 2
    cfg = config("ln-lstm", head, "float64")
    x, y = ragged(head, seed=5)
    total = units(head, y, LENGTHS)
    assert total == 31   # 5+2+0+4+1+5+3+5+2+4+1 = 32 running steps less row 0's step 3, labelled -1
    one = build_model(cfg, seed=4)
    want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=key)

    other = build_model(cfg, seed=4)
    noise = other.noise_state(B, (1, key))
    rows = slice(6, 11)
    st = [tuple(np.ascontiguousarray(s[rows]) for s in layer) for layer in noise]
    other.loss_and_grad(np.ascontiguousarray(x[:, rows]), y[rows], LENGTHS[rows], tbptt=tbptt, state=st, total=total)
    keys = list(other.last_sums)
    other_votes = [0.0, 0.0, 1.0]
    comm = SumComm(0, 2, [other.flat[1].data.copy(), [other.last_sums[k] for k in keys] + other_votes])

    m = build_model(cfg, seed=4)
    votes = np.array([1.0, 0.0, 0.0])
    got = distributed.loss_and_grad(distributed.Group(comm), m, x, y, LENGTHS, tbptt, key, votes)
    assert comm.ops == [FakeMPI.SUM, FakeMPI.SUM]
    np.testing.assert_array_equal(votes, [1.0, 0.0, 1.0])
    assert m.last_count == total
    g, w = m.flat[1].data, one.flat[1].data
    assert np.abs(w).max() > 0
    assert np.abs(g - w).max() <= 1e-12 * np.abs(w).max()
    for k, v in one.last_sums.items():
        assert abs(m.last_sums[k] - v) <= 1e-12 * max(1.0, abs(v)), k
    for k in want:
        assert abs(got[k] - want[k]) <= 1e-12 * max(1.0, abs(want[k])), k


def test_allgather_stacks_every_ranks_rows_in_rank_order():
    comm = SumComm(1, 3, rows_of={0: [[1.0, 2.0], [3.0, 4.0]], 2: [[7.0, 8.0]]})
    got = distributed.Group(comm).allgather_rows(np.array([[5.0, 6.0]]), [2, 1, 1])
    np.testing.assert_array_equal(got, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])


def test_reproducible_blocks_sum_the_groups_votes():
    """A group stand-in of one rank whose allreduce adds another rank's votes [0, 1, 1]: after the update this
    rank holds [1, 1, 1]; the gradient is one call's on the whole batch."""
    head = PER_STEP
    cfg = config("ln-rnn", head, "float64")
    x, y = ragged(head, seed=8)
    one = build_model(cfg, seed=2)
    one.loss_and_grad(x, y, LENGTHS, tbptt=3, noise_key=5)
    added = []

    def allreduce(buf):
        added.append(buf.copy())
        buf += np.array([0.0, 1.0, 1.0])

    group = SimpleNamespace(rank=0, size=1, root=True, allgather_rows=lambda rows, counts: rows, allreduce=allreduce)
    m = build_model(cfg, seed=2)
    votes = np.array([1.0, 0.0, 0.0])
    with block_rows(1):
        distributed.loss_and_grad_blocks(group, m, x, y, LENGTHS, 3, 5, votes)
    np.testing.assert_array_equal(votes, [1.0, 1.0, 1.0])
    assert len(added) == 1
    g, w = m.flat[1].data, one.flat[1].data
    assert np.abs(g - w).max() <= 1e-12 * np.abs(w).max()


def test_bn_blocks_of_one_process_share_the_batchs_statistics():
    """bn-rnn, 4 blocks of 11 rows (block rows 1), truncated BPTT chunks of 2, ragged lengths, state noise: the
    gradient and the running statistics are one call's on the whole batch (each block alone would normalize by
    its own 2 or 3 rows)."""
    head = PER_STEP
    cfg = config("bn-rnn", head, "float64")
    x, y = ragged(head, seed=12)
    one = build_model(cfg, seed=6)
    one.loss_and_grad(x, y, LENGTHS, tbptt=2, noise_key=3)
    m = build_model(cfg, seed=6)
    with block_rows(1):
        distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, 2, 3, np.zeros(3))
    g, w = m.flat[1].data, one.flat[1].data
    assert np.abs(g - w).max() <= 1e-12 * np.abs(w).max()
    for k, v in one.stack.buffers.items():
        np.testing.assert_allclose(m.stack.buffers[k], v, rtol=1e-12, atol=1e-14, err_msg=k)


def test_block_twins_keep_the_output_clip():
    m = build_model(config("ln-lstm", MDN, "float64"), seed=1)
    m.head.clip_output = 7.5
    twins = distributed.block_models(m, 3)
    assert [t.head.clip_output for t in twins] == [7.5, 7.5, 7.5]


@pytest.mark.parametrize("exc, err, code", [(KeyboardInterrupt(), "Error: interrupted.\n", 130),
                                            (SystemExit(3), "", 3)])
def test_ctrl_c_and_exit_end_the_group_with_their_codes(monkeypatch, capsys, exc, err, code):
    monkeypatch.setattr(distributed.time, "sleep", lambda s: None)
    comm = Comm(1, 2)
    escaped = None
    try:
        with distributed.failing_together(distributed.Group(comm)):
            raise exc
    except BaseException as e:  # noqa: B036 (what the group should have taken, caught here to be reported)
        escaped = e
    assert escaped is None
    assert capsys.readouterr().err == err
    assert comm.aborted == [code]
