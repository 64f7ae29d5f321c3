"""lnrnn: Numba-accelerated normalized recurrent networks with hand-written BPTT.

Threading: lnrnn's kernels split the batch over Numba threads (``prange``) and call single-threaded BLAS
inside each thread (nested BLAS threads run several times slower), and want Numba's OpenMP workers to wait
passively. ``import lnrnn`` changes nothing process-wide: the BLAS limit holds only inside lnrnn's own
calls (``kernel_threads``); passive OpenMP waiting and glibc's reuse of freed buffers are set up when
lnrnn's kernels are first imported (``lnrnn.threadscope.prepare_process``: why, and how to turn the
allocator setting off); ``lnrnn info`` reports what is in force.

Public entry points (what the CLI commands call): ``fit`` (train on your own arrays), ``load_run``,
``evaluate_run``, ``predict``, ``read``, ``sample_run``, ``export_run`` (``lnrnn.api``); ``train`` lives in ``lnrnn.training.train``, ``TrainConfig`` in
``lnrnn.training.runconfig``.
"""
from lnrnn.version import __version__  # noqa: F401
from lnrnn.threadscope import kernel_threads  # noqa: E402
_API = ("evaluate_run", "export_run", "fit", "load_run", "predict", "read", "sample_run")


def __getattr__(name):
    """The public entry points of lnrnn.api, imported on first use: ``import lnrnn`` stays light (no data
    readers, no task registry), so importing a kernel module loads only what that kernel needs.
    THREADING_LAYER and MALLOC_TUNED: what ``threadscope.prepare_process`` set up (asking prepares)."""
    if name in ("THREADING_LAYER", "MALLOC_TUNED"):
        from lnrnn import threadscope
        return threadscope.prepare_process()[name]
    if name in _API:
        from lnrnn import api
        return getattr(api, name)
    raise AttributeError(f"module 'lnrnn' has no attribute {name!r}")


def __dir__():
    """The module's names with the API's lazily imported entry points among them (tab completion, dir())."""
    return sorted(set(globals()) | set(_API) | {"THREADING_LAYER", "MALLOC_TUNED"})


__all__ = ["kernel_threads", "THREADING_LAYER", *_API]
