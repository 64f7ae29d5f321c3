"""lnrnn: Numba-accelerated normalized recurrent networks with hand-written BPTT.

Threading: lnrnn's kernels split the batch over Numba threads (``prange``) and call single-threaded BLAS
inside each thread (nested BLAS threads run several times slower), and want Numba's OpenMP workers to wait
passively. Importing lnrnn sets nothing for the rest of the process: the BLAS limit holds only inside
lnrnn's own calls (``kernel_threads``), and passive waiting only for the OpenMP runtime Numba starts for
the kernels; ``lnrnn.threadscope`` says how, and ``lnrnn info`` reports what is in force.

Public entry points (what the CLI commands call): ``load_run``, ``evaluate_run``, ``predict``,
``sample_run``, ``export_run`` (``lnrnn.api``); ``train`` and ``TrainConfig`` live in ``lnrnn.train``.
"""
import os as _os

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


def _start_kernel_threads():
    """Start Numba's threading layer now, with passive OpenMP waiting (see lnrnn.threadscope); where Numba
    cannot start it here (a broken OpenMP install, say), the first kernel call reports the problem."""
    from lnrnn.threadscope import start_kernel_threads
    try:
        return start_kernel_threads()
    except Exception:  # noqa: BLE001 - the kernels raise the real error when they run
        return None


THREADING_LAYER = _start_kernel_threads()

from lnrnn.threadscope import kernel_threads  # noqa: E402
_API = ("evaluate_run", "export_run", "load_run", "predict", "sample_run")


def __getattr__(name):
    """The public entry points of lnrnn.api, imported on first use: ``import lnrnn`` stays light (no data
    readers, no task registry), so importing a kernel module loads only what that kernel needs."""
    if name in _API:
        from lnrnn import api
        return getattr(api, name)
    raise AttributeError(f"module 'lnrnn' has no attribute {name!r}")


__all__ = ["kernel_threads", "THREADING_LAYER", *_API]
