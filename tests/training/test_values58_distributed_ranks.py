"""lnrnn/training/distributed.py with 1, 2 and 3 ranks as coroutines of one thread
(test_values43_distributed_shards.Coroutines: every collective meets at a hub that adds the ranks' buffers in
rank order), each update compared with one process's own call on the whole batch, the definition the ranks must
meet:

- The shards' update (one Allreduce of the gradient, one of the metric sums and the stop votes): every rank holds
  one process's gradient, metric sums, count and means, and the sum of the ranks' votes, whatever the number of
  votes (1, 3, 4 or 5: the metric sums and the votes share one buffer); with truncated BPTT, masks, state
  noise, the synthesis window's text, BatchNorm and float32. A batch of 2 rows on 3 ranks leaves rank 2's shard
  empty.
- --reproducible (blocks of one row): B = 8 is 4 blocks, uneven over 3 ranks (2, 1, 1); a BN batch of 2 rows is
  one block, so on 2 or 3 ranks the others own none. Every rank holds one process's block-by-block update to the
  bit and one call's to round-off (gradient, sums, BN statistics), also when the caller's model holds the sums
  of an earlier update.
- ``Group(MPI.COMM_SELF).allgather_rows`` hands back the rows it was given (mpi4py's real Allgatherv).
- ``evaluate`` dealt over the ranks: loss and accuracy are the sums of ``loss_sums`` over every batch (state-noise
  key: the batch's index) over their summed counts, added here."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import LAST, LENGTHS, MDN, PER_STEP, B, I, T, Coroutines, batch, close, config

KEY = 6


def one_process(cfg, x, y, lengths, tbptt, tx, key=KEY):
    """The plain update of the whole batch in one process -> (model, means)."""
    m = build_model(cfg, seed=3)
    means = m.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=key, text=tx)
    assert np.abs(m.flat[1].data).max() > 0
    return m, means


def same_sums(got, want, what, tol=1e-10):
    assert set(got) == set(want), what
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=tol, abs=1e-12), f"{what}: {k}"


def shards_on_ranks(n, cfg, x, y, lengths, tbptt, tx, nvotes):
    """distributed.loss_and_grad on n coroutine ranks -> (models, means, votes): rank r votes r + 1 for every slot."""
    models = [build_model(cfg, seed=3) for _ in range(n)]
    votes = [np.full(nvotes, r + 1.0) for r in range(n)]

    def work(group):
        m = models[group.rank]
        if cfg["norm"] == "bn":
            m.stack.set_batch_reduce(group.allreduce)
        return distributed.loss_and_grad(group, m, x, y, lengths, tbptt, KEY, votes[group.rank], text=tx)

    return models, Coroutines(n).run(work), votes


SHARD_CASES = [  # cell, head, dtype, tbptt, lengths, text, ranks, votes
    ("ln-lstm", PER_STEP, "float64", 2, LENGTHS, False, 3, 3),
    ("ln-lstm", LAST, "float64", None, LENGTHS, False, 2, 4),
    ("none-lstm", MDN, "float64", 3, LENGTHS, True, 2, 1),
    ("ln-rnn", PER_STEP, "float32", 4, LENGTHS, False, 3, 5),
    ("bn-lstm", PER_STEP, "float64", None, LENGTHS, False, 2, 3),
]
SHARD_IDS = [f"{c}-{h['kind']}-{d}-tbptt{t}{'-text' if tx else ''}-{n}ranks-{v}votes"
             for c, h, d, t, _, tx, n, v in SHARD_CASES]


@pytest.mark.parametrize("cell,head,dtype,tbptt,lengths,text,n,nvotes", SHARD_CASES, ids=SHARD_IDS)
def test_every_rank_holds_one_process_update(cell, head, dtype, tbptt, lengths, text, n, nvotes):
    cfg = config(cell, head, dtype, text)
    x, y, tx = batch(head, text, seed=5, dtype=dtype)
    one, means_one = one_process(cfg, x, y, lengths, tbptt, tx)
    tol = 2e-5 if dtype == "float32" else 1e-10
    models, out, votes = shards_on_ranks(n, cfg, x, y, lengths, tbptt, tx, nvotes)
    assert set(one.last_sums) == set(one.head.sum_keys)
    for r, (m, means) in enumerate(zip(models, out)):
        close(m.flat[1].data, one.flat[1].data, f"rank {r}'s gradient", tol)
        same_sums(m.last_sums, one.last_sums, f"rank {r}'s sums", tol)
        assert m.last_count == one.last_count
        for k, v in means_one.items():
            assert means[k] == pytest.approx(v, rel=tol, abs=1e-12), k
        np.testing.assert_array_equal(votes[r], np.full(nvotes, n * (n + 1) / 2))   # 1 + 2 + ... + n


@pytest.mark.parametrize("cell,head,tbptt,text", [
    ("ln-lstm", PER_STEP, 2, False),
    ("ln-lstm", MDN, None, True),
    ("bn-rnn", PER_STEP, None, False),
], ids=["ln-lstm-tbptt2", "ln-lstm-mdn-text", "bn-rnn"])
def test_a_batch_of_two_rows_on_three_ranks(cell, head, tbptt, text):
    """Shards of 1, 1 and 0 rows: rank 2 runs a stand-in row of no step and adds nothing."""
    cfg = config(cell, head, text=text)
    x, y, tx = batch(head, text, seed=6)
    x, y, lengths = np.ascontiguousarray(x[:, :2]), y[:2], np.array([6, 3])
    if tx is not None:
        tx = (tx[0][:2], tx[1][:2])
    one, means_one = one_process(cfg, x, y, lengths, tbptt, tx)
    models, out, votes = shards_on_ranks(3, cfg, x, y, lengths, tbptt, tx, 3)
    for r, (m, means) in enumerate(zip(models, out)):
        close(m.flat[1].data, one.flat[1].data, f"rank {r}'s gradient")
        same_sums(m.last_sums, one.last_sums, f"rank {r}'s sums")
        assert m.last_count == one.last_count
        assert means["loss"] == pytest.approx(means_one["loss"], rel=1e-10)
        np.testing.assert_array_equal(votes[r], [6.0, 6.0, 6.0])


# ---- --reproducible ----

B8_LENGTHS = np.array([6, 2, 0, 5, 3, 6, 1, 4])


def eight_rows(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, (8, T))
    y[1, 0] = -1
    return rng.standard_normal((T, 8, I)), y


def blocks_on_ranks(n, cfg, x, y, lengths, tbptt, earlier):
    """loss_and_grad_blocks on n coroutine ranks (and on distributed.SINGLE), each model after ``earlier``'s
    update, so that it holds that update's sums -> (models, means, single model, its means)."""
    def fresh():
        m = build_model(cfg, seed=3)
        m.loss_and_grad(*earlier, noise_key=1)
        return m

    single = fresh()
    want = distributed.loss_and_grad_blocks(distributed.SINGLE, single, x, y, lengths, tbptt, KEY, np.zeros(3))
    models = [fresh() for _ in range(n)]
    votes = [np.array([0.0, r, 1.0]) for r in range(n)]
    out = Coroutines(n).run(lambda g: distributed.loss_and_grad_blocks(g, models[g.rank], x, y, lengths, tbptt, KEY,
                                                                       votes[g.rank]))
    for v in votes:
        np.testing.assert_array_equal(v, [0.0, n * (n - 1) / 2, n])
    return models, out, single, want


def check_blocks(cfg, x, y, lengths, tbptt, n):
    earlier = eight_rows(9)[0][:, :x.shape[1]], eight_rows(9)[1][:x.shape[1]], None
    with block_rows(1):
        models, out, single, want = blocks_on_ranks(n, cfg, x, y, lengths, tbptt, earlier)
    one = build_model(cfg, seed=3)
    one.loss_and_grad(*earlier, noise_key=1)
    means_one = one.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=KEY)
    close(single.flat[1].data, one.flat[1].data, "one process's blocks against one call")
    same_sums(single.last_sums, one.last_sums, "one process's blocks' sums against one call's")
    assert want["loss"] == pytest.approx(means_one["loss"], rel=1e-10)
    for k, v in one.stack.buffers.items():
        close(single.stack.buffers[k], v, k)
    for r, (m, got) in enumerate(zip(models, out)):
        assert got == want, f"rank {r}"
        assert m.last_sums == single.last_sums and m.last_count == single.last_count == one.last_count
        np.testing.assert_array_equal(m.flat[1].data, single.flat[1].data, f"rank {r}'s gradient")
        for k, v in single.stack.buffers.items():
            np.testing.assert_array_equal(m.stack.buffers[k], v, f"rank {r}'s {k}")


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("cell,tbptt", [("ln-lstm", 2), ("bn-lstm", None)])
def test_reproducible_blocks_uneven_over_the_ranks(cell, tbptt, n):
    with block_rows(1):
        assert distributed.data_blocks(8) == 4                 # 2 + 2 or 2 + 1 + 1 blocks a rank
    cfg = config(cell, PER_STEP)
    x, y = eight_rows(2)
    check_blocks(cfg, x, y, B8_LENGTHS, tbptt, n)


@pytest.mark.parametrize("n", [2, 3])
def test_reproducible_bn_ranks_without_a_block(n):
    with block_rows(1):
        assert distributed.data_blocks(2) == 1                 # rank 0 owns the one block
    cfg = config("bn-lstm", PER_STEP)
    x, y = eight_rows(3)
    check_blocks(cfg, np.ascontiguousarray(x[:, :2]), y[:2], np.array([6, 4]), None, n)


def test_a_one_process_communicators_gather_hands_back_its_rows():
    MPI = pytest.importorskip("mpi4py.MPI")
    group = distributed.Group(MPI.COMM_SELF)
    rows = np.arange(24, dtype=np.float64).reshape(3, 8) * 0.5 - 3.0
    got = group.allgather_rows(rows, [3])
    np.testing.assert_array_equal(got, rows)
    cube = np.random.default_rng(0).standard_normal((2, 3, 4))
    np.testing.assert_array_equal(group.allgather_rows(cube, [2]), cube)


# ---- evaluation dealt over the ranks ----

@pytest.mark.parametrize("n", [1, 2, 3])
def test_evaluation_over_ranks_adds_every_batch(n):
    cfg = config("ln-lstm", PER_STEP)
    model = build_model(cfg, seed=3)
    rng = np.random.default_rng(4)
    data = []
    for b in (3, 2, 4, 1, 2):                               # 5 batches: 2, 2, 1 a rank on 3 ranks
        y = rng.integers(0, 3, (b, T))
        data.append((rng.standard_normal((T, b, I)), y, rng.integers(0, T + 1, b)))
    loss = acc = count = 0.0
    for i, (x, y, lengths) in enumerate(data):
        sums, c = model.loss_sums(x, y, lengths, noise_key=i)
        loss, acc, count = loss + sums["loss"], acc + sums["acc"], count + c
    assert count > 0
    batches = [lambda d=d: d for d in data]
    if n == 1:
        out = [distributed.evaluate(distributed.SINGLE, model, batches)]
    else:
        out = Coroutines(n).run(lambda g: distributed.evaluate(g, model, batches))
    for r, got in enumerate(out):
        assert got["loss"] == pytest.approx(loss / count, rel=1e-12), f"rank {r}"
        assert got["acc"] == pytest.approx(acc / count, rel=1e-12), f"rank {r}"
