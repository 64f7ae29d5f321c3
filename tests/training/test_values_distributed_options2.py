"""The data-parallel paths (lnrnn.training.distributed, kernels.bn_sync) with the options that
tests/training/test_values_distributed_options.py leaves off, each compared with one process's own call:
Graves's two clips (the gates' in the synchronized BN-LSTM backward, the mixture head's on its outputs),
also on the models --reproducible runs a BN batch's blocks on; a rank whose shard is empty (the last
batch of an epoch with fewer rows than ranks); and an evaluation dealt out over the ranks, batch i to
rank i mod N under state-noise key i. "Ranks" are threads whose allreduce sums their buffers at a
barrier. Every clip is checked to bind (the gradient without it differs), so a path that drops one shows."""
import threading

import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed

T, I, H = 5, 3, 4
CLIP_GATES, CLIP_OUTPUT = 2e-4, 0.05     # small enough that each binds with the other on (checked below)
PER_STEP = {"kind": "classifier", "outputs": 3, "per_step": True}
MDN = {"kind": "mdn", "components": 2, "per_step": True}
ALPHABET_SIZE, K = 5, 2


class ThreadRank:
    """Rank r of a group of threads (a ``distributed.Group`` stand-in): allreduce sums every rank's buffer in rank
    order, allgather_rows stacks their rows in rank order, each at a barrier (tests/training/test_values20_distributed
    takes it too)."""

    def __init__(self, rank, size, slots, barrier):
        self.rank, self.size, self.root = rank, size, rank == 0
        self._slots, self._bar = slots, barrier

    def _all(self, value):
        self._slots[self.rank] = value
        self._bar.wait()
        got = list(self._slots)
        self._bar.wait()
        return got

    def allreduce(self, buf):
        got = self._all(buf.copy())
        total = got[0].copy()
        for s in got[1:]:
            total += s
        buf[...] = total

    def allgather_rows(self, rows, counts):
        got = self._all(np.array(rows))
        assert [len(g) for g in got] == list(counts)
        return np.concatenate(got)


def on_ranks(n, work):
    """work(group) on n thread ranks -> their results in rank order (an error on any rank is raised). Their barrier
    times out, so a rank that reaches a collective the others never do fails the test instead of hanging it."""
    slots, bar = [None] * n, threading.Barrier(n, timeout=60)
    out, errors = [None] * n, []

    def run(r):
        try:
            out[r] = work(ThreadRank(r, n, slots, bar))
        except BaseException as e:  # noqa: B036 (raised below, in the test's thread)
            errors.append(e)
            bar.abort()

    threads = [threading.Thread(target=run, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return out


def config(cell, head, dtype="float64", text=False):
    norm, kind = cell.split("-")
    cfg = dict(cell=kind, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype=dtype, forget_bias=1.0,
               state_noise=0.3, head=head)
    if text:
        cfg.update(window=K, alphabet_size=ALPHABET_SIZE, skip=True)
    return cfg


def model(cfg, clips=False):
    m = build_model(cfg, seed=4, clip_gates=CLIP_GATES if clips else 0.0)
    if clips:
        m.head.clip_output = CLIP_OUTPUT
    return m


def batch(head, B, lengths, text=False, seed=0):
    """x (T,B,I), targets, lengths, text (codes (B,U), ulen (B,)) or None."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    if head is MDN:
        y = rng.standard_normal((B, T, 3))
        y[..., 2] = rng.random((B, T)) < 0.3
    else:
        y = rng.integers(0, head["outputs"], (B, T))
    tx = None
    if text:
        ulen = rng.integers(1, 4, B)
        codes = np.zeros((B, 3), np.int64)
        for b in range(B):
            codes[b, :ulen[b]] = rng.integers(1, ALPHABET_SIZE, ulen[b])
        tx = (codes, ulen)
    return x, y, None if lengths is None else np.array(lengths), tx


def close(got, want, what, tol=1e-10):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert np.abs(got - want).max() <= tol * max(np.abs(want).max(), 1e-300), what


def agree(ranks, one, means_one, means):
    """Every rank's update (models, {metric: mean}) equals one process's."""
    for m, got in zip(ranks, means):
        assert got.keys() == means_one.keys()
        close([got[k] for k in means_one], [means_one[k] for k in means_one], "means")
        assert m.last_count == one.last_count
        close(m.flat[1].data, one.flat[1].data, "gradient")
        for k, v in one.buffers.items():
            close(m.buffers[k], v, k)


# ---- the clips on the synchronized BatchNorm cells ----

@pytest.fixture(scope="module")
def clipped_bn_update():
    """A BN-LSTM with an MDN head and both clips: one process's update, the same batch over two thread
    ranks (kernels.bn_sync's cells), and one process's update without the clips."""
    cfg = config("bn-lstm", MDN)
    x, y, lengths, _ = batch(MDN, 5, [5, 2, 0, 4, 3])
    one = model(cfg, clips=True)
    means_one = one.loss_and_grad(x, y, lengths, tbptt=3, noise_key=6)
    plain = model(cfg)
    plain.loss_and_grad(x, y, lengths, tbptt=3, noise_key=6)
    ranks = [model(cfg, clips=True) for _ in range(2)]

    def work(group):
        m = ranks[group.rank]
        m.stack.set_batch_reduce(group.allreduce)
        return distributed.loss_and_grad(group, m, x, y, lengths, 3, 6, np.zeros(1))

    return one, means_one, plain, ranks, on_ranks(2, work)


def test_each_clip_binds_on_this_batch(clipped_bn_update):
    """With both clips on, dropping either changes the gradient (the output clip shrinks dL/da, so a gate
    clip that binds alone need not bind with it)."""
    cfg = config("bn-lstm", MDN)
    x, y, lengths, _ = batch(MDN, 5, [5, 2, 0, 4, 3])
    g0 = model(cfg, clips=True)
    g0.loss_and_grad(x, y, lengths, tbptt=3, noise_key=6)
    g0 = g0.flat[1].data
    for gates, output in ((CLIP_GATES, None), (0.0, CLIP_OUTPUT)):
        m = build_model(cfg, seed=4, clip_gates=gates)
        m.head.clip_output = output
        m.loss_and_grad(x, y, lengths, tbptt=3, noise_key=6)
        assert np.abs(m.flat[1].data - g0).max() > 1e-2 * np.abs(g0).max(), (gates, output)


def test_clipped_bn_lstm_on_two_thread_ranks_equals_one_process(clipped_bn_update):
    one, means_one, _, ranks, means = clipped_bn_update
    agree(ranks, one, means_one, means)


def test_reproducible_bn_blocks_keep_the_clips():
    """--reproducible runs a BN batch's blocks on models of their own (``block_models``): they must clip as
    the trained model does. B = 5 with block rows 1: several blocks."""
    cfg = config("bn-lstm", MDN)
    x, y, lengths, _ = batch(MDN, 5, None, seed=1)
    m = model(cfg, clips=True)
    before = {k: v.copy() for k, v in m.stack.buffers.items()}
    with block_rows(1):
        assert distributed.data_blocks(5) > 1
        want = m.loss_and_grad(x, y, lengths, tbptt=4, noise_key=2)
        g_want = m.flat[1].data.copy()
        stats_want = {k: v.copy() for k, v in m.stack.buffers.items()}
        m.stack.load_buffers({k: v.copy() for k, v in before.items()})
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, lengths, 4, 2, np.zeros(1))
    close(m.flat[1].data, g_want, "gradient")
    assert all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)
    for k, v in stats_want.items():
        close(m.stack.buffers[k], v, k)
    plain = model(cfg)
    plain.loss_and_grad(x, y, lengths, tbptt=4, noise_key=2)
    assert np.abs(plain.flat[1].data - g_want).max() > 1e-3 * np.abs(g_want).max()


# ---- a rank without rows ----

@pytest.mark.parametrize("cell,head,lengths,text", [
    ("bn-lstm", PER_STEP, None, False),
    ("ln-rnn", PER_STEP, None, False),
    ("ln-lstm", MDN, [4, 2], True),
], ids=["bn-lstm-no-lengths", "ln-rnn-no-lengths", "ln-lstm-mdn-text-lengths"])
def test_a_rank_with_an_empty_shard_adds_nothing(cell, head, lengths, text):
    """A batch of 2 rows over 3 ranks: rank 2 runs one sequence of length 0 (and takes part in every
    reduction, the BN cells' included); the update is one process's."""
    cfg = config(cell, head, text=text)
    x, y, lengths, tx = batch(head, 2, lengths, text, seed=2)
    one = model(cfg)
    means_one = one.loss_and_grad(x, y, lengths, tbptt=None, noise_key=4, text=tx)
    ranks = [model(cfg) for _ in range(3)]
    assert distributed.shard(2, 3, 2) == (2, 2)

    def work(group):
        m = ranks[group.rank]
        if cfg["norm"] == "bn":
            m.stack.set_batch_reduce(group.allreduce)
        return distributed.loss_and_grad(group, m, x, y, lengths, None, 4, np.zeros(1), text=tx)

    agree(ranks, one, means_one, on_ranks(3, work))


# ---- an evaluation dealt out over the ranks ----

@pytest.mark.parametrize("cell,head,text", [
    ("bn-lstm", PER_STEP, False),
    ("ln-lstm", MDN, True),
], ids=["bn-lstm-step", "ln-lstm-mdn-text"])
def test_evaluation_dealt_over_two_ranks_equals_one_process(cell, head, text):
    """Three batches (uneven sizes, lengths on the second) dealt to 2 ranks: the same figures to the bit as
    ``SequenceModel.evaluate``; with state noise every batch keeps its own key (the figures differ if every
    batch used key 0)."""
    cfg = config(cell, head, text=text)
    m = model(cfg)
    rng = np.random.default_rng(3)
    for k, v in m.buffers.items():   # population statistics unlike the initial ones
        v[...] = rng.uniform(0.5, 1.5, v.shape) if k.rsplit(".", 1)[-1].startswith("rv") else rng.normal(0, .3, v.shape)
    data = [batch(head, 3, None, text, seed=10), batch(head, 4, [5, 1, 0, 3], text, seed=11),
            batch(head, 2, None, text, seed=12)]
    data = [(x, y, ln, tx) if text else (x, y, ln) for x, y, ln, tx in data]
    want = m.evaluate(data)
    calls = [[] for _ in range(2)]

    def work(group):
        def loader(i):
            def load():
                calls[group.rank].append(i)
                return data[i]
            return load
        return distributed.evaluate(group, m, [loader(i) for i in range(len(data))])

    got = on_ranks(2, work)
    assert calls == [[0, 2], [1]]
    for g in got:
        assert g == want
    zero_key = [m.loss_sums(*d[:3], noise_key=0, text=d[3] if text else None) for d in data]
    loss0 = sum(s["loss"] for s, _ in zero_key) / sum(c for _, c in zero_key)
    assert loss0 != pytest.approx(want["loss"], rel=1e-9)      # the keys matter
