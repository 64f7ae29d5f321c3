"""The cost of the CTC loss against the recurrent layer it trains: CTC forward + backward (lnrnn/kernels/ctc.py)
on a BLSTM-sized step, beside the step of the bidirectional LSTM layer that would feed it, and the cost of
decoding the batch (lnrnn/model/decode.py).

    python bench/ctc_step.py                     # T 300, B 32, C 80 classes, labels of 60, LSTM 2 x 100 on I 25
    python bench/ctc_step.py --classes 80 --label 60 --reps 5 --norm ln
    python bench/ctc_step.py --against HEAD~1    # also: this kernel against ctc.py of a git revision, A/B

Timed in turns in one process (medians), float32:
  ctc           ctc_forward + ctc_backward of logits (T,B,C), every row its full T steps and a label of --label
                classes drawn at random (repeats included)
  blstm layer   one LSTM layer of --hidden units forward + backward over x (T,B,I), twice (the two directions
                of a bidirectional layer, the second over the reversed sequence), as Graves et al. 2009 (I 25,
                100 units a direction)
  decoding      best path of the batch's log-probabilities (saved[0]), and the compiled prefix beam search
                at --beam over every row (lnrnn/model/beam.py; bench/ctc_decode.py times more widths and the
                Python spec)
The shares printed are ctc / (ctc + blstm layer) and, for the update of a 2-layer BLSTM-CTC, ctc / (ctc + 2
blstm layers) and decoding / (ctc + 2 blstm layers), by wall time and by the process's CPU time (which a
loaded machine moves less). --against REV first times ctc.py of git revision REV (loaded from `git show`)
and this one in turns, forward and backward, float32 and float64, one process: CPU-time medians and their
ratio, and the largest differences of their outputs. A benchmark, not a test: it prints figures and asserts
nothing.
"""
import argparse
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import paired_times  # noqa: E402
from lnrnn.kernels import ctc  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS, cpuinfo  # noqa: E402
from lnrnn.kernels.ctc import ctc_backward, ctc_forward  # noqa: E402
from lnrnn.model.decode import beam_search, best_path  # noqa: E402
from lnrnn.model.layers import RecurrentLayer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_at(rev):
    """lnrnn/kernels/ctc.py as it was at git revision rev, imported as a module of its own."""
    src = subprocess.run(["git", "show", f"{rev}:lnrnn/kernels/ctc.py"], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    path = os.path.join(tempfile.mkdtemp(prefix="ctc_at_"), "ctc_at_rev.py")
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("ctc_at_rev", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def against(rev, T, B, C, L, reps):
    """Print CPU-time medians of ctc.py at rev and of this one, timed in turns, float32 and float64."""
    old = kernel_at(rev)
    rng = np.random.default_rng(1)
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((T, B, C)).astype(dtype)
        labels = rng.integers(1, C, (B, L)).astype(np.int64)
        il, ll = np.full(B, T, np.int64), np.full(B, L, np.int64)
        g = np.full(B, 1.0 / B, dtype)
        out, fwd, bwd = [], [[], []], [[], []]
        for k, m in enumerate((old, ctc)):                      # compile, and keep the outputs
            loss, saved = m.ctc_forward(x, labels, il, ll)
            out.append((loss, m.ctc_backward(g, saved, labels, il, ll)))
        for _ in range(reps):
            for k, m in enumerate((old, ctc)):
                c0 = time.process_time()
                _, saved = m.ctc_forward(x, labels, il, ll)
                c1 = time.process_time()
                m.ctc_backward(g, saved, labels, il, ll)
                fwd[k].append((c1 - c0) * 1e3)
                bwd[k].append((time.process_time() - c1) * 1e3)
        (lo, do), (ln, dn) = out
        f0, f1, b0, b1 = (statistics.median(v) for v in (fwd[0], fwd[1], bwd[0], bwd[1]))
        name = np.dtype(dtype).name
        print(f"{name}: at {rev}: forward {f0:.1f} ms, backward {b0:.1f} ms CPU; now: forward {f1:.1f} ms, "
              f"backward {b1:.1f} ms; now/then {f1 / f0:.2f}x forward, {b1 / b0:.2f}x backward, "
              f"{(f1 + b1) / (f0 + b0):.2f}x both (medians of {reps}, in turns)")
        print(f"{name}: loss within {np.abs(ln - lo).max() / np.abs(lo).max():.1e} relative, gradient within "
              f"{np.abs(dn - do).max() / np.abs(do).max():.1e} of its largest element")


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
    ap.add_argument("--beam", type=int, default=8, help="beam width of the decoding timed")
    ap.add_argument("--against", metavar="REV", help="also time ctc.py of this git revision against this one")
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
    print(f"2-layer BLSTM-CTC update (ctc + 2 layers), CPU time: ctc share {100 * cc / (cc + 2 * cs):.1f}%")
    logp = ctc_forward(logits, labels, il, ll)[1][0]             # (T,B,C) log-softmax, as the head decodes it
    dec = []
    paired_times([lambda: best_path(logp, il), lambda: beam_search(logp, args.beam, il)], args.reps, dec)
    cb, beam = (statistics.median(t) for t in dec)
    step = cc + 2 * cs
    print(f"decoding, CPU time: best path {cb:.2f} ms ({100 * cb / step:.2f}% of the update), prefix beam search "
          f"width {args.beam} {beam:.1f} ms ({100 * beam / step:.1f}% of the update, {beam / cc:.2f}x the ctc loss)")
    if args.against:
        against(args.against, T, B, C, L, args.reps)


if __name__ == "__main__":
    main()
