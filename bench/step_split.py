"""Split the (LN-)LSTM training step into its matrix products and everything else, on 1 and on 2 threads,
next to the machine's memory bandwidth: how far below its GEMM floor can a step go on this CPU?

    python bench/step_split.py                       # LN-LSTM and LSTM at S1 S2 S3, median of 7
    python bench/step_split.py --shapes S1 --norm ln --reps 9
    python bench/step_split.py --columns     # also: the forward's recurrent products split by rows or columns
    python bench/step_split.py --products --shapes S2 --norm ln   # the products by kind, beside the floor's

For each shape, in one process and in turns: lnrnn.kernels.lstm's forward and backward as they are,
and the same two with every matrix product made a no-op (the per-step recurrent products h Wh and
dHW Wh^T, the dWh/dWx/dx block products, and a wide input's per-step x_t Wx). The second pair is the
step's "rest": the gates' sigmoid and tanh, the LayerNorms and the cell update, and the saved arrays
written in the forward and read back in the backward. The no-op variants are the kernels' own chunk
functions compiled again with the BLAS calls bound to functions that do nothing (the same Python code
object, other globals; never cached); their results are garbage and only their time is used.

Also printed: the memory read bandwidth of one and of two threads (a sum over a 320 MB array), the
bytes of the saved tuple the backward reads back per step, and the time those bytes take at the
two-thread bandwidth. With --columns, the T recurrent products of the forward on two threads as the
kernels split them (each thread its half of the B rows times all of Wh) against a split by columns
(each thread all B rows times its half of Wh's columns), the kernels' per-step product in both (blas.REC). What the
figures mean for the floor: bench/results/performance-history.md, "How far below the floor". With
--products, only this on two threads: each kind of product (the per-step h_{t-1} Wh and x_t Wx forward,
dHW Wh^T and dx backward, the dWh and dWx blocks) made a no-op alone, its time the difference, its rate
in GFLOP/s, beside the GEMM floor's parts as bench/step.py times them.

A benchmark, not a test: it prints figures and asserts nothing about time.
"""
import argparse
import os
import statistics
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (sets single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

import lnrnn.kernels.lstm as L  # noqa: E402
from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.config import FOLD_MAX_I, ROWS  # noqa: E402
from lnrnn.kernels.cpu.blas import HAVE_MKL, REC, rec_mul, rec_pack  # noqa: E402  (rec_mul: --columns)
from lnrnn.kernels.codes import NORM_LN, NORM_NONE  # noqa: E402
from lnrnn.kernels.cpu.threads import batch_blocks, run_chunks  # noqa: E402


@njit(nogil=True)
def _no_rec_mul_fetch(A, W, P, out, plan):
    """rec_mul_fetch's (and rows_mul_fetch's) arguments, no product."""


@njit(nogil=True)
def _no_gemm(A, W, out, trans_a):
    """gemm's (and gemm_add's) arguments, no product."""


@njit(nogil=True)
def _no_grad_t_add(A, D, CT):
    """grad_t_add's arguments, no product."""


def _without_products(fn, only=None):
    """fn (a compiled chunk function of lnrnn.kernels.lstm) compiled again with every product it calls
    (blas's rec_mul_fetch, rows_mul_fetch, gemm_add, grad_t_add), or those named in only, bound to no-ops:
    the same Python code object under a copy of its globals (uncached). A product name the chunk functions
    call and this list does not know stops the bench rather than timing it as "rest"."""
    known = dict(rec_mul_fetch=_no_rec_mul_fetch, rows_mul_fetch=_no_rec_mul_fetch, gemm_add=_no_gemm,
                 gemm=_no_gemm, grad_t_add=_no_grad_t_add)
    names = set(fn.py_func.__code__.co_names)
    products = {n for n in names if "mul" in n or "gemm" in n or n.endswith("_add")}
    unknown = products - set(known)
    if unknown:
        sys.exit(f"step_split: {fn.py_func.__name__} calls products this bench cannot make no-ops: {sorted(unknown)}")
    off = names if only is None else names & set(only)
    g = dict(fn.py_func.__globals__, **{n: f for n, f in known.items() if n in off})
    py = types.FunctionType(fn.py_func.__code__, g, fn.py_func.__name__, fn.py_func.__defaults__)
    return njit(**{k: v for k, v in ROWS.items() if k != "cache"})(py)


@njit(parallel=True, fastmath=True)
def _read_sum(a, n):
    """Sum of a (1-D) read by n threads, each a contiguous n-th. The inner loop runs over a slice from 0:
    written over a[q*m:(q+1)*m] by absolute index, LLVM left the sum scalar, one add per element at the
    add's latency (4.7 GB/s on one Zen 4 thread, against 31.5 GB/s vectorised)."""
    s = 0.0
    m = a.shape[0] // n
    for q in prange(n):
        b = a[q * m:(q + 1) * m]
        t = np.float32(0)
        for i in range(b.shape[0]):
            t += b[i]
        s += t
    return s


def read_bandwidth(threads, reps):
    """GB/s of reading a 320 MB float32 array with this many threads (median of reps)."""
    a = np.ones(80_000_000, np.float32)
    numba.set_num_threads(threads)
    _read_sum(a, threads)
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        _read_sum(a, threads)
        ts.append(time.perf_counter() - t0)
    return a.nbytes / statistics.median(ts) / 1e9


@njit(nogil=True)
def _steps(q, lo, hi, As, Ws, Cs, T):
    """Chunk q: T products As[q] @ Ws[q] with Ws[q] packed once, as the forward's time loop multiplies."""
    A, W, C = As[q], Ws[q], Cs[q]
    P = rec_pack(W, A.shape[0])
    for _ in range(T):
        rec_mul(A, W, P, C)


def product_split(name, reps):
    """ms (medians) of a shape's T forward products on two threads: split by rows, split by columns."""
    T, B, I, H, _ = SHAPES[name]
    G = 4 * H
    numba.set_num_threads(2)
    rng = np.random.default_rng(0)
    out = []
    for m, n in ((B // 2, G), (B, G // 2)):  # rows: (B/2,H) @ (H,G) each; columns: (B,H) @ (H,G/2) each
        As = rng.standard_normal((2, m, H)).astype(np.float32)   # (2,m,H)
        Ws = rng.standard_normal((2, H, n)).astype(np.float32)   # (2,H,n)
        Cs = np.empty((2, m, n), np.float32)                     # (2,m,n)
        run_chunks(_steps, 2, 2, As, Ws, Cs, 1)
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            run_chunks(_steps, 2, 2, As, Ws, Cs, T)
            ts.append(time.perf_counter() - t0)
        out.append(1e3 * statistics.median(ts))
    return out


def problem(name, norm, rng):
    """lstm_forward's arguments at a named shape (float32), and dy."""
    T, B, I, H, _ = SHAPES[name]
    G = 4 * H
    f = np.float32
    x = rng.standard_normal((T, B, I)).astype(f)
    h0, c0 = np.zeros((B, H), f), np.zeros((B, H), f)
    Wx = (rng.standard_normal((I, G)) / np.sqrt(I)).astype(f)
    Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(f)
    gG, zG = np.ones(G, f), np.zeros(G, f)
    gH, zH = np.ones(H, f), np.zeros(H, f)
    args = (x, h0, c0, Wx, Wh, zG, gG, zG, gG, zG, gH, zH, norm, 1e-5)
    dy = rng.standard_normal((T, B, H)).astype(f)
    return args, dy


def timed_pair(args, dy, nch):
    """(forward s, backward s, bytes the backward reads back: the saved tuple and dy) of one step with
    whatever chunk functions lnrnn.kernels.lstm holds now."""
    x, h0, c0, Wx, Wh, _, gx, _, gh, _, gc, _, norm, _ = args
    t0 = time.perf_counter()
    out = L.lstm_forward(*args, nch)
    t1 = time.perf_counter()
    L.lstm_backward(dy, out[3], x, h0, c0, Wx, Wh, gx, gh, gc, norm, nch)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, sum(a.nbytes for a in out[3]) + dy.nbytes


def split(name, norm, reps, threads, variants):
    """Medians (ms) of forward and backward, with and without products, alternating in one process; and
    "MB": what the backward reads back (timed_pair)."""
    numba.set_num_threads(threads)
    args, dy = problem(name, norm, np.random.default_rng(0))
    B = args[0].shape[1]
    nch = batch_blocks(B)  # the kernels' fixed row blocks, as lnrnn's layers pass them
    times = {k: [] for k in ("fwd", "bwd", "fwd_rest", "bwd_rest")}
    orig = (L._forward_rows, L._backward_rows)
    try:
        for rep in range(reps + 1):
            for rest in (False, True):
                if rest:
                    L._forward_rows, L._backward_rows = variants
                else:
                    L._forward_rows, L._backward_rows = orig
                f, b, nbytes = timed_pair(args, dy, nch)
                if rep:  # the first round compiles
                    s = "_rest" if rest else ""
                    times["fwd" + s].append(f)
                    times["bwd" + s].append(b)
    finally:
        L._forward_rows, L._backward_rows = orig
    return dict({k: 1e3 * statistics.median(v) for k, v in times.items()}, MB=nbytes / 1e6)


# The step's products by kind (--products): where each runs, the names bound to no-ops, and its multiply-adds
# (flops = 2 x T B x this) for a shape's I, H, G; None where the kind does not run (a narrow input's x side
# is computed inside the row loops, I <= FOLD_MAX_I).
KINDS = [("h_{t-1} Wh", "fwd", ("rec_mul_fetch",), lambda I, H, G: H * G),
         ("x_t Wx", "fwd", ("rows_mul_fetch",), lambda I, H, G: I * G if I > FOLD_MAX_I else None),
         ("dHW Wh^T", "bwd", ("rec_mul_fetch",), lambda I, H, G: G * H),
         ("dWh, dWx", "bwd", ("grad_t_add", "gemm_add", "gemm"),
          lambda I, H, G: (H + (I if I > FOLD_MAX_I else 0)) * G),
         ("dx", "bwd", ("rows_mul_fetch",), lambda I, H, G: G * I if I > FOLD_MAX_I else None)]


def product_kinds(name, norm, reps):
    """On two threads, in turns in one process: the forward and the backward as they are and with one kind of
    product a no-op (KINDS), the backward always from the forward's own saved arrays. A kind's time is the
    difference of medians; beside it, the same products in the GEMM floor (bench/step.py: one chunk per
    thread, the weight gradients over all T*B rows at once). Returns rows (kind, ms, GFLOP/s or None)."""
    numba.set_num_threads(2)
    args, dy = problem(name, norm, np.random.default_rng(0))
    x, h0, c0, Wx, Wh, _, gx, _, gh, _, gc, _, code, _ = args
    T, B, I = x.shape
    H, G = Wh.shape
    nch = batch_blocks(B)
    kinds = [(k, w, only, f(I, H, G)) for k, w, only, f in KINDS if f(I, H, G) is not None]
    fwd = [L._forward_rows] + [_without_products(L._forward_rows, only) for _, w, only, _ in kinds if w == "fwd"]
    bwd = [L._backward_rows] + [_without_products(L._backward_rows, only) for _, w, only, _ in kinds if w == "bwd"]
    orig = (L._forward_rows, L._backward_rows)
    tf, tb = [[] for _ in fwd], [[] for _ in bwd]
    try:
        for rep in range(reps + 1):
            for i, fn in enumerate(fwd):
                L._forward_rows = fn
                t0 = time.perf_counter()
                out = L.lstm_forward(*args, nch)
                if rep:
                    tf[i].append(time.perf_counter() - t0)
            L._forward_rows = orig[0]
            out = L.lstm_forward(*args, nch)
            for i, fn in enumerate(bwd):
                L._backward_rows = fn
                t0 = time.perf_counter()
                L.lstm_backward(dy, out[3], x, h0, c0, Wx, Wh, gx, gh, gc, code, nch)
                if rep:
                    tb[i].append(time.perf_counter() - t0)
            L._backward_rows = orig[1]
    finally:
        L._forward_rows, L._backward_rows = orig
    mf = [1e3 * statistics.median(t) for t in tf]
    mb = [1e3 * statistics.median(t) for t in tb]
    rows, i_f, i_b = [], 1, 1
    for k, w, _, macs in kinds:
        if w == "fwd":
            ms, i_f = mf[0] - mf[i_f], i_f + 1
        else:
            ms, i_b = mb[0] - mb[i_b], i_b + 1
        rows.append((k, ms, 2 * T * B * macs / ms / 1e6 if ms > 0 else None))
    return rows, mf[0] + mb[0]


def floor_kinds(name, reps):
    """ms (medians, in turns) of the GEMM floor's parts at a shape on two threads: bench/step.py's own
    (floor_phases: x Wx, h Wh, dHW Wh^T, then dWx, dx and dWh over all T*B rows)."""
    from bench.step import floor_phases, problem as floor_problem
    numba.set_num_threads(2)
    layer, x, _, hs, dHW = floor_problem("lstm", "none", name, np.random.default_rng(0))
    return floor_phases(layer, x, hs, dHW, 2, reps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", nargs="+", default=["S1", "S2", "S3"], choices=sorted(SHAPES))
    ap.add_argument("--norm", nargs="+", default=["ln", "none"], choices=["ln", "none"])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--columns", action="store_true", help="also time the forward's products split by columns")
    ap.add_argument("--products", action="store_true",
                    help="only the products' time by kind on 2 threads, beside the GEMM floor's parts")
    a = ap.parse_args()
    if a.products:
        print(f"numba {numba.__version__}, float32, BLAS {'MKL' if HAVE_MKL else 'np.dot'}, per-step product "
              f"{REC}, 2 threads, median of {a.reps}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print("a kind's ms = the forward (backward) as it is - the same with that kind of product a no-op")
        for norm in a.norm:
            code = NORM_LN if norm == "ln" else NORM_NONE
            for name in a.shapes:
                T, B, I, H, _ = SHAPES[name]
                rows, step = product_kinds(name, code, a.reps)
                fl = floor_kinds(name, a.reps)
                print(f"{'LN-LSTM' if norm == 'ln' else 'LSTM'} {name} T{T} B{B} I{I} H{H}: step {step:.1f} ms; "
                      f"floor: x Wx {fl[0]:.1f}, h Wh {fl[1]:.1f}, dHW Wh^T {fl[2]:.1f}, dWx dx dWh {fl[3]:.1f} "
                      f"= {sum(fl):.1f} ms", flush=True)
                for k, ms, gf in rows:
                    rate = f"{gf:6.1f} GFLOP/s" if gf else "      -"
                    print(f"    {k:12s} {ms:6.1f} ms  {rate}", flush=True)
                print(f"    {'together':12s} {sum(r[1] for r in rows):6.1f} ms", flush=True)
        return
    variants = (_without_products(L._forward_rows), _without_products(L._backward_rows))
    bw1, bw2 = read_bandwidth(1, 5), read_bandwidth(2, 5)
    print(f"numba {numba.__version__}, float32, BLAS {'MKL' if HAVE_MKL else 'np.dot'}, median of {a.reps}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"memory read bandwidth: 1 thread {bw1:.1f} GB/s, 2 threads {bw2:.1f} GB/s")
    print("step = forward + backward (ms); products = step - rest; rest = the step with every product a no-op")
    for norm in a.norm:
        code = NORM_LN if norm == "ln" else NORM_NONE
        for name in a.shapes:
            T, B, I, H, _ = SHAPES[name]
            rows = {}
            for threads in (1, 2):
                rows[threads] = split(name, code, a.reps, threads, variants)
            mb = rows[2]["MB"]
            label = f"{'LN-LSTM' if norm == 'ln' else 'LSTM'} {name} T{T} B{B} I{I} H{H}"
            for threads, r in rows.items():
                step = r["fwd"] + r["bwd"]
                rest = r["fwd_rest"] + r["bwd_rest"]
                print(f"{label:30s} {threads} thread{'s' if threads > 1 else ' '}: step {step:6.1f} = products "
                      f"{step - rest:6.1f} + rest {rest:5.1f} (forward {r['fwd_rest']:5.1f}, backward "
                      f"{r['bwd_rest']:5.1f})", flush=True)
            g = {k: rows[1][k] / rows[2][k] for k in ("fwd_rest", "bwd_rest")}
            g_step = (rows[1]["fwd"] + rows[1]["bwd"]) / (rows[2]["fwd"] + rows[2]["bwd"])
            print(f"{'':30s} 2 threads' speed-up: step {g_step:.2f}x, "
                  f"rest forward {g['fwd_rest']:.2f}x, rest backward {g['bwd_rest']:.2f}x; the backward reads "
                  f"{mb:.0f} MB of saved arrays and dy: {mb / bw2:.1f} ms at {bw2:.1f} GB/s", flush=True)

    if a.columns:
        for name in a.shapes:
            T, B, I, H, _ = SHAPES[name]
            rows, cols = product_split(name, a.reps)
            print(f"{name}: {T} forward products ({B},{H}) @ ({H},{4 * H}) on 2 threads: "
                  f"split by rows {rows:.1f} ms, by columns {cols:.1f} ms ({cols / rows:.2f}x)", flush=True)


if __name__ == "__main__":
    main()
