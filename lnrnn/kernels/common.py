"""Small compiled building blocks shared by the kernels: threaded GEMMs over row chunks,
the sum of per-thread partials, row LayerNorm, activations, ``run_chunks``, which
runs a cell's batch chunks on threads, and ``run_synced`` with ``barrier``, which run a time loop
split over threads that meet within every step (``n_parts``: the BN cells).

Every GEMM here splits the rows of the big operand into one chunk per Numba thread and calls
single-threaded BLAS (``np.dot``) on each chunk; reductions over rows write per-thread partial
sums and add them afterwards (no shared ``+=`` inside ``prange``).
"""
import contextlib
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from lnrnn.config import BARRIER_SPINS, JIT, PJIT, ROWS
from lnrnn.kernels.blas import gemm

_pool = {"size": 0, "executor": None}


# A dry run (lnrnn.prewarm): run_chunks and run_synced, instead of running their time loop, compile it
# for the arguments' types (mode "compile", into Numba's on-disk cache) or do nothing ("skip"); the
# wrappers around them still run. None: run as usual.
_dry = {"mode": None}


@contextlib.contextmanager
def dry_run(mode):
    """Within the block, the time loops that run_chunks/run_synced would run are compiled for their
    arguments' types and not run (mode "compile"), or neither ("skip"): lnrnn.prewarm compiles a layer's
    backward loop in a second process from the buffers its Python wrappers allocate, without the forward
    loop it would need to run first. Their outputs are left unwritten. Not thread-safe: one caller."""
    if mode not in ("compile", "skip"):
        raise ValueError(f"dry_run mode is 'compile' or 'skip', not {mode!r}")
    old, _dry["mode"] = _dry["mode"], mode
    try:
        yield
    finally:
        _dry["mode"] = old


def _dry_call(fn, args):
    if _dry["mode"] == "compile":
        fn.compile(tuple(numba.typeof(a) for a in args))


def run_chunks(rows, n, nchunks, *args):
    """Split n batch rows into nchunks nearly equal chunks and call rows(q, lo, hi, *args) for every
    chunk q at once, one per thread (chunk 0 on the calling thread), like ``for q in prange(nchunks)``.

    Why not prange: a cell's chunk is its whole time loop (hundreds of lines once Numba inlines the
    LayerNorm and activation helpers), and Numba compiles a prange body three times (as the function
    itself, as the parallel gufunc, and again linked into the kernel that launches it): 10 s more for
    the LN-LSTM backward alone. ``rows`` is compiled once with nogil=True (config.ROWS), so these
    threads run it in parallel; exceptions in any chunk re-raise here."""
    if _dry["mode"] is not None:
        return _dry_call(rows, (0, 0, n) + args)
    nch = clamp_chunks(nchunks, n)
    if nch > 1 and _pool["size"] < nch - 1:
        if _pool["executor"] is not None:
            _pool["executor"].shutdown()
        _pool["executor"] = ThreadPoolExecutor(nch - 1, thread_name_prefix="lnrnn-chunk")
        _pool["size"] = nch - 1
    futures = [_pool["executor"].submit(rows, q, *chunk_bounds(n, nch, q), *args) for q in range(1, nch)]
    rows(0, *chunk_bounds(n, nch, 0), *args)
    for f in futures:
        f.result()


# run_synced's own worker threads, one inbox each, and the process that started them (a forked child
# inherits the list but not the threads: it starts its own)
_synced = {"lock": threading.Lock(), "inboxes": [], "pid": os.getpid()}


def _serve(inbox):
    while True:
        run, q, done = inbox.get()
        try:
            run(q)
        finally:
            done.put(q)


def run_synced(part, n, *args):
    """Call part(q, n, flags, *args) for q = 0..n-1 at once, each on its own thread (q = 0 on the calling
    thread), for a time loop whose parts meet at every step with ``barrier(flags, q, n, generation)``.

    Every part must be running for a barrier to open, so parts 1..n-1 go to worker threads that serve
    run_synced alone, one part each, and a lock keeps two calls (from two Python threads) from sharing
    them. ``part`` is compiled with nogil=True. flags (n+1,) int64: one generation counter per part,
    then an abort flag: a part that raises sets it, so the others leave their barriers and return, and
    the error is re-raised here. n == 1 runs on the calling thread alone."""
    flags = np.zeros(n + 1, dtype=np.int64)
    if _dry["mode"] is not None:
        return _dry_call(part, (0, n, flags) + args)
    if n == 1:
        part(0, 1, flags, *args)
        return
    errors = []

    def run(q):
        try:
            part(q, n, flags, *args)
        except BaseException as e:  # noqa: B036  (re-raised below, after every part has returned)
            errors.append(e)
            flags[n] = 1

    with _synced["lock"]:
        if _synced["pid"] != os.getpid():
            _synced["inboxes"], _synced["pid"] = [], os.getpid()
        inboxes = _synced["inboxes"]
        while len(inboxes) < n - 1:
            inboxes.append(queue.SimpleQueue())
            threading.Thread(target=_serve, args=(inboxes[-1],), name=f"lnrnn-part-{len(inboxes)}",
                             daemon=True).start()
        done = queue.SimpleQueue()
        for q in range(1, n):
            inboxes[q - 1].put((run, q, done))
        run(0)
        for _ in range(1, n):
            done.get()
    if errors:
        raise errors[0]


def _flag_pointer(context, builder, sig, args):
    aryty = sig.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    i = context.cast(builder, args[1], sig.args[1], types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [i])


@intrinsic
def _load_acquire(typingctx, flags, i):
    """flags[i] (int64 array) read with an atomic load, acquire ordering: what the writer stored before
    its release store is visible after this load, and LLVM may not hoist the load out of a spin loop."""
    if not (isinstance(flags, types.Array) and flags.dtype == types.int64 and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        return builder.load_atomic(_flag_pointer(context, builder, sig, args), "acquire", 8)
    return types.int64(flags, i), codegen


@intrinsic
def _store_release(typingctx, flags, i, v):
    """flags[i] = v (int64 array) as an atomic store with release ordering: every write before it is
    visible to a thread whose acquire load sees v."""
    if not (isinstance(flags, types.Array) and flags.dtype == types.int64 and isinstance(i, types.Integer)
            and isinstance(v, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[2], sig.args[2], types.int64)
        builder.store_atomic(v, _flag_pointer(context, builder, sig, args), "release", 8)
        return context.get_dummy_value()
    return types.void(flags, i, v), codegen


_sched_yield = types.ExternalFunction("sched_yield", types.intc())  # libc, by symbol name: cacheable


@njit(**JIT)
def barrier(flags, q, n, generation):
    """Part q of n (see run_synced) has finished step ``generation`` (1, 2, ...); wait until all n have.
    Returns False when a part failed (abort flag set): the caller returns at once."""
    _store_release(flags, q, generation)
    for p in range(n):
        spins = 0
        while _load_acquire(flags, p) < generation:
            if _load_acquire(flags, n) != 0:
                return False
            spins += 1
            if spins == BARRIER_SPINS:
                _sched_yield()
                spins = 0
    return _load_acquire(flags, n) == 0


# ------------------------------------------------------------------------------------------------
# Time loops whose threads meet within every step (the BN cells, bn_lstm.py and bn_rnn.py)
# ------------------------------------------------------------------------------------------------
# BN couples the batch at every step: its statistics need every row. A BN cell's time loop is split into
# n parts, each owning the batch rows [r0, r1) (chunk_bounds) for the whole sequence as the plain and LN
# cells' chunks do (its own rows of h_{t-1} Wh and of dh_{t-1} = dhw_t Wh^T, one packed product each),
# and the parts meet where BN needs the whole batch: each writes its rows' moments or sums into an
# exchange buffer and waits at a barrier, then all combine them alike (batchnorm.py, last section).
# The parts run at once on their own threads (run_synced) and meet through a spin barrier on atomic
# counters (0.14 us per barrier on 2 cores): a thread-pool entry per step, tried before, lost to the
# serial loop at every size, as waking a descheduled worker costs milliseconds.
# n = the thread count when a step has at least ``par_min`` elements B*G (config.BN_PAR_MIN_WORK), else 1
# (the same compiled loop on the calling thread). Until issue 16's last round the parts owned hidden
# units instead; then every part's product needed all of h_{t-1} (an exchange of h between cores at every
# step, where the BN cells' 1.4x slow mode showed).

# Threads a step is split over when it is split (None: numba.get_num_threads(); tests set more).
PART_THREADS = None


def n_parts(B, H, G, par_min):
    """Threads a BN cell's time loop is split over (batch rows [r0, r1) each, chunk_bounds): 1 when a step
    has fewer than par_min elements B*G (G the gate width), else the thread count (at most B)."""
    if B * G < par_min:
        return 1
    return max(1, min(PART_THREADS or numba.get_num_threads(), B))


@njit(**JIT)
def copy_row(dst, src):
    """dst[:] = src for two 1-D arrays of one length, as a loop: Numba compiles a slice assignment
    (``a[i, j0:j1] = b[...]``) through its general broadcasting setitem, about 2 s of compile time per
    array type in every process that compiles a kernel using one (0.1 s for this loop)."""
    for j in range(dst.shape[0]):
        dst[j] = src[j]


@njit(**JIT)
def copy_rows(dst, src):
    """dst[:, :] = src for two 2-D arrays of one shape, row by row (copy_row says why not a slice assignment)."""
    for i in range(dst.shape[0]):
        copy_row(dst[i], src[i])


@njit(**JIT)
def rows_transposed(W, j0, j1):
    """W[j0:j1].T (N, j1-j0) as a new C-contiguous array, by a loop: W (K,N). (np.ascontiguousarray of the
    transposed view compiles Numba's general array copy, about 0.9 s of every BN cell's cold start.)"""
    N = W.shape[1]
    w = j1 - j0
    out = np.empty((N, w), dtype=W.dtype)
    for i in range(w):
        Wi = W[j0 + i]
        for n in range(N):
            out[n, i] = Wi[n]
    return out


@njit(**JIT)
def chunk_bounds(n, nchunks, k):
    """Rows [lo, hi) of chunk k when n rows are split into nchunks nearly equal chunks."""
    return (k * n) // nchunks, ((k + 1) * n) // nchunks


@njit(**JIT)
def clamp_chunks(nchunks, n):
    """Never more chunks than rows, and at least one. Callers pass nchunks explicitly (normally
    numba.get_num_threads(), from Python): reading the thread count inside compiled code would
    defeat cache=True."""
    return max(1, min(nchunks, n))


@njit(**PJIT)
def matmul(A, W, nchunks):
    """A (N,K) @ W (K,M) -> (N,M), rows split over threads."""
    N = A.shape[0]
    out = np.empty((N, W.shape[1]), dtype=A.dtype)
    nch = clamp_chunks(nchunks, N)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        if hi > lo:
            gemm(A[lo:hi], W, out[lo:hi], False)
    return out


@njit(**PJIT)
def matmul_tn(A, D, nchunks):
    """A (N,K)^T @ D (N,M) -> (K,M): the weight-gradient GEMM over all N = T*B rows.
    Each thread reduces its own row chunk into a private partial; partials are summed after."""
    N, K = A.shape
    M = D.shape[1]
    nch = clamp_chunks(nchunks, N)
    part = np.zeros((nch, K, M), dtype=A.dtype)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        if hi > lo:
            gemm(A[lo:hi], D[lo:hi], part[k], True)
    return sum_rows(part.reshape(nch, K * M)).reshape(K, M)


@njit(**ROWS)
def _tn_rows(q, lo, hi, A, D, part):
    """Chunk q of recurrent_weight_grad's product (common.run_chunks): part[q] (K,M) = A[lo:hi]^T D[lo:hi]."""
    if hi > lo:
        gemm(A[lo:hi], D[lo:hi], part[q], True)


def recurrent_weight_grad(dHW, h0, y, nchunks):
    """dWh = Hprev^T dHW over all T*B rows, with Hprev = (h0, y_0, ..., y_{T-2}).
    dHW (T,B,G) = dL/d(h_{t-1} Wh); h0 (B,H); y (T,B,H) -> dWh (H,G).

    Python, with the T*B-row product on run_chunks' threads (per-chunk partials, summed after), as
    matmul_tn does it in a prange kernel: Numba compiles a prange kernel three times over, and this one
    with np.dot inside cost a BN cell's cold start about 2 s of compiling (numba compile events)."""
    T, B, G = dHW.shape
    H = h0.shape[1]
    dWh = np.empty((H, G), dtype=dHW.dtype)
    gemm(np.ascontiguousarray(h0), np.ascontiguousarray(dHW[0]), dWh, True)  # h0^T dHW_0
    if T > 1:
        n = (T - 1) * B
        nch = clamp_chunks(nchunks, n)
        part = np.zeros((nch, H, G), dtype=dHW.dtype)  # (nch,H,G) per-chunk partials
        run_chunks(_tn_rows, n, nch, np.ascontiguousarray(y[:T - 1]).reshape(n, H),
                   np.ascontiguousarray(dHW[1:]).reshape(n, G), part)
        dWh += sum_rows(part.reshape(nch, H * G)).reshape(H, G)
    return dWh


def projection_grads(dXW, dHW, x, h0, y, Wx, nchunks):
    """The GEMMs after a BPTT time loop, each one over all T*B rows:
        dx = dXW Wx^T,  dWx = X^T dXW,  dWh = Hprev^T dHW  with Hprev = (h0, y_0, ..., y_{T-2}).
    dXW, dHW (T,B,G): dL/d(x_t Wx) and dL/d(h_{t-1} Wh); x (T,B,I); h0 (B,H); y (T,B,H); Wx (I,G)
    -> dx (T,B,I), dWx (I,G), dWh (H,G). (Python: it calls recurrent_weight_grad.)"""
    T, B, G = dXW.shape
    I = x.shape[2]
    dX2 = np.ascontiguousarray(dXW).reshape(T * B, G)
    dx = matmul(dX2, np.ascontiguousarray(Wx.T), nchunks).reshape(T, B, I)
    dWx = matmul_tn(np.ascontiguousarray(x).reshape(T * B, I), dX2, nchunks)
    return dx, dWx, recurrent_weight_grad(dHW, h0, y, nchunks)


@njit(**JIT)
def sum_rows(part):
    """part (n,M) -> (M,): the sum of per-chunk partials (a loop: ``part.sum(axis=0)`` costs seconds
    of compile time in every kernel that uses it)."""
    out = part[0].copy()
    for k in range(1, part.shape[0]):
        for j in range(part.shape[1]):
            out[j] += part[k, j]
    return out


# float32 exp for sigmoid_row: Cody-Waite reduction v = k ln2 + r (|r| <= ln2/2; k*_LN2_HI is exact),
# a degree-7 Taylor polynomial for exp(r) (truncation < 6e-9) and 2^k assembled from its IEEE bits.
_LOG2E = np.float32(1.4426950408889634)
_LN2_HI = np.float32(0.693359375)
_LN2_LO = np.float32(-2.12194440e-4)
_EXP_MIN, _EXP_MAX = np.float32(-87.0), np.float32(87.0)
_E2, _E3, _E4, _E5, _E6, _E7 = [np.float32(1.0 / f) for f in (2, 6, 24, 120, 720, 5040)]


@njit(**JIT)
def sigmoid_row(y, a, kb):
    """y[j] = 1 / (1 + exp(-a[j])) over a row (y may alias a); kb: int32 scratch at least twice as long.

    float64 uses libm. For float32, libm's expf is called one element at a time (pip's llvmlite has
    no SVML), so we evaluate exp from plain arithmetic that LLVM vectorises: absolute error below
    1e-7 and relative error ~1e-7 in the tails (tests/test_kernels.py). exp(r) goes to the second half
    of kb and 2^k (as IEEE bits) to the first: with the polynomial written into y itself, which may be
    a, LLVM left the final division scalar (1.2 us per 512-wide row on 2 AVX2 cores, 0.23 us now).
    The cells also compute tanh(z) as 2 sigmoid(2z) - 1 with it: libm's tanhf cost twice its expf."""
    n = a.shape[0]
    if a.itemsize != 4:
        for j in range(n):
            y[j] = 1.0 / (1.0 + np.exp(-a[j]))
        return
    one = np.float32(1.0)
    e = kb[n:2 * n].view(np.float32)  # exp(r), r the reduced argument
    for j in range(n):
        v = min(max(-a[j], _EXP_MIN), _EXP_MAX)
        k = np.floor(v * _LOG2E + np.float32(0.5))
        r = v - k * _LN2_HI - k * _LN2_LO
        e[j] = one + r * (one + r * (_E2 + r * (_E3 + r * (_E4 + r * (_E5 + r * (_E6 + r * _E7))))))
        kb[j] = (np.int32(k) + np.int32(127)) << np.int32(23)
    scale = kb[:n].view(np.float32)  # 2^k
    for j in range(n):
        y[j] = one / (one + e[j] * scale[j])


@njit(**JIT)
def input_row_grads(dx, pW, dz, x, W):
    """For one row of a narrow input (the cells' fold path): dx (I,) = dz W^T, and pW (I,N) += x^T dz,
    with dz (N,) = dL/d(x W) of the row, x (I,), W (I,N)."""
    for i in range(x.shape[0]):
        s = dz.dtype.type(0.0)
        for j in range(dz.shape[0]):
            s += dz[j] * W[i, j]
            pW[i, j] += x[i] * dz[j]
        dx[i] = s


@njit(**JIT)
def ln_row_stats(x, eps):
    """Mean and 1/std of one row x (F,): two passes (the mean first, then the biased variance about it,
    which stays accurate in float32 when the mean is large against the spread)."""
    F = x.shape[0]
    zero = x.dtype.type(0.0)
    inv = x.dtype.type(1.0) / x.dtype.type(F)  # not m /= F: int division would make m (and the loops) float64
    m = zero
    for j in range(F):
        m += x[j]
    m *= inv
    v = zero
    for j in range(F):
        d = x[j] - m
        v += d * d
    v *= inv
    return m, x.dtype.type(1.0) / np.sqrt(v + eps)


@njit(**JIT)
def ln_row_forward(xhat, x, eps):
    """Normalize one row x (F,) into xhat (F,); returns (mean, rstd). Biased variance.
    Written in place (xhat is x), the last loop runs scalar: LLVM's runtime overlap check sees the two
    operands overlap and takes its unvectorised version (2x slower for a 512-wide row)."""
    m, rstd = ln_row_stats(x, eps)
    for j in range(x.shape[0]):
        xhat[j] = (x[j] - m) * rstd
    return m, rstd


@njit(**JIT)
def ln_row_backward(dx, dxhat, xhat, rstd):
    """Given dL/dxhat (F,) (the upstream gradient already multiplied by the gain), the saved xhat (F,)
    and rstd, write dL/dx (F,): rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))."""
    F = dxhat.shape[0]
    s1 = dxhat.dtype.type(0.0)
    s2 = dxhat.dtype.type(0.0)
    for j in range(F):
        s1 += dxhat[j]
        s2 += dxhat[j] * xhat[j]
    inv = dxhat.dtype.type(1.0) / dxhat.dtype.type(F)  # stays float32 for float32 rows
    s1 *= inv
    s2 *= inv
    for j in range(F):
        dx[j] = rstd * (dxhat[j] - s1 - xhat[j] * s2)


@intrinsic
def unowned(typingctx, arr):
    """A view of arr (same data, shape and strides) that holds no reference to arr's memory: for the
    arrays a chunk function (run_chunks) gets from its caller, which keeps them alive for the call.

    Why: every slice taken in compiled code (a row ``gates[t, b]``, a block ``a[:H]``) takes a reference
    on its array's memory with an atomic increment and drops it with an atomic decrement. The chunk
    threads slice the same saved arrays at every row, so these atomics hit one shared counter from
    both cores and its cache line moves between them: NRT_incref/NRT_decref took 12% of the S1
    LN-LSTM step's CPU time (perf). Slices of an unowned array carry no memory (a null meminfo), and
    Numba's reference counting skips them. Never return an unowned array, keep it past the call, or
    take one of a local array (the local may be freed while its unowned view is still in use)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        out = context.make_array(sig.return_type)(context, builder)
        populate_array(out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize,
                       meminfo=None)
        return out._getvalue()
    return arr(arr), codegen
