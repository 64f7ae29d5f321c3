"""--reproducible over MPI ranks counted by hand: a batch of 256 rows at --block-rows 32 is 8 kernel blocks of
32 rows, so 4 data blocks (half of them); the line that describes the split names blocks a process (2 of the 4
over 2 ranks, 1-2 over 3), not rows, and the check accepts as many ranks as there are blocks (one block each)
and refuses one more."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.training.distributed import check_config, data_blocks, describe_split
from lnrnn.kernels.cpu.threads import block_rows


def cfg(batch_size, rows):
    return SimpleNamespace(device="cpu", reproducible=True, batch_size=batch_size, block_rows=rows)


def test_256_rows_at_32_a_block_are_4_data_blocks():
    with block_rows(32):
        assert data_blocks(256) == 4
        assert data_blocks(1) == 1


@pytest.mark.parametrize("size, each", [(2, "2"), (3, "1-2"), (4, "1")])
def test_the_reproducible_split_names_blocks_a_process(size, each):
    line = describe_split(size, 256, reproducible=True, rows=32)
    assert f"each batch of 256 is 4 blocks, {each} a process;" in line, line


def test_as_many_ranks_as_blocks_are_accepted_and_one_more_refused():
    check_config(cfg(256, 32), 4)                         # 4 blocks, one a rank
    check_config(cfg(256, 32), 2)
    with pytest.raises(UserError, match="makes 4 blocks"):
        check_config(cfg(256, 32), 5)
    check_config(cfg(64, 32), 1)                          # one process: nothing to split
    with pytest.raises(UserError, match="makes 1 block;"):
        check_config(cfg(64, 32), 2)                      # 64 rows: 2 kernel blocks, 1 data block
