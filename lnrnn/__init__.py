"""lnrnn: Numba-accelerated normalized recurrent networks with hand-written BPTT.

Threading: lnrnn's kernels split the batch over Numba threads (``prange``) and call single-threaded
BLAS inside each thread; nested BLAS threads run several times slower. We therefore ask OpenBLAS/MKL
for one thread, and OpenMP for passive waiting, unless the user already chose otherwise. This only takes
effect when lnrnn is imported before NumPy and Numba; ``lnrnn info`` reports what is in force.
"""
import os as _os

for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")
# The cells run their time loops on lnrnn's own threads (kernels.common.run_chunks) right after a prange
# GEMM; under Numba's OpenMP layer the OpenMP workers then spin-wait for their next loop and take a core
# from those threads (S2 LN-LSTM step 59.7 -> 52.7 ms on 2 cores with passive waiting, bench/step.py).
_os.environ.setdefault("OMP_WAIT_POLICY", "passive")

__version__ = "0.1.0"


def _reuse_freed_memory():
    """Let glibc reuse large freed buffers instead of returning them to the OS (see config.py)."""
    import ctypes
    import sys

    from lnrnn import config

    if _os.environ.get("LNRNN_KEEP_MALLOC") or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameter numbers
        return bool(libc.mallopt(M_MMAP_THRESHOLD, config.MALLOC_MMAP_THRESHOLD)
                    and libc.mallopt(M_TRIM_THRESHOLD, config.MALLOC_TRIM_THRESHOLD))
    except (OSError, AttributeError):  # not glibc (musl, ...): keep the default allocator
        return False


MALLOC_TUNED = _reuse_freed_memory()
