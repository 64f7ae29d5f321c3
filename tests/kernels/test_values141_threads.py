"""lnrnn/kernels/cpu/threads.py's thread plumbing, driven by plain Python functions: run_chunks at awkward row and
thread counts (fewer rows than threads, a prime row count) runs every chunk min(nchunks, n) exactly once, over
the rows that the definition of a near-equal split gives it (floor(k n / c) to floor((k+1) n / c), worked out
here), the chunks together covering each row once; run_synced runs each of its n parts once, re-raises a
single part's error and sets the abort flag flags[n] for the others; the barrier reports False when the abort
flag is up even though every part has arrived."""
import threading
import time

import numpy as np
import pytest

from lnrnn.kernels.cpu import threads


def split(n, c):
    """Rows [lo, hi) of each of c near-equal chunks of n rows, by the definition."""
    return [((k * n) // c, ((k + 1) * n) // c) for k in range(c)]


@pytest.mark.parametrize("n,nchunks,nthreads", [(2, 5, 3), (1, 4, 4), (7, 5, 3), (7, 7, 4), (13, 4, 8), (3, 8, 2)])
def test_run_chunks_runs_each_chunk_once_over_its_rows(monkeypatch, n, nchunks, nthreads):
    monkeypatch.setattr(threads.numba, "get_num_threads", lambda: nthreads)
    seen, lock = [], threading.Lock()

    def rows(q, lo, hi, tag):
        with lock:
            seen.append((q, lo, hi, tag))
    threads.run_chunks(rows, n, nchunks, "x")
    c = max(1, min(nchunks, n))                          # never more chunks than rows
    assert sorted(seen) == [(q, lo, hi, "x") for q, (lo, hi) in enumerate(split(n, c))]
    covered = np.zeros(n, int)
    for _, lo, hi, _ in seen:
        covered[lo:hi] += 1
    assert (covered == 1).all()


@pytest.mark.parametrize("n", [2, 3, 5])
def test_run_synced_runs_every_part_once(n):
    seen, lock = [], threading.Lock()

    def part(q, nparts, flags, scale):
        assert nparts == n and flags.shape == (n + 1,)
        with lock:
            seen.append(q * scale)
    threads.run_synced(part, n, 10)
    assert sorted(seen) == [10 * q for q in range(n)]


def test_run_synced_reraises_one_part_and_raises_the_abort_flag():
    n = 3
    saw = {}

    def part(q, nparts, flags):
        if q == 1:
            raise KeyError("part 1 failed")
        if q == 0:                                       # wait for the failure to show in the flags
            deadline = time.monotonic() + 5.0
            while not flags.any() and time.monotonic() < deadline:
                time.sleep(0.001)
            saw["flags"] = flags.copy()
    with pytest.raises(KeyError, match="part 1 failed"):
        threads.run_synced(part, n)
    assert saw["flags"][n] == 1 and not saw["flags"][:n].any()   # the abort flag, none of the parts' counters


@pytest.mark.parametrize("abort,want", [(0, True), (1, False)])
def test_barrier_with_every_part_arrived_answers_the_abort_flag(abort, want):
    n, generation = 3, 4
    flags = np.array([0, generation + 1, generation, abort], np.int64)   # parts 1, 2 arrived; flags[n]: abort
    assert threads.barrier(flags, 0, n, generation) is want
    assert flags[0] == generation                        # a part's own counter is the step it reached
