"""lnrnn/training/distributed.py beyond the update's arithmetic, and the group of one process with the options on.

- The launcher's size and rank come from the variables each launcher sets (Open MPI's, PMI's, Slurm's), each read
  for what it says: a size variable for the size, a rank variable for the rank.
- describe_split with --reproducible names the blocks a process owns smallest first, counted here from the rule
  (two of the kernels' blocks of a batch; B = 8 at one row a block is 8 kernel blocks, so 4 data blocks: 2, 1, 1 on
  3 processes); resume_note names the new split; check_config counts the blocks at the run's --block-rows.
- ``distributed.SINGLE`` (the group of one) runs the plain single-process update: truncated BPTT, ragged lengths,
  initial-state noise drawn for the global batch, the window's text, BatchNorm, float64; gradient, sums, count,
  means and votes compared with the model's own call on the whole batch (the same noise key).
- ``evaluate`` in the group of one: loss and accuracy are the sums of ``loss_sums`` over the batches (added here in
  float64) over their summed counts, also for a float32 model (whose float64 sums must not be rounded)."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import LAST, LENGTHS, MDN, PER_STEP, batch, config


@pytest.fixture
def clean_env(monkeypatch):
    for v in distributed.SIZE_VARS + distributed.RANK_VARS:
        monkeypatch.delenv(v, raising=False)
    return monkeypatch


@pytest.mark.parametrize("size_var,rank_var", [("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"),
                                               ("PMI_SIZE", "PMI_RANK"), ("SLURM_STEP_NUM_TASKS", "SLURM_PROCID")])
@pytest.mark.parametrize("rank", [0, 2])
def test_the_launchers_size_and_rank(clean_env, size_var, rank_var, rank):
    clean_env.setenv(size_var, "3")
    clean_env.setenv(rank_var, str(rank))
    assert distributed.launched_size() == 3
    assert distributed.launched_rank() == rank


def test_no_launcher_is_one_process_of_rank_0(clean_env):
    assert distributed.launched_size() == 1
    assert distributed.launched_rank() == 0


def test_reproducible_split_names_the_blocks_a_process_owns_smallest_first():
    # B = 8 at 1 row a block: the kernels' 8 blocks of one row, two a data block -> 4 blocks; 3 ranks own 2, 1, 1
    text = distributed.describe_split(3, 8, reproducible=True, rows=1)
    assert "each batch of 8 is 4 blocks, 1-2 a process" in text
    # 4 blocks on 2 ranks: 2 each
    assert "is 4 blocks, 2 a process" in distributed.describe_split(2, 8, reproducible=True, rows=1)
    # shards of rows: 8 over 3 -> 3, 3, 2
    assert "shards of 2-3 sequences" in distributed.describe_split(3, 8)


def test_resume_note_names_the_new_split():
    note = distributed.resume_note(2, 3, 12)
    assert "trained as 2 processes and resumes as 3" in note
    assert "now split 3 ways" in note
    one = distributed.resume_note(4, 1, 12)
    assert "now split 1 way;" in one
    assert distributed.resume_note(3, 3, 12) is None


def _cfg(batch_size, block_rows, reproducible=True):
    return SimpleNamespace(device="cpu", reproducible=reproducible, batch_size=batch_size, block_rows=block_rows)


def test_check_config_counts_blocks_at_the_runs_block_rows():
    # 8 rows at 1 row a block -> 4 data blocks: 3 and 4 processes fit, 5 do not
    distributed.check_config(_cfg(8, 1), 3)
    distributed.check_config(_cfg(8, 1), 4)
    with pytest.raises(UserError, match="makes 4 blocks"):
        distributed.check_config(_cfg(8, 1), 5)
    # 64 rows at 4 rows a block -> 16 kernel blocks -> 8 data blocks
    distributed.check_config(_cfg(64, 4), 8)
    with pytest.raises(UserError, match="makes 8 blocks"):
        distributed.check_config(_cfg(64, 4), 9)


CASES = [  # cell, head, tbptt, lengths, text
    ("ln-lstm", PER_STEP, 2, LENGTHS, False),
    ("none-lstm", MDN, 3, LENGTHS, True),
    ("ln-rnn", LAST, None, LENGTHS, False),
    ("bn-lstm", PER_STEP, 4, None, False),
]


@pytest.mark.parametrize("cell,head,tbptt,lengths,text", CASES,
                         ids=[f"{c}-{h['kind']}-tbptt{t}{'-text' if tx else ''}" for c, h, t, _, tx in CASES])
def test_the_group_of_one_is_the_plain_update_with_noise(cell, head, tbptt, lengths, text):
    cfg = config(cell, head, "float64", text, noise=0.5)
    x, y, tx = batch(head, text, seed=9)
    one = build_model(cfg, seed=4)
    want = one.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=7, text=tx)
    zero = build_model(cfg, seed=4)   # the same batch from zero states: the noise must matter
    zero.loss_and_grad(x, y, lengths, tbptt=tbptt, state=zero.stack.zero_state(x.shape[1]), text=tx)
    assert np.abs(zero.flat[1].data - one.flat[1].data).max() > 1e-6
    m = build_model(cfg, seed=4)
    votes = np.array([1.0, 0.0])
    got = distributed.loss_and_grad(distributed.SINGLE, m, x, y, lengths, tbptt, 7, votes, text=tx)
    np.testing.assert_allclose(m.flat[1].data, one.flat[1].data, rtol=1e-12, atol=1e-14)
    assert m.last_count == one.last_count
    for k, v in one.last_sums.items():
        assert m.last_sums[k] == pytest.approx(v, rel=1e-12, abs=1e-14), k
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-14), k
    np.testing.assert_array_equal(votes, [1.0, 0.0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_evaluate_in_one_process_is_the_batches_sums_over_their_counts(dtype):
    cfg = config("ln-lstm", PER_STEP, dtype, noise=0.4)
    m = build_model(cfg, seed=2)
    data = [batch(PER_STEP, seed=s, dtype=dtype)[:2] for s in (1, 2, 3)]
    lens = [LENGTHS, None, np.array([1, 6, 4, 0, 2])]
    batches = [lambda i=i: (data[i][0], data[i][1], lens[i]) for i in range(3)]
    loss = acc = count = 0.0
    for i in range(3):
        sums, c = m.loss_sums(data[i][0], data[i][1], lens[i], noise_key=i)
        loss, acc, count = loss + float(sums["loss"]), acc + float(sums["acc"]), count + c
    got = distributed.evaluate(distributed.SINGLE, m, batches)
    assert got["loss"] == pytest.approx(loss / count, rel=1e-13)
    assert got["acc"] == pytest.approx(acc / count, rel=1e-13)
