"""lnrnn/training/distributed.py in a group of one process, with the options on (truncated BPTT, masks with a
padded and an empty row, initial-state noise, the synthesis window's text, BN cells), all in float64, against
the plain single-process computation written out here:

- ``loss_and_grad`` of the group of one is ``SequenceModel.loss_and_grad`` given, as its initial states, the
  draw of ``noise_state`` for the key (1, update) of the update it is told; two updates draw two noises;
- ``loss_and_grad_blocks`` (--reproducible) with two blocks: its metric sums are the whole batch's;
- ``evaluate`` over batches of their own sizes and lengths: every batch's ``loss_sums`` (noise key = its
  index) added here, divided by the added counts;
- ``shard_batch`` of ranks 0, 1 and 2 of 3 (B = 5: rows [0, 2), [2, 4), [4, 5)) takes each array's rows on the
  batch axis, and the rows of the global batch's noise."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import LENGTHS, MDN, PER_STEP, B, T, batch, close, config

CASES = [  # cell, head, tbptt, text
    ("ln-lstm", PER_STEP, 2, False),
    ("ln-lstm", MDN, 4, True),
    ("bn-lstm", PER_STEP, None, False),
]
IDS = ["ln-lstm-step-tbptt2", "ln-lstm-mdn-tbptt4-text", "bn-lstm-step"]


class Rank:
    """Rank r of n for shard_batch (which reads rank and size only)."""

    def __init__(self, rank, size):
        self.rank, self.size, self.root = rank, size, rank == 0


@pytest.mark.parametrize("cell,head,tbptt,text", CASES, ids=IDS)
def test_group_of_one_is_the_plain_update_with_the_updates_noise(cell, head, tbptt, text):
    cfg = config(cell, head, "float64", text)
    x, y, tx = batch(head, text)
    for key in (7, 8):
        plain = build_model(cfg, seed=3)
        want = plain.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, state=plain.noise_state(B, (1, key)), text=tx)
        m = build_model(cfg, seed=3)
        votes = np.array([0.0, 1.0, 0.0])
        got = distributed.loss_and_grad(distributed.SINGLE, m, x, y, LENGTHS, tbptt, key, votes, text=tx)
        np.testing.assert_array_equal(votes, [0.0, 1.0, 0.0])
        close(m.flat[1].data, plain.flat[1].data, f"gradient, key {key}")
        assert got.keys() == want.keys()
        for k in want:
            assert got[k] == pytest.approx(want[k], rel=1e-10), k
        assert m.last_count == plain.last_count
    # two keys, two noises: the key reaches the draw
    a, b = build_model(cfg, seed=3), build_model(cfg, seed=3)
    distributed.loss_and_grad(distributed.SINGLE, a, x, y, LENGTHS, tbptt, 7, np.zeros(3), text=tx)
    distributed.loss_and_grad(distributed.SINGLE, b, x, y, LENGTHS, tbptt, 8, np.zeros(3), text=tx)
    assert np.abs(a.flat[1].data - b.flat[1].data).max() > 1e-8


@pytest.mark.parametrize("cell,head,tbptt,text", CASES[:2], ids=IDS[:2])
def test_reproducible_two_blocks_sum_to_the_whole_batch(cell, head, tbptt, text):
    cfg = config(cell, head, "float64", text)
    x, y, tx = batch(head, text, seed=1)
    with block_rows(1):
        assert distributed.data_blocks(B) == 2     # rows [0, 3) and [3, 5): both score something
        plain = build_model(cfg, seed=3)
        want = plain.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=5, text=tx)
        m = build_model(cfg, seed=3)
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, tbptt, 5, np.zeros(3), text=tx)
    for k in plain.head.sum_keys:
        assert m.last_sums[k] == pytest.approx(plain.last_sums[k], rel=1e-10), k
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-10), k
    close(m.flat[1].data, plain.flat[1].data, "gradient")


def test_evaluation_adds_every_batch():
    cfg = config("ln-lstm", PER_STEP, "float64")
    m = build_model(cfg, seed=3)
    lens = [LENGTHS, None, np.array([1, 6, 6, 0, 4])]
    data = [batch(PER_STEP, seed=s)[:2] + (lens[s],) for s in range(3)]
    data[1] = (data[1][0][:, :3], data[1][1][:3], None)          # a smaller batch: 3 rows
    loss = acc = count = 0.0
    for i, (x, y, ln) in enumerate(data):
        s, c = m.loss_sums(x, y, ln, noise_key=i)
        loss, acc, count = loss + s["loss"], acc + s["acc"], count + c
    got = distributed.evaluate(distributed.SINGLE, m, [lambda d=d: d for d in data])
    assert got["loss"] == pytest.approx(loss / count, rel=1e-12)
    assert got["acc"] == pytest.approx(acc / count, rel=1e-12)


@pytest.mark.parametrize("rank,lo,hi", [(0, 0, 2), (1, 2, 4), (2, 4, 5)])
def test_a_ranks_shard_is_its_rows_of_every_array(rank, lo, hi):
    cfg = config("ln-lstm", MDN, "float64", text=True)
    m = build_model(cfg, seed=3)
    x, y, tx = batch(MDN, True)
    xs, ts, ls, state, total, text = distributed.shard_batch(Rank(rank, 3), m, x, y, LENGTHS, 9, tx)
    assert xs.shape == (T, hi - lo, x.shape[2])
    np.testing.assert_array_equal(xs, x[:, lo:hi])
    np.testing.assert_array_equal(ts, y[lo:hi])
    np.testing.assert_array_equal(ls, LENGTHS[lo:hi])
    np.testing.assert_array_equal(text[0], tx[0][lo:hi])
    np.testing.assert_array_equal(text[1], tx[1][lo:hi])
    full = m.noise_state(B, (1, 9))
    for got_layer, want_layer in zip(state, full):
        for g, w in zip(got_layer, want_layer):
            np.testing.assert_array_equal(g, w[lo:hi])
    assert total == int(np.sum(LENGTHS))   # the MDN head scores every running step of the global batch
