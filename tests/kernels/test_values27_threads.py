"""lnrnn/kernels/cpu/threads.py by value: clamp_chunks's "at least one, never more than the rows" (an empty batch
still runs one chunk of no rows), batch_blocks against its documented rule (the largest power of two, not over B,
with at least ``rows`` rows a block, but two from B = 2 on), and n_parts (one part below par_min elements a step,
from par_min on the thread count or PART_THREADS, at most B)."""
import numba
import pytest

from lnrnn.kernels.cpu import threads
from lnrnn.kernels.cpu.threads import batch_blocks, clamp_chunks, n_parts, run_chunks
from test_blocks import _record


def test_clamp_chunks_at_least_one_at_most_the_rows():
    assert clamp_chunks(3, 5) == 3 and clamp_chunks(9, 5) == 5
    assert clamp_chunks(4, 0) == 1, "an empty batch: one chunk (of no rows)"
    assert clamp_chunks(0, 5) == 1, "no chunks asked for: one"


def test_an_empty_batch_runs_one_chunk_of_no_rows():
    seen = []
    run_chunks(_record, 0, 4, seen)
    assert seen == [(0, 0, 0)]


def by_rule(B, rows):
    """The documented block count, written out: candidates 1, 2, 4, ... up to B."""
    best, n = 1, 1
    while n <= B:
        if n <= 2 or B // n >= rows:
            best = n
        n *= 2
    return best


@pytest.mark.parametrize("rows", [None, 8, 3])
def test_batch_blocks_follow_the_documented_rule(rows):
    if rows is None:
        got = [batch_blocks(B) for B in range(1, 300)]
        rows = threads.BLOCK_ROWS
    else:
        with threads.block_rows(rows):
            got = [batch_blocks(B) for B in range(1, 300)]
    assert got == [by_rule(B, rows) for B in range(1, 300)]
    assert got[:4] == [1, 2, 2, 2]   # B 1..4: two blocks from B = 2 on


@pytest.fixture
def three_threads(monkeypatch):
    monkeypatch.setattr(threads, "PART_THREADS", None)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 3)


def test_n_parts_below_and_at_par_min(three_threads):
    G = 16
    assert n_parts(8, 4, G, 8 * G + 1) == 1, "fewer elements than par_min: one part"
    assert n_parts(8, 4, G, 8 * G) == 3, "exactly par_min elements: the thread count"
    assert n_parts(8, 4, G, 1) == 3


def test_n_parts_is_the_thread_count_capped_at_the_rows(three_threads, monkeypatch):
    assert n_parts(2, 4, 16, 1) == 2 and n_parts(1, 4, 16, 1) == 1 and n_parts(64, 4, 16, 1) == 3
    monkeypatch.setattr(threads, "PART_THREADS", 5)
    assert n_parts(4, 4, 16, 1) == 4 and n_parts(8, 4, 16, 1) == 5
