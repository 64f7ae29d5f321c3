"""The simulator's blocks as tests/conftest.py runs them (one greenlet per CUDA thread, run in turn until each
reaches syncthreads() or ends): what a kernel sees must be what Numba's own simulator gives it, or every
CUDA twin test would check the twins against a different machine. Shared memory and barriers in a 2-D
block, the syncthreads_count family, threads that end before a barrier the others reach, an error in one
thread named by its indices, and a missing barrier that still shows (a thread runs until it waits, so a
read of what a later thread writes before the barrier sees the old value).

On a GPU (NUMBA_ENABLE_CUDASIM=0) there is no simulator to check: skipped there."""
import os

import numpy as np
import pytest
from numba import cuda  # a module global: the simulator swaps it for its own in the kernels' globals

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_ENABLE_CUDASIM") != "1",
                                reason="checks the simulator's block runner")

BX, BY = 5, 3          # a 2-D block of 15 threads, not a power of two
GRID = 4


def _block_sums_kernel(barrier):
    @cuda.jit
    def kernel(x, out):
        buf = cuda.shared.array((BY, BX), np.float64)
        tx, ty, b = cuda.threadIdx.x, cuda.threadIdx.y, cuda.blockIdx.x
        buf[ty, tx] = x[b, ty, tx]
        if barrier:
            cuda.syncthreads()
        if tx == 0 and ty == 0:
            s = 0.0
            for j in range(BY):
                for i in range(BX):
                    s += buf[j, i]
            out[b] = s
    return kernel


def test_shared_memory_and_a_barrier_in_a_2d_block():
    x = np.random.default_rng(0).standard_normal((GRID, BY, BX))
    out = np.zeros(GRID)
    _block_sums_kernel(True)[GRID, (BX, BY)](x, out)
    np.testing.assert_allclose(out, x.sum(axis=(1, 2)), rtol=1e-13)


def test_a_missing_barrier_shows():
    """Thread (0, 0) runs first and reads the block's shared row before the others wrote it: without the
    barrier the sum is not the block's (so a kernel that forgets a barrier fails its twin test)."""
    x = np.random.default_rng(1).standard_normal((GRID, BY, BX)) + 10.0
    out = np.zeros(GRID)
    _block_sums_kernel(False)[GRID, (BX, BY)](x, out)
    assert not np.allclose(out, x.sum(axis=(1, 2)))


def test_syncthreads_count_and_or():
    @cuda.jit
    def kernel(flags, out):
        t = cuda.threadIdx.x
        v = flags[t]
        out[0, t] = cuda.syncthreads_count(v)
        out[1, t] = cuda.syncthreads_and(v)
        out[2, t] = cuda.syncthreads_or(v)

    for flags in (np.array([1, 0, 1, 1, 0, 0, 1]), np.ones(7, np.int64), np.zeros(7, np.int64)):
        out = np.zeros((3, 7), np.int64)
        kernel[1, 7](flags, out)
        want = [flags.sum(), int(flags.all()), int(flags.any())]
        assert out.tolist() == [[w] * 7 for w in want]


def test_threads_that_end_before_a_barrier_do_not_hold_the_others():
    """Threads past the data's end return at once; the others still meet at their barriers, twice."""
    @cuda.jit
    def kernel(x, out):
        buf = cuda.shared.array(8, np.float64)
        t = cuda.threadIdx.x
        if t >= x.shape[0]:
            return
        buf[t] = x[t]
        cuda.syncthreads()
        v = buf[(t + 1) % x.shape[0]]
        cuda.syncthreads()
        buf[t] = v * 2.0
        cuda.syncthreads()
        out[t] = buf[(t + 1) % x.shape[0]]

    x = np.arange(5.0)
    out = np.zeros(5)
    kernel[1, 8](x, out)
    np.testing.assert_array_equal(out, 2.0 * np.roll(x, -2))


def test_an_error_in_one_thread_names_it():
    @cuda.jit
    def kernel(x):
        t = cuda.threadIdx.x
        x[t + 4 * cuda.blockIdx.x] = 1.0           # block 1's last thread writes past the end

    with pytest.raises(IndexError, match=r"tid=\[3, 0, 0\] ctaid=\[1, 0, 0\]"):
        kernel[2, 4](np.zeros(7))


def test_thread_and_block_indices_and_lanes():
    @cuda.jit
    def kernel(out):
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        k = cuda.grid(1)
        out[cuda.blockIdx.x, ty, tx, 0] = k
        out[cuda.blockIdx.x, ty, tx, 1] = cuda.laneid

    out = np.zeros((2, 1, 40, 2), np.int64)
    kernel[2, 40](out)
    np.testing.assert_array_equal(out[..., 0].ravel(), np.arange(80))
    np.testing.assert_array_equal(out[..., 1].ravel(), np.tile(np.arange(40) % 32, 2))

    @cuda.jit
    def lanes(out):                                 # a 2-D block: lanes count along x first, then y
        out[cuda.threadIdx.y, cuda.threadIdx.x] = cuda.laneid

    out = np.zeros((BY, BX), np.int64)
    lanes[1, (BX, BY)](out)
    np.testing.assert_array_equal(out, np.arange(BX * BY).reshape(BY, BX))
