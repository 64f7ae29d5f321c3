"""Which compute backend is usable, and the op functions of the chosen one.

    ok, reason = cuda_usable()          # (True, how) or (False, why not); never raises
    k = kernels("cuda")                 # namespace: lstm_forward, lstm_backward, rnn_forward, ...
    y, hT, cT, saved = k.lstm_forward(...);  y = k.to_host(y)

The CPU namespace holds the ``@njit`` kernels (``lnrnn.kernels.<op>``), the CUDA one their twins
(``lnrnn.kernels.<op>_cuda``): same names, arguments and saved-state layout. CUDA functions take host
or device arrays and return device arrays; ``to_host``/``to_device`` move results across (identities
on the CPU), so callers can be written once for both.

STUMPY binds its GPU functions, or stubs that raise "no CUDA driver", when the package is imported.
lnrnn does the same check lazily, on the first request for device "cuda": ``import lnrnn`` then never
imports numba.cuda (slow, and it initializes the driver), works without numba-cuda, and a request
that cannot be served fails at once, at the boundary (layer construction, ``--device`` option), with
one sentence (``CudaUnavailable``, a ``UserError`` that the CLI prints without a traceback).

CUDA is usable when the ``numba-cuda`` package (the ``cuda`` extra) is installed and either a GPU with
a working driver is present or ``NUMBA_ENABLE_CUDASIM=1`` selects Numba's CUDA simulator (set it
before numba is first imported). Numba's deprecated built-in CUDA target is not used.
"""
import importlib.util
import os

import numpy as np
from functools import lru_cache
from types import SimpleNamespace

from lnrnn.errors import UserError

DEVICES = ("cpu", "cuda")
OPS = ("layernorm_forward", "layernorm_backward", "lstm_forward", "lstm_backward", "rnn_forward", "rnn_backward")
# Ops of the recurrent-BatchNorm cells; bound when their modules are present on this backend.
BN_OPS = {"batchnorm": ("batchnorm_forward_train", "batchnorm_forward_infer", "batchnorm_backward"),
          "bn_cells": ("bn_lstm_forward", "bn_lstm_backward", "bn_rnn_forward", "bn_rnn_backward")}


class CudaUnavailable(UserError, RuntimeError):
    """device 'cuda' was requested where CUDA cannot run; the message says why and what to do."""


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


@lru_cache(maxsize=None)
def cuda_usable():
    """(True, how) when the CUDA kernels can run here, else (False, reason). Never raises; the answer
    is cached (``cuda_usable.cache_clear()`` forgets it)."""
    if importlib.util.find_spec("numba_cuda") is None:
        return False, "the numba-cuda package is not installed (pip install 'lnrnn[cuda]')"
    numpy_compat()
    try:
        from numba import cuda
    except Exception as e:  # a broken CUDA toolkit install surfaces here
        return False, f"numba.cuda failed to import ({type(e).__name__}: {e})"
    if simulator_enabled():
        return True, "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), on the CPU"
    try:
        if not cuda.is_available():
            return False, "no NVIDIA GPU with a working CUDA driver was found"
        dev = cuda.get_current_device()
        name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
        return True, f"{name} (compute capability {dev.compute_capability[0]}.{dev.compute_capability[1]})"
    except Exception as e:
        return False, f"the CUDA driver failed to initialize ({type(e).__name__}: {e})"


def require_cuda():
    """Raise CudaUnavailable (one sentence) unless the CUDA kernels can run here."""
    ok, reason = cuda_usable()
    if not ok:
        raise CudaUnavailable(f"CUDA is not usable here: {reason}; use --device cpu (device='cpu') instead.")


def _identity(obj):
    return obj


def _is_device(a):
    return False


def _zeros(shape, dtype):
    return np.zeros(shape, dtype)


def _bind(ns, module, names):
    mod = importlib.import_module(module)
    for n in names:
        setattr(ns, n, getattr(mod, n))


@lru_cache(maxsize=None)
def _namespace(device):
    suffix = "_cuda" if device == "cuda" else ""
    ns = SimpleNamespace(device=device)
    for op in ("layernorm", "lstm", "rnn"):
        _bind(ns, f"lnrnn.kernels.{op}{suffix}", [n for n in OPS if n.startswith(op)])
    for mod, names in BN_OPS.items():
        if importlib.util.find_spec(f"lnrnn.kernels.{mod}{suffix}") is not None:
            _bind(ns, f"lnrnn.kernels.{mod}{suffix}", names)
    if device == "cuda":
        from lnrnn.kernels.cuda_common import is_device, to_device, to_host, zeros
        ns.to_host, ns.to_device, ns.is_device, ns.zeros = to_host, to_device, is_device, zeros
    else:
        ns.to_host = ns.to_device = _identity
        ns.is_device, ns.zeros = _is_device, _zeros
    return ns


def check_device(device):
    """Validate a device name (ValueError naming the choices); for 'cuda', also that CUDA is usable."""
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r}; expected one of {', '.join(DEVICES)}")
    if device == "cuda":
        require_cuda()
    return device


def kernels(device="cpu"):
    """The op functions of device 'cpu' or 'cuda' as a namespace (see the module docstring).
    Raises ValueError for an unknown device and CudaUnavailable where CUDA cannot run."""
    return _namespace(check_device(device))
