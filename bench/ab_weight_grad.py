"""The weight gradients over many rows (A^T D) on their two products, timed in turns in one process: the
whole training step with the BLAS's GEMM ("gemm") against the product lnrnn picks on this host ("chosen":
blocks of rows on rgemm's transposed product where rgemm runs the per-step products, blas.grad_blocks and
blas.dwh_blocks). One process and alternating turns put the host's load on both alike.
  cells        the RNN and BN cells' dWh after the time loop (gemm.recurrent_weight_grad), the LSTM and
               LN-LSTM's dWh blocks in the backward: a layer's forward + backward (float32) at S1-S3
  --synthesis  Graves's synthesis network's training step (bench/synthesis_step.py's model: 3 x 400
               LN-LSTM, K 10, T 500; loss_and_grad), whose large partials (the window layer's dWh over all
               rows, the upper layers' dWh and dWx with their 463-wide input) ran on the BLAS's GEMM before

    python bench/ab_weight_grad.py                                 # every cell at S1-S3
    python bench/ab_weight_grad.py --cells bn-lstm rnn --shapes S1 --reps 15
    python bench/ab_weight_grad.py --cells --synthesis 8 32 --reps 5
    python bench/ab_weight_grad.py --grad rgemm      # blocks within L2 on rgemm, whatever this host chose

"chosen" takes the blocks within L2 where this host measured them (blas.GRAD: rgemm's transposed product,
or the BLAS's GEMM in its own blocks), or where --grad says; "gemm" every weight gradient on the BLAS's GEMM,
the LSTM's dWh blocks (lstm, ln-lstm) in the blocks a host running the BLAS per step takes.

A benchmark: it prints figures and asserts nothing about time.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402  (sets single-threaded BLAS before NumPy loads)
import numpy as np  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402
import lnrnn.kernels.lstm as lstm  # noqa: E402
from lnrnn.kernels import window  # noqa: E402
from lnrnn.kernels.cpu import blas, gemm  # noqa: E402
from lnrnn.config import FOLD_MAX_I  # noqa: E402
from lnrnn.kernels.cpu.threads import batch_blocks  # noqa: E402
from lnrnn.model.layers import RecurrentLayer  # noqa: E402

CELLS = ("rnn", "ln-rnn", "bn-rnn", "bn-lstm", "lstm", "ln-lstm")  # recurrent_weight_grad's dWh, the LSTM backward's
GRAD = {"chosen": blas.GRAD}  # where "chosen" takes the blocks within L2 (--grad)


def one_gemm(K, N, itemsize):
    """grad_blocks' answer where the BLAS takes the product: one GEMM per chunk."""
    return blas.DWH_BLOCK_ROWS, False


def use(chosen):
    """The products lnrnn picks (chosen) or the BLAS's GEMM wherever a partial is large or after the loop:
    the after-loop products' rule in gemm.py and window.py, and the LSTM backward's large-partial choice
    (lstm.DWH: "blas" gives every partial beyond L2, or beside a wide input's dWx beyond a quarter of it,
    the BLAS's 4096-row blocks; GRAD "blas", the blocks within L2 the BLAS's own)."""
    gemm.grad_blocks = window.grad_blocks = blas.grad_blocks if chosen else one_gemm
    lstm.DWH = blas.DWH if chosen else "blas"
    blas.GRAD = lstm.GRAD = GRAD["chosen"] if chosen else "blas"


def paired(step, reps):
    """Median seconds of step() with each product, in turns (the first round compiles, not timed)."""
    ts = {"gemm": [], "chosen": []}
    order = (("gemm", False), ("chosen", True))
    try:
        for r in range(reps + 1):
            for name, chosen in (order if r % 2 else order[::-1]):
                use(chosen)
                t0 = time.perf_counter()
                step()
                if r:
                    ts[name].append(time.perf_counter() - t0)
    finally:
        use(True)
    return {k: statistics.median(v) for k, v in ts.items()}


def synthesis(batches, reps):
    """The synthesis training step, both ways, for each batch size."""
    from bench.synthesis_step import problem
    a = argparse.Namespace(steps=500, chars=40, alphabet=60, hidden=400, window=10, norm="ln", layers=3,
                           components=20)
    for B in batches:
        model, x, y, text = problem(a, B, np.random.default_rng(0))
        m = paired(lambda: model.loss_and_grad(x, y, text=text), reps)
        print(f"synthesis 3 x 400 LN-LSTM, K 10, T 500, B {B}: gemm {1e3 * m['gemm']:7.1f} ms, chosen "
              f"{1e3 * m['chosen']:7.1f} ms: {m['chosen'] / m['gemm']:.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", nargs="*", default=list(CELLS), choices=CELLS, help="none: no cell rows")
    ap.add_argument("--shapes", nargs="+", default=["S1", "S2", "S3"], choices=sorted(SHAPES))
    ap.add_argument("--synthesis", nargs="*", type=int, default=[], metavar="B", help="batch sizes of the synthesis step")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--grad", choices=["rgemm", "blas"],
                    help="where \"chosen\" takes the blocks within L2 (default: blas.GRAD)")
    a = ap.parse_args()
    GRAD["chosen"] = a.grad or blas.GRAD
    if a.reps < 1 or any(b < 1 for b in a.synthesis):
        ap.error("--reps and the --synthesis batch sizes must be positive")
    print(f"per-step products: {blas.REC} ({blas.REC_WHY}); large partials: {blas.DWH}; within L2: "
          f"{GRAD['chosen']}{'' if a.grad else ' (' + blas.GRAD_WHY + ')'}; float32, median of "
          f"{a.reps} in turns; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name in a.shapes if a.cells else ():
        T, B, I, H, _ = SHAPES[name]
        rng = np.random.default_rng(0)
        x = rng.standard_normal((T, B, I)).astype(np.float32)
        dy = (rng.standard_normal((T, B, H)) * 0.01).astype(np.float32)
        for spec in a.cells:
            norm, cell = spec.split("-") if "-" in spec else ("none", spec)
            layer = RecurrentLayer(cell, norm, I, H, dtype=np.float32, seed=0, max_steps=T)
            G = layer.params["Wh"].shape[1]
            use(True)
            if cell == "lstm" and norm != "bn":  # the LSTM backward's dWh blocks
                m_rows = -(-B // batch_blocks(B))
                nb, tw = blas.dwh_blocks(H, 0 if I <= FOLD_MAX_I else I, m_rows, T, 4, blas.REC, blas.DWH, blas.GRAD)
                rows = nb * m_rows
            else:
                rows, tw = blas.grad_blocks(H, G, 4)
            m = paired(lambda: (layer.forward(x), layer.backward(dy)), a.reps)
            how = f"blocks of {rows} rows on rgemm" if tw else "the BLAS's GEMM (the same product)"
            print(f"{name} T{T} B{B} I{I} H{H} {spec:8s} step: gemm {1e3 * m['gemm']:7.1f} ms, chosen "
                  f"{1e3 * m['chosen']:7.1f} ms ({how}): {m['chosen'] / m['gemm']:.2f}x", flush=True)
    synthesis(a.synthesis, a.reps)


if __name__ == "__main__":
    main()
