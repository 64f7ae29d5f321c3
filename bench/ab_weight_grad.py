"""The RNN and BN cells' dWh after the time loop (lnrnn/kernels/cpu/gemm.py: recurrent_weight_grad) on its
two products, timed in turns in one process: the whole training step of a layer (forward + backward,
float32) with the BLAS's GEMM over each chunk's rows ("gemm") against the product blas.grad_blocks picks
on this host ("chosen": blocks of rows on rgemm's transposed product where rgemm runs the per-step
products). One process and alternating turns put the host's load on both alike.

    python bench/ab_weight_grad.py                                 # every RNN and BN cell at S1-S3
    python bench/ab_weight_grad.py --cells bn-lstm rnn --shapes S1 --reps 15

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
from lnrnn.kernels.cpu import blas, gemm  # noqa: E402
from lnrnn.model.layers import RecurrentLayer  # noqa: E402

CELLS = ("rnn", "ln-rnn", "bn-rnn", "bn-lstm")  # the cells whose dWh recurrent_weight_grad takes


def one_gemm(K, N, itemsize):
    """grad_blocks' answer where the BLAS takes the product: one GEMM per chunk."""
    return blas.DWH_BLOCK_ROWS, False


def paired(layer, x, dy, reps):
    """Median seconds of the step with each product, in turns (the first round compiles, not timed)."""
    ts = {"gemm": [], "chosen": []}
    order = (("gemm", one_gemm), ("chosen", blas.grad_blocks))
    try:
        for r in range(reps + 1):
            for name, rule in (order if r % 2 else order[::-1]):
                gemm.grad_blocks = rule
                t0 = time.perf_counter()
                layer.forward(x)
                layer.backward(dy)
                if r:
                    ts[name].append(time.perf_counter() - t0)
    finally:
        gemm.grad_blocks = blas.grad_blocks
    return {k: statistics.median(v) for k, v in ts.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", nargs="+", default=list(CELLS), choices=CELLS)
    ap.add_argument("--shapes", nargs="+", default=["S1", "S2", "S3"], choices=sorted(SHAPES))
    ap.add_argument("--reps", type=int, default=9)
    a = ap.parse_args()
    print(f"per-step products: {blas.REC} ({blas.REC_WHY}); large partials: {blas.DWH}; float32, median of "
          f"{a.reps} in turns; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name in a.shapes:
        T, B, I, H, _ = SHAPES[name]
        rng = np.random.default_rng(0)
        x = rng.standard_normal((T, B, I)).astype(np.float32)
        dy = (rng.standard_normal((T, B, H)) * 0.01).astype(np.float32)
        for spec in a.cells:
            norm, cell = spec.split("-") if "-" in spec else ("none", spec)
            layer = RecurrentLayer(cell, norm, I, H, dtype=np.float32, seed=0, max_steps=T)
            G = layer.params["Wh"].shape[1]
            rows, tw = blas.grad_blocks(H, G, 4)
            m = paired(layer, x, dy, a.reps)
            how = f"blocks of {rows} rows on rgemm" if tw else "the BLAS's GEMM (the same product)"
            print(f"{name} T{T} B{B} I{I} H{H} {spec:8s} step: gemm {1e3 * m['gemm']:7.1f} ms, chosen "
                  f"{1e3 * m['chosen']:7.1f} ms ({how}): {m['chosen'] / m['gemm']:.2f}x", flush=True)


if __name__ == "__main__":
    main()
