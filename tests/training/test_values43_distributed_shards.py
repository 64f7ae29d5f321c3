"""lnrnn/training/distributed.py and lnrnn/kernels/bn_sync.py: the shards of a global batch add up to the whole
batch, computed here in one process and one thread. Two ways:

- Shards one after the other (``Solo``: rank r of n whose allreduce leaves its buffer as it is): each shard's
  gradient, metric sums and votes, added over the ranks by this file, are the whole batch's (plain and LN
  cells, whose rows never meet), with truncated BPTT, masks with padded and empty rows, the global batch's
  initial-state noise and the synthesis window's text; a shard's own mean is its share of the global mean.
- Ranks as coroutines (``Coroutines``: one greenlet a rank; every collective, the update's Allreduce, the BN
  cells' per-step reductions and --reproducible's gathers, meets at a hub that adds the ranks' buffers in rank
  order): every rank ends with one process's update (the BN cells' statistics synchronized across 2 and 3
  uneven shards), and --reproducible over 2 ranks gives the same bits as in one process.

Shards are uneven (B = 5: 3 + 2 or 2 + 2 + 1), so a shard weighted by its own count shows; every case is float64,
compared to 1e-10 relative (plain and LN: exact sums up to the order of additions)."""
import numpy as np
import pytest
from greenlet import getcurrent, greenlet

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed

T, B, I, H = 6, 5, 3, 4
LENGTHS = np.array([6, 2, 0, 5, 3])      # a full row, short ones, an empty one; step 5 runs row 0 alone
ALPHABET_SIZE, WINDOW = 5, 2
PER_STEP = {"kind": "classifier", "outputs": 3, "per_step": True}
LAST = {"kind": "classifier", "outputs": 3, "per_step": False}
MDN = {"kind": "mdn", "components": 2, "per_step": True}


# ---- groups of ranks in one thread ----

class Solo:
    """Rank r of n run alone: its collectives leave its own buffers as they are (the caller adds the ranks up)."""

    def __init__(self, rank, size):
        self.rank, self.size, self.root = rank, size, rank == 0

    def allreduce(self, buf):
        pass


class CoRank:
    """Rank r of a ``Coroutines`` group (a ``distributed.Group`` stand-in)."""

    def __init__(self, hub, rank):
        self.hub, self.rank, self.size, self.root = hub, rank, hub.n, rank == 0

    def allreduce(self, buf):
        buf[...] = self.hub.meet(self.rank, "sum", np.array(buf, copy=True))

    def allgather_rows(self, rows, counts):
        got = self.hub.meet(self.rank, "rows", (np.array(rows, copy=True), list(counts)))
        return got.copy()


class Coroutines:
    """n ranks as greenlets of this thread. ``run(work)`` -> [work(rank) for each rank]: every rank runs to its next
    collective; when all are there, the hub adds their buffers in rank order (or stacks their rows) and every
    rank goes on with the result. Ranks that reach different collectives, or end while others wait, fail."""

    def __init__(self, n):
        self.n = n
        self.slots, self.result, self.main = [None] * n, None, None

    def meet(self, rank, kind, value):
        self.slots[rank] = (kind, value)
        self.main.switch()
        return self.result

    def _combine(self):
        kinds = {k for k, _ in self.slots}
        assert len(kinds) == 1, f"the ranks reached different collectives: {kinds}"
        if kinds == {"sum"}:
            total = self.slots[0][1].copy()
            for _, v in self.slots[1:]:
                assert v.shape == total.shape and v.dtype == total.dtype
                total += v
            return total
        counts = self.slots[0][1][1]
        assert all(c == counts for _, (_, c) in self.slots)
        assert [len(r) for _, (r, _) in self.slots] == counts
        return np.concatenate([r for _, (r, _) in self.slots])

    def run(self, work):
        self.main = getcurrent()
        ranks = [CoRank(self, r) for r in range(self.n)]
        out = [None] * self.n

        def body(r):
            out[r] = work(ranks[r])

        lets = [greenlet(lambda r=r: body(r)) for r in range(self.n)]
        while True:
            self.slots = [None] * self.n
            for g in lets:
                g.switch()
            done = [g.dead for g in lets]
            if all(done):
                return out
            assert not any(done), f"ranks ended while others wait in a collective: {done}"
            self.result = self._combine()


# ---- models and batches ----

def config(cell, head, dtype="float64", text=False, noise=0.3):
    norm, kind = cell.split("-")
    cfg = dict(cell=kind, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype=dtype, forget_bias=1.0,
               state_noise=noise, head=head)
    if text:
        cfg.update(window=WINDOW, alphabet_size=ALPHABET_SIZE, skip=True)
    return cfg


def batch(head, text=False, seed=0, dtype="float64"):
    """x (T,B,I), targets of the head, text (codes (B,U), ulen (B,)) or None."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    if head is MDN:
        y = rng.standard_normal((B, T, 3))
        y[..., 2] = rng.random((B, T)) < 0.3
    elif head["per_step"]:
        y = rng.integers(0, head["outputs"], (B, T))
        y[0, 1] = y[3, 4] = -1                               # unscored steps
    else:
        y = rng.integers(0, head["outputs"], B)
    tx = None
    if text:
        ulen = np.array([3, 1, 2, 4, 2])
        codes = np.zeros((B, 4), np.int64)
        for b in range(B):
            codes[b, :ulen[b]] = rng.integers(1, ALPHABET_SIZE, ulen[b])
        tx = (codes, ulen)
    return x, y, tx


def close(got, want, what, tol=1e-10):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    scale = max(np.abs(want).max(), 1e-300)
    assert np.abs(got - want).max() <= tol * scale, f"{what}: {np.abs(got - want).max() / scale:.3g} relative"


def same_means(got, want, count, what, tol=1e-10):
    """{metric: mean} equal to tol, but accuracy to one hit: at a BN step run by one row (LENGTHS' last) the
    normalized values are x - mean = 0 in the fused kernels, where the synchronized ones' shifted sums leave
    round-off times 1/sqrt(eps), so the head's logits there tie exactly in one and not quite in the other."""
    assert got.keys() == want.keys(), what
    for k, v in want.items():
        if k == "acc":
            assert abs(got[k] - v) * count <= 1 + 1e-9, f"{what}: acc {got[k]} against {v}"
        else:
            assert got[k] == pytest.approx(v, rel=tol, abs=1e-300), f"{what}: {k}"


def whole(cfg, x, y, lengths, tbptt, key, tx, seed=3):
    """One process's update of the whole batch -> (model, means)."""
    m = build_model(cfg, seed=seed)
    means = m.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=key, text=tx)
    assert np.abs(m.flat[1].data).max() > 0
    return m, means


# ---- shards one after the other ----

SOLO_CASES = [  # cell, head, tbptt, lengths, text
    ("ln-lstm", PER_STEP, 2, LENGTHS, False),
    ("none-lstm", LAST, None, LENGTHS, False),
    ("ln-rnn", PER_STEP, 4, None, False),
    ("ln-lstm", MDN, 4, LENGTHS, True),
    ("none-lstm", MDN, None, LENGTHS, True),
]
SOLO_IDS = [f"{c}-{h['kind']}{'-step' if h['per_step'] else ''}-tbptt{t}{'-mask' if ln is not None else ''}"
            f"{'-text' if tx else ''}" for c, h, t, ln, tx in SOLO_CASES]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("cell,head,tbptt,lengths,text", SOLO_CASES, ids=SOLO_IDS)
def test_shards_run_one_after_the_other_add_up_to_the_whole_batch(cell, head, tbptt, lengths, text, n):
    cfg = config(cell, head, text=text)
    x, y, tx = batch(head, text)
    one, means_one = whole(cfg, x, y, lengths, tbptt, 7, tx)
    grads, sums, means, votes = np.zeros_like(one.flat[1].data), dict.fromkeys(one.last_sums, 0.0), {}, np.zeros(3)
    rows = []
    for r in range(n):
        m = build_model(cfg, seed=3)
        v = np.array([r == 0, 0.0, r], float)                # this rank's votes, handed back as they are alone
        got = distributed.loss_and_grad(Solo(r, n), m, x, y, lengths, tbptt, 7, v, text=tx)
        np.testing.assert_array_equal(v, [r == 0, 0.0, r])
        votes += v
        grads += m.flat[1].data
        rows.append(m.flat[1].data.copy())
        for k in sums:
            sums[k] += m.last_sums[k]
        for k, val in got.items():
            means[k] = means.get(k, 0.0) + val
        assert m.last_count == one.last_count                # every shard holds the global batch's count
    assert all(np.abs(g).max() > 0 for g in rows[:2])        # the shards of rows share the work
    close(grads, one.flat[1].data, "the shards' gradients added up")
    for k, v in one.last_sums.items():
        assert sums[k] == pytest.approx(v, rel=1e-10, abs=1e-12), k
    for k in {"loss", "acc"} & means_one.keys():   # a shard's mean is its sums over the global count: they add up
        assert means[k] == pytest.approx(means_one[k], rel=1e-10, abs=1e-12), k
    np.testing.assert_array_equal(votes, [1.0, 0.0, n * (n - 1) / 2])


# ---- ranks as coroutines: one Allreduce (and the BN cells' reductions) across them ----

CO_CASES = [  # cell, head, tbptt, lengths, text
    ("bn-lstm", PER_STEP, 4, LENGTHS, False),
    ("bn-rnn", LAST, 2, LENGTHS, False),
    ("bn-lstm", MDN, None, None, False),
    ("ln-lstm", MDN, 4, LENGTHS, True),
]
CO_IDS = [f"{c}-{h['kind']}{'-step' if h['per_step'] else ''}-tbptt{t}{'-mask' if ln is not None else ''}"
          f"{'-text' if tx else ''}" for c, h, t, ln, tx in CO_CASES]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("cell,head,tbptt,lengths,text", CO_CASES, ids=CO_IDS)
def test_coroutine_ranks_hold_one_process_update(cell, head, tbptt, lengths, text, n):
    cfg = config(cell, head, text=text)
    x, y, tx = batch(head, text, seed=1)
    one, means_one = whole(cfg, x, y, lengths, tbptt, 5, tx)
    ranks = [build_model(cfg, seed=3) for _ in range(n)]
    votes = [np.array([r == 1, 0.0, 1.0]) for r in range(n)]

    def work(group):
        m = ranks[group.rank]
        if cfg["norm"] == "bn":
            m.stack.set_batch_reduce(group.allreduce)
        return distributed.loss_and_grad(group, m, x, y, lengths, tbptt, 5, votes[group.rank], text=tx)

    out = Coroutines(n).run(work)
    for r, (m, got) in enumerate(zip(ranks, out)):
        same_means(got, means_one, one.last_count, f"rank {r}'s means")
        assert m.last_count == one.last_count
        same_means(m.last_sums, one.last_sums, 1, f"rank {r}'s sums")
        close(m.flat[1].data, one.flat[1].data, f"rank {r}'s gradient")
        for k, v in one.buffers.items():
            close(m.buffers[k], v, f"rank {r}'s {k}")
        np.testing.assert_array_equal(votes[r], [1.0, 0.0, n])


@pytest.mark.parametrize("cell,tbptt,lengths", [
    ("bn-lstm", 4, LENGTHS),
    ("ln-lstm", 2, LENGTHS),
    ("bn-rnn", None, None),
], ids=["bn-lstm-tbptt4-mask", "ln-lstm-tbptt2-mask", "bn-rnn"])
def test_reproducible_on_two_coroutine_ranks_is_one_process_to_the_bit(cell, tbptt, lengths):
    """Blocks of one row: B = 5 is 2 blocks, one a rank; every statistic and gradient is added over both blocks in
    block order, as in one process, whose update is also one call's to round-off."""
    cfg = config(cell, PER_STEP)
    x, y, _ = batch(PER_STEP, seed=2)
    with block_rows(1):
        assert distributed.data_blocks(B) == 2
        single = build_model(cfg, seed=3)
        want = distributed.loss_and_grad_blocks(distributed.SINGLE, single, x, y, lengths, tbptt, 4, np.zeros(3))
        ranks = [build_model(cfg, seed=3) for _ in range(2)]
        votes = [np.array([0.0, r, 0.0]) for r in range(2)]
        out = Coroutines(2).run(lambda g: distributed.loss_and_grad_blocks(g, ranks[g.rank], x, y, lengths, tbptt,
                                                                           4, votes[g.rank]))
    for r, (m, got) in enumerate(zip(ranks, out)):
        assert got == want
        assert m.last_count == single.last_count and m.last_sums == single.last_sums
        np.testing.assert_array_equal(m.flat[1].data, single.flat[1].data)
        for k, v in single.stack.buffers.items():
            np.testing.assert_array_equal(m.stack.buffers[k], v, k)
        np.testing.assert_array_equal(votes[r], [0.0, 1.0, 0.0])
    one, means_one = whole(cfg, x, y, lengths, tbptt, 4, None)
    close(single.flat[1].data, one.flat[1].data, "one process's blocks against one call")
    for k, v in one.stack.buffers.items():
        close(single.stack.buffers[k], v, k)
