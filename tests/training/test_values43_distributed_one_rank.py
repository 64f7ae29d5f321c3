"""lnrnn/training/distributed.py with a group of one process, against the plain single-process update, with the
training options on: truncated BPTT, masks (padded and empty rows, a last step run by one row), the global
batch's initial-state noise, the synthesis window's text, BatchNorm cells, float64 and float32.

The group of one is ``distributed.SINGLE`` and ``Group(MPI.COMM_SELF)`` (mpi4py's one-process communicator: the
real Allreduce and Allgatherv, no launcher). Its shard is the whole batch under the same normalizer, noise and
text, so the update is one process's to the bit: gradient, metric sums, count and means, the votes unchanged.
The BN cells there run the synchronized kernels (``kernels.bn_sync``, the reduce of one rank) and agree with
the fused ones to round-off (their single-pass shifted variance). --reproducible in one process runs B = 5 as
two blocks of rows (block rows 1): its gradient and sums are the blocks run one by one here and added in block
order, to the bit, and one call's to round-off; the BN blocks, run together through the ring, start from the
model's running statistics (loaded here, not the initial ones) and end with one call's."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows, chunk_bounds
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import LAST, LENGTHS, MDN, PER_STEP, B, T, batch, close, config, same_means

ONE_ROW_LAST = LENGTHS   # step T - 1 runs row 0 alone: a BN statistic over one row
assert int(np.sum(ONE_ROW_LAST > T - 1)) == 1


def comm_self():
    MPI = pytest.importorskip("mpi4py.MPI")
    return distributed.Group(MPI.COMM_SELF)


GROUPS = {"single": lambda: distributed.SINGLE, "comm-self": comm_self}


@pytest.fixture(params=list(GROUPS))
def group(request):
    g = GROUPS[request.param]()
    assert (g.rank, g.size) == (0, 1)
    return g


CASES = [  # cell, head, dtype, tbptt, lengths, text
    ("ln-lstm", PER_STEP, "float64", 2, LENGTHS, False),
    ("none-rnn", LAST, "float64", None, LENGTHS, False),
    ("ln-lstm", MDN, "float64", 4, LENGTHS, True),
    ("ln-rnn", PER_STEP, "float32", 3, LENGTHS, False),
    ("none-lstm", MDN, "float32", None, None, True),
]
IDS = [f"{c}-{h['kind']}{'-step' if h['per_step'] else ''}-{d}-tbptt{t}{'-mask' if ln is not None else ''}"
       f"{'-text' if tx else ''}" for c, h, d, t, ln, tx in CASES]


@pytest.mark.parametrize("cell,head,dtype,tbptt,lengths,text", CASES, ids=IDS)
def test_one_rank_update_is_the_plain_update_to_the_bit(group, cell, head, dtype, tbptt, lengths, text):
    cfg = config(cell, head, dtype, text)
    x, y, tx = batch(head, text, dtype=dtype)
    one = build_model(cfg, seed=3)
    want = one.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=11, text=tx)
    m = build_model(cfg, seed=3)
    votes = np.array([1.0, 0.0, 1.0])
    got = distributed.loss_and_grad(group, m, x, y, lengths, tbptt, 11, votes, text=tx)
    np.testing.assert_array_equal(votes, [1.0, 0.0, 1.0])
    assert m.flat[1].data.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(m.flat[1].data, one.flat[1].data)
    assert m.last_count == one.last_count == one.scored_count(y, lengths, T, B)
    # the metric sums travel in float64 whatever the gradient's dtype: one process's sums to the bit
    assert m.last_sums == one.last_sums and got == want
    # the options bind: another noise key, no tbptt, no mask, another text each change the gradient
    other = build_model(cfg, seed=3)
    other.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=12, text=tx)
    assert not np.array_equal(other.flat[1].data, one.flat[1].data)
    if tbptt:
        other.loss_and_grad(x, y, lengths, tbptt=None, noise_key=11, text=tx)
        assert not np.array_equal(other.flat[1].data, one.flat[1].data)


BN_CASES = [  # cell, head, tbptt, lengths
    ("bn-lstm", PER_STEP, 4, LENGTHS),
    ("bn-lstm", MDN, None, LENGTHS),
    ("bn-rnn", PER_STEP, 2, LENGTHS),
    ("bn-rnn", LAST, None, None),
]
BN_IDS = [f"{c}-{h['kind']}{'-step' if h['per_step'] else ''}-tbptt{t}{'-mask' if ln is not None else ''}"
          for c, h, t, ln in BN_CASES]


def loaded_statistics(m, seed=5):
    """Running statistics unlike the initial ones (a resumed or fine-tuned run's): {name: array}."""
    rng = np.random.default_rng(seed)
    out = {}
    for k, v in m.stack.buffers.items():
        var = k.rsplit(".", 1)[-1].startswith("rv")
        out[k] = (rng.uniform(0.5, 2.0, v.shape) if var else rng.normal(0.0, 0.5, v.shape)).astype(v.dtype)
    m.stack.load_buffers({k: v.copy() for k, v in out.items()})
    return out


@pytest.mark.parametrize("cell,head,tbptt,lengths", BN_CASES, ids=BN_IDS)
def test_one_rank_synchronized_bn_is_the_fused_update(group, cell, head, tbptt, lengths):
    cfg = config(cell, head)
    x, y, _ = batch(head, seed=4)
    one = build_model(cfg, seed=3)
    stats = loaded_statistics(one)
    want = one.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=2)
    m = build_model(cfg, seed=3)
    m.stack.load_buffers({k: v.copy() for k, v in stats.items()})
    m.stack.set_batch_reduce(group.allreduce)     # the synchronized kernels, over a group of one
    got = distributed.loss_and_grad(group, m, x, y, lengths, tbptt, 2, np.zeros(3))
    close(m.flat[1].data, one.flat[1].data, "gradient", tol=1e-9)
    same_means(got, want, one.last_count, "means")
    for k, v in one.stack.buffers.items():
        close(m.stack.buffers[k], v, k, tol=1e-10)
        assert np.abs(v - stats[k]).max() > 1e-3, k     # this update moved them


# ---- --reproducible in one process: the blocks ----

def by_hand_blocks(cfg, x, y, lengths, tbptt, key, tx, dtype):
    """Each of the blocks run as its own call on its rows, normalized by the whole batch -> (gradient added in
    block order, metric sums added alike in float64, count)."""
    nb = distributed.data_blocks(B)
    m = build_model(cfg, seed=3)
    total = m.scored_count(y, lengths, T, B)
    state = m.noise_state(B, (1, key))
    grads, sums = None, None
    for k in range(nb):
        lo, hi = chunk_bounds(B, nb, k)
        st = [tuple(np.ascontiguousarray(s[lo:hi]) for s in layer) for layer in state]
        t = None if tx is None else (np.ascontiguousarray(tx[0][lo:hi]), tx[1][lo:hi])
        m.loss_and_grad(np.ascontiguousarray(x[:, lo:hi]), y[lo:hi], None if lengths is None else lengths[lo:hi],
                        tbptt=tbptt, state=st, total=total, text=t)
        g = m.flat[1].data.copy()
        s = np.array([m.last_sums[n] for n in m.head.sum_keys], np.float64)
        grads, sums = (g, s) if grads is None else (grads + g, sums + s)
    assert grads.dtype == np.dtype(dtype)
    return grads, dict(zip(m.head.sum_keys, sums)), total


@pytest.mark.parametrize("cell,head,dtype,tbptt,text", [
    ("ln-lstm", PER_STEP, "float64", 2, False),
    ("ln-lstm", MDN, "float64", 4, True),
    ("ln-rnn", PER_STEP, "float32", 3, False),
    ("none-lstm", MDN, "float32", None, True),
], ids=["ln-lstm-step-float64-tbptt2", "ln-lstm-mdn-float64-tbptt4-text", "ln-rnn-step-float32-tbptt3",
        "none-lstm-mdn-float32-text"])
def test_reproducible_in_one_rank_is_its_blocks_added_in_order(group, cell, head, dtype, tbptt, text):
    cfg = config(cell, head, dtype, text)
    x, y, tx = batch(head, text, seed=6, dtype=dtype)
    with block_rows(1):
        assert distributed.data_blocks(B) == 2
        g_hand, s_hand, total = by_hand_blocks(cfg, x, y, LENGTHS, tbptt, 8, tx, dtype)
        m = build_model(cfg, seed=3)
        got = distributed.loss_and_grad_blocks(group, m, x, y, LENGTHS, tbptt, 8, np.zeros(3), text=tx)
        one = build_model(cfg, seed=3)
        want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=8, text=tx)
    np.testing.assert_array_equal(m.flat[1].data, g_hand)
    assert m.last_sums == s_hand                   # float64 sums, whatever the model's type
    assert m.last_count == total == one.last_count
    assert got == m.head.mean(s_hand, total)
    tol = 1e-12 if dtype == "float64" else 1e-5
    close(m.flat[1].data, one.flat[1].data, "one call's gradient", tol=tol)
    assert all(got[k] == pytest.approx(want[k], rel=tol) for k in want)


@pytest.mark.parametrize("cell,head,tbptt", [
    ("bn-lstm", PER_STEP, 4),
    ("bn-rnn", MDN, None),
], ids=["bn-lstm-step-tbptt4", "bn-rnn-mdn"])
def test_reproducible_bn_blocks_in_one_rank_start_from_the_models_statistics(group, cell, head, tbptt):
    """Two updates: the blocks' models are made on the first; before each, the model's statistics (loaded, then
    this update's) are theirs; after it, the model holds one call's."""
    cfg = config(cell, head)
    one = build_model(cfg, seed=3)
    m = build_model(cfg, seed=3)
    stats = loaded_statistics(one)
    m.stack.load_buffers({k: v.copy() for k, v in stats.items()})
    for update in range(2):
        x, y, _ = batch(head, seed=7 + update)
        want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=update)
        with block_rows(1):
            got = distributed.loss_and_grad_blocks(group, m, x, y, LENGTHS, tbptt, update, np.zeros(3))
        close(m.flat[1].data, one.flat[1].data, f"update {update}'s gradient", tol=1e-9)
        same_means(got, want, one.last_count, f"update {update}'s means")
        for k, v in one.stack.buffers.items():
            close(m.stack.buffers[k], v, f"update {update}'s {k}", tol=1e-10)
        new = loaded_statistics(one, seed=20 + update)    # the next update starts from other statistics again
        m.stack.load_buffers({k: v.copy() for k, v in new.items()})
