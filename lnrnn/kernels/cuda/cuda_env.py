"""What the CUDA side needs to know about its environment before ``numba.cuda`` is imported.

Design note: ``backend.py`` (which decides whether CUDA is usable) and ``arrays_cuda.py`` (the base of
every CUDA twin) both need these two checks. ``backend`` imports the CUDA twins, so the checks cannot
live there without a circle; here they depend on nothing of lnrnn and never import ``numba.cuda``, and
both sides import them from one place.
"""
import os


def numpy_compat():
    """numba-cuda 0.30 registers an overload for ``np.row_stack``, an alias of ``np.vstack`` that NumPy
    2.5 removed, when it compiles its first kernel: with NumPy >= 2.5 every CUDA compile then fails
    with AttributeError (seen on an H100 machine with numpy 2.5.2). Restore the alias; it is the same
    function NumPy shipped until 2.4."""
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack


def simulator_enabled():
    """True when Numba's CUDA simulator is selected (NUMBA_ENABLE_CUDASIM=1 before numba's import)."""
    try:
        from numba.core import config
        return bool(getattr(config, "ENABLE_CUDASIM", 0))
    except ImportError:  # pragma: no cover - numba is a hard dependency
        return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1"
