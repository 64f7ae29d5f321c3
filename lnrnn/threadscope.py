"""Thread settings that hold only while lnrnn's kernels run, so that ``import lnrnn`` leaves the user's process
as it was.

Why lnrnn wants them. The kernels split a batch over Numba's threads (``prange``, ``kernels.cpu.threads.run_chunks``)
and call BLAS inside each of those threads; a BLAS that starts threads of its own there runs several times
slower (every chunk thread asks for all cores). And Numba's OpenMP layer, when its workers spin-wait between
parallel loops, takes a core from the chunk threads that run right after a ``prange`` GEMM (S2 LN-LSTM step
59.7 -> 52.7 ms with passive waiting, bench/step.py; LN-RNN S3 130 -> 75 ms).

How they are kept to lnrnn's calls.
  * BLAS threads: ``kernel_threads()`` limits every BLAS loaded in the process (NumPy's OpenBLAS, SciPy's,
    which Numba's ``np.dot`` calls, and MKL) to one thread with threadpoolctl, and restores the user's counts
    on exit. Training, evaluation, prediction and sampling (``lnrnn.training.train.train``, ``lnrnn.api``) run inside
    it; code that calls the layers directly can too: ``with lnrnn.kernel_threads(): stack.forward(x)``.
    Entering it costs about 15 us; nested entries only count.
  * OpenMP waiting: GNU OpenMP reads OMP_WAIT_POLICY once, when its library loads, and Numba loads it when
    its threading layer starts. ``start_kernel_threads()`` (run by ``prepare_process`` on the first
    ``kernel_threads()``) starts that layer
    with OMP_WAIT_POLICY=passive in the environment and takes the variable out again at once (unless the
    user had set it: then their value stands), so it holds for the OpenMP runtime behind lnrnn's kernels,
    child processes do not inherit it and ``os.environ`` is unchanged. Where Numba's OpenMP layer is
    already running when lnrnn is imported, lnrnn leaves it as it is.
"""
import contextlib
import functools
import os
import threading

WAIT_POLICY = "passive"  # OMP_WAIT_POLICY of the OpenMP runtime that runs lnrnn's prange loops

_lock = threading.RLock()
_controller = None        # threadpoolctl.ThreadpoolController over the BLAS libraries, built once
_users = 0                # kernel_threads() blocks open now, in every Python thread
_limiter = None           # the limit they share: applied by the first to open, restored by the last to close


def start_kernel_threads():
    """Start Numba's threading layer with passive OpenMP waiting; the environment is left as found.
    Returns the layer's name ('omp', 'tbb', 'workqueue')."""
    import numba

    given = os.environ.get("OMP_WAIT_POLICY")
    if given is None:
        os.environ["OMP_WAIT_POLICY"] = WAIT_POLICY
    try:
        numba.get_num_threads()  # launches the threading layer (loads libgomp, which reads the variable)
    finally:
        if given is None:
            del os.environ["OMP_WAIT_POLICY"]
    return numba.threading_layer()


def _reuse_freed_memory():
    """Let glibc reuse large freed buffers instead of returning them to the OS (see config.py)."""
    import ctypes
    import sys

    from lnrnn import config

    if os.environ.get("LNRNN_KEEP_MALLOC") or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameter numbers
        return bool(libc.mallopt(M_MMAP_THRESHOLD, config.MALLOC_MMAP_THRESHOLD)
                    and libc.mallopt(M_TRIM_THRESHOLD, config.MALLOC_TRIM_THRESHOLD))
    except (OSError, AttributeError):  # not glibc (musl, ...): keep the default allocator
        return False


def _start_kernel_threads():
    """Start Numba's threading layer now, with passive OpenMP waiting (see lnrnn.threadscope); where Numba
    cannot start it here (a broken OpenMP install, say), the first kernel call reports the problem."""
    try:
        return start_kernel_threads()
    except Exception:  # noqa: BLE001 - the kernels raise the real error when they run
        return None


_prepared = {}  # what prepare_process did, once per process


def prepare_process():
    """Once per process, when ``lnrnn.kernels`` is first imported (and on the first ``kernel_threads()``):
    start Numba's threading layer with passive OpenMP waiting (see the module docstring) and let glibc
    reuse large freed buffers instead of returning them to the system (``config.MALLOC_MMAP_THRESHOLD``:
    the kernels allocate and free their saved arrays every step; without this each step's first touch
    of them faults pages in afresh). LNRNN_KEEP_MALLOC=1 leaves the allocator alone. Not done by
    ``import lnrnn``: a process that imports lnrnn and never loads its kernels keeps its settings.
    -> {"THREADING_LAYER": name or None, "MALLOC_TUNED": bool}."""
    with _lock:
        if not _prepared:
            _prepared["MALLOC_TUNED"] = _reuse_freed_memory()
            _prepared["THREADING_LAYER"] = _start_kernel_threads()
        return _prepared


def _blas_controller():
    """One controller over every BLAS the kernels may call. Built on first use, after the kernels' BLAS is
    loaded: SciPy's (Numba's np.dot calls scipy.linalg.cython_blas) and MKL (lnrnn.mkl loads the one the
    kernels call)."""
    global _controller
    with _lock:
        if _controller is None:
            import scipy.linalg.cython_blas  # noqa: F401  (loads the BLAS Numba's np.dot calls)
            from threadpoolctl import ThreadpoolController

            import lnrnn.mkl  # noqa: F401  (loads MKL where lnrnn uses it)
            _controller = ThreadpoolController()
        return _controller


@contextlib.contextmanager
def kernel_threads():
    """Run the enclosed lnrnn calls with single-threaded BLAS; the user's thread counts come back on exit.

    Re-entrant, and shared by Python threads: the first block to open applies the limit and the last to
    close restores what was there before (BLAS thread counts are per process, not per thread)."""
    global _users, _limiter
    if not _prepared:
        prepare_process()
    with _lock:
        if _users == 0:
            _limiter = _blas_controller().limit(limits=1, user_api="blas")
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                _limiter.restore_original_limits()
                _limiter = None


def scoped(func):
    """Decorator: ``func`` runs inside ``kernel_threads()``."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with kernel_threads():
            return func(*args, **kwargs)
    return wrapper
