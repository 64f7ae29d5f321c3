"""lnrnn/training/distributed.py, thirteenth pass: check_config's --reproducible block count refused only under
--reproducible (batch 12 under --block-rows 4: one data block, counted here from the definition) and word for word
naming the processes; rank_blocks of 11 rows under block rows 1 (4 blocks) dealt over 3 ranks as 2, 1, 1; a rank
other than 0 naming itself in its one error line before Abort (and rank 0 not); evaluate over a group of one process
against each batch's sums added by hand in float64 and the units counted by hand, per step and per sequence over
ragged lengths."""
import dataclasses

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from lnrnn.training.runconfig import TrainConfig
from test_values239_distributed_group import Comm
from test_values260_distributed_group import data_blocks_by_hand, ragged, units
from test_values_distributed_options import LAST, PER_STEP, config


def test_reproducible_blocks_refused_only_under_reproducible():
    cfg = TrainConfig(batch_size=12, block_rows=4, reproducible=True)
    assert data_blocks_by_hand(12, 4) == 1   # 2n <= max(2, 12 // 4 = 3): n = 2 kernel blocks, halved to 1
    with pytest.raises(UserError) as e:
        distributed.check_config(cfg, 3)
    assert str(e.value) == ("--reproducible gives each of the 3 MPI processes whole blocks of a batch, but "
                            "--batch-size 12 with --block-rows 4 makes 1 block; use a larger --batch-size, a smaller "
                            "--block-rows, or at most 1 process.")
    # without --reproducible each rank takes rows, not blocks: 12 rows over 3 processes is fine
    assert distributed.check_config(dataclasses.replace(cfg, reproducible=False), 3) is None


def test_rank_blocks_deal_the_data_blocks_over_three_ranks():
    assert data_blocks_by_hand(11, 1) == 4
    with block_rows(1):
        assert distributed.rank_blocks(distributed.SINGLE, 11) == (4, 0, 4, [4])
        # 4 blocks over 3 ranks: the first 4 % 3 = 1 rank holds two
        want = [(0, 2), (2, 3), (3, 4)]
        for r, (k0, k1) in enumerate(want):
            assert distributed.rank_blocks(distributed.Group(Comm(r, 3)), 11) == (4, k0, k1, [2, 1, 1])


@pytest.mark.parametrize("rank, line", [(0, "Error: no such file x.npz"), (2, "Error (rank 2 of 3): no such file x.npz")])
def test_an_error_line_names_a_rank_other_than_zero(monkeypatch, capsys, rank, line):
    monkeypatch.setattr(distributed.time, "sleep", lambda s: None)
    comm = Comm(rank, 3)
    distributed.Group(comm).fail(UserError("no such file x.npz"))
    assert capsys.readouterr().err == line + "\n"
    assert comm.aborted == [2]   # UserError's exit code


@pytest.mark.parametrize("head", [PER_STEP, LAST])
def test_evaluate_of_one_process_adds_each_batchs_sums_in_float64(head):
    model = build_model(config("ln-lstm", head, "float64"), seed=3)
    lengths = [np.array([5, 2, 0, 4, 1]), np.array([3, 5, 1]), np.array([0, 2, 5, 4])]
    data = [ragged(head, 10 + i, rows=len(n), lengths=n) for i, n in enumerate(lengths)]
    batches = [lambda i=i: (data[i][0], data[i][1], lengths[i]) for i in range(3)]
    loss = acc = 0.0
    count = 0
    for i in range(3):   # each batch's own sums (state noise key i), added here in batch order
        sums, c = model.loss_sums(data[i][0], data[i][1], lengths[i], noise_key=i)
        assert c == units(head, data[i][1], lengths[i])
        loss, acc, count = loss + sums["loss"], acc + sums["acc"], count + c
    # per step: every step before its length not labelled -1; per sequence: the rows of at least one step
    assert count == (5 + 2 + 4 + 1 - 1 + 3 + 5 + 1 + 2 + 5 + 4 if head["per_step"] else 4 + 3 + 3)
    got = distributed.evaluate(distributed.SINGLE, model, batches)
    assert got["loss"] == pytest.approx(loss / count, rel=1e-13, abs=0)
    assert got["acc"] == pytest.approx(acc / count, rel=1e-13, abs=0)
