"""lnrnn/training/distributed.py in a group of one process (``distributed.SINGLE``, no launcher) with the training
options combined, each against one process's own ``SequenceModel.loss_and_grad`` of the whole batch: truncated
BPTT, per-step masks with padded, empty and one-step rows, the global batch's initial-state noise, the synthesis
window's text, BatchNorm cells, float64 and float32. The batch has T = 7 steps and B = 10 rows (T != B, so a
batch read as (B, T) shows), and the update carries three stop votes, the middle one up (a time budget's alone).

--reproducible in one process runs B = 10 under block rows 1 as 4 blocks of 2, 3, 2 and 3 rows, counted here from
the definition (the largest power of two n <= B with n <= max(2, B // rows), halved; rows chunk_bounds): each
block's gradient and sums are added over the blocks, so the result is one call's on the whole batch to round-off,
and a BN model's blocks run together with the whole batch's statistics. describe_split's blocks and shares are
counted alike by hand, for --block-rows 4 (a batch of 40: 4 blocks over 3 ranks, 2, 1 and 1)."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows, chunk_bounds
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import close
from test_values_distributed_options import ALPHABET_SIZE, LAST, MDN, PER_STEP, I, config

T, B = 7, 10
LENGTHS = np.array([7, 3, 0, 6, 1, 5, 7, 2, 4, 7])   # full rows, short ones, an empty one, one of one step
VOTES = [0.0, 1.0, 0.0]


def batch(head, text=False, seed=0, dtype="float64"):
    """x (T,B,I), the head's targets (a per-step one with two unscored steps), text (codes (B,U), ulen) or None."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    if head["kind"] == "mdn":
        y = rng.standard_normal((B, T, 3))
        y[..., 2] = rng.random((B, T)) < 0.3
    elif head["per_step"]:
        y = rng.integers(0, head["outputs"], (B, T))
        y[0, 2] = y[5, 4] = -1
    else:
        y = rng.integers(0, head["outputs"], B)
    tx = None
    if text:
        ulen = np.array([3, 1, 2, 4, 2, 1, 4, 3, 2, 1])
        codes = np.zeros((B, 4), np.int64)
        for b in range(B):
            codes[b, :ulen[b]] = rng.integers(1, ALPHABET_SIZE, ulen[b])
        tx = (codes, ulen)
    return x, y, tx


def scored_by_hand(head, y, lengths):
    """The units the head scores: per step, the steps t < lengths[b] not labelled -1 (every running step for the
    mixture head); per sequence, the rows that run at least one step."""
    if not head["per_step"]:
        return int(np.sum(lengths > 0))
    return sum(1 for b in range(B) for t in range(lengths[b]) if head is MDN or y[b, t] != -1)


CASES = [  # cell, head, dtype, tbptt, text
    ("ln-lstm", PER_STEP, "float64", 3, False),
    ("bn-lstm", PER_STEP, "float64", 4, False),
    ("ln-lstm", MDN, "float64", 4, True),
    ("none-rnn", LAST, "float32", None, False),
]
IDS = [f"{c}-{h['kind']}{'-step' if h['per_step'] else ''}-{d}-tbptt{t}{'-text' if tx else ''}"
       for c, h, d, t, tx in CASES]


@pytest.mark.parametrize("cell,head,dtype,tbptt,text", CASES, ids=IDS)
def test_update_of_a_group_of_one_is_one_process_to_the_bit(cell, head, dtype, tbptt, text):
    x, y, tx = batch(head, text, dtype=dtype)
    cfg = config(cell, head, dtype, text)
    one = build_model(cfg, seed=4)
    want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=13, text=tx)
    m = build_model(cfg, seed=4)
    votes = np.array(VOTES)
    got = distributed.loss_and_grad(distributed.SINGLE, m, x, y, LENGTHS, tbptt, 13, votes, text=tx)
    np.testing.assert_array_equal(votes, VOTES)          # one rank's votes, summed over one rank
    assert m.last_count == one.last_count == scored_by_hand(head, y, LENGTHS)
    assert list(m.last_sums) == list(one.last_sums)
    for k, v in one.last_sums.items():
        assert m.last_sums[k] == v, k
    assert got == want
    if "acc" in want:   # the sums keep their names: the loss is no accuracy
        assert got["loss"] == one.last_sums["loss"] / one.last_count
        assert got["acc"] == one.last_sums["acc"] / one.last_count
    np.testing.assert_array_equal(m.flat[1].data, one.flat[1].data)
    assert np.abs(one.flat[1].data).max() > 0


def test_data_blocks_counted_by_hand():
    def by_hand(b, rows):
        n = 1
        while 2 * n <= b and 2 * n <= max(2, b // rows):
            n *= 2
        return max(1, n // 2)
    for rows in (1, 2, 3, 4):
        with block_rows(rows):
            for b in (1, 2, 3, 5, 10, 17, 40, 64, 100):
                assert distributed.data_blocks(b) == by_hand(b, rows), (b, rows)
    with block_rows(1):
        assert distributed.data_blocks(B) == 4
        assert [chunk_bounds(B, 4, k) for k in range(4)] == [(0, 2), (2, 5), (5, 7), (7, 10)]
        assert distributed.rank_blocks(distributed.SINGLE, B) == (4, 0, 4, [4])


BLOCK_CASES = [  # cell, head, dtype, tbptt, text
    ("ln-lstm", PER_STEP, "float64", 3, False),
    ("bn-lstm", PER_STEP, "float64", 4, False),
    ("bn-rnn", LAST, "float64", None, False),
    ("ln-lstm", MDN, "float64", None, True),
    ("none-lstm", PER_STEP, "float32", 2, False),
]
BLOCK_IDS = [f"{c}-{h['kind']}{'-step' if h['per_step'] else ''}-{d}-tbptt{t}{'-text' if tx else ''}"
             for c, h, d, t, tx in BLOCK_CASES]


@pytest.mark.parametrize("cell,head,dtype,tbptt,text", BLOCK_CASES, ids=BLOCK_IDS)
def test_reproducible_blocks_of_one_process_are_one_call(cell, head, dtype, tbptt, text):
    """Four uneven blocks, each normalized by the whole batch: their gradients and sums add up to one call's; a BN
    model ends with one call's running statistics (its blocks' statistics are the whole batch's)."""
    x, y, tx = batch(head, text, seed=3, dtype=dtype)
    cfg = config(cell, head, dtype, text)
    one = build_model(cfg, seed=5)
    m = build_model(cfg, seed=5)
    want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=21, text=tx)
    votes = np.array(VOTES)
    with block_rows(1):
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, tbptt, 21, votes, text=tx)
    np.testing.assert_array_equal(votes, VOTES)
    tol = 1e-10 if dtype == "float64" else 2e-5
    assert m.last_count == one.last_count == scored_by_hand(head, y, LENGTHS)
    assert list(m.last_sums) == list(m.head.sum_keys)
    for k, v in one.last_sums.items():
        assert m.last_sums[k] == pytest.approx(v, rel=tol, abs=1e-12), k
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], rel=tol) for k in want)
    close(m.flat[1].data, one.flat[1].data, "gradient", tol)
    for k, v in one.stack.buffers.items():
        close(m.stack.buffers[k], v, k, tol)


def test_describe_split_counts_blocks_and_shares_by_hand():
    # --block-rows 4, B = 40: 40 // 4 = 10 rows' worth, so 8 kernel blocks (16 > 10) and 4 data blocks;
    # over 3 ranks shard gives 2, 1, 1 blocks; over 2 ranks 2 each
    assert distributed.describe_split(3, 40, reproducible=True, rows=4) == (
        "Data parallel over 3 MPI processes, reproducible: each batch of 40 is 4 blocks, 1-2 a process; their "
        "gradients are gathered and added in block order (the same bits as one process); rank 0 writes the run "
        "folder.")
    assert distributed.describe_split(2, 40, reproducible=True, rows=4).startswith(
        "Data parallel over 2 MPI processes, reproducible: each batch of 40 is 4 blocks, 2 a process; ")
    # --block-rows 1, B = 10: 8 kernel blocks, 4 data blocks, 3 ranks hold 2, 1, 1
    assert ("each batch of 10 is 4 blocks, 1-2 a process;"
            in distributed.describe_split(3, 10, reproducible=True, rows=1))
