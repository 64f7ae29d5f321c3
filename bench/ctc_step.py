"""The cost of the CTC loss against the recurrent layer it trains: CTC forward + backward (lnrnn/kernels/ctc.py)
on a BLSTM-sized step, beside the step of the bidirectional LSTM layer that would feed it.

    python bench/ctc_step.py                     # T 300, B 32, C 80 classes, labels of 60, LSTM 2 x 100 on I 25
    python bench/ctc_step.py --classes 80 --label 60 --reps 5 --norm ln

Timed in turns in one process (medians), float32:
  ctc           ctc_forward + ctc_backward of logits (T,B,C), every row its full T steps and a label of --label
                classes drawn at random (repeats included)
  blstm layer   one LSTM layer of --hidden units forward + backward over x (T,B,I), twice (the two directions
                of a bidirectional layer, the second over the reversed sequence), as Graves et al. 2009 (I 25,
                100 units a direction)
The share printed is ctc / (ctc + blstm layer), by wall time and by the process's CPU time (which a loaded
machine moves less). A benchmark, not a test: it prints figures and asserts nothing.
"""
import argparse
import os
import platform
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import paired_times  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS, cpuinfo  # noqa: E402
from lnrnn.kernels.ctc import ctc_backward, ctc_forward  # noqa: E402
from lnrnn.model.layers import RecurrentLayer  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=300, help="T")
    ap.add_argument("--batch", type=int, default=32, help="B")
    ap.add_argument("--classes", type=int, default=80, help="C, the blank included")
    ap.add_argument("--label", type=int, default=60, help="label length of every row")
    ap.add_argument("--inputs", type=int, default=25, help="I of the recurrent layer")
    ap.add_argument("--hidden", type=int, default=100, help="units of each direction")
    ap.add_argument("--norm", default="none", choices=["none", "ln"])
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    T, B, C, L, I, H = args.steps, args.batch, args.classes, args.label, args.inputs, args.hidden
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((T, B, C)).astype(np.float32)
    labels = rng.integers(1, C, (B, L)).astype(np.int64)
    il, ll = np.full(B, T, np.int64), np.full(B, L, np.int64)
    g = np.full(B, 1.0 / B, np.float32)
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    xr = np.ascontiguousarray(x[::-1])
    dy = (0.01 * rng.standard_normal((T, B, H))).astype(np.float32)
    fw, bw = (RecurrentLayer("lstm", args.norm, I, H, dtype=np.float32, seed=s, max_steps=T) for s in (0, 1))

    def ctc():
        _, saved = ctc_forward(logits, labels, il, ll)
        ctc_backward(g, saved, labels, il, ll)

    def blstm():
        for layer, xs in ((fw, x), (bw, xr)):
            layer.forward(xs)
            layer.backward(dy)

    print(f"{cpuinfo('model name') or platform.processor() or 'unknown CPU'}, {os.cpu_count()} logical CPUs, "
          f"{numba.get_num_threads()} threads, BLAS {BLAS}; float32")
    print(f"T={T} B={B} C={C} labels of {L}; BLSTM layer {args.norm}-LSTM 2 x {H} on I={I}")
    cpu = []
    c, s = (statistics.median(t) for t in paired_times([ctc, blstm], args.reps, cpu))
    cc, cs = (statistics.median(t) for t in cpu)
    print(f"wall: ctc {c:.1f} ms   blstm layer {s:.1f} ms   ctc share {100 * c / (c + s):.1f}%")
    print(f"CPU time (all threads): ctc {cc:.1f} ms   blstm layer {cs:.1f} ms   ctc share {100 * cc / (cc + cs):.1f}%")


if __name__ == "__main__":
    main()
