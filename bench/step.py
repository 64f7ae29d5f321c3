"""Time one LN-LSTM training step (forward + BPTT backward, float32) next to its GEMM floor.

    python bench/step.py                    # S1 S2 S3, median of 5 after warm-up
    python bench/step.py --shapes S2 --reps 10 --cell lstm --norm none

The floor runs only the matrix products a BPTT step needs, with the same batch-chunk-per-thread
layout and the same BLAS as lnrnn: x Wx over all T*B rows; T recurrent products h Wh (forward) and
T products dHW Wh^T (backward) per chunk; dWx, dx and dWh over all T*B rows. A benchmark, not a test:
it prints figures and asserts nothing about time.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (sets single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.config import PJIT  # noqa: E402
from lnrnn.kernels.common import chunk_bounds, clamp_chunks, matmul, matmul_tn  # noqa: E402
from lnrnn.layers import RecurrentLayer  # noqa: E402



@njit(**PJIT)
def gemm_floor(x, Wx, Wh, hs, dHW, nchunks):
    """Only the products of one LSTM BPTT step. x (T,B,I), hs (T,B,H) stand-in hidden states,
    dHW (T,B,G) stand-in gate gradients."""
    T, B, I = x.shape
    H, G = Wh.shape
    xp = matmul(x.reshape(T * B, I), Wx, nchunks)
    WhT = np.ascontiguousarray(Wh.T)
    nch = clamp_chunks(nchunks, B)
    acc = np.zeros(nch, dtype=x.dtype)
    for q in prange(nch):
        lo, hi = chunk_bounds(B, nch, q)
        hw = np.empty((hi - lo, G), dtype=x.dtype)
        dh = np.empty((hi - lo, H), dtype=x.dtype)
        for t in range(T):
            np.dot(hs[t, lo:hi], Wh, hw)
            acc[q] += hw[0, 0]
        for t in range(T - 1, -1, -1):
            np.dot(dHW[t, lo:hi], WhT, dh)
            acc[q] += dh[0, 0]
    d2 = dHW.reshape(T * B, G)
    dWx = matmul_tn(x.reshape(T * B, I), d2, nchunks)
    dx = matmul(d2, np.ascontiguousarray(Wx.T), nchunks)
    dWh = matmul_tn(hs.reshape(T * B, H), d2, nchunks)
    return acc.sum() + xp[0, 0] + dWx[0, 0] + dx[0, 0] + dWh[0, 0]


def median_time(fn, reps):
    fn()  # warm-up (compile)
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cell", default="lstm", choices=["lstm", "rnn"])
    ap.add_argument("--norm", default="ln", choices=["none", "ln", "bn"])
    args = ap.parse_args(argv)
    print(f"numba {numba.__version__}, {numba.get_num_threads()} threads, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, float32, median of {args.reps}")
    print(f"{'shape':<28} {'lnrnn step ms':>14} {'GEMM floor ms':>14} {'ratio':>7}")
    rng = np.random.default_rng(0)
    for name in args.shapes:
        T, B, I, H, what = SHAPES[name]
        layer = RecurrentLayer(args.cell, args.norm, I, H, dtype=np.float32, seed=0, max_steps=T)
        x = rng.standard_normal((T, B, I)).astype(np.float32)
        dy = (rng.standard_normal((T, B, H)) * 0.01).astype(np.float32)

        def step():
            layer.forward(x)
            layer.backward(dy)

        G = layer.params["Wh"].shape[1]
        hs = rng.standard_normal((T, B, H)).astype(np.float32)
        dHW = rng.standard_normal((T, B, G)).astype(np.float32)
        nch = numba.get_num_threads()
        t0 = time.perf_counter()
        step()
        first = time.perf_counter() - t0
        ms = median_time(step, args.reps)
        floor = median_time(lambda: gemm_floor(x, layer.params["Wx"], layer.params["Wh"], hs, dHW, nch), args.reps)
        label = f"{name} {what} T{T} B{B} I{I} H{H}"
        print(f"{label:<28} {ms:14.1f} {floor:14.1f} {ms / floor:6.2f}x   (first call {first:.1f} s)")


if __name__ == "__main__":
    main()
