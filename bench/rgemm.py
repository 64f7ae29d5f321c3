"""rgemm (lnrnn/kernels/cpu/rgemm.py) against MKL's packed GEMM as lnrnn calls it (blas.blas_pack/blas_mul)
and np.dot, at the LN-LSTM's per-step product shapes: C (b,G) = h_{t-1} (b,H) @ Wh (H,G), float32,
one thread (lnrnn's threads each own a batch block and call single-threaded BLAS). Then rgemm against
MKL's sgemm (blas.gemm) at the products over many rows that follow rgemm where it runs the per-step
ones (blas.rows_mul): a wide input's x_t Wx per step and dx per block of rows. Last, the LSTM backward's
dWh per block of gathered rows (lstm.dwh_block_rows): MKL's sgemm, dWh += Hb^T dHb (blas.gemm_add),
against rgemm's transposed product, dWh^T += dHb^T Hb (blas.grad_t_add), the one it takes where the
block stays in L2.

    python bench/rgemm.py                 # every shape, 7 turns
    python bench/rgemm.py --turns 11 --calls 400
    git show HEAD~1:lnrnn/kernels/cpu/rgemm.py > rgemm_old.py
    python bench/rgemm.py --against rgemm_old.py   # also that version's rgemm at the per-step shapes, in turns

Timing: each kernel runs ``--calls`` products inside one compiled loop (no Python call per product);
the kernels take turns, round after round, in one process, and each figure is the median over the
turns, so that a busy machine slows all of them alike. Ratios are time(MKL) / time(kernel): above 1 is
faster than MKL. The peak is the nominal bound cores x clock x 2 FMA ports x lanes x 2 flops, with the
clock the kernel's cpuinfo reports (nominal: turbo may exceed it). A benchmark, not a test: it checks each
kernel's result against float64 and asserts nothing about time.
"""
import argparse
import importlib.util
import os
import platform
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from lnrnn.kernels.cpu import rgemm as rg  # noqa: E402
from lnrnn.kernels.cpu.blas import (BLAS_TAG, HAVE_MKL, blas_mul, blas_pack, cpuinfo, gemm, gemm_add,  # noqa: E402
                               grad_t_add)

# (name, b rows of a thread's block, K, N): the S1-S3 LN-LSTM layers' per-step products, forward
# h_{t-1} (b,H) @ Wh (H,G = 4H) and backward ("bw": dL/d(h Wh) (b,G) @ Wh^T (G,H)), and the synthesis
# network's ("syn": 3 x 400 units, batch 8, so 4 rows a thread), whose few rows fill half an 8-row tile;
# S1 and S2 take blocks of 32 rows (threads.batch_blocks: B64 and B128 in 2 and 4 blocks), 64 a block's rows
# when a batch has fewer blocks
SHAPES = [("S1", 32, 128, 512), ("S1", 64, 128, 512), ("S1bw", 32, 512, 128), ("S2", 32, 256, 1024),
          ("S2bw", 32, 1024, 256), ("S2", 64, 256, 1024), ("S2bw", 64, 1024, 256), ("S3", 16, 400, 1600), ("S3", 32, 400, 1600), ("S3bw", 16, 1600, 400),
          ("syn", 4, 400, 1600), ("synbw", 4, 1600, 400), ("syn", 8, 400, 1600), ("syn", 16, 400, 1600)]

# (name, rows, K, N): S2's (T28 B128 I28 H256) wide input: x_t Wx of a 32-row block per step; the same over
# a block's 28 steps at once (896 rows, what one GEMM over all rows did); dx = dL/d(x Wx) Wx^T per block of
# config.DWX_BLOCK_ROWS = 256 rows
ROWS_SHAPES = [("S2x", 32, 28, 1024), ("S2xT", 896, 28, 1024), ("S2dx", 256, 1024, 28)]

# (name, rows of a block, H, G): dWh's blocks, Hb (rows,H) and dHb (rows,G): S1's and S2's L2 blocks (a quarter
# of config.DWH_L2_BYTES: 128 and 64 rows, 32 rows a chunk), S2's whole sequence (28 steps of 64 rows), S3's 4096
DWH_SHAPES = [("S1dWh", 128, 128, 512), ("S2dWh", 64, 256, 1024), ("S2dWhT", 1792, 256, 1024),
              ("S3dWh", 4096, 400, 1600)]


@njit(cache=True)
def loop_gemm(A, W, C, n):
    for _ in range(n):
        gemm(A, W, C, False)


@njit(cache=True)
def loop_mkl(A, Wh, P, C, n):
    for _ in range(n):
        blas_mul(A, Wh, P, C)


@njit(cache=True)
def loop_dot(A, Wh, C, n):
    for _ in range(n):
        np.dot(A, Wh, C)


@njit(cache=True)
def loop_rgemm(A, Wp, C, G, n):
    for _ in range(n):
        rg.rgemm(A, Wp, C, G)


@njit(cache=True)
def loop_gemm_add(A, D, C, n):
    for _ in range(n):
        gemm_add(A, D, C, True)


@njit(cache=True)
def loop_grad_t(A, D, CT, n):
    for _ in range(n):
        grad_t_add(A, D, CT)


@njit(cache=True)
def loop_rowstats(A, Wp, C, G, s1, s2, n):
    for _ in range(n):
        rg.rgemm_rowstats(A, Wp, C, G, s1, s2)


def other_rgemm(path):
    """A loop of the rgemm in another version of rgemm.py at path (loaded as a module of its own beside the
    installed lnrnn), as loop_rgemm."""
    spec = importlib.util.spec_from_file_location("lnrnn.kernels.cpu.rgemm_against", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    f = mod.rgemm

    @njit
    def loop(A, Wp, C, G, n):
        for _ in range(n):
            f(A, Wp, C, G)
    return loop


def medians(runs, turns, n):
    """Each kernel of runs (name -> a call of n products) once to compile and warm caches, then in turns,
    round after round: {name: median seconds per product}."""
    for f in runs.values():
        f()
    ts = {k: [] for k in runs}
    for _ in range(turns):
        for k, f in runs.items():
            t0 = time.perf_counter()
            f()
            ts[k].append((time.perf_counter() - t0) / n)
    return {k: statistics.median(v) for k, v in ts.items()}


def check(outs, ref, where):
    """Stop if a kernel's result strays from the float64 product ref."""
    for k, out in outs.items():
        err = np.abs(out - ref).max() / np.abs(ref).max()
        if err > 1e-5:
            raise SystemExit(f"{k} disagrees with float64 at {where}: relative error {err:.1e}")


def cpu():
    """(model name, cores, nominal MHz) from /proc/cpuinfo."""
    return (cpuinfo("model name") or platform.processor() or "unknown", os.cpu_count(),
            float(cpuinfo("cpu MHz") or 0.0))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=7, help="rounds of turns; figures are medians over them")
    ap.add_argument("--calls", type=int, default=200, help="products per timed loop")
    ap.add_argument("--against", metavar="FILE", help="another version of lnrnn/kernels/cpu/rgemm.py: its rgemm "
                    "too at the per-step shapes, in the same turns (kernel 'against')")
    args = ap.parse_args(argv)
    loop_against = other_rgemm(args.against) if args.against else None
    model, cores, mhz = cpu()
    ghz = mhz / 1e3
    lanes = 16 if rg.VEC_BYTES == 64 else 8
    peak8 = ghz * 2 * 8 * 2      # GFLOP/s of one core, 8 float32 lanes (AVX2 ymm)
    peak16 = ghz * 2 * 16 * 2    # one core, 16 lanes (AVX-512 zmm), where the CPU has it
    print(f"CPU: {model} ({rg.ll.get_host_cpu_name()} to LLVM), {cores} cores, {mhz:.0f} MHz nominal (cpuinfo's cpu MHz); "
          f"AVX-512: {rg.AVX512}")
    print(f"FMA peak, float32, nominal clock: machine {cores} x {ghz:.2f} GHz x 2 FMA x 8 lanes x 2 = "
          f"{cores * peak8:.1f} GFLOP/s with ymm ({peak8:.1f} per core), {cores * peak16:.1f} with zmm "
          f"({peak16:.1f} per core)")
    print(f"rgemm tile: MR={rg.MR} x NR={rg.nr_of(np.float32)} float32 ({lanes}-lane vectors); BLAS: {BLAS_TAG}; "
          f"one thread; {args.calls} products per timing, median of {args.turns} turns")
    print("%-5s %3s %4s %5s | %-9s %8s %7s %6s %6s %9s" % ("", "b", "K", "N", "kernel", "us/call", "GFLOP/s",
                                                            "%ymm", "%zmm", "MKL/this"))
    def row(name, b, K, N, kernel, t, ratio):  # one kernel's figures at one shape, t seconds per product
        gf = 2 * b * K * N / t / 1e9
        print("%-5s %3d %4d %5d | %-9s %8.2f %7.1f %5.0f%% %5.0f%% %9.2f" % (
            name, b, K, N, kernel, t * 1e6, gf, 100 * gf / peak8, 100 * gf / peak16, ratio))

    rng = np.random.default_rng(0)
    for name, b, H, G in SHAPES:
        A = rng.standard_normal((b, H)).astype(np.float32)         # (b,H) h_{t-1} of one block
        Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(np.float32)  # (H,G)
        ref = A.astype(np.float64) @ Wh.astype(np.float64)          # (b,G)
        P = blas_pack(Wh, b)                                        # MKL's packed Wh (uint8)
        Wp = rg.pack(Wh)                                            # (P,H,NR)
        outs = {k: np.empty((b, G), np.float32) for k in ("mkl", "np.dot", "rgemm", "rowstats", "against")}
        s1, s2 = np.empty(b, np.float32), np.empty(b, np.float32)   # (b,) row sums, sums of squares
        n = args.calls
        runs = {"mkl": lambda: loop_mkl(A, Wh, P, outs["mkl"], n),
                "np.dot": lambda: loop_dot(A, Wh, outs["np.dot"], n),
                "rgemm": lambda: loop_rgemm(A, Wp, outs["rgemm"], G, n),
                "rowstats": lambda: loop_rowstats(A, Wp, outs["rowstats"], G, s1, s2, n)}
        if loop_against is not None:
            runs["against"] = lambda: loop_against(A, Wp, outs["against"], G, n)
        if not HAVE_MKL:
            runs.pop("mkl")
        med = medians(runs, args.turns, n)
        check({k: outs[k] for k in runs}, ref, f"{name} b{b}")
        for k in runs:
            row(name, b, H, G, k, med[k], med["mkl"] / med[k] if "mkl" in med else float("nan"))
        print("%-5s %3d %4d %5d | rowstats over rgemm: %.2fx the time" % (name, b, H, G, med["rowstats"] / med["rgemm"]))
        if loop_against is not None:
            print("%-5s %3d %4d %5d | rgemm over against: %.2fx the time" % (name, b, H, G,
                                                                            med["rgemm"] / med["against"]))
    print("products over many rows (blas.rows_mul), rgemm against MKL's sgemm (blas.gemm):")
    for name, b, K, N in ROWS_SHAPES:
        A = rng.standard_normal((b, K)).astype(np.float32)
        W = (rng.standard_normal((K, N)) / np.sqrt(K)).astype(np.float32)
        Wp = rg.pack(W)
        outs = {k: np.empty((b, N), np.float32) for k in ("sgemm", "rgemm")}
        n = max(1, args.calls * 64 // b)
        runs = {"sgemm": lambda: loop_gemm(A, W, outs["sgemm"], n), "rgemm": lambda: loop_rgemm(A, Wp, outs["rgemm"], N, n)}
        med = medians(runs, args.turns, n)
        check(outs, A.astype(np.float64) @ W.astype(np.float64), f"{name} b{b}")
        for k in runs:
            row(name, b, K, N, k, med[k], med["sgemm"] / med[k])
    print("dWh per block of gathered rows (b = rows, K = H, N = G): MKL's sgemm (blas.gemm_add) against rgemm's "
          "transposed product (blas.grad_t_add), each adding into its partial:")
    for name, b, H, G in DWH_SHAPES:
        Hb = rng.standard_normal((b, H)).astype(np.float32)     # (b,H) h_{t-1} rows of a block
        dHb = rng.standard_normal((b, G)).astype(np.float32)    # (b,G) dL/d(h_{t-1} Wh) rows
        outs = {"sgemm": np.zeros((H, G), np.float32), "grad_t": np.zeros((G, H), np.float32)}
        loop_gemm_add(Hb, dHb, outs["sgemm"], 1)  # one product into zeroed partials: checked, then timed
        loop_grad_t(Hb, dHb, outs["grad_t"], 1)
        check({"sgemm": outs["sgemm"], "grad_t": outs["grad_t"].T}, Hb.T.astype(np.float64) @ dHb.astype(np.float64),
              f"{name} b{b}")
        n = max(1, args.calls * 64 // b)
        runs = {"sgemm": lambda: loop_gemm_add(Hb, dHb, outs["sgemm"], n),
                "grad_t": lambda: loop_grad_t(Hb, dHb, outs["grad_t"], n)}
        med = medians(runs, args.turns, n)
        for k in runs:
            row(name, b, H, G, k, med[k], med["sgemm"] / med[k])


if __name__ == "__main__":
    main()
