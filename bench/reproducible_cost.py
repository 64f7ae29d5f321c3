"""What `lnrnn train --reproducible` costs one process: an update's forward and backward (model and
classifier head, float32) run as one call over the batch (the default) and as one call per fixed block
(``distributed.loss_and_grad_blocks``, which gives the same bits on any number of MPI ranks), timed in
turns in one process.

    python bench/reproducible_cost.py                       # digits default (T64 B16 H64) and S1-S3, LN-LSTM
    python bench/reproducible_cost.py --cell lstm --reps 9 --shapes S2
    python bench/reproducible_cost.py --data-blocks 4       # block rows small enough for 4 ranks
    python bench/reproducible_cost.py --cell bn-lstm --shapes digits S2 S3

Prints, per shape, the median ms of both and their ratio (blocks / one call); for a BN cell also the one
call through the synchronized BN cells that its blocks run (``kernels.bn_sync``, with a reduction that
does nothing). Timings only, no assertions.
"""
import argparse
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench.step import paired_times  # noqa: E402
from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.model import cells  # noqa: E402
from lnrnn.model.models import SequenceClassifier  # noqa: E402
from lnrnn.training.distributed import data_blocks  # noqa: E402
from lnrnn.config import BLOCK_ROWS  # noqa: E402
from lnrnn.kernels.cpu.threads import block_rows  # noqa: E402
from lnrnn.threadscope import kernel_threads  # noqa: E402
from lnrnn.training import distributed  # noqa: E402

ALL_SHAPES = {"digits": (64, 16, 1, 64, "digits, the default run"), **SHAPES}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cell", default="ln-lstm",
                    help="any cell; a BN cell's blocks run together on models of their own (distributed.BlockRing)")
    ap.add_argument("--shapes", nargs="+", default=list(ALL_SHAPES), choices=list(ALL_SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--data-blocks", type=int, default=None,
                    help="choose each shape's --block-rows so that a batch is this many --reproducible blocks "
                         "(what a run on that many MPI ranks needs); both paths run with it. Default: 32 rows")
    args = ap.parse_args()
    import numba
    cell, norm = cells.parse_cell(args.cell)
    print(f"{args.cell}, float32, classifier head; {numba.get_num_threads()} threads; median of {args.reps} turns")
    bn = norm == "bn"
    print(f"{'shape':>7} {'T':>4} {'B':>4} {'H':>4} {'rows':>4} {'blocks':>6} {'one call ms':>12} {'per block ms':>13} {'ratio':>6}"
          + (f" {'synced call ms':>15}" if bn else ""))
    rng = np.random.default_rng(0)
    for name in args.shapes:
        T, B, I, H, _ = ALL_SHAPES[name]
        model = SequenceClassifier(cell, norm, input_size=I, hidden_size=H, num_classes=10, dtype="float32")
        x = rng.random((T, B, I)).astype(np.float32)
        y = rng.integers(0, 10, B)
        votes = np.zeros(3)
        rows = BLOCK_ROWS
        if args.data_blocks:  # the largest block rows that make at least that many blocks
            rows = next(r for r in range(B, 0, -1) if block_rows_blocks(B, r) >= args.data_blocks)
        runs = [lambda: model.loss_and_grad(x, y),
                lambda: distributed.loss_and_grad_blocks(distributed.SINGLE, model, x, y, None, None, 0, votes)]
        if bn:  # the same call through the synchronized BN cells (what a BN block runs; MPI's default too)
            synced = SequenceClassifier(cell, norm, input_size=I, hidden_size=H, num_classes=10, dtype="float32")
            synced.stack.set_batch_reduce(lambda buf: None)
            runs.append(lambda: synced.loss_and_grad(x, y))
        with kernel_threads(), block_rows(rows):
            times = paired_times(runs, args.reps)
        a, b = statistics.median(times[0]), statistics.median(times[1])
        print(f"{name:>7} {T:4d} {B:4d} {H:4d} {rows:4d} {block_rows_blocks(B, rows):6d} {a:12.1f} {b:13.1f} "
              f"{b / a:6.2f}" + (f" {statistics.median(times[2]):15.1f}" if bn else ""), flush=True)


def block_rows_blocks(B, rows):
    """--reproducible's blocks of a batch of B under --block-rows rows."""
    with block_rows(rows):
        return data_blocks(B)


if __name__ == "__main__":
    main()
