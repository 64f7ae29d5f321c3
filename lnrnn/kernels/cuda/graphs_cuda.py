"""cuBLAS for the CUDA twins' products, and their time loops captured once as CUDA graphs.

numba.cuda has neither a BLAS nor stream capture. Both come from a library that most GPU machines already
hold beside numba: PyTorch, or else CuPy (the ``cuda`` extra names neither; whichever is installed serves).
``config.CUDA_BLAS`` (environment: LNRNN_CUDA_BLAS) chooses: "auto" (torch, else cupy, else none; none
under the simulator), "torch", "cupy", "off" (numba's own tiled GEMM and per-launch time loops), or
"eager" (the simulator's stand-in below). Through the chosen library
    ``gemm_cuda.matmul`` runs cuBLAS's GEMM on numba's device arrays (zero-copy views through
        ``__cuda_array_interface__``), on the legacy default stream, where numba's own launches go;
    a per-step time loop (the recurrent product, then a fused step kernel: 2T launches from Python,
        each tens of microseconds through numba's dispatcher) is captured once per shape as a CUDA graph
        and replayed as one launch (``capture``; the LSTM's plans in lstm_cuda.py), where the library can
        (``graphs``: PyTorch; CuPy serves the GEMMs only).
    and (``pool``, config.CUDA_POOL) the twins' device arrays come from PyTorch's caching allocator (arrays_cuda.empty):
        a fresh array is then a lookup in a cache, not a cudaMalloc, and a dead one goes back to the cache, not
        through cudaFree, which waits for the device.
Views are made before a capture begins (a view may wait on the array's stream, which a capture forbids);
inside one, only slices of them are taken.

Under the simulator there is no cuBLAS and no graph: the provider "eager" stands in, numba's GEMM and a
"graph" that runs the recorded launches again at every replay, so that the plans' buffer handling (what is
copied in, what the replay reads and writes, what is copied out) runs in CI.
"""
import ctypes
import math
import os
from collections import OrderedDict
from functools import partial

import numpy as np

from lnrnn import config
from lnrnn.kernels.cuda.cuda_env import numpy_compat, simulator_enabled

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)
from numba import cuda  # noqa: E402

NAMES = ("auto", "torch", "cupy", "eager", "off")


def c_strides(shape, itemsize):
    """The strides of a C-ordered array of this shape (bytes)."""
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


class Eager:
    """The simulator's stand-in: no BLAS of its own (``blas`` False: numba's tiled GEMM serves, gemm_cuda.product);
    a replay runs the recorded launches again."""
    name = "eager"
    blas = False
    graphs = True

    def view(self, a):
        return a

    def capture(self, record, warm):
        """record(stream) launches the loop (numba kernels on ``stream``, products through
        gemm_cuda.product(provider)); warm(stream) launches its first step. Returns replay()."""
        return lambda: record(cuda.default_stream())


class Torch:
    """PyTorch's cuBLAS (``torch.matmul``, ``addmm_``) and graphs (``torch.cuda.CUDAGraph``)."""
    name = "torch"
    blas = True
    graphs = True

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
        from numba.cuda.cudadrv.devicearray import DeviceNDArray  # a real GPU's class (the simulator has its own)
        self.torch = torch
        self.array = DeviceNDArray
        self.capturing = False

    def view(self, a):
        return self.torch.as_tensor(a, device="cuda")

    def empty(self, shape, dtype):
        """A numba device array (C order, uninitialized) in memory from PyTorch's caching allocator, on torch's
        current stream: the default one, where numba's launches go, so that memory an array gives back when it
        dies serves only later work of that stream, ordered after what still reads it (the PyTorch binding on a
        side stream waits for that stream before the twins run and for the twins before it returns)."""
        dtype = np.dtype(dtype)
        shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
        nbytes = math.prod(shape) * dtype.itemsize
        if nbytes == 0:
            return cuda.device_array(shape, dtype=dtype)
        torch = self.torch
        dev = cuda.get_current_device().id
        ptr = torch.cuda.caching_allocator_alloc(nbytes, dev, torch.cuda.current_stream(dev))
        mem = cuda.MemoryPointer(cuda.current_context(), ctypes.c_void_p(ptr), nbytes,
                                 finalizer=partial(torch.cuda.caching_allocator_delete, ptr))
        mem._finalizer.atexit = False  # at exit the cache goes with the process
        return self.array(shape, c_strides(shape, dtype.itemsize), dtype, gpu_data=mem)

    def gemm(self, A, B, C, trans_a=False, trans_b=False, accumulate=False):
        """C (M,N) = op(A) @ op(B) [+ C] on torch views; on the capture stream while capturing, else on the
        legacy default stream (numba's), whatever torch's current stream is."""
        a = A.T if trans_a else A
        b = B.T if trans_b else B
        if self.capturing:
            self._mm(a, b, C, accumulate)
        else:
            with self.torch.cuda.stream(self.torch.cuda.default_stream()):
                self._mm(a, b, C, accumulate)

    def _mm(self, a, b, C, accumulate):
        if accumulate:
            C.addmm_(a, b)
        else:
            self.torch.matmul(a, b, out=C)

    def capture(self, record, warm):
        torch = self.torch
        side = torch.cuda.Stream()
        torch.cuda.synchronize()
        self.capturing = True
        try:
            with torch.cuda.stream(side):  # cuBLAS's handle and workspace for this stream, kernels loaded
                warm(cuda.external_stream(side.cuda_stream))
            side.synchronize()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=side, capture_error_mode="relaxed"):
                record(cuda.external_stream(side.cuda_stream))
        finally:
            self.capturing = False
        default = torch.cuda.default_stream()

        def replay():
            with torch.cuda.stream(default):
                graph.replay()
        return replay


class Cupy:
    """CuPy's cuBLAS (``cupy.matmul``). No graphs: CuPy refuses to call cuBLAS while a stream is captured
    (NotImplementedError, cupy-cuda13x 14.2 on an H200), so a time loop is captured through torch or not at all."""
    name = "cupy"
    blas = True
    graphs = False

    def __init__(self):
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("cupy sees no CUDA device")
        self.cupy = cupy
        self.stream = None  # the capture stream while capturing

    def view(self, a):
        return self.cupy.asarray(a)

    def gemm(self, A, B, C, trans_a=False, trans_b=False, accumulate=False):
        """As Torch.gemm. A captured loop's products are plain ones of C-contiguous operands into C (no temporary:
        memory a capture takes from CuPy's pool would go back to it while the graph still uses it); an
        accumulating product (never captured) adds a temporary."""
        a = A.T if trans_a else A
        b = B.T if trans_b else B
        with self.stream if self.stream is not None else self.cupy.cuda.Stream.null:
            if accumulate:
                C += self.cupy.matmul(a, b)
            else:
                self.cupy.matmul(a, b, out=C)

    def capture(self, record, warm):
        cp = self.cupy
        side = cp.cuda.Stream(non_blocking=True)
        cp.cuda.Device().synchronize()
        self.stream = side
        try:
            warm(cuda.external_stream(side.ptr))
            side.synchronize()
            mode = getattr(cp.cuda.runtime, "streamCaptureModeRelaxed", None)
            side.begin_capture(mode) if mode is not None else side.begin_capture()
            try:
                record(cuda.external_stream(side.ptr))
            finally:
                graph = side.end_capture()
        finally:
            self.stream = None
        return lambda: graph.launch(stream=cp.cuda.Stream.null)


_MADE = {}   # name -> provider instance, or the reason it could not be made
_CLASSES = {"torch": Torch, "cupy": Cupy, "eager": Eager}


def choice():
    """The configured name: LNRNN_CUDA_BLAS, else config.CUDA_BLAS (read at every call: tests switch it)."""
    name = (os.environ.get("LNRNN_CUDA_BLAS") or config.CUDA_BLAS or "auto").strip().lower()
    if name not in NAMES:
        raise ValueError(f"LNRNN_CUDA_BLAS/config.CUDA_BLAS is {name!r}; use one of {', '.join(NAMES)}")
    return name


def _make(name):
    if name not in _MADE:
        try:
            _MADE[name] = _CLASSES[name]()
        except Exception as e:  # noqa: BLE001 - any failure to import or see a device: the library cannot serve
            _MADE[name] = f"{name}: {type(e).__name__}: {e}"
    return _MADE[name]


def provider():
    """The library that serves cuBLAS and graphs, or None (numba's own GEMM and time loops)."""
    name = choice()
    if name == "off" or (name == "auto" and simulator_enabled()):
        return None
    if name == "eager" or not simulator_enabled():
        for n in (("torch", "cupy") if name == "auto" else (name,)):
            p = _make(n)
            if not isinstance(p, str):
                return p
    return None


def pool():
    """arrays_cuda.empty's allocator, empty(shape, dtype) -> device array: the provider's caching allocator
    (torch) where config.CUDA_POOL (LNRNN_CUDA_POOL) is "auto", else None (numba's allocation)."""
    want = (os.environ.get("LNRNN_CUDA_POOL") or config.CUDA_POOL or "auto").strip().lower()
    if want not in ("auto", "off"):
        raise ValueError(f"LNRNN_CUDA_POOL/config.CUDA_POOL is {want!r}; use auto or off")
    prov = provider() if want == "auto" else None
    return getattr(prov, "empty", None)


def describe():
    """One line for ``lnrnn info`` and the benches: which library runs the CUDA GEMMs and graphs, and why."""
    name = choice()
    p = provider()
    if p is not None:
        how = ("numba's tiled GEMM, time loops replayed" if p.name == "eager" else
               f"cuBLAS {'and CUDA graphs ' if p.graphs else ''}through {p.name}"
               + (", device arrays from its caching allocator" if pool() is not None else ""))
        return f"{how} (LNRNN_CUDA_BLAS={name})"
    if name == "off":
        return "numba's own GEMM and per-launch time loops (LNRNN_CUDA_BLAS=off)"
    if simulator_enabled():
        return "numba's own GEMM and per-launch time loops (the simulator has no cuBLAS or graphs)"
    tried = [v for v in _MADE.values() if isinstance(v, str)]
    return ("numba's own GEMM and per-launch time loops: no library served"
            + (f" ({'; '.join(tried)})" if tried else ""))


# ------------------------------------------------------------------------------------------------
# Captured time loops: the cells' twins (lstm_cuda, rnn_cuda) make plans, buffers of their own and the loop
# captured over them; here is what they share: which loop runs, the cache of plans, and filling buffers.
# ------------------------------------------------------------------------------------------------
LOOPS = ("auto", "graph", "seq", "step")


def loop_path(seq_ok, T=None):
    """The time loop a cell's twin runs for T steps (None: a long sequence): "graph" (captured, replayed), "seq"
    (its sequence kernels: one block per batch row runs every step) or "step" (one launch pair a step), as
    config.CUDA_LOOP_PATH asks and what can serve: a graph needs a library that captures (provider().graphs)
    and, asked for by "auto", at least config.CUDA_GRAPH_MIN_STEPS steps; the sequence kernels need seq_ok
    (their shared arrays fit, and whatever else the cell asks)."""
    want = config.CUDA_LOOP_PATH
    if want not in LOOPS:
        raise ValueError(f"config.CUDA_LOOP_PATH is {want!r}; use one of {', '.join(LOOPS)}")
    prov = provider()
    long = want == "graph" or T is None or T >= config.CUDA_GRAPH_MIN_STEPS
    if want in ("auto", "graph") and prov is not None and prov.graphs and long:
        return "graph"
    if want in ("auto", "seq") and seq_ok:
        return "seq"
    return "step"


PLANS = OrderedDict()  # (kind, library, steps, key...) -> plan; at most config.CUDA_GRAPH_PLANS, oldest out first


def bucket(T):
    """The steps of a plan made for a call of T steps once calls of other lengths have come with the same key:
    T rounded up to a multiple of a quarter of its power of two (at most a quarter more steps; four plans an
    octave of lengths)."""
    q = 1 << max(T.bit_length() - 3, 0)
    return -(-T // q) * q


def plan_for(kind, T, key, make, exact=False):
    """The plan of this kind for T steps and the rest of its key, made by make(provider, steps) when none
    serves. Unless exact, a plan of S steps serves T <= S <= max(T + T // config.CUDA_GRAPH_SLACK, bucket(T))
    (the smallest such; its extra steps must leave the result exact: the cells' plans say how): a fixed length
    gets a plan of its own length; once other lengths come with the same key (ragged batches), new plans take
    bucket(T) steps, so that a few captures serve them all."""
    prov = provider()
    same = [k for k in PLANS if k[:2] == (kind, prov.name) and k[3:] == key]
    top = T if exact else max(T + T // config.CUDA_GRAPH_SLACK, bucket(T))
    fits = [k for k in same if T <= k[2] <= top]
    if fits:
        k = min(fits, key=lambda k: k[2])
        plan = PLANS.pop(k)
    else:
        while PLANS and len(PLANS) >= config.CUDA_GRAPH_PLANS:
            PLANS.popitem(last=False)
        S = bucket(T) if same and not exact else T
        k = (kind, prov.name, S) + key
        plan = make(prov, S)
    PLANS[k] = plan
    return plan


def capture_loop(prov, step, steps, before=None, after=None):
    """A plan's replay: before(stream), then step(t, stream) for every t of steps (a range, in its order), then
    after(stream), captured by prov as one graph, after all three once uncaptured with step(steps[0], ...) alone
    (cuBLAS's handle and workspace, the kernels loaded). before and after: None, or launches (no allocation)."""
    def record(stream):
        if before is not None:
            before(stream)
        for t in steps:
            step(t, stream)
        if after is not None:
            after(stream)

    def warm(stream):
        if before is not None:
            before(stream)
        step(steps[0], stream)
        if after is not None:
            after(stream)
    return prov.capture(record, warm)

