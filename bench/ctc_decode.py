"""The cost of decoding a CTC head's output (lnrnn/model/decode.py, lnrnn/model/beam.py): best path and the
compiled prefix beam search at several widths over a batch, beside the CTC loss forward + backward of the same
shape (lnrnn/kernels/ctc.py), and the Python spec (decode.prefix_beam_search) on a few rows for comparison.

    python bench/ctc_decode.py                      # T 300, B 32, C 80, widths 1 4 8 16, logits N(0, 1)
    python bench/ctc_decode.py --scale 4 --reps 9   # sharper per-step distributions (a trained head's are)

CPU time of the process (time.process_time, all threads), medians of --reps calls after one warm-up call (the
compile), float32 logits; logp is their log-softmax. The spec runs once on --spec-rows rows of the batch at
--spec-width (width 1 too) and its time is scaled to B; the compiled search's labels and log p are compared with
its answers on those rows. A benchmark, not a test: it prints figures and asserts nothing.
"""
import argparse
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import paired_times  # noqa: E402
from lnrnn.kernels.cpu.blas import cpuinfo  # noqa: E402
from lnrnn.kernels.ctc import ctc_backward, ctc_forward  # noqa: E402
from lnrnn.model.beam import beam_search_array  # noqa: E402
from lnrnn.model.decode import best_path, prefix_beam_search  # noqa: E402


def cpu_median(fn, reps):
    """Median CPU ms of fn over reps calls (after one warm-up call)."""
    cpu = []
    paired_times([fn], reps, cpu)
    return statistics.median(cpu[0])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=300, help="T")
    ap.add_argument("--batch", type=int, default=32, help="B")
    ap.add_argument("--classes", type=int, default=80, help="C, the blank included")
    ap.add_argument("--label", type=int, default=60, help="label length of every row (the CTC loss timed beside)")
    ap.add_argument("--scale", type=float, default=1.0, help="standard deviation of the random logits")
    ap.add_argument("--widths", type=int, nargs="+", default=[1, 4, 8, 16], help="beam widths timed")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--spec-rows", type=int, default=1, help="rows the Python spec is timed on (scaled to B)")
    ap.add_argument("--spec-width", type=int, default=8, help="the width the spec is timed at (and width 1)")
    args = ap.parse_args(argv)
    T, B, C, L = args.steps, args.batch, args.classes, args.label
    rng = np.random.default_rng(0)
    logits = (args.scale * rng.standard_normal((T, B, C))).astype(np.float32)
    labels = rng.integers(1, C, (B, L)).astype(np.int64)
    il, ll = np.full(B, T, np.int64), np.full(B, L, np.int64)
    g = np.full(B, 1.0 / B, np.float32)
    logp = ctc_forward(logits, labels, il, ll)[1][0]             # (T,B,C) log-softmax, as the head decodes it

    def ctc():
        _, saved = ctc_forward(logits, labels, il, ll)
        ctc_backward(g, saved, labels, il, ll)

    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{cpuinfo('model name') or platform.processor() or 'unknown CPU'}, {os.cpu_count()} logical CPUs, "
          f"{numba.get_num_threads()} threads, load average {load}")
    print(f"T={T} B={B} C={C}, logits N(0, {args.scale:g}) float32; CPU time, medians of {args.reps}")
    loss = cpu_median(ctc, args.reps)
    print(f"ctc loss forward + backward (labels of {L}): {loss:.1f} ms")
    bp = cpu_median(lambda: best_path(logp, il), args.reps)
    print(f"best path: {bp:.2f} ms")
    for w in args.widths:
        t = cpu_median(lambda: beam_search_array(logp, w, il), args.reps)
        print(f"beam search width {w:2d} (compiled): {t:7.1f} ms  ({t / (T * B) * 1e3:.2f} us a row-step, "
              f"{t / loss:.2f}x the ctc loss)")
    rows = min(args.spec_rows, B)
    for w in sorted({1, args.spec_width}):
        c0 = time.process_time()
        want = [prefix_beam_search(logp[:, b], w)[0] for b in range(rows)]
        spec = (time.process_time() - c0) * 1e3
        c0 = time.process_time()
        got, n, logq = beam_search_array(logp[:, :rows], w, il[:rows])
        fast = (time.process_time() - c0) * 1e3
        same = all(tuple(got[b, :n[b]]) == lab and logq[b] == q for b, (lab, q) in enumerate(want))
        print(f"python spec width {w:2d}: {spec:.0f} ms on {rows} row(s), {spec * B / rows:.0f} ms scaled to B "
              f"(compiled on the same rows: {fast:.2f} ms, {spec / max(fast, 1e-9):.0f}x faster; labels and log p "
              f"{'identical' if same else 'DIFFERENT'})")


if __name__ == "__main__":
    main()
