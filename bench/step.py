"""Time one training step (forward + BPTT backward, float32) of a layer next to its GEMM floor; with
--memory, also measure the step's peak memory against what BPTT must keep.

    python bench/step.py                    # LN-LSTM at S1 S2 S3, median of 5 after warm-up
    python bench/step.py --shapes S2 --reps 10 --cell lstm --norm none
    python bench/step.py --all --reps 7     # every cell x norm at S1-S3, each against its own floor,
                                            # where the time goes (--phases is implied), the FMA bound
    python bench/step.py --all --cells lstm/none lstm/ln rnn/none rnn/ln   # some of them
    python bench/step.py --shapes S1 --cell lstm --norm ln --reps 9 --phases  # one cell, split
    python bench/step.py --shapes S2 --memory

Step and floor are timed alternately in one process (step, floor, step, floor, ...) and the ratio is
of their medians, so that load on a shared machine shifts both alike (one cell or --all alike). The
ratio of their process CPU times (all threads) is printed too: under load it moves less than the
wall-time ratio (a call's wall time counts the time other processes held its cores). The floor of a cell is that of
its own gate width G (4H for the LSTM, H for the RNN). --phases splits the floor into its GEMMs (x Wx
over all T*B rows; the T recurrent products forward; the T products backward; dWx, dx, dWh over all
T*B rows) and the step into forward and backward, and times the same cell without normalization, so
that a row reads: GEMMs, + pointwise gates and memory traffic (plain cell - floor), + the LN/BN passes
and, for BN, the per-step barrier (normalized cell - plain cell). It also prints the step's distance to
the FMA bound: the floor's multiply-adds (6 T B G (H + I) flops: x Wx, dWx and dx, the recurrent
products both ways and dWh) at the fastest float32 rate one thread reaches in this process, times the
threads (one_core_rate: lnrnn's per-step product at 64 x 512 by 512 x 2048 and the BLAS's GEMM at
512 x 512 by 512 x 512, the best of 5 timings each), the rate a product at the core's FMA peak runs at.

The floor runs only the matrix products a BPTT step needs, with one batch chunk per thread (the
fewest and largest products; lnrnn's fixed row blocks give as many at S1 and S3 on 2 threads, twice as
many at S2: bench/blocks.py) and the same BLAS as lnrnn: x Wx over all T*B rows; T recurrent products h Wh (forward) and
T products dHW Wh^T (backward) per chunk, through lnrnn.kernels.cpu.blas exactly as lnrnn/kernels/lstm.py
calls it (Wh and Wh^T packed once per chunk: MKL's packed GEMM where MKL is found, np.dot on OpenBLAS
otherwise); dWx, dx and dWh over all T*B rows.

Memory (--memory), per shape in a fresh process (Linux /proc only): compile on the shape, then build a
new layer and its inputs, reset the high-water mark (write 5 to /proc/self/clear_refs), read VmRSS,
run one step, read VmHWM; the difference is the step's extra resident memory. That process runs with
LNRNN_KEEP_MALLOC=1 (lnrnn leaves glibc's malloc alone, see lnrnn/config.py) and a fixed
MALLOC_MMAP_THRESHOLD_ (which also turns off glibc's self-raising threshold), so every large array is
its own mapping and goes back to the OS when freed: the figure is what the step needs, not what the
allocator kept from the warm-up. "BPTT must keep" = the arrays of the saved tuple lstm_forward
returns (lnrnn/kernels/lstm.py lists them) + parameters + gradients; the inputs x and dy belong to the
caller and count on neither side. Two steps are measured: the first on a layer that holds nothing,
and the next, which starts while the layer still holds the previous step's saved tuple (it is
replaced only when forward returns), as every step of a training loop does.

A benchmark, not a test: it prints figures and asserts nothing about time or memory.
"""
import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (sets single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.config import PJIT  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS, HAVE_MKL, blas_mul, blas_pack, gemm, rec_mul, rec_pack  # noqa: E402
from lnrnn.kernels.cpu.gemm import matmul, matmul_tn
from lnrnn.kernels.cpu.threads import chunk_bounds, clamp_chunks
from lnrnn.model.layers import RecurrentLayer  # noqa: E402

# The BLAS of the floor's recurrent products, for row labels (compare.py uses it too).
FLOOR = "GEMM floor (MKL)" if HAVE_MKL else "GEMM floor (OpenBLAS)"
# Environment of the memory process: freed arrays are unmapped at once (see the module docstring).
MEMORY_ENV = {"LNRNN_KEEP_MALLOC": "1", "MALLOC_MMAP_THRESHOLD_": str(64 * 1024)}


# Cached like lnrnn's kernels: this module imports lnrnn, so its cache files carry the BLAS choice too
# (lnrnn.compiling.KernelCacheLocator): a floor compiled against MKL is never loaded without it.
def gemm_floor(x, Wx, Wh, hs, dHW, nchunks):
    """Only the products of one LSTM BPTT step. x (T,B,I), Wx (I,G), Wh (H,G), hs (T,B,H) stand-in
    hidden states, dHW (T,B,G) stand-in gradients of h_{t-1} Wh: x Wx, the T recurrent products each
    way per batch chunk, then dWx, dx and dWh (the parts below, called as the cells call them)."""
    return (floor_input(x, Wx, nchunks) + floor_recurrent(Wh, hs, dHW, nchunks, True)
            + floor_recurrent(Wh, hs, dHW, nchunks, False) + floor_weights(x, Wx, hs, dHW, nchunks))


def floor_input(x, Wx, nchunks):
    """The floor's x Wx over all T*B rows."""
    T, B, I = x.shape
    return matmul(x.reshape(T * B, I), Wx, nchunks)[0, 0]


@njit(**PJIT)
def floor_recurrent(Wh, hs, dHW, nchunks, forward):
    """The floor's T recurrent products per batch chunk: h Wh (forward) or dHW Wh^T (backward)."""
    T, B, H = hs.shape
    W = Wh if forward else np.ascontiguousarray(Wh.T)  # (H,G) or (G,H)
    nch = clamp_chunks(nchunks, B)
    acc = np.zeros(nch, dtype=hs.dtype)
    for q in prange(nch):
        lo, hi = chunk_bounds(B, nch, q)
        out = np.empty((hi - lo, W.shape[1]), dtype=hs.dtype)
        P = blas_pack(W, hi - lo)
        for t in range(T):
            blas_mul(hs[t, lo:hi] if forward else dHW[t, lo:hi], W, P, out)
            acc[q] += out[0, 0]
    return acc.sum()


def floor_weights(x, Wx, hs, dHW, nchunks):
    """The floor's dWx, dx and dWh over all T*B rows (matmul_tn drives its chunks from Python, as the
    cells' backward does)."""
    T, B, I = x.shape
    H, G = hs.shape[2], dHW.shape[2]
    d2 = dHW.reshape(T * B, G)
    dWx = matmul_tn(x.reshape(T * B, I), d2, nchunks)
    dx = matmul(d2, np.ascontiguousarray(Wx.T), nchunks)
    dWh = matmul_tn(hs.reshape(T * B, H), d2, nchunks)
    return dWx[0, 0] + dx[0, 0] + dWh[0, 0]


def paired_times(fns, reps, cpu=None):
    """ms of each function over reps turns (one warm-up call each first): a list per function. With
    cpu a list, also the process CPU time of each call (ms, all threads) into cpu, one list per function:
    on a loaded machine the wall time of a call counts the time other processes held its cores, its
    CPU time much less (cache and memory-bandwidth contention remain)."""
    for fn in fns:
        fn()
    ts = [[] for _ in fns]
    if cpu is not None:
        cpu[:] = [[] for _ in fns]
    for _ in range(reps):
        for k, (fn, t) in enumerate(zip(fns, ts)):
            c0 = time.process_time()
            t0 = time.perf_counter()
            fn()
            t.append((time.perf_counter() - t0) * 1e3)
            if cpu is not None:
                cpu[k].append((time.process_time() - c0) * 1e3)
    return ts


def paired_medians(fns, reps):
    """Median ms of each function, timed in turns."""
    return [statistics.median(t) for t in paired_times(fns, reps)]


def problem(cell, norm, name, rng):
    """A layer of the cell at shape name, its step (forward + backward) and its floor's operands."""
    T, B, I, H, _ = SHAPES[name]
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float32, seed=0, max_steps=T)
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    dy = (rng.standard_normal((T, B, H)) * 0.01).astype(np.float32)
    G = layer.params["Wh"].shape[1]
    hs = rng.standard_normal((T, B, H)).astype(np.float32)
    dHW = rng.standard_normal((T, B, G)).astype(np.float32)
    return layer, x, dy, hs, dHW


def step_floor_fwd(layer, x, dy, hs, dHW, nch):
    """The three functions timed in turns: the layer's step (forward + backward), its GEMM floor, and
    its forward alone."""
    p = layer.params

    def step():
        layer.forward(x)
        layer.backward(dy)

    def floor():
        gemm_floor(x, p["Wx"], p["Wh"], hs, dHW, nch)

    def fwd():
        layer.forward(x)
    return step, floor, fwd


def floor_phases(layer, x, hs, dHW, nch, reps):
    """Median ms of the floor's parts, timed in turns: x Wx, recurrent forward, recurrent backward, and
    dWx, dx, dWh over all T*B rows."""
    p = layer.params
    return paired_medians([lambda: floor_input(x, p["Wx"], nch),
                           lambda: floor_recurrent(p["Wh"], hs, dHW, nch, True),
                           lambda: floor_recurrent(p["Wh"], hs, dHW, nch, False),
                           lambda: floor_weights(x, p["Wx"], hs, dHW, nch)], reps)


def label(name):
    T, B, I, H, what = SHAPES[name]
    return f"{name} {what} T{T} B{B} I{I} H{H}"


CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]
NAMES = {("lstm", "none"): "LSTM", ("lstm", "ln"): "LN-LSTM", ("lstm", "bn"): "BN-LSTM",
         ("rnn", "none"): "RNN", ("rnn", "ln"): "LN-RNN", ("rnn", "bn"): "BN-RNN"}


def all_cells(shapes, reps, cells=CELLS):
    """Every cell x norm of cells at every shape: step, its own floor (paired), ratio; then the phases
    (the '+' rows need the plain cell of the same gate width among cells; they are left out without it)."""
    nch = numba.get_num_threads()
    rng = np.random.default_rng(0)
    rate = one_core_rate()
    print_rate(rate, nch)
    rows, phases, bounds = {}, {}, {}
    for name in shapes:
        for cell, norm in cells:
            layer, x, dy, hs, dHW = problem(cell, norm, name, rng)
            step, floor, fwd = step_floor_fwd(layer, x, dy, hs, dHW, nch)
            cpu = []
            t_step, t_floor, t_fwd = paired_times([step, floor, fwd], reps, cpu)
            ms, fl, f_ms = (statistics.median(t) for t in (t_step, t_floor, t_fwd))
            best = min(t_step) / min(t_floor)  # fastest of each: the least disturbed by other processes
            c_ratio = statistics.median(cpu[0]) / statistics.median(cpu[1])
            rows[name, cell, norm] = (ms, fl, f_ms, best, c_ratio)
            bounds[name, cell] = fma_bound(x, hs, dHW, rate, nch)[1]
            print(f"{label(name):<28} {NAMES[cell, norm]:<8} step {ms:7.1f} ms  forward {f_ms:7.1f}  "
                  f"floor {fl:7.1f}  {ms / fl:5.2f}x  (fastest of each: {min(t_step):.1f} / {min(t_floor):.1f} = "
                  f"{best:.2f}x; CPU time {c_ratio:.2f}x)", flush=True)
            if norm == "none" or (cell, "none") not in cells:  # the floor's parts, once per gate width
                phases[name, cell] = floor_phases(layer, x, hs, dHW, nch, reps)
    print()
    print("| step / own floor, ms (medians) = ratio (ratio of the fastest runs; of the CPU times) | "
          + " | ".join(label(n) for n in shapes) + " |")
    print("|---|" + "---|" * len(shapes))
    for cell, norm in cells:
        r = {n: rows[n, cell, norm] for n in shapes}
        print(f"| {NAMES[cell, norm]} | " + " | ".join(
            f"{r[n][0]:.0f} / {r[n][1]:.0f} = **{r[n][0] / r[n][1]:.2f}x** ({r[n][3]:.2f}x; {r[n][4]:.2f}x)"
            for n in shapes) + " |")
    print()
    print("| step / FMA bound (ms of the floor's flops at the rate above) | " + " | ".join(label(n) for n in shapes)
          + " |")
    print("|---|" + "---|" * len(shapes))
    for cell, norm in cells:
        print(f"| {NAMES[cell, norm]} | " + " | ".join(
            f"{rows[n, cell, norm][0]:.0f} / {bounds[n, cell]:.0f} = {rows[n, cell, norm][0] / bounds[n, cell]:.2f}x"
            for n in shapes) + " |")
    print()
    print("Where the time goes (ms, medians; '+' rows are differences of medians):")
    widths = [c for c in ("lstm", "rnn") if any(cell == c for cell, _ in cells)]
    print("| | " + " | ".join(f"{n} {c.upper()}" for n in shapes for c in widths) + " |")
    print("|---|" + "---|" * (len(widths) * len(shapes)))
    parts = ["x Wx, all T*B rows", "recurrent products, forward", "recurrent products, backward",
             "dWx, dx, dWh, all T*B rows"]
    for i, what in enumerate(parts):
        print(f"| floor: {what} | " + " | ".join(f"{phases[n, c][i]:.1f}" for n in shapes for c in widths)
              + " |")
    lines = [("floor (one function)", "none", lambda n, c: rows[n, c, "none"][1]),
             ("+ plain cell: pointwise gates, memory traffic", "none",
              lambda n, c: rows[n, c, "none"][0] - rows[n, c, "none"][1]),
             ("+ LN passes (LN cell - plain cell)", "ln", lambda n, c: rows[n, c, "ln"][0] - rows[n, c, "none"][0]),
             ("+ BN passes and per-step barrier (BN cell - plain cell)", "bn",
              lambda n, c: rows[n, c, "bn"][0] - rows[n, c, "none"][0]),
             ("plain cell: forward / backward", None, None)]
    for what, norm, f in lines:
        if not all((c, "none") in cells and (c, norm or "none") in cells for c in widths):
            continue
        if f is None:
            print(f"| {what} | " + " | ".join(
                f"{rows[n, c, 'none'][2]:.0f} / {rows[n, c, 'none'][0] - rows[n, c, 'none'][2]:.0f}"
                for n in shapes for c in widths) + " |")
        else:
            print(f"| {what} | " + " | ".join(f"{f(n, c):.1f}" for n in shapes for c in widths) + " |")


def fma_bound(x, hs, dHW, rate, nch):
    """(the floor's flops, the ms they take at rate GFLOP/s a thread on nch threads): the FMA bound."""
    T, B, I = x.shape
    H = hs.shape[2]
    G = dHW.shape[2]
    flops = 6 * T * B * G * (H + I)  # the floor's products (module docstring)
    return flops, flops / (rate * 1e9 * nch) * 1e3


def print_rate(rate, nch):
    print(f"FMA bound at {rate:.0f} GFLOP/s a thread (the fastest float32 product measured here, one thread) "
          f"x {nch} threads")


def median_time(fn, reps):
    fn()  # warm-up (compile)
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


# ------------------------------------------------------------------------------------------------
# Peak memory
# ------------------------------------------------------------------------------------------------
def proc_status_kb(field):
    """A VmXXX field of /proc/self/status, in KiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def step_extra_bytes(step):
    """Resident memory at the peak of step() minus that before it."""
    gc.collect()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # VmHWM := VmRSS
    base = proc_status_kb("VmRSS")
    step()
    return (proc_status_kb("VmHWM") - base) * 1024


def memory_worker(name, cell, norm):
    """Peak memory of one training step at shape name; prints one JSON line (in bytes)."""
    T, B, I, H, _ = SHAPES[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    dy = (rng.standard_normal((T, B, H)) * 0.01).astype(np.float32)
    warm = RecurrentLayer(cell, norm, I, H, dtype=np.float32, seed=0, max_steps=T)
    warm.forward(x)
    warm.backward(dy)  # compile (or load the cache) on this shape
    del warm
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float32, seed=0, max_steps=T)

    def step():
        layer.forward(x)
        layer.backward(dy)

    first = step_extra_bytes(step)   # the layer holds nothing yet
    steady = step_extra_bytes(step)  # the layer holds the previous step's saved tuple until forward returns
    saved = layer._saved[2]  # (x, state, saved, params): the kernel's saved tuple, as lnrnn/model/layers.py keeps it
    print(json.dumps({"saved": sum(a.nbytes for a in saved),
                      "params": sum(a.nbytes for a in layer.params.values()),
                      "grads": sum(a.nbytes for a in layer.grads.values()),
                      "first": first, "steady": steady}))


def memory_table(shapes, cell, norm):
    if not sys.platform.startswith("linux"):
        print("--memory reads /proc/self (Linux only): skipped")
        return
    print()
    print(f"peak memory of one step ({cell}/{norm}, float32), each shape in a fresh process with "
          + " ".join(f"{k}={v}" for k, v in MEMORY_ENV.items()))
    print("  must keep = saved tuple + parameters + gradients; peak = parameters + gradients + the step's extra"
          " resident memory;\n  steady = a step that starts while the layer still holds the previous step's"
          " saved tuple (peak counts it too)")
    print(f"{'shape':<28} {'saved MB':>9} {'p+g MB':>7} {'must keep MB':>13} {'peak MB':>8} {'ratio':>6} "
          f"{'steady peak MB':>15} {'ratio':>6}")
    env = dict(os.environ, **MEMORY_ENV)
    for name in shapes:
        cmd = [sys.executable, os.path.abspath(__file__), "--memory-worker", name, "--cell", cell, "--norm", norm]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            sys.exit(f"memory worker failed on {name}:\n{r.stderr[-2000:]}")
        m = json.loads(r.stdout.strip().splitlines()[-1])
        pg = m["params"] + m["grads"]
        keep = m["saved"] + pg
        peak = pg + m["first"]
        steady = pg + m["saved"] + m["steady"]
        T, B, I, H, what = SHAPES[name]
        label = f"{name} {what} T{T} B{B} I{I} H{H}"
        print(f"{label:<28} {m['saved'] / 1e6:9.1f} {pg / 1e6:7.1f} {keep / 1e6:13.1f} {peak / 1e6:8.1f} "
              f"{peak / keep:5.2f}x {steady / 1e6:15.1f} {steady / keep:5.2f}x")


def one_core_rate(reps=5):
    """The fastest float32 GFLOP/s one thread reaches here (module docstring: the FMA bound's rate)."""
    rng = np.random.default_rng(1)
    A = rng.standard_normal((64, 512)).astype(np.float32)     # (64,512)
    W = rng.standard_normal((512, 2048)).astype(np.float32)   # (512,2048)
    out = np.empty((64, 2048), np.float32)                    # (64,2048)
    P = rec_pack(W, 64)
    M = rng.standard_normal((512, 512)).astype(np.float32)    # (512,512)
    O = np.empty_like(M)                                      # (512,512)
    best = 0.0
    runs = ((lambda: rec_mul(A, W, P, out), 2 * 64 * 512 * 2048), (lambda: gemm(M, M, O, False), 2 * 512 ** 3))
    for run, flops in runs:
        run()
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(20):
                run()
            best = max(best, 20 * flops / (time.perf_counter() - t0) / 1e9)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cell", default="lstm", choices=["lstm", "rnn"])
    ap.add_argument("--norm", default="ln", choices=["none", "ln", "bn"])
    ap.add_argument("--memory", action="store_true", help="also measure the peak memory of a step (Linux)")
    ap.add_argument("--all", action="store_true", help="every cell x norm, each against its own floor, and phases")
    ap.add_argument("--cells", nargs="+", default=[f"{c}/{n}" for c, n in CELLS],
                    choices=[f"{c}/{n}" for c, n in CELLS], help="with --all: the cell/norm pairs to time")
    ap.add_argument("--phases", action="store_true",
                    help="one cell: also split the step into forward and backward, and the floor into its GEMMs")
    ap.add_argument("--memory-worker", choices=list(SHAPES), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.memory_worker:
        return memory_worker(args.memory_worker, args.cell, args.norm)
    print(f"numba {numba.__version__}, {numba.get_num_threads()} threads, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, float32, median of {args.reps}; "
          f"recurrent products: {BLAS}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if args.all:
        return all_cells(args.shapes, args.reps, [tuple(c.split("/")) for c in args.cells])
    print(f"{'shape':<28} {'lnrnn step ms':>14} {FLOOR + ' ms':>24} {'ratio':>7}")
    rng = np.random.default_rng(0)
    nch = numba.get_num_threads()
    if args.phases:
        rate = one_core_rate()
        print_rate(rate, nch)
    for name in args.shapes:
        layer, x, dy, hs, dHW = problem(args.cell, args.norm, name, rng)
        step, floor, fwd = step_floor_fwd(layer, x, dy, hs, dHW, nch)
        t0 = time.perf_counter()
        step()
        first = time.perf_counter() - t0
        cpu = []
        t_step, t_floor, t_fwd = paired_times([step, floor, fwd], args.reps, cpu)  # in turns, as --all
        ms, fl, f_ms = (statistics.median(t) for t in (t_step, t_floor, t_fwd))
        c_step, c_floor, c_fwd = (statistics.median(c) for c in cpu)
        print(f"{label(name):<28} {ms:14.1f} {fl:24.1f} {ms / fl:6.2f}x   (fastest of each: "
              f"{min(t_step) / min(t_floor):.2f}x; CPU time {c_step:.0f} / {c_floor:.0f} = {c_step / c_floor:.2f}x; "
              f"first call {first:.1f} s)")
        if args.phases:
            parts = floor_phases(layer, x, hs, dHW, nch, args.reps)
            print(f"    CPU time: forward {c_fwd:.1f} + backward {c_step - c_fwd:.1f}")
            print(f"    step: forward {f_ms:.1f} + backward {ms - f_ms:.1f} (difference of medians); floor: x Wx "
                  f"{parts[0]:.1f}, recurrent forward {parts[1]:.1f}, recurrent backward {parts[2]:.1f}, "
                  f"dWx dx dWh {parts[3]:.1f}; step - floor {ms - fl:.1f}")
            flops, bound = fma_bound(x, hs, dHW, rate, nch)
            print(f"    FMA bound: the floor's {flops / 1e9:.1f} GFLOP in {bound:.1f} ms; "
                  f"step / bound {ms / bound:.2f}x, floor / bound {fl / bound:.2f}x")
    if args.memory:
        memory_table(args.shapes, args.cell, args.norm)


if __name__ == "__main__":
    main()
