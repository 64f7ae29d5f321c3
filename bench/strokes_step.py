"""One training step of the handwriting model (Graves's 3 x 400 skip stack + the mixture density head,
float32, S3: T300 B32 I3) next to its GEMM floor, in one process.

    python bench/strokes_step.py [--cell ln-lstm] [--reps 5] [--layers 3] [--hidden 400]

The step is SequenceModel.loss_and_grad on full-length lines (no padding): the stack's forward and
BPTT, the head's linear map, the mixture density NLL and its gradient. The floor runs only the
matrix products of that step with the same threading and BLAS: for each layer the products of
bench/step.py's floor (x Wx over all rows, T recurrent products each way per batch chunk, dWx, dx,
dWh) with that layer's input width (I for the first, I + H above it), plus the head's three
products (y W, dW, dy over the T*B rows and L*H features). A benchmark: prints, asserts nothing.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import gemm_floor, median_time  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS  # noqa: E402
from lnrnn.kernels.cpu.gemm import matmul, matmul_tn
from lnrnn.model.models import build_model  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cell", default="ln-lstm", choices=["lstm", "ln-lstm", "bn-lstm"])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--hidden", type=int, default=400)
    ap.add_argument("--components", type=int, default=20)
    args = ap.parse_args()
    T, B, I, H, L, M = 300, 32, 3, args.hidden, args.layers, args.components
    norm = {"lstm": "none", "ln-lstm": "ln", "bn-lstm": "bn"}[args.cell]
    model = build_model(dict(cell="lstm", norm=norm, input_size=I, hidden_size=H, num_layers=L, dtype="float32",
                             forget_bias=1.0, skip=True, head={"kind": "mdn", "components": M, "per_step": True}),
                        max_steps=T)
    rng = np.random.default_rng(0)
    x = (0.5 * rng.standard_normal((T, B, I))).astype(np.float32)
    y = rng.standard_normal((B, T, I)).astype(np.float32)
    y[..., 2] = rng.random((B, T)) < 0.05
    step_ms = median_time(lambda: model.loss_and_grad(x, y), args.reps)

    nch = numba.get_num_threads()
    G, K = 4 * H, 6 * M + 1
    hs = (0.1 * rng.standard_normal((T, B, H))).astype(np.float32)
    dHW = (0.1 * rng.standard_normal((T, B, G))).astype(np.float32)
    Wh = (0.05 * rng.standard_normal((H, G))).astype(np.float32)
    inputs = [(0.1 * rng.standard_normal((T, B, I if k == 0 else I + H))).astype(np.float32) for k in range(L)]
    Wxs = [(0.05 * rng.standard_normal((xk.shape[2], G))).astype(np.float32) for xk in inputs]
    Y = (0.1 * rng.standard_normal((T * B, L * H))).astype(np.float32)
    W = (0.05 * rng.standard_normal((L * H, K))).astype(np.float32)
    D = (0.1 * rng.standard_normal((T * B, K))).astype(np.float32)
    WT = np.ascontiguousarray(W.T)

    def floor():
        s = 0.0
        for xk, Wx in zip(inputs, Wxs):
            s += gemm_floor(xk, Wx, Wh, hs, dHW, nch)
        s += matmul(Y, W, nch)[0, 0] + matmul_tn(Y, D, nch)[0, 0] + matmul(D, WT, nch)[0, 0]
        return s

    floor_ms = median_time(floor, args.reps)
    print(f"{args.cell} {L} x {H} skip stack + MDN head (M {M}), T{T} B{B} I{I}, float32, "
          f"{nch} threads, {BLAS.split(',')[0]}")
    print(f"training step {step_ms:.1f} ms, GEMM floor {floor_ms:.1f} ms, ratio {step_ms / floor_ms:.2f}x "
          f"(median of {args.reps})")


if __name__ == "__main__":
    main()
