"""Split the BN-LSTM training step into the phases its Python drivers run, to see where it goes beyond its
GEMM floor (the floor's parts: bench/step.py --phases).

    python bench/bn_split.py                     # S1 S2 S3, median of 9
    python bench/bn_split.py --shapes S2 --reps 15

lnrnn.kernels.bn_lstm's forward and backward are timed whole, and each of the calls they make is timed as it
runs (a wrapper around the name the driver looks up): forward = the x side (cell_x_forward: x Wx over all
T*B rows and BN_t of it, or a narrow input's moments) + the time loop (run_synced: per step the recurrent
product, the batch moments, the threads' two meetings, the gates and the cell); backward = the time loop
(two meetings a step) + the x side after it (cell_x_backward: BN_t's backward over all T and the GEMMs dx,
dWx, dWh over all T*B rows, or dWh alone for a narrow input). The figures are medians over --reps steps
after two unmeasured ones (compiling), float32, on the kernels' fixed row blocks and numba's threads.

A benchmark, not a test: it prints figures and asserts nothing about time.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402  (sets single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.kernels import bn_lstm as BN  # noqa: E402
from lnrnn.kernels.cpu.blas import HAVE_MKL, REC  # noqa: E402

PHASES = ("cell_x_forward", "run_synced", "cell_x_backward")


def problem(name, rng):
    """bn_lstm_forward's arguments at a named shape (float32, training), and dy."""
    T, B, I, H, _ = SHAPES[name]
    G = 4 * H
    f = np.float32
    x = rng.standard_normal((T, B, I)).astype(f)
    h0, c0 = np.zeros((B, H), f), np.zeros((B, H), f)
    Wx = (rng.standard_normal((I, G)) / np.sqrt(I)).astype(f)
    Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(f)
    gG, zG, gH, zH = np.full(G, 0.1, f), np.zeros(G, f), np.full(H, 0.1, f), np.zeros(H, f)
    running = [np.zeros((T, G), f), np.ones((T, G), f), np.zeros((T, G), f), np.ones((T, G), f),
               np.zeros((T, H), f), np.ones((T, H), f)]
    fwd = (x, h0, c0, Wx, Wh, zG, gG, gG, gH, zH, *running, True, 0.1, 1e-5)
    dy = rng.standard_normal((T, B, H)).astype(f)
    return fwd, dy


def split(name, reps):
    """Medians (ms) of the forward, the backward and each phase (two run_synced calls a step: the forward's
    loop, then the backward's)."""
    fwd, dy = problem(name, np.random.default_rng(0))
    x, h0, c0, Wx, Wh, _, gx, gh, gc = fwd[:9]
    times = {}
    orig = {n: getattr(BN, n) for n in PHASES}

    def timed(n):
        def call(*a, **k):
            t0 = time.perf_counter()
            out = orig[n](*a, **k)
            times.setdefault(n, []).append(time.perf_counter() - t0)
            return out
        return call

    for n in PHASES:
        setattr(BN, n, timed(n))
    try:
        for rep in range(reps + 2):
            if rep == 2:  # the first two compile and warm up
                times.clear()
            t0 = time.perf_counter()
            saved = BN.bn_lstm_forward(*fwd)[3]
            t1 = time.perf_counter()
            BN.bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc)
            t2 = time.perf_counter()
            times.setdefault("forward", []).append(t1 - t0)
            times.setdefault("backward", []).append(t2 - t1)
    finally:
        for n, fn in orig.items():
            setattr(BN, n, fn)
    loops = times.pop("run_synced")
    times["forward loop"], times["backward loop"] = loops[0::2], loops[1::2]
    return {k: 1e3 * statistics.median(v) for k, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", nargs="+", default=["S1", "S2", "S3"], choices=sorted(SHAPES))
    ap.add_argument("--reps", type=int, default=9)
    a = ap.parse_args()
    blas = "MKL" if HAVE_MKL else "np.dot"
    print(f"numba {numba.__version__}, {numba.get_num_threads()} threads, float32, BLAS {blas}, per-step product "
          f"{REC}, median of {a.reps}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with lnrnn.kernel_threads():
        for name in a.shapes:
            T, B, I, H, _ = SHAPES[name]
            r = split(name, a.reps)
            print(f"BN-LSTM {name} T{T} B{B} I{I} H{H}: step {r['forward'] + r['backward']:6.1f} ms = forward "
                  f"{r['forward']:5.1f} (x side {r['cell_x_forward']:5.1f}, time loop {r['forward loop']:5.1f}) "
                  f"+ backward {r['backward']:5.1f} (time loop {r['backward loop']:5.1f}, x side and weight "
                  f"gradients {r['cell_x_backward']:5.1f})", flush=True)


if __name__ == "__main__":
    main()
