"""lnrnn/kernels/cpu/threads.py's context managers and run_synced, driven by plain Python functions: run_chunks'
chunks against the near-equal split worked out by hand (more chunks asked than rows, uneven splits), dry_run
and block_rows giving back the mode and the block rows they found when their block ends, batch_blocks against
a hand table of (block rows, B) -> blocks, and run_synced handing every part its index, the part count and
flags with one slot per part plus the abort flag."""
import threading

import pytest

from lnrnn.kernels.cpu import threads


def chunks_seen(n, nchunks):
    seen = []
    threads.run_chunks(lambda q, lo, hi: seen.append((q, lo, hi)), n, nchunks)
    return sorted(seen)


# (n rows, chunks asked, [(chunk, lo, hi)]) worked out by hand: floor(k n / c) .. floor((k+1) n / c), c <= n
SPLITS = [(10, 3, [(0, 0, 3), (1, 3, 6), (2, 6, 10)]),
          (3, 20, [(0, 0, 1), (1, 1, 2), (2, 2, 3)]),
          (5, 1, [(0, 0, 5)])]


def test_dry_run_gives_back_the_mode_it_found(monkeypatch):
    monkeypatch.setattr(threads.numba, "get_num_threads", lambda: 1)
    with threads.dry_run("skip"):
        assert chunks_seen(10, 3) == []                  # skip: nothing runs
        with threads.dry_run("skip"):
            pass
        assert chunks_seen(10, 3) == []                  # the inner block gave back "skip"
    for n, c, want in SPLITS:                            # and the outer one: every chunk runs again
        assert chunks_seen(n, c) == want
    with pytest.raises(ValueError, match="'compile' or 'skip', not 'run'"):
        with threads.dry_run("run"):
            pass
    assert chunks_seen(10, 3) == SPLITS[0][2]


# (block rows, B, blocks) by hand: the largest power of two n <= B with n <= max(2, B // rows) (two blocks where
# B // rows is under two, one where B is one)
BLOCKS = [(4, 1, 1), (4, 2, 2), (4, 16, 4), (4, 17, 4), (1, 7, 4), (1, 8, 8), (100, 3, 2), (8, 64, 8),
          (64, 64, 2), (64, 1, 1)]


def test_batch_blocks_by_hand_and_block_rows_restored():
    Bs = [1, 2, 3, 7, 8, 16, 17, 64, 1000]
    before = [threads.batch_blocks(B) for B in Bs]
    for rows, B, want in BLOCKS:
        with threads.block_rows(rows):
            assert threads.batch_blocks(B) == want, (rows, B)
        assert [threads.batch_blocks(b) for b in Bs] == before, (rows, B)   # the old rows back
    with threads.block_rows(1):
        with threads.block_rows(8):
            assert threads.batch_blocks(64) == 8
        assert threads.batch_blocks(64) == 64            # the outer block's rows back: one row each
    assert [threads.batch_blocks(b) for b in Bs] == before


@pytest.mark.parametrize("n", [2, 3])
def test_run_synced_parts_get_their_index_and_an_abort_slot(n):
    seen, lock = [], threading.Lock()

    def part(q, n_, flags, tag):
        with lock:
            seen.append((q, n_, flags.shape[0], int(flags[n_]), tag))
    threads.run_synced(part, n, "t")
    assert sorted(seen) == [(q, n, n + 1, 0, "t") for q in range(n)]


def test_run_synced_error_of_part_zero_raises_the_flag():
    kept = {}

    def part(q, n, flags):
        kept["flags"] = flags
        if q == 0:
            raise KeyError("part 0")
    with pytest.raises(KeyError, match="part 0"):
        threads.run_synced(part, 3)
    assert kept["flags"].shape == (4,) and kept["flags"][3] == 1 and not kept["flags"][:3].any()
