"""The --reproducible update (``distributed.loss_and_grad_blocks``) on the shapes where the ranks' share of
the blocks is uneven, each compared with one process's own call: a batch of one row (one block, never
zero), two ranks that each run one block of the global batch (every gathered block is added, not only as
many as a rank ran), and a BatchNorm batch of one row on two ranks under truncated BPTT, where rank 1 owns
no block and its stand-in must reach the statistics' reductions chunk by chunk as rank 0's block does.
"Ranks" are threads; their allreduce and allgather meet at a barrier with a timeout, so a rank that
reaches a collective the other never does fails the test instead of hanging it."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values_distributed_options2 import ThreadRank, on_ranks as thread_ranks

T, I, H = 5, 3, 4
HEAD = {"kind": "classifier", "outputs": 3, "per_step": True}


def on_ranks(n, work):
    """work(group) on n thread ranks (test_values_distributed_options2.on_ranks), each with blocks of one row."""
    def one_row_blocks(group):
        with block_rows(1):
            return work(group)
    return thread_ranks(n, one_row_blocks)


def model(norm):
    cfg = dict(cell="lstm", norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, state_noise=0.3, head=HEAD)
    return build_model(cfg, seed=4)


def batch(B, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((T, B, I)), rng.integers(0, HEAD["outputs"], (B, T))


def close(got, want, tol=1e-10):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert np.abs(got - want).max() <= tol * np.abs(want).max()


def test_a_batch_of_one_row_is_one_block():
    for rows in (1, 4):
        with block_rows(rows):
            assert distributed.data_blocks(1) == 1
    x, y = batch(1)
    one = model("ln")
    want = one.loss_and_grad(x, y, None, tbptt=None, noise_key=3)
    m = model("ln")
    with block_rows(1):
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, None, None, 3, np.zeros(1))
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)
    close(m.flat[1].data, one.flat[1].data)


def test_two_ranks_add_every_gathered_block():
    x, y = batch(5, seed=1)
    lengths = np.array([5, 2, 4, 1, 3])
    with block_rows(1):
        assert distributed.data_blocks(5) == 2
        single = model("ln")
        want = distributed.loss_and_grad_blocks(distributed.SINGLE, single, x, y, lengths, None, 2, np.zeros(1))
    ranks = [model("ln") for _ in range(2)]

    def work(group):
        m = ranks[group.rank]
        return distributed.loss_and_grad_blocks(group, m, x, y, lengths, None, 2, np.zeros(1))

    for m, got in zip(ranks, on_ranks(2, work)):
        assert got == want
        np.testing.assert_array_equal(m.flat[1].data, single.flat[1].data)
    plain = model("ln")
    plain.loss_and_grad(x, y, lengths, noise_key=2)
    close(single.flat[1].data, plain.flat[1].data)


def test_a_bn_rank_without_blocks_follows_truncated_bptt():
    """B = 1 on two ranks: one block, rank 0's; rank 1 runs a stand-in of length 0 through every reduction."""
    x, y = batch(1, seed=2)
    with block_rows(1):
        assert distributed.rank_blocks(ThreadRank(1, 2, None, None), 1)[1:3] == (1, 1)   # rank 1: no block
        single = model("bn")
        want = distributed.loss_and_grad_blocks(distributed.SINGLE, single, x, y, None, 2, 5, np.zeros(1))
    ranks = [model("bn") for _ in range(2)]

    def work(group):
        return distributed.loss_and_grad_blocks(group, ranks[group.rank], x, y, None, 2, 5, np.zeros(1))

    for m, got in zip(ranks, on_ranks(2, work)):
        assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)
        close(m.flat[1].data, single.flat[1].data)
        for k, v in single.stack.buffers.items():
            close(m.stack.buffers[k], v)
