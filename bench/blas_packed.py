"""Can Numba reach Intel MKL's packed GEMM so that it is both fast and compile-cacheable? The per-step
recurrent products of BPTT (forward h_{t-1} Wh, backward dHW_t Wh^T) timed with np.dot (the BLAS
NumPy/SciPy ship: OpenBLAS here) and with MKL's cblas_sgemm_compute on a weight matrix packed once per
sequence, in lnrnn's threading layout (one batch chunk per thread, single-threaded BLAS inside).

    pip install mkl                       # x86-64 only; or LNRNN_MKL_LIB=/path/to/libmkl_rt.so.N
    python bench/blas_packed.py           # S1 S2 S3, median of 5
    python bench/blas_packed.py --cache-check   # also: compile in one process, load from cache in another

How MKL is reached: ``llvmlite.binding.load_library_permanently`` makes libmkl_rt's symbols visible
to the JIT, and ``numba.types.ExternalFunction`` declares each CBLAS function by name. Compiled code
then calls the symbol by name, not through a constant ctypes address, so Numba's on-disk cache stays
valid across processes (ctypes function pointers are baked in as addresses and defeat ``cache=True``).
Arrays are passed as integer addresses (``a.ctypes.data``): a buffer must stay referenced after the
call that uses its address, or Numba's reference counting may free it first (packed buffers are
therefore owned by the caller). A benchmark, not a test: it prints figures and checks agreement
with np.dot, and asserts nothing about time.
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("MKL_THREADING_LAYER", "SEQUENTIAL")  # one thread per chunk, as lnrnn runs BLAS
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (sets single-threaded BLAS before NumPy loads)
import numpy as np  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402

# CBLAS enumerations (mkl_cblas.h)
ROW_MAJOR, NO_TRANS, TRANS, PACKED, B_MATRIX = 101, 111, 112, 151, 162


def find_mkl():
    """Path of libmkl_rt (LNRNN_MKL_LIB, else the `mkl` wheel's lib folder under sys.prefix), or None."""
    path = os.environ.get("LNRNN_MKL_LIB")
    if path:
        return path if os.path.exists(path) else None
    hits = sorted(glob.glob(os.path.join(sys.prefix, "lib", "libmkl_rt.so*")))
    return hits[0] if hits else None


# Module level, not inside a function: Numba caches top-level functions (closures capturing the
# ExternalFunction declarations were recompiled in every process).
LIB = find_mkl()
if LIB:
    from llvmlite import binding as llvm
    llvm.load_library_permanently(LIB)
    from numba import njit, prange, types

    i32, f32, addr = types.int32, types.float32, types.intp
    pack_get_size = types.ExternalFunction("cblas_sgemm_pack_get_size", types.uint64(i32, i32, i32, i32))
    pack = types.ExternalFunction("cblas_sgemm_pack", types.void(i32, i32, i32, i32, i32, i32, f32, addr, i32,
                                                                 addr))
    compute = types.ExternalFunction("cblas_sgemm_compute", types.void(i32, i32, i32, i32, i32, i32, addr, i32,
                                                                       addr, i32, f32, addr, i32))

    @njit(cache=True)
    def packed_size(m, n, k):
        return pack_get_size(B_MATRIX, m, n, k)

    @njit(cache=True, parallel=True)
    def dot_loop(h0, Wh, dv, nch):
        """Forward: T products h (Bc,H) @ Wh (H,G); backward: T products dv[t] (Bc,G) @ Wh^T (G,H).
        h is fed back through a cheap bounded map so that every step depends on the last."""
        T = dv.shape[0]
        B, H = h0.shape
        WhT = np.ascontiguousarray(Wh.T)
        out = np.empty((B, H), np.float32)
        for q in prange(nch):
            lo, hi = q * B // nch, (q + 1) * B // nch
            h = np.ascontiguousarray(h0[lo:hi])
            for t in range(T):
                hw = np.dot(h, Wh)
                h = np.ascontiguousarray(hw[:, :H]) * np.float32(0.5)
            dh = np.zeros((hi - lo, H), np.float32)
            for t in range(T - 1, -1, -1):
                dh = dh * np.float32(0.5) + np.dot(np.ascontiguousarray(dv[t, lo:hi]), WhT)
            out[lo:hi] = h + dh
        return out

    @njit(cache=True, parallel=True)
    def mkl_loop(h0, Wh, dv, nch, buf_f, buf_b):
        """The same products with Wh packed once (buf_f, as the B operand of h @ Wh) and Wh^T packed
        once (buf_b), for chunks of B // nch rows; buffers are owned by the caller, and every array
        whose address is passed stays referenced after the call (see the module docstring)."""
        T = dv.shape[0]
        B, H = h0.shape
        G = Wh.shape[1]
        m = B // nch
        one, zero = np.float32(1.0), np.float32(0.0)
        pf = (buf_f.ctypes.data + 63) // 64 * 64
        pb = (buf_b.ctypes.data + 63) // 64 * 64
        pack(ROW_MAJOR, B_MATRIX, NO_TRANS, m, G, H, one, Wh.ctypes.data, G, pf)
        pack(ROW_MAJOR, B_MATRIX, TRANS, m, H, G, one, Wh.ctypes.data, G, pb)
        out = np.empty((B, H), np.float32)
        for q in prange(nch):
            lo = q * m
            h = h0[lo:lo + m].copy()
            hw = np.empty((m, G), np.float32)
            for t in range(T):
                compute(ROW_MAJOR, NO_TRANS, PACKED, m, G, H, h.ctypes.data, H, pf, G, zero, hw.ctypes.data, G)
                h[:] = hw[:, :H] * np.float32(0.5)
            dh = np.zeros((m, H), np.float32)
            part = np.empty((m, H), np.float32)
            d = np.empty((m, G), np.float32)
            for t in range(T - 1, -1, -1):
                d[:] = dv[t, lo:lo + m]
                compute(ROW_MAJOR, NO_TRANS, PACKED, m, H, G, d.ctypes.data, G, pb, H, zero, part.ctypes.data, H)
                dh[:] = dh * np.float32(0.5) + part
            out[lo:lo + m] = h + dh + d[0, 0] * np.float32(0.0)
        buf_f[0] = buf_f[0]  # both buffers stay referenced until every chunk has finished
        buf_b[0] = buf_b[0]
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
    if not LIB:
        print("MKL not found: pip install mkl, or set LNRNN_MKL_LIB to libmkl_rt.so.N", file=sys.stderr)
        return 2
    if args.cache_check:
        env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="lnrnn-blas-cache-"))
        cmd = [sys.executable, os.path.abspath(__file__), "--first-call-only", "--shapes", "S2"]
        for what in ("cold (compile)", "warm (cache load)"):
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            print(f"first call of both loops, {what}: {r.stdout.strip() or r.stderr.strip()[-300:]}")
    t0 = time.perf_counter()
    nch = 2
    for name in args.shapes:
        T, B, I, H, what = SHAPES[name]
        G = 4 * H
        rng = np.random.default_rng(0)
        h0 = rng.standard_normal((B, H)).astype(np.float32)
        Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(np.float32)
        dv = (rng.standard_normal((T, B, G)) / np.sqrt(G)).astype(np.float32)
        m = B // nch  # every shape's batch splits evenly in two
        buf_f = np.empty(int(packed_size(m, G, H)) + 64, np.uint8)
        buf_b = np.empty(int(packed_size(m, H, G)) + 64, np.uint8)
        a = dot_loop(h0, Wh, dv, nch)
        b = mkl_loop(h0, Wh, dv, nch, buf_f, buf_b)
        if args.first_call_only:
            print(f"{time.perf_counter() - t0:.2f} s")
            return 0
        err = float(np.max(np.abs(a - b)) / np.max(np.abs(a)))
        if not err < 1e-4:
            print(f"{name}: MKL and np.dot disagree (relative {err:.1e})", file=sys.stderr)
            return 1
        td = median_ms(lambda: dot_loop(h0, Wh, dv, nch), args.reps)
        tm = median_ms(lambda: mkl_loop(h0, Wh, dv, nch, buf_f, buf_b), args.reps)
        print(f"{name} ({what}) T={T} B={B} H={H}: recurrent products of fwd + bwd, {nch} chunks: "
              f"np.dot {td:.1f} ms, MKL packed {tm:.1f} ms ({td / tm:.2f}x); agree to {err:.0e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
