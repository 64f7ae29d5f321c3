"""Is Intel MKL's packed GEMM worth it, and does it survive Numba's compile cache? The per-step
recurrent products of BPTT (forward h_{t-1} Wh, backward dHW_t Wh^T) timed through lnrnn's own
helpers (lnrnn/kernels/cpu/blas.py: blas_pack, blas_mul) with MKL's packed operand and with np.dot (the BLAS
NumPy/SciPy ship: OpenBLAS here), in lnrnn's threading layout (one batch chunk per thread,
single-threaded BLAS inside).

    pip install mkl                       # x86-64 only; or LNRNN_MKL_LIB=/path/to/libmkl_rt.so.N
    python bench/blas_packed.py           # S1 S2 S3, median of 5
    python bench/blas_packed.py --cache-check   # also: compile in one process, load from cache in another

How MKL is reached (a symbol-name binding that Numba can cache) is described in lnrnn/kernels/cpu/blas.py.
A benchmark, not a test: it prints figures and checks that both paths agree, and asserts nothing
about time.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (sets single-threaded BLAS before NumPy loads)
import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS, HAVE_MKL, blas_mul, blas_pack  # noqa: E402


@njit(cache=True, parallel=True)
def products(h0, Wh, dv, nch, packed):
    """Forward: T products h (Bc,H) @ Wh (H,G); backward: T products dv[t] (Bc,G) @ Wh^T (G,H), per
    chunk of rows. packed: Wh and Wh^T packed once per chunk (MKL), else np.dot at every step. h is
    fed back through a cheap bounded map so that every step depends on the last."""
    T = dv.shape[0]
    B, H = h0.shape
    G = Wh.shape[1]
    WhT = np.ascontiguousarray(Wh.T)
    out = np.empty((B, H), np.float32)
    for q in prange(nch):
        lo, hi = q * B // nch, (q + 1) * B // nch
        m = hi - lo
        P = blas_pack(Wh, m) if packed else np.empty(0, np.uint8)
        PT = blas_pack(WhT, m) if packed else np.empty(0, np.uint8)
        h = h0[lo:hi].copy()
        hw = np.empty((m, G), np.float32)
        for t in range(T):
            blas_mul(h, Wh, P, hw)
            h[:] = hw[:, :H] * np.float32(0.5)
        dh = np.zeros((m, H), np.float32)
        part = np.empty((m, H), np.float32)
        d = np.empty((m, G), np.float32)
        for t in range(T - 1, -1, -1):
            d[:] = dv[t, lo:hi]
            blas_mul(d, WhT, PT, part)
            dh[:] = dh * np.float32(0.5) + part
        out[lo:hi] = h + dh
    return out


def median_ms(fn, reps):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cache-check", action="store_true", help="compile in a fresh cache folder in one "
                                                                "process, then time the cache load in another")
    ap.add_argument("--first-call-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not HAVE_MKL:
        print(f"MKL not in use ({BLAS}): pip install mkl, or set LNRNN_MKL_LIB to libmkl_rt.so.N "
              f"(and leave LNRNN_BLAS unset)", file=sys.stderr)
        return 2
    if args.cache_check:
        env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="lnrnn-blas-cache-"))
        cmd = [sys.executable, os.path.abspath(__file__), "--first-call-only", "--shapes", "S2"]
        for what in ("cold (compile)", "warm (cache load)"):
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            print(f"first calls of both paths, {what}: {r.stdout.strip() or r.stderr.strip()[-300:]}")
    t0 = time.perf_counter()
    nch = 2
    for name in args.shapes:
        T, B, I, H, what = SHAPES[name]
        G = 4 * H
        rng = np.random.default_rng(0)
        h0 = rng.standard_normal((B, H)).astype(np.float32)
        Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(np.float32)
        dv = (rng.standard_normal((T, B, G)) / np.sqrt(G)).astype(np.float32)
        a = products(h0, Wh, dv, nch, False)
        b = products(h0, Wh, dv, nch, True)
        if args.first_call_only:
            print(f"{time.perf_counter() - t0:.2f} s")
            return 0
        err = float(np.max(np.abs(a - b)) / np.max(np.abs(a)))
        if not err < 1e-4:
            print(f"{name}: MKL and np.dot disagree (relative {err:.1e})", file=sys.stderr)
            return 1
        td = median_ms(lambda: products(h0, Wh, dv, nch, False), args.reps)
        tm = median_ms(lambda: products(h0, Wh, dv, nch, True), args.reps)
        print(f"{name} ({what}) T={T} B={B} H={H}: recurrent products of fwd + bwd, {nch} chunks: "
              f"np.dot {td:.1f} ms, MKL packed {tm:.1f} ms ({td / tm:.2f}x); agree to {err:.0e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
