"""lnrnn/training/distributed.py's ``Group`` itself over a stand-in communicator that keeps MPI's rules, and the
update on it without mpiexec:

- ``Comm`` ranks are greenlets of this thread (a BatchNorm update's block greenlets nest inside them). Each
  collective waits for every rank: Allreduce adds the buffers in rank order; Allgatherv gives every receiver
  counts[q] numbers from rank q at displacement sum(counts[:q]), and, as MPI, refuses a count that is not what
  rank q sent (a truncation) or a receive buffer too small for them; bcast hands every rank the root's object and
  refuses ranks that name different roots.
- The launcher's variables when none is set (one process, rank 0), and a rank variable saying 0 ends the search.
- shard against NumPy's array_split (sizes differ by at most one, the larger first, in order); root is rank 0
  alone; describe names MPI's 0-based rank; resume_note's two messages for --reproducible and not.
- allgather_rows with ranks of 2, 0, 1 and 3 rows is the ranks' rows concatenated; bcast is rank 0's object.
- loss_and_grad on 3 ranks of 2, 2 and 1 rows (an LN-LSTM on the window task with masks, an empty row, truncated
  BPTT, state noise, float64): every rank's gradient and means are one process's over the whole batch.
- loss_and_grad_blocks (--reproducible, BN-RNN, blocks of one row, B = 9, 4 blocks) on 1, 2 and 3 ranks (3 ranks
  hold 2, 1 and 1 blocks): the gradient, metric sums and BN running statistics are the same bits for every
  count, and one plain call's over the whole batch to round-off."""
import sys

import numpy as np
import pytest
from greenlet import getcurrent, greenlet

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import LENGTHS, PER_STEP, batch, close, config, same_means


class Hub:
    """n ranks as greenlets; run(work) -> [work(Group(comm of rank r)) for each rank]."""

    def __init__(self, n):
        self.n, self.posts, self.main = n, [None] * n, None

    def post(self, rank, kind, *args):
        self.posts[rank] = (kind,) + args
        return self.main.switch()

    def _meet(self):
        kinds = {p[0] for p in self.posts}
        assert len(kinds) == 1, f"the ranks reached different collectives: {kinds}"
        kind = kinds.pop()
        if kind == "allreduce":
            total = self.posts[0][1].copy()
            for p in self.posts[1:]:
                total += p[1]
            for p in self.posts:
                p[1][...] = total
            return [None] * self.n
        if kind == "allgatherv":
            for _, _, out, counts in self.posts:
                flat, at = out.reshape(-1), 0
                for q, (_, send, _, _) in enumerate(self.posts):
                    assert send.size == counts[q], f"MPI truncation: rank {q} sends {send.size}, {counts[q]} expected"
                    assert at + counts[q] <= flat.size, "MPI truncation: the receive buffer is too small"
                    flat[at:at + counts[q]] = send.reshape(-1)
                    at += counts[q]
            return [None] * self.n
        roots = {p[2] for p in self.posts}
        assert len(roots) == 1, f"the ranks name different roots: {roots}"
        root = roots.pop()
        return [self.posts[root][1]] * self.n

    def run(self, work):
        self.main = getcurrent()
        out = [None] * self.n

        def body(r):
            out[r] = work(distributed.Group(Comm(self, r)))

        lets = [greenlet(lambda r=r: body(r)) for r in range(self.n)]
        for g in lets:   # each rank to its first collective (or its end)
            g.switch()
        while True:
            done = [g.dead for g in lets]
            if all(done):
                return out
            assert not any(done), f"ranks ended while others wait in a collective: {done}"
            replies = self._meet()
            self.posts = [None] * self.n
            for g, reply in zip(lets, replies):
                g.switch(reply)


class Comm:
    def __init__(self, hub, rank):
        self.hub, self.rank = hub, rank

    def Get_rank(self):
        return self.rank

    def Get_size(self):
        return self.hub.n

    def Allreduce(self, inplace, buf, op=None):
        self.hub.post(self.rank, "allreduce", buf)

    def Allgatherv(self, send, spec):
        out, counts = spec
        self.hub.post(self.rank, "allgatherv", send, out, list(counts))

    def bcast(self, obj, root=0):
        return self.hub.post(self.rank, "bcast", obj, root)


@pytest.fixture
def no_launcher(monkeypatch):
    for v in distributed.SIZE_VARS + distributed.RANK_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    return monkeypatch


def test_without_a_launcher_one_process_of_rank_0(no_launcher):
    assert distributed.launched_size() == 1
    assert distributed.launched_rank() == 0
    assert distributed.init() is distributed.SINGLE


def test_a_rank_variable_saying_0_ends_the_search(no_launcher):
    no_launcher.setenv(distributed.RANK_VARS[0], "0")
    no_launcher.setenv(distributed.RANK_VARS[-1], "2")
    assert distributed.launched_rank() == 0


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_shards_are_numpys_array_split(size):
    for B in range(0, 13):
        want = np.array_split(np.arange(B), size)
        for r in range(size):
            lo, hi = distributed.shard(B, size, r)
            assert list(range(lo, hi)) == list(want[r]), (B, size, r)


def test_root_is_rank_0_and_ranks_count_from_0():
    hub = Hub(3)
    groups = [distributed.Group(Comm(hub, r)) for r in range(3)]
    assert [g.root for g in groups] == [True, False, False]
    assert [g.describe() for g in groups] == [f"rank {r} of 3" for r in range(3)]
    assert distributed.SINGLE.root and distributed.SINGLE.describe() == "rank 0 of 1"


def test_resume_notes_for_reproducible_and_not():
    same = distributed.resume_note(2, 3, 12, reproducible=True)
    split = distributed.resume_note(2, 3, 12, reproducible=False)
    assert "same bits" in same and "split" not in same
    assert "split 3 ways" in split and "same bits" not in split


def test_allgather_rows_of_unequal_ranks_and_bcast_of_rank_0():
    counts = [2, 0, 1, 3]
    rows = [np.arange(c * 3, dtype=np.float64).reshape(c, 3) + 100 * r for r, c in enumerate(counts)]

    def work(g):
        got = g.allgather_rows(rows[g.rank], counts)
        return got, g.bcast(f"object of rank {g.rank}")

    want = np.concatenate(rows)
    for got, obj in Hub(4).run(work):
        np.testing.assert_array_equal(got, want)
        assert obj == "object of rank 0"


def test_loss_and_grad_on_three_ranks_of_unequal_rows_is_one_process():
    cfg = config("ln-lstm", PER_STEP, text=True)
    x, y, tx = batch(PER_STEP, text=True, seed=4)
    one = build_model(cfg, seed=3)
    want = one.loss_and_grad(x, y, LENGTHS, tbptt=2, noise_key=7, text=tx)
    assert [distributed.shard(5, 3, r) for r in range(3)] == [(0, 2), (2, 4), (4, 5)]
    ranks = [build_model(cfg, seed=3) for _ in range(3)]
    votes = [np.array([float(r == 1), 0.0]) for r in range(3)]
    out = Hub(3).run(lambda g: distributed.loss_and_grad(g, ranks[g.rank], x, y, LENGTHS, 2, 7, votes[g.rank],
                                                         text=tx))
    for r, got in enumerate(out):
        close(ranks[r].flat[1].data, one.flat[1].data, f"rank {r}'s gradient", tol=1e-9)
        same_means(got, want, one.last_count, f"rank {r}'s means", tol=1e-9)
        assert ranks[r].last_count == one.last_count
        np.testing.assert_array_equal(votes[r], [1.0, 0.0])


RB = 9
RLENGTHS = np.array([6, 2, 0, 5, 3, 6, 1, 4, 6])


def reproducible_batch():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((6, RB, 3))
    y = rng.integers(0, PER_STEP["outputs"], (RB, 6))
    y[0, 1] = y[3, 4] = -1
    return x, y


def test_reproducible_bn_rnn_on_one_two_and_three_ranks_is_the_same_bits():
    cfg = config("bn-rnn", PER_STEP)
    x, y = reproducible_batch()
    results = {}
    with block_rows(1):
        nb = distributed.data_blocks(RB)
        assert nb >= 3
        for n in (1, 2, 3):
            ranks = [build_model(cfg, seed=5) for _ in range(n)]
            out = Hub(n).run(lambda g: distributed.loss_and_grad_blocks(g, ranks[g.rank], x, y, RLENGTHS, 3, 2,
                                                                        np.zeros(2)))
            for r in range(n):
                assert out[r] == out[0]
                np.testing.assert_array_equal(ranks[r].flat[1].data, ranks[0].flat[1].data)
            results[n] = (out[0], ranks[0])
    (m1, model1) = results[1]
    for n in (2, 3):
        means, model = results[n]
        assert means == m1, n
        assert model.last_sums == model1.last_sums, n
        np.testing.assert_array_equal(model.flat[1].data, model1.flat[1].data, f"{n} ranks")
        for k, v in model1.stack.buffers.items():
            np.testing.assert_array_equal(model.stack.buffers[k], v, f"{n} ranks: {k}")
    one = build_model(cfg, seed=5)
    one.loss_and_grad(x, y, RLENGTHS, tbptt=3, noise_key=2)
    close(model1.flat[1].data, one.flat[1].data, "blocks against one call", tol=1e-9)
    for k, v in one.stack.buffers.items():
        close(model1.stack.buffers[k], v, k, tol=1e-9)
