"""Which compute backend is usable, and the op functions of the chosen one.

    ok, reason = cuda_usable()          # (True, how) or (False, why not); never raises
    k = kernels("cuda")                 # namespace: lstm_forward, lstm_backward, rnn_forward, ...
    y, hT, cT, saved = k.lstm_forward(...);  y = k.to_host(y)

The CPU namespace holds the ``@njit`` kernels (module ``lnrnn.kernels.<op>``), the CUDA one their twins
(``lnrnn.kernels.<op>_cuda``): same names, arguments and saved-state layout, each op bound by name
from an ordinary import in ``_ops`` (one list for both devices). CUDA functions take host or device
arrays and return device arrays; ``to_host``/``to_device`` move results across (identities on the
CPU), so callers can be written once for both.

The layers do not call the cell kernels through this namespace: a registry row names its own
(``lnrnn.model.cells``: ``Cell.kernels(device)``). They use it for the array moves, and the window op;
tests and benchmarks call any op through it.

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
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from lnrnn.errors import UserError
from lnrnn.kernels import batchnorm, bn_lstm, bn_rnn, layernorm, lstm, rnn, window
from lnrnn.kernels.cuda.cuda_env import numpy_compat, simulator_enabled  # noqa: F401  (part of this module's API)

DEVICES = ("cpu", "cuda")
# Every op a kernel namespace holds (both twins define each one, with the same arguments).
OPS = ("layernorm_forward", "layernorm_backward", "lstm_forward", "lstm_backward", "rnn_forward", "rnn_backward",
       "lstm_infer", "rnn_infer",
       "batchnorm_forward_train", "batchnorm_forward_infer", "batchnorm_backward",
       "bn_lstm_forward", "bn_lstm_backward", "bn_rnn_forward", "bn_rnn_backward",
       "window_lstm_forward", "window_lstm_backward", "window_sequences", "join_columns", "take_columns")


class CudaUnavailable(UserError, RuntimeError):
    """device 'cuda' was requested where CUDA cannot run; the message says why and what to do."""


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


def _is_host_only(a):
    return False


def _host_zeros(shape, dtype):
    return np.zeros(shape, dtype)


def _ops(device, layernorm, batchnorm, lstm, rnn, bn_lstm, bn_rnn, window, is_device, to_device, to_host, zeros):
    """One device's namespace: the same op names bound from that device's twin modules."""
    return SimpleNamespace(
        device=device,
        layernorm_forward=layernorm.layernorm_forward, layernorm_backward=layernorm.layernorm_backward,
        lstm_forward=lstm.lstm_forward, lstm_backward=lstm.lstm_backward, lstm_infer=lstm.lstm_infer,
        rnn_forward=rnn.rnn_forward, rnn_backward=rnn.rnn_backward, rnn_infer=rnn.rnn_infer,
        batchnorm_forward_train=batchnorm.batchnorm_forward_train,
        batchnorm_forward_infer=batchnorm.batchnorm_forward_infer,
        batchnorm_backward=batchnorm.batchnorm_backward,
        bn_lstm_forward=bn_lstm.bn_lstm_forward, bn_lstm_backward=bn_lstm.bn_lstm_backward,
        bn_rnn_forward=bn_rnn.bn_rnn_forward, bn_rnn_backward=bn_rnn.bn_rnn_backward,
        window_lstm_forward=window.window_lstm_forward, window_lstm_backward=window.window_lstm_backward,
        window_sequences=window.window_sequences, join_columns=window.join_columns, take_columns=window.take_columns,
        is_device=is_device, to_device=to_device, to_host=to_host, zeros=zeros)


@lru_cache(maxsize=None)
def _cpu():
    return _ops("cpu", layernorm, batchnorm, lstm, rnn, bn_lstm, bn_rnn, window,
                is_device=_is_host_only, to_device=_identity, to_host=_identity, zeros=_host_zeros)


@lru_cache(maxsize=None)
def _cuda():
    """The CUDA twins, imported here: only once device 'cuda' is asked for and usable (importing
    numba.cuda is slow and initializes the driver)."""
    from lnrnn.kernels import (batchnorm_cuda, bn_lstm_cuda, bn_rnn_cuda, layernorm_cuda, lstm_cuda, rnn_cuda,
                               window_cuda)
    from lnrnn.kernels.cuda import arrays_cuda as a
    return _ops("cuda", layernorm_cuda, batchnorm_cuda, lstm_cuda, rnn_cuda, bn_lstm_cuda, bn_rnn_cuda, window_cuda,
                is_device=a.is_device, to_device=a.to_device, to_host=a.to_host, zeros=a.zeros)


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
    return _cuda() if check_device(device) == "cuda" else _cpu()
