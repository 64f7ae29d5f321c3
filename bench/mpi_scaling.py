"""Data-parallel scaling on MPI: what one update costs, split into compute and the gradient Allreduce,
and a paper estimate for many ranks.

    NUMBA_NUM_THREADS=1 python bench/mpi_scaling.py                   # one process: compute per shard size
    NUMBA_NUM_THREADS=1 mpiexec -n 2 python bench/mpi_scaling.py      # two: + the Allreduce of P floats
    NUMBA_NUM_THREADS=1 mpiexec -n 4 python bench/mpi_scaling.py --reproducible --block-rows 16
                                         # lnrnn train --reproducible's update, and its Allgatherv

Pixel MNIST (the shared 8000/2000 split of t10k, 784 steps of 1 input), the trainer's model (ln-lstm
H=64 by default). Measures, median of --reps:
  compute(b)   one forward + backward of a shard of b sequences (every rank does this with b = B/N)
  update(N)    a whole data-parallel update of the global batch B on this group (mpiexec -n N)
  allreduce    one MPI Allreduce of the update's message (P gradients + metric sums + stop votes,
               float32), and of 8 floats (the latency term alpha)
and, from these, the time of an epoch (8000 / B updates) and a paper estimate for N ranks:
  t(N) = compute(B/N) + 2 log2(N) alpha + 2 (N-1)/N * P * 4 bytes / bandwidth
(BN cells add 4 small Allreduces per time step, about 2 log2(N) alpha each, not in the estimate)
(the Allreduce cost of recursive halving/doubling, Thakur et al. 2005), with alpha and the bandwidth
measured here (shared memory) and, for a cluster, assumed: alpha 5 us, 10 GB/s (100 Gb/s InfiniBand).
Every rank prints nothing; rank 0 prints the figures. Timings only, no assertions (not a test).
"""
import argparse
import os
import math
import time

import numpy as np

from lnrnn.config import BLOCK_ROWS
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.training import distributed
from lnrnn.data.tasks import load_task
from lnrnn.training.optim import make_optimizer
from lnrnn.training.evaluation import task_batch
from lnrnn.training.plan import model_for, resolve
from lnrnn.training.runconfig import TrainConfig


def median_time(fn, reps):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                     "..", "shared", "data", "mnist"))
    ap.add_argument("--cell", default="ln-lstm")
    ap.add_argument("--batch-size", type=int, default=64, help="global batch B")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--far-ranks", type=int, default=64, help="N of the paper estimate")
    ap.add_argument("--reproducible", action="store_true",
                    help="updates as lnrnn train --reproducible runs them: each fixed block its own forward and "
                         "backward, the blocks' gradients gathered (Allgatherv) and added in block order")
    ap.add_argument("--block-rows", type=int, default=None, help="rows a batch block holds at least")
    args = ap.parse_args()
    group = distributed.init()
    rows = block_rows(args.block_rows or BLOCK_ROWS)
    rows.__enter__()  # for the whole process (kept referenced: the context would end when collected)
    plan = resolve(TrainConfig(cell=args.cell, task="mnist", data_dir=args.data_dir, split="8000/2000",
                               batch_size=args.batch_size))
    cfg = plan.cfg
    task = load_task(plan.task_spec)
    model = model_for(plan, task)
    if group.size > 1:
        model.stack.set_batch_reduce(group.allreduce)
    opt = make_optimizer(cfg.optimizer, cfg.lr)
    B, n = args.batch_size, task.size("train")
    x, y, lengths = task_batch(task, "train", np.arange(B), model.dtype)
    P = model.num_params()
    say = print if group.root else (lambda *a, **k: None)
    say(f"{cfg.cell} H={cfg.hidden} on pixel MNIST (T={x.shape[0]}), P = {P:,} parameters, global batch {B}, "
        f"{group.size} rank(s), {args.reps} reps (median)")

    votes = np.zeros(3)

    run = distributed.loss_and_grad_blocks if args.reproducible else distributed.loss_and_grad

    def update():
        run(group, model, x, y, lengths, None, 0, votes)
        opt.step(model.flat[0].data, model.flat[1].data)

    update()  # compile
    t_update = median_time(update, args.reps)
    nb = -(-n // B)
    say(f"update of the global batch on {group.size} rank(s): {1e3 * t_update:.1f} ms -> training epoch "
        f"({nb} updates of {B}) {nb * t_update:.1f} s")

    buf = np.zeros(P + len(model.head.sum_keys) + 3, model.flat[1].data.dtype)
    small = np.zeros(8, buf.dtype)
    if group.size > 1:
        for b in (buf, small):
            group.allreduce(b)
        t_ar = median_time(lambda: [group.allreduce(buf) for _ in range(20)], args.reps) / 20
        t_small = median_time(lambda: [group.allreduce(small) for _ in range(200)], args.reps) / 200
        nbytes = buf.nbytes
        bw = 2 * (group.size - 1) / group.size * nbytes / max(t_ar - 2 * math.log2(group.size) * t_small, 1e-9)
        say(f"Allreduce of the update's message ({buf.size:,} floats, {nbytes / 1e3:.0f} kB): {1e6 * t_ar:.0f} us; "
            f"of 8 floats (alpha): {1e6 * t_small:.1f} us; bandwidth term {bw / 1e9:.2f} GB/s")
        nbk, k0, k1, counts = distributed.rank_blocks(group, B)
        rows = np.zeros((k1 - k0, P), buf.dtype)   # (own blocks, P): --reproducible's gather
        group.allgather_rows(rows, counts)
        t_ga = median_time(lambda: [group.allgather_rows(rows, counts) for _ in range(20)], args.reps) / 20
        say(f"Allgatherv of the blocks' gradients ({nbk} blocks x {P:,} floats, {nbk * P * buf.itemsize / 1e3:.0f} kB "
            f"to every rank), --reproducible's exchange: {1e6 * t_ga:.0f} us ({t_ga / t_ar:.2f}x the Allreduce)")
    else:
        t_small, bw = 10e-6, 1e9  # placeholders until measured under mpiexec
        say("(run under mpiexec -n 2 to measure the Allreduce)")

    if group.root:
        model.stack.set_batch_reduce(None)  # one shard alone (rank 1 is done: no collectives from here)
        comp = {}
        for b in sorted({1, 2, 4, 8, 16, 32, 64, B} & set(range(1, B + 1))):
            xs, ys = np.ascontiguousarray(x[:, :b]), y[:b]
            model.loss_and_grad(xs, ys)
            comp[b] = median_time(lambda: model.loss_and_grad(xs, ys), args.reps)
        say("compute of one shard (forward + backward, one thread): " +
            ", ".join(f"b={b}: {1e3 * t:.1f} ms" for b, t in comp.items()))
        msg = (P + len(model.head.sum_keys) + 3) * buf.itemsize
        for label, alpha, beta in (("shared memory of the measured host", t_small, bw), ("a cluster (5 us, 10 GB/s)", 5e-6, 10e9)):
            for gb in (B, 16 * B):
                rows = []
                for N in (1, 2, 8, args.far_ranks):
                    b = gb // N
                    if b < 1:
                        continue
                    c = comp.get(b)
                    if c is None:  # shard sizes not measured: linear in b from the largest measured
                        bm = max(comp)
                        c = comp[bm] * b / bm
                    ar = 0.0 if N == 1 else 2 * math.log2(N) * alpha + 2 * (N - 1) / N * msg / beta
                    rows.append(f"N={N}: {1e3 * (c + ar):.1f} ms/update ({1e3 * ar:.2f} comm), "
                                f"epoch {-(-n // gb) * (c + ar):.1f} s")
                say(f"paper estimate, global batch {gb}, {label}: " + "; ".join(rows))


if __name__ == "__main__":
    main()
