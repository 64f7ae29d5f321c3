"""What a persistent recurrent kernel (dev/lstm_persistent_cuda.py) pays per time step for meeting: a grid-wide
barrier (cooperative groups' grid sync, and a barrier of our own on one global counter) and a block-wide sum,
on the GPU.

    python bench/gpu_barrier.py                       # grids of 8 .. one block per SM, 256 threads
    NUMBA_ENABLE_CUDASIM=1 python bench/gpu_barrier.py --tiny   # smoke test of this script, no GPU

Each figure is (time of a launch that meets N times - time of one that meets 0 times) / N, the median of
5 launches, so that launch overhead stays out. A benchmark: it prints figures and asserts nothing about
time. It checks that every barrier held (a counter every block adds to between meetings).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lnrnn.kernels.cuda.cuda_env import numpy_compat  # noqa: E402

numpy_compat()
import numpy as np  # noqa: E402
from numba import cuda, float32, int32  # noqa: E402

from lnrnn.kernels.cuda.rows_cuda import block_sum  # noqa: E402


@cuda.jit
def grid_sync_loop(n, seen):
    """n grid syncs; after each, block 0's thread 0 checks that every block has counted (seen[1] flags
    a barrier that let a block through early)."""
    g = cuda.cg.this_grid()
    nb = cuda.gridDim.x
    for i in range(n):
        if cuda.threadIdx.x == 0:
            cuda.atomic.add(seen, 0, 1)
        g.sync()
        if cuda.blockIdx.x == 0 and cuda.threadIdx.x == 0 and seen[0] < (i + 1) * nb:
            seen[1] = 1
        g.sync()


@cuda.jit(device=True)
def counter_barrier(bar, nb):
    """Grid-wide barrier on two global words: bar[0] counts arrivals, bar[1] is the generation. The last
    block to arrive resets the count and moves the generation on; the others spin on it."""
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        gen = cuda.atomic.add(bar, 1, 0)
        cuda.threadfence()
        if cuda.atomic.add(bar, 0, 1) == nb - 1:
            bar[0] = 0
            cuda.threadfence()
            cuda.atomic.add(bar, 1, 1)
        else:
            while cuda.atomic.add(bar, 1, 0) == gen:
                pass
        cuda.threadfence()
    cuda.syncthreads()


@cuda.jit
def counter_loop(n, bar, seen):
    nb = cuda.gridDim.x
    for i in range(n):
        if cuda.threadIdx.x == 0:
            cuda.atomic.add(seen, 0, 1)
        counter_barrier(bar, nb)
        if cuda.blockIdx.x == 0 and cuda.threadIdx.x == 0 and seen[0] < (i + 1) * nb:
            seen[1] = 1
        counter_barrier(bar, nb)


@cuda.jit
def block_sum_loop(n, out):
    """n block-wide sums (rows_cuda.block_sum: a shared-memory tree) per block."""
    sh = cuda.shared.array(1024, float32)
    v = float32(cuda.threadIdx.x)
    for i in range(n):
        v = block_sum(sh, v) * float32(1e-3)
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x] = v


def per_meeting_us(launch, n, reps=5):
    def timed(k):
        ts = []
        for _ in range(reps):
            cuda.synchronize()
            t0 = time.perf_counter()
            launch(k)
            cuda.synchronize()
            ts.append(time.perf_counter() - t0)
        return statistics.median(ts)
    launch(1)
    cuda.synchronize()
    return (timed(n) - timed(0)) / n * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--meetings", type=int, default=20000)
    ap.add_argument("--threads", type=int, default=256)
    ap.add_argument("--tiny", action="store_true", help="one block, few meetings: checks this script")
    args = ap.parse_args(argv)
    tpb = 4 if args.tiny else args.threads
    n = 3 if args.tiny else args.meetings
    dev = cuda.get_current_device()
    sms = 1 if args.tiny else dev.MULTIPROCESSOR_COUNT
    print(f"{getattr(dev, 'name', b'simulator')!s}: {sms} multiprocessors; {tpb} threads per block; "
          f"{n} meetings per launch")
    grids = [1] if args.tiny else sorted({8, 16, 32, 64, sms, 2 * sms})
    bad = False
    print(f"{'blocks':>7} {'grid sync us':>13} {'counter barrier us':>19} {'block sum us':>13}")
    for nb in grids:
        seen = cuda.to_device(np.zeros(2, np.int32))
        bar = cuda.to_device(np.zeros(2, np.int32))
        out = cuda.device_array(nb, np.float32)
        row = []
        try:
            if not args.tiny:
                ov = grid_sync_loop.overloads
                if not ov:
                    grid_sync_loop[1, tpb](0, seen)
                mx = list(grid_sync_loop.overloads.values())[0].max_cooperative_grid_blocks(tpb)
                if nb > mx:
                    raise RuntimeError(f"> {mx} cooperative blocks")

            def gs(k):
                seen.copy_to_device(np.zeros(2, np.int32))
                grid_sync_loop[nb, tpb](k, seen)
            row.append(per_meeting_us(gs, n) / 2)
            bad |= bool(seen.copy_to_host()[1])
        except Exception as e:  # noqa: BLE001  (a grid larger than a cooperative launch allows, say)
            row.append(f"{type(e).__name__}: {e}"[:40])

        def cb(k):
            seen.copy_to_device(np.zeros(2, np.int32))
            counter_loop[nb, tpb](k, bar, seen)
        if nb <= sms:  # every block must be resident at once for a spinning barrier
            row.append(per_meeting_us(cb, n) / 2)
            bad |= bool(seen.copy_to_host()[1])
        else:
            row.append("(not all resident)")
        row.append(per_meeting_us(lambda k: block_sum_loop[nb, tpb](k, out), n))
        print(f"{nb:7d} " + " ".join(f"{v:>13.2f}" if isinstance(v, float) else f" {v}" for v in row), flush=True)
    if bad:
        print("A BARRIER LET A BLOCK THROUGH EARLY")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
