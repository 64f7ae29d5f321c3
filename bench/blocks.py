"""What fixed row blocks cost: every cell's training step (forward + BPTT backward, float32) with the
batch split into the blocks lnrnn uses (kernels.cpu.threads.batch_blocks, config.BLOCK_ROWS rows a block at
least: the same bits on any thread count) against the same step with one block per thread (two on the
2-core machine; what the kernels did when their chunks followed the thread count), and each against the
GEMM floor of bench/step.py. The three run in turns in one process, so load shifts them alike.

    python bench/blocks.py                           # every cell x norm at S1 S2 S3, median of 7
    python bench/blocks.py --shapes S1 --cells lstm/ln --reps 11 --block-rows 16 32

A benchmark, not a test: it prints figures and asserts nothing about time.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (sets single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import CELLS, NAMES, label, paired_times, problem, step_floor_fwd  # noqa: E402
from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.config import BLOCK_ROWS  # noqa: E402
from lnrnn.kernels.cpu import threads  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS  # noqa: E402
from lnrnn.threadscope import kernel_threads  # noqa: E402


def with_block_rows(fn, rows):
    """fn run with batch_blocks following ``rows`` rows a block (None: one block per thread)."""
    def run():
        if rows is None:  # one block per thread: batch_blocks(B) is then 2 (its minimum from B = 2 on)
            assert numba.get_num_threads() == 2, "the one-block-per-thread comparison is for 2 threads"
        with threads.block_rows(rows if rows is not None else 1 << 30):
            fn()
    return run


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", nargs="+", default=["S1", "S2", "S3"], choices=list(SHAPES))
    ap.add_argument("--cells", nargs="+", default=[f"{c}/{n}" for c, n in CELLS],
                    choices=[f"{c}/{n}" for c, n in CELLS])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--block-rows", type=int, nargs="+", default=[BLOCK_ROWS],
                    help="rows a block at least (config.BLOCK_ROWS) for the fixed-block steps timed")
    args = ap.parse_args(argv)
    print(f"numba {numba.__version__}, {numba.get_num_threads()} threads, float32, median of {args.reps}; "
          f"{BLAS}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    rng = np.random.default_rng(0)
    nch = numba.get_num_threads()
    with kernel_threads():
        for name in args.shapes:
            B = SHAPES[name][1]
            for cn in args.cells:
                cell, norm = cn.split("/")
                layer, x, dy, hs, dHW = problem(cell, norm, name, rng)
                step, floor, _ = step_floor_fwd(layer, x, dy, hs, dHW, nch)
                fns = [with_block_rows(step, None), floor] + [with_block_rows(step, r) for r in args.block_rows]
                ts = paired_times(fns, args.reps)
                per_thread, fl = statistics.median(ts[0]), statistics.median(ts[1])
                cols = []
                for r, t in zip(args.block_rows, ts[2:]):
                    with threads.block_rows(r):
                        nb = threads.batch_blocks(B)
                    ms = statistics.median(t)
                    cols.append(f"{nb} blocks ({r}+ rows) {ms:7.1f} ms = {ms / per_thread:5.3f}x, "
                                f"{ms / fl:4.2f}x floor")
                print(f"{label(name):<28} {NAMES[cell, norm]:<8} one per thread {per_thread:7.1f} ms "
                      f"({per_thread / fl:4.2f}x floor {fl:.1f})  " + "  ".join(cols), flush=True)


if __name__ == "__main__":
    main()
