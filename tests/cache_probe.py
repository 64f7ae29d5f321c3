"""Child process of tests/kernels/test_cache_blas.py: run lnrnn's BLAS kernels through Numba's on-disk cache
and print one JSON line (BLAS choice, largest error against NumPy, cache hits and misses).

    NUMBA_CACHE_DIR=/tmp/c python tests/cache_probe.py            # the BLAS lnrnn finds
    NUMBA_CACHE_DIR=/tmp/c LNRNN_BLAS=numpy python tests/cache_probe.py
    NUMBA_CACHE_DIR=/tmp/c python tests/cache_probe.py --prefix /nowhere   # as if the mkl wheel were gone
    NUMBA_CACHE_DIR=/tmp/c python tests/cache_probe.py --kernel-stamp X    # as if kernels/ or config.py changed

Kernels run: blas.gemm in float32 and float64 (two overloads, two data files), rec_pack + rec_mul in
both dtypes (the per-step product: MKL's packed GEMM, np.dot or rgemm, blas.REC), and ``outer``, a
cached function of this file (not of lnrnn) that calls blas.gemm: user code that compiles lnrnn's
kernels into itself must be kept apart by BLAS choice too.
"""
import json
import sys

if "--prefix" in sys.argv:  # before lnrnn looks for libmkl_rt under sys.prefix/lib
    sys.prefix = sys.argv[sys.argv.index("--prefix") + 1]
if "--kernel-stamp" in sys.argv:  # before any kernel is decorated: as if a helper module had been edited
    import lnrnn.compiling
    lnrnn.compiling._KERNEL_STAMP["value"] = sys.argv[sys.argv.index("--kernel-stamp") + 1]

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from lnrnn.kernels.cpu import blas  # noqa: E402


@njit(cache=True)
def outer(A, W, out):
    """out = 2 A @ W, through lnrnn's gemm (compiled into this function)."""
    blas.gemm(A, W, out, False)
    out *= 2
    return out


def main():
    rng = np.random.default_rng(0)
    err = 0.0
    for dtype in (np.float32, np.float64):
        A = rng.standard_normal((5, 7)).astype(dtype)  # (M,K)
        W = rng.standard_normal((7, 9)).astype(dtype)  # (K,N)
        out = np.empty((5, 9), dtype)  # (M,N)
        blas.gemm(A, W, out, False)
        err = max(err, float(np.abs(out - A @ W).max()))
        outer(A, W, out)
        err = max(err, float(np.abs(out - 2 * (A @ W)).max()))
    for dtype in (np.float32, np.float64):
        A = rng.standard_normal((3, 6)).astype(dtype)  # (m,K)
        W = rng.standard_normal((6, 8)).astype(dtype)  # (K,N)
        out = np.empty((3, 8), dtype)
        blas.rec_mul(A, W, blas.rec_pack(W, 3), out)
        err = max(err, float(np.abs(out - A @ W).max()))
    funcs = (blas.gemm, blas.rec_pack, blas.rec_mul, outer)
    print(json.dumps({"mkl": blas.HAVE_MKL, "why": blas.BLAS_WHY, "rec": blas.REC, "err": err,
                      "hits": sum(sum(f.stats.cache_hits.values()) for f in funcs),
                      "misses": sum(sum(f.stats.cache_misses.values()) for f in funcs)}))


if __name__ == "__main__":
    main()
