"""The thread helpers (lnrnn/kernels/cpu/threads.py) against their definitions at awkward sizes: batch_blocks at
the configured rows (the largest power of two n <= B with n <= max(2, B // BLOCK_ROWS), found here by
enumeration); chunk_bounds covering 0..n in order with chunk k at floor(k n / c); run_synced's parts meeting at a
stand-in barrier (threading.Barrier) giving the one-part result, each part called once with its index and the
part count, and the call returning only once the slowest part has written; readonly's views."""
import threading
import time

import numpy as np
import pytest

from lnrnn.config import BLOCK_ROWS
from lnrnn.kernels.cpu import threads

SIZES = [1, 2, 3, 7, 33, 63, 64, 65, 129, 257, 1000]


def blocks_by_definition(B, rows):
    best = 1
    for e in range(20):
        n = 2 ** e
        if n <= B and n <= max(2, B // rows):
            best = n
    return best


def test_batch_blocks_at_the_configured_rows_by_enumeration():
    assert [threads.batch_blocks(B) for B in SIZES] == [blocks_by_definition(B, BLOCK_ROWS) for B in SIZES]
    # written out at BLOCK_ROWS = 32: 129 // 32 = 4 blocks, 1000 // 32 = 31 -> 16
    if BLOCK_ROWS == 32:
        assert [threads.batch_blocks(B) for B in (1, 3, 7, 33, 129, 1000)] == [1, 2, 2, 2, 4, 16]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 33, 129])
@pytest.mark.parametrize("c", [1, 2, 3, 5])
def test_chunk_bounds_cover_the_rows_in_order(n, c):
    bounds = [threads.chunk_bounds(n, c, k) for k in range(c)]
    assert bounds == [((k * n) // c, ((k + 1) * n) // c) for k in range(c)]
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(bounds[k][1] == bounds[k + 1][0] for k in range(c - 1))
    assert max(hi - lo for lo, hi in bounds) - min(hi - lo for lo, hi in bounds) <= 1


def centred_by_parts(x, n):
    """x (B,F) less its column means, by run_synced with n parts: each part sums its rows, the parts meet at a
    stand-in barrier, then each subtracts the combined mean from its rows; the last part writes late."""
    B = x.shape[0]
    out = np.full_like(x, np.nan)
    partial = np.zeros((n, x.shape[1]))
    bars = {k: threading.Barrier(k) for k in (1, 2, 3, 4)}
    seen, lock = [], threading.Lock()

    def part(q, n_, flags, x_, out_):
        with lock:
            seen.append((q, n_))
        lo, hi = threads.chunk_bounds(B, n_, q)
        partial[q] = x_[lo:hi].sum(0)
        bars[n_].wait(timeout=10)
        mean = partial[:n_].sum(0) / B
        if q == n_ - 1 and n_ > 1:
            time.sleep(0.3)                                         # the slowest part
        out_[lo:hi] = x_[lo:hi] - mean
    threads.run_synced(part, n, x, out)
    return out, sorted(seen)


@pytest.mark.parametrize("B", [3, 7])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_run_synced_parts_at_a_stand_in_barrier_equal_one_part(n, B):
    x = np.random.default_rng(B).standard_normal((B, 4))
    out, seen = centred_by_parts(x, n)
    assert seen == [(q, n) for q in range(n)]                      # every part once, told the part count
    np.testing.assert_allclose(out, x - x.mean(0), rtol=0, atol=1e-12)
    one, _ = centred_by_parts(x, 1)
    np.testing.assert_allclose(out, one, rtol=0, atol=1e-12)


def test_readonly_views_share_memory_and_leave_the_caller_writable():
    a = np.arange(6.0).reshape(2, 3)
    frozen = np.ones(2)
    frozen.flags.writeable = False
    v, (w, k), s, f = threads.readonly(a, (a, 3), "s", frozen)
    for view in (v, w):
        assert view is not a and not view.flags.writeable and np.shares_memory(view, a)
        np.testing.assert_array_equal(view, a)
    assert a.flags.writeable and (k, s) == (3, "s") and f is frozen
