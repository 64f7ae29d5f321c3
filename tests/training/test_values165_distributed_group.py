"""lnrnn/training/distributed.py's reductions on ranks of the stand-in communicator
(test_values138_distributed_group's Hub: ranks are greenlets, Allreduce adds in rank order), against one process
worked out here:

- evaluate over 4 batches on 3 ranks (batches 0 and 3, 1, 2): every rank's means are those of the metric sums of
  all four batches added here (each batch's loss_sums with its own index as noise key; an LN-LSTM with masks, an
  empty row, state noise and float64), not of its own batches alone.
- --reproducible's BN-RNN over 9 rows in 4 blocks of one row on 3 ranks holding 2, 1 and 1 blocks (masks, a row of
  length 0, truncated BPTT, state noise): every rank's gradient, metric sums and means are rank 0's bits and one
  plain call's over the whole batch to round-off.
- check_config's refusals name the numbers that work: at most as many processes as the blocks (2 for 16 rows at
  --block-rows 4, 1 for 3 rows at --block-rows 1: the kernels' blocks by their rule, halved), and a --batch-size of
  at least the processes."""
import types

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values138_distributed_group import Hub
from test_values43_distributed_shards import LENGTHS, PER_STEP, batch, close, config, same_means


def test_evaluate_on_three_ranks_adds_every_ranks_batches():
    cfg = config("ln-lstm", PER_STEP)
    data = [batch(PER_STEP, seed=20 + i)[:2] for i in range(4)]
    batches = [lambda i=i: (data[i][0], data[i][1], LENGTHS) for i in range(4)]
    one = build_model(cfg, seed=3)
    keys = list(one.head.sum_keys)
    sums, count = dict.fromkeys(keys, 0.0), 0
    for i, (x, y) in enumerate(data):
        s, c = one.loss_sums(x, y, LENGTHS, noise_key=i)
        for k in keys:
            sums[k] += s[k]
        count += c
    want = one.head.mean(sums, count)
    assert count == 4 * (int(LENGTHS.sum()) - 2)     # two unscored steps a batch (targets -1), inside LENGTHS
    models = [build_model(cfg, seed=3) for _ in range(3)]
    out = Hub(3).run(lambda g: distributed.evaluate(g, models[g.rank], batches))
    for r, got in enumerate(out):
        same_means(got, want, count, f"rank {r}", tol=1e-12)


def test_reproducible_bn_rnn_on_ranks_of_two_one_and_one_blocks_is_one_process():
    cfg = config("bn-rnn", PER_STEP)
    rng = np.random.default_rng(31)
    x = rng.standard_normal((6, 9, 3))
    y = rng.integers(0, PER_STEP["outputs"], (9, 6))
    y[2, 0] = y[5, 3] = -1
    lengths = np.array([4, 6, 1, 0, 6, 3, 5, 2, 6])
    one = build_model(cfg, seed=8)
    want = one.loss_and_grad(x, y, lengths, tbptt=2, noise_key=5)
    with block_rows(1):
        nb, *_, counts = distributed.rank_blocks(types.SimpleNamespace(rank=0, size=3), 9)
        assert (nb, counts) == (4, [2, 1, 1])
        ranks = [build_model(cfg, seed=8) for _ in range(3)]
        out = Hub(3).run(lambda g: distributed.loss_and_grad_blocks(g, ranks[g.rank], x, y, lengths, 2, 5,
                                                                    np.zeros(2)))
    for r in range(3):
        assert ranks[r].last_sums == ranks[0].last_sums and out[r] == out[0], f"rank {r}"
        np.testing.assert_array_equal(ranks[r].flat[1].data, ranks[0].flat[1].data, f"rank {r}")
        close(ranks[r].flat[1].data, one.flat[1].data, f"rank {r}'s gradient", tol=1e-9)
        same_means(out[r], want, one.last_count, f"rank {r}'s means", tol=1e-9)
        for k in one.last_sums:
            assert ranks[r].last_sums[k] == pytest.approx(one.last_sums[k], rel=1e-9), (r, k)


def blocks_by_hand(B, rows):
    """The kernels' blocks (the largest power of two with >= rows rows a block, two from B = 2, at most B), halved."""
    n = 1
    while 2 * n <= B and 2 * n <= max(2, B // rows):
        n *= 2
    return max(1, n // 2)


@pytest.mark.parametrize("B, rows, size", [(16, 4, 3), (3, 1, 4)])
def test_reproducible_refusal_names_the_most_processes_the_blocks_allow(B, rows, size):
    nb = blocks_by_hand(B, rows)
    assert nb < size
    cfg = types.SimpleNamespace(device="cpu", reproducible=True, block_rows=rows, batch_size=B)
    with pytest.raises(UserError) as e:
        distributed.check_config(cfg, size)
    plural = "s" if nb != 1 else ""
    assert str(e.value).endswith(f"makes {nb} block{plural}; use a larger --batch-size, a smaller --block-rows, "
                                 f"or at most {nb} process{'es' if nb != 1 else ''}.")


def test_a_batch_smaller_than_the_processes_is_refused_with_the_least_that_works():
    cfg = types.SimpleNamespace(device="cpu", reproducible=False, block_rows=1, batch_size=2)
    with pytest.raises(UserError) as e:
        distributed.check_config(cfg, 3)
    assert str(e.value) == ("--batch-size 2 is smaller than the 3 MPI processes: each rank needs a share of every "
                            "batch; use --batch-size 3 or more, or fewer processes.")
