"""lnrnn/training/distributed.py without MPI: a batch of exactly one row per rank is a valid split (one
fewer row is refused); the split line gives the shard sizes smallest first, as ``shard`` makes them."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.training.distributed import check_config, describe_split, shard


def _cfg(batch_size):
    return SimpleNamespace(device="cpu", reproducible=False, batch_size=batch_size, block_rows=8)


@pytest.mark.parametrize("size", [2, 3, 5])
def test_one_row_per_rank_is_enough(size):
    check_config(_cfg(size), size)
    with pytest.raises(UserError, match=f"--batch-size {size - 1} is smaller than the {size} MPI processes"):
        check_config(_cfg(size - 1), size)


@pytest.mark.parametrize("B, size", [(5, 2), (7, 3), (6, 3), (10, 4)])
def test_the_split_line_gives_the_shard_sizes_smallest_first(B, size):
    sizes = [hi - lo for lo, hi in (shard(B, size, r) for r in range(size))]
    assert sum(sizes) == B
    each = f"{min(sizes)}" if min(sizes) == max(sizes) else f"{min(sizes)}-{max(sizes)}"
    assert f"split into shards of {each} sequences" in describe_split(size, B)
