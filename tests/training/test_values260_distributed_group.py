"""lnrnn/training/distributed.py with a group of one process (no launcher) and the training options combined, at
awkward sizes: --reproducible's blocks of a BatchNorm model (B = 11 under block rows 1: 4 blocks of rows [0, 2),
[2, 5), [5, 8), [8, 11), counted here from the definition) with truncated BPTT chunks, a ragged batch and the global
batch's state noise, in float64, against one plain SequenceModel.loss_and_grad of the whole batch (loss, sums and
gradient to 1e-12); evaluate of three batches of 3, 5 and 2 rows against each batch's own sums added by hand and the
units counted by hand; a Group over a stand-in communicator of 3 reading its size; check_config's refusals word for
word (a CUDA device, too few data blocks counted by hand at batch sizes 12, 24 and 40 under --block-rows 4) and
the configurations it lets through."""
import dataclasses

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from lnrnn.training.runconfig import TrainConfig
from test_values239_distributed_group import Comm
from test_values_distributed_options import LAST, PER_STEP, I, config

T, B = 5, 11
LENGTHS = np.array([5, 2, 0, 4, 1, 5, 3, 5, 2, 4, 1])   # full rows, short ones, an empty one, rows of one step


def ragged(head, seed, rows=B, lengths=LENGTHS):
    """x (T, rows, I) in float64 and the head's targets (a per-step head's with one unscored step)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, rows, I))
    if head["per_step"]:
        y = rng.integers(0, head["outputs"], (rows, T))
        y[0, 3] = -1
    else:
        y = rng.integers(0, head["outputs"], rows)
    return x, y


def units(head, y, lengths):
    """Scored units by definition: per step, every step t < length not labelled -1; per sequence, rows of 1+ steps."""
    if head["per_step"]:
        return sum(1 for b in range(len(lengths)) for t in range(lengths[b]) if y[b, t] != -1)
    return sum(1 for n in lengths if n > 0)


def data_blocks_by_hand(B, rows):
    """The definition: the kernels' blocks, the largest power of two n with n <= B and n <= max(2, B // rows), halved
    (at least 1)."""
    n = 1
    while 2 * n <= B and 2 * n <= max(2, B // rows):
        n *= 2
    return max(1, n // 2)


def test_eleven_rows_under_block_rows_one_are_four_blocks():
    # 2n <= 11 and 2n <= 11: n = 8 kernel blocks, halved to 4 data blocks of 11 * k // 4 rows
    assert data_blocks_by_hand(11, 1) == 4
    with block_rows(1):
        assert distributed.data_blocks(11) == 4


BN_CASES = [  # cell, head, tbptt
    ("bn-lstm", PER_STEP, 2),
    ("bn-rnn", LAST, None),
    ("bn-lstm", LAST, 3),
]


@pytest.mark.parametrize("cell,head,tbptt", BN_CASES, ids=[f"{c}-{'step' if h['per_step'] else 'last'}-tbptt{t}"
                                                           for c, h, t in BN_CASES])
def test_reproducible_bn_blocks_are_one_call_to_1e_12(cell, head, tbptt):
    """Four uneven blocks of a BN model (2, 3, 3 and 3 rows) run together on models of their own, their statistics
    added over every block: the loss, sums and gradient of one call on the whole batch, to 1e-12."""
    x, y = ragged(head, seed=7)
    cfg = config(cell, head, "float64")
    assert cfg["state_noise"] > 0
    one = build_model(cfg, seed=9)
    want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=17)
    m = build_model(cfg, seed=9)
    votes = np.array([1.0, 0.0, 0.0])
    with block_rows(1):
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, tbptt, 17, votes)
    np.testing.assert_array_equal(votes, [1.0, 0.0, 0.0])
    assert m.last_count == one.last_count == units(head, y, LENGTHS)
    for k, v in one.last_sums.items():
        assert abs(m.last_sums[k] - v) <= 1e-12 * max(1.0, abs(v)), k
    assert got.keys() == want.keys()
    for k in want:
        assert abs(got[k] - want[k]) <= 1e-12 * max(1.0, abs(want[k])), k
    g, w = m.flat[1].data, one.flat[1].data
    assert np.abs(w).max() > 0
    assert np.abs(g - w).max() <= 1e-12 * np.abs(w).max()
    for k, v in one.stack.buffers.items():   # the running statistics of the whole batch
        np.testing.assert_allclose(m.stack.buffers[k], v, rtol=1e-12, atol=1e-14, err_msg=k)


def test_evaluate_adds_each_batch_once_and_counts_units():
    """Three batches of 3, 5 and 2 rows (noise key i for batch i): the sums are the batches' own sums added, and the
    mean divides by the scored steps counted by hand, not by the batch count."""
    head = PER_STEP
    m = build_model(config("ln-lstm", head, "float64"), seed=3)
    lens = [np.array([5, 0, 3]), np.array([2, 5, 1, 4, 5]), np.array([1, 5])]
    data = []
    for i, ls in enumerate(lens):
        x, y = ragged(head, seed=20 + i, rows=len(ls), lengths=ls)
        data.append((x, y, ls))
    got = distributed.evaluate(distributed.SINGLE, m, [lambda d=d: d for d in data])
    loss = acc = 0.0
    count = 0
    for i, (x, y, ls) in enumerate(data):
        sums, c = m.loss_sums(x, y, ls, noise_key=i)
        loss += sums["loss"]
        acc += sums["acc"]
        count += units(head, y, ls)
        assert c == units(head, y, ls)
    assert count == 30   # 8 + 17 + 6 running steps, one of them (batch 0, row 0, step 3) labelled -1
    assert got["loss"] == pytest.approx(loss / count, rel=1e-12)
    assert got["acc"] == pytest.approx(acc / count, rel=1e-12)


def test_a_group_of_three_reads_its_size_from_the_communicator():
    g = distributed.Group(Comm(1, 3))
    assert (g.rank, g.size, g.root) == (1, 3, False)
    assert g.describe() == "rank 1 of 3"
    assert distributed.Group(Comm(0, 5)).size == 5


CFG = TrainConfig(task="digits", batch_size=8)


def test_check_config_refuses_cuda_and_lets_the_cpu_through():
    distributed.check_config(CFG, 2)                       # the CPU across 2 processes: nothing to refuse
    distributed.check_config(dataclasses.replace(CFG, device="cuda"), 1)   # one process: anything goes
    with pytest.raises(UserError) as e:
        distributed.check_config(dataclasses.replace(CFG, device="cuda"), 2)
    assert str(e.value) == ("--device cuda: training across MPI processes runs on the CPU only; drop --device cuda, "
                            "or run one process without the launcher.")


@pytest.mark.parametrize("batch,size,nb", [(12, 2, 1), (24, 3, 2)])
def test_check_config_counts_the_batchs_blocks_not_the_processes(batch, size, nb):
    # --block-rows 4: B = 12 gives 12 // 4 = 3, so 2 kernel blocks and 1 data block; B = 24: 6, 4 kernel, 2 data
    assert data_blocks_by_hand(batch, 4) == nb
    cfg = dataclasses.replace(CFG, batch_size=batch, block_rows=4, reproducible=True)
    with pytest.raises(UserError) as e:
        distributed.check_config(cfg, size)
    s = "s" if nb != 1 else ""
    es = "es" if nb != 1 else ""
    assert str(e.value) == (f"--reproducible gives each of the {size} MPI processes whole blocks of a batch, but "
                            f"--batch-size {batch} with --block-rows 4 makes {nb} block{s}; use a larger "
                            f"--batch-size, a smaller --block-rows, or at most {nb} process{es}.")


def test_check_config_lets_enough_blocks_through():
    # B = 40 under --block-rows 4: 40 // 4 = 10, 8 kernel blocks, 4 data blocks: enough for 2, 3 and 4 processes
    assert data_blocks_by_hand(40, 4) == 4
    cfg = dataclasses.replace(CFG, batch_size=40, block_rows=4, reproducible=True)
    for size in (2, 3, 4):
        distributed.check_config(cfg, size)
    with pytest.raises(UserError, match=r"makes 4 blocks; .* or at most 4 processes\.$"):
        distributed.check_config(cfg, 5)
