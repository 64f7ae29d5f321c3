"""lnrnn/training/distributed.py: how a global batch is dealt to the ranks, counted by hand at uneven sizes, and the
pieces of a group that one process runs without a launcher. shard_batch's rows of a batch of B = 10 (T = 7) for each
rank of 3 (4, 3 and 3 rows: [0, 4), [4, 7), [7, 10)) against the batch's own rows, lengths, initial-state noise and
text; an empty shard (rank 11 of 12) is row 0 run for 0 steps, text length 0, and adds exactly zero to the gradient
and the sums. A Group over a stand-in communicator reads its rank and size from it; rank_blocks of B = 10 and 40 under
block rows 1 (4 and 16 data blocks, dealt 2-1-1 and 6-5-5 over 3 ranks); a failing rank 2 of 3 names itself.
BlockRing's sums of three blocks' buffers worked out by hand, and a ring whose blocks reach different numbers of
reductions refused word for word with their counts. evaluate in one process against SequenceModel.evaluate of the
same batches (the definition: sums and counts added over every batch, noise key i for batch i). check_config's
refusals word for word at one block (singular) and two blocks (plural), and for a batch smaller than the group."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values230_distributed_one_group import LENGTHS, B, T, batch, scored_by_hand
from test_values_distributed_options import MDN, PER_STEP, ThreadRank, config


class Comm:
    """A communicator stand-in: rank and size, and what Abort was called with."""

    def __init__(self, rank, size):
        self.r, self.s, self.aborted = rank, size, []

    def Get_rank(self):
        return self.r

    def Get_size(self):
        return self.s

    def Abort(self, code):
        self.aborted.append(code)


def text_model():
    return build_model(config("ln-lstm", MDN, "float64", text=True), seed=2)


def test_shards_of_three_ranks_are_the_batchs_rows():
    m = text_model()
    x, y, tx = batch(MDN, text=True, seed=1)
    noise = m.noise_state(B, (1, 13))            # the global batch's draw: one process's
    total = scored_by_hand(MDN, y, LENGTHS)
    for r, (lo, hi) in enumerate([(0, 4), (4, 7), (7, 10)]):   # 10 = 4 + 3 + 3: the first 10 % 3 ranks hold one more
        xs, ts, ls, st, tot, (codes, ulen) = distributed.shard_batch(ThreadRank(r, 3, None), m, x, y, LENGTHS, 13, tx)
        np.testing.assert_array_equal(xs, x[:, lo:hi])
        np.testing.assert_array_equal(ts, y[lo:hi])
        np.testing.assert_array_equal(ls, LENGTHS[lo:hi])
        assert tot == total
        assert len(st) == len(noise)
        for layer, want in zip(st, noise):
            for s, w in zip(layer, want):
                np.testing.assert_array_equal(s, w[lo:hi])
        np.testing.assert_array_equal(codes, tx[0][lo:hi])
        np.testing.assert_array_equal(ulen, tx[1][lo:hi])


def test_an_empty_shard_is_row_zero_for_zero_steps_and_adds_nothing():
    m = text_model()
    x, y, tx = batch(MDN, text=True, seed=1)
    xs, ts, ls, st, tot, (codes, ulen) = distributed.shard_batch(ThreadRank(11, 12, None), m, x, y, LENGTHS, 13, tx)
    np.testing.assert_array_equal(xs, x[:, 0:1])
    np.testing.assert_array_equal(ts, y[0:1])
    np.testing.assert_array_equal(ls, [0])
    np.testing.assert_array_equal(ulen, [0])
    np.testing.assert_array_equal(codes, tx[0][0:1])
    assert tot == scored_by_hand(MDN, y, LENGTHS)
    noise = m.noise_state(B, (1, 13))
    for layer, want in zip(st, noise):
        for s, w in zip(layer, want):
            np.testing.assert_array_equal(s, w[0:1])
    m.loss_and_grad(xs, ts, ls, state=st, total=tot, text=(codes, ulen))
    assert all(v == 0 for v in m.last_sums.values()), m.last_sums
    assert not np.any(m.flat[1].data)


def test_a_group_reads_its_rank_and_size_and_deals_blocks_by_hand():
    g = distributed.Group(Comm(1, 3))
    assert (g.rank, g.size, g.root) == (1, 3, False)
    assert distributed.Group(Comm(0, 3)).root
    with block_rows(1):
        # B = 10: 8 kernel blocks (8 <= 10), 4 data blocks; over 3 ranks 2, 1, 1: rank 1 runs block 2
        assert distributed.rank_blocks(g, 10) == (4, 2, 3, [2, 1, 1])
        assert distributed.rank_blocks(distributed.Group(Comm(2, 3)), 10) == (4, 3, 4, [2, 1, 1])
        # B = 40: 32 kernel blocks, 16 data blocks; over 3 ranks 6, 5, 5
        assert distributed.rank_blocks(g, 40) == (16, 6, 11, [6, 5, 5])
        assert distributed.rank_blocks(distributed.SINGLE, 40) == (16, 0, 16, [16])


def test_a_failing_rank_names_itself(monkeypatch, capsys):
    slept = []
    monkeypatch.setattr(distributed.time, "sleep", slept.append)
    comm = Comm(2, 3)
    distributed.Group(comm).fail(UserError("--steps 3 is too short."))
    assert capsys.readouterr().err == "Error (rank 2 of 3): --steps 3 is too short.\n"
    assert comm.aborted == [2]
    assert distributed.Group(Comm(1, 4)).describe() == "rank 1 of 4"


def test_block_ring_adds_every_blocks_buffer_in_block_order():
    seen = []

    def work(j, reduce):
        for step in range(2):
            buf = np.array([j + 1.0, 10.0 * (j + 1) + step])
            reduce(buf)
            seen.append((j, step, buf.tolist()))

    distributed.BlockRing(distributed.SINGLE, [3]).run(work)
    # blocks 1, 2, 3 -> 1 + 2 + 3 = 6; 10 + 20 + 30 (+ step from each of the three blocks)
    want = {0: [6.0, 60.0], 1: [6.0, 63.0]}
    assert sorted(seen) == sorted((j, s, want[s]) for j in range(3) for s in range(2))


def test_block_ring_refuses_blocks_that_reduce_unevenly():
    def work(j, reduce):
        for _ in range(2 - j):   # block 0 reduces twice, block 1 once
            reduce(np.zeros(2))

    with pytest.raises(RuntimeError) as e:
        distributed.BlockRing(distributed.SINGLE, [2]).run(work)
    assert str(e.value) == ("the blocks of a BatchNorm update reached their statistics' reductions a different "
                            "number of times ([2, 1], finished [False, True])")


def test_evaluate_of_one_process_adds_every_batch():
    m = build_model(config("ln-lstm", PER_STEP, "float64"), seed=3)
    rng = np.random.default_rng(7)
    data = []
    for b, lengths in [(3, [5, 0, 2]), (2, [1, 4]), (4, [3, 3, 5, 1])]:   # the last batch differs from the rest
        x = rng.standard_normal((5, b, 3))
        y = rng.integers(0, 3, (b, 5))
        data.append((x, y, np.array(lengths)))
    got = distributed.evaluate(distributed.SINGLE, m, [lambda d=d: d for d in data])
    want = m.evaluate(data)
    assert got == want
    # the count by hand: steps run, 7 + 5 + 12 = 24; the loss is the summed loss over 24
    sums = [m.loss_sums(*d, noise_key=i)[0]["loss"] for i, d in enumerate(data)]
    assert got["loss"] == pytest.approx((sums[0] + sums[1] + sums[2]) / 24, rel=1e-12)


def test_check_config_refusals_word_for_word():
    cfg = SimpleNamespace(device="cpu", reproducible=True, block_rows=1, batch_size=2)
    with pytest.raises(UserError) as e:   # B 2 under block rows 1: 2 kernel blocks, 1 data block
        distributed.check_config(cfg, 2)
    assert str(e.value) == ("--reproducible gives each of the 2 MPI processes whole blocks of a batch, but "
                            "--batch-size 2 with --block-rows 1 makes 1 block; use a larger --batch-size, a smaller "
                            "--block-rows, or at most 1 process.")
    cfg = SimpleNamespace(device="cpu", reproducible=True, block_rows=1, batch_size=5)
    with pytest.raises(UserError) as e:   # B 5: 4 kernel blocks, 2 data blocks
        distributed.check_config(cfg, 3)
    assert str(e.value) == ("--reproducible gives each of the 3 MPI processes whole blocks of a batch, but "
                            "--batch-size 5 with --block-rows 1 makes 2 blocks; use a larger --batch-size, a smaller "
                            "--block-rows, or at most 2 processes.")
    distributed.check_config(cfg, 2)   # 2 blocks for 2 processes
    cfg = SimpleNamespace(device="cpu", reproducible=False, block_rows=1, batch_size=2)
    with pytest.raises(UserError) as e:
        distributed.check_config(cfg, 3)
    assert str(e.value) == ("--batch-size 2 is smaller than the 3 MPI processes: each rank needs a share of every "
                            "batch; use --batch-size 3 or more, or fewer processes.")
    distributed.check_config(cfg, 2)
