"""How the CPU kernels use threads: ``batch_blocks`` splits a batch into fixed row blocks (by B alone, and
the rows a block holds at least: ``block_rows``); ``run_chunks`` runs a cell's blocks on threads (one
nogil compiled function per block, a thread taking whole blocks, so results never depend on the thread
count); ``run_synced`` with ``barrier`` runs a time loop split over threads that meet within every step
(``n_parts``: the BN cells); ``chunk_bounds`` says which rows a chunk owns, and ``unowned`` gives a
chunk function views of its caller's arrays without shared reference counts; ``readonly`` hands it the
arrays it only reads as read-only views (one compiled signature whoever the caller).
``dry_run`` (lnrnn.training.prewarm): compile a time loop for its arguments' types without running it.
"""
import contextlib
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from lnrnn.config import BARRIER_SPINS, BLOCK_ROWS, JIT


_pool = {"size": 0, "executor": None}


# A dry run (lnrnn.training.prewarm): run_chunks and run_synced, instead of running their time loop, compile it
# for the arguments' types (mode "compile", into Numba's on-disk cache) or do nothing ("skip"); the
# wrappers around them still run. None: run as usual.
_dry = {"mode": None}


@contextlib.contextmanager
def dry_run(mode):
    """Within the block, the time loops that run_chunks/run_synced would run are compiled for their
    arguments' types and not run (mode "compile"), or neither ("skip"): lnrnn.training.prewarm compiles a layer's
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
    """Split n batch rows into nchunks nearly equal chunks (chunk_bounds) and call rows(q, lo, hi, *args)
    for every chunk q, like ``for q in prange(nchunks)``: in at most numba.get_num_threads() contiguous
    runs of whole chunks, each run on one thread one chunk after the other (chunk 0's run on the calling
    thread; a pool thread that ends its run early may take a later run as well).

    Chunks, not threads, are the units of the results: a chunk's rows, its partial sums and the shapes
    of its BLAS calls are the same whichever thread runs it and however many threads there are, so a
    caller that fixes nchunks by the batch alone (``batch_blocks``) and adds the chunks' partials in
    chunk order gets the same bits on 1 thread as on 16.

    Why not prange: a cell's chunk is its whole time loop (hundreds of lines once Numba inlines the
    LayerNorm and activation helpers), and Numba compiles a prange body three times (as the function
    itself, as the parallel gufunc, and again linked into the kernel that launches it): 10 s more for
    the LN-LSTM backward alone. ``rows`` is compiled once with nogil=True (config.ROWS), so these
    threads run it in parallel; exceptions in any chunk re-raise here."""
    if _dry["mode"] is not None:
        return _dry_call(rows, (0, 0, n) + args)
    nch = clamp_chunks(nchunks, n)
    nthr = max(1, min(numba.get_num_threads(), nch))
    if nthr > 1 and _pool["size"] < nthr - 1:
        if _pool["executor"] is not None:
            _pool["executor"].shutdown()
        _pool["executor"] = ThreadPoolExecutor(nthr - 1, thread_name_prefix="lnrnn-chunk")
        _pool["size"] = nthr - 1
    runs = [chunk_bounds(nch, nthr, w) for w in range(nthr)]  # thread w: chunks [q0, q1)
    futures = [_pool["executor"].submit(_run_range, rows, n, nch, *runs[w], args) for w in range(1, nthr)]
    _run_range(rows, n, nch, *runs[0], args)
    for f in futures:
        f.result()


def readonly(*args):
    """args with every NumPy array in them (inside plain tuples too) a read-only view of itself (no copy):
    for the arguments a compiled time loop only reads, so that it meets one array type per argument
    whoever calls it.

    Why: Numba compiles a function again for every combination of its arguments' read-only flags, and
    callers differ: the JAX binding hands the kernels read-only views, a layer's own arrays are writable,
    a saved tuple is whatever its forward's caller kept. The LN-LSTM backward's time loop, compiled for
    six such combinations in float64 alone, took about 10 s each (AMD EPYC, 2 cores). Passed read-only,
    every caller meets the one signature, and Numba refuses to compile a write into an input."""
    def view(a):
        if isinstance(a, np.ndarray):
            if not a.flags.writeable:
                return a
            v = a.view()
            v.flags.writeable = False
            return v
        if type(a) is tuple:
            return tuple(view(b) for b in a)
        return a
    return tuple(view(a) for a in args)


def _run_range(rows, n, nch, q0, q1, args):
    for q in range(q0, q1):
        rows(q, *chunk_bounds(n, nch, q), *args)


# The rows a block holds at least (batch_blocks): config.BLOCK_ROWS, or a run's --block-rows while it trains
# or is evaluated (block_rows below). One value for the process: the layers read it at every call.
_BLOCKS = {"rows": BLOCK_ROWS}


def batch_blocks(B):
    """The fixed row blocks a batch of B rows is split into (rows chunk_bounds(B, nblocks, k)): the largest
    power of two with at least ``rows`` rows a block (config.BLOCK_ROWS unless block_rows says otherwise),
    but two from B = 2 on (so that two threads share even a small batch), never more than B. The kernels'
    chunks, partial sums and BLAS shapes follow these blocks, which depend on B (and rows) alone: results
    are the same bits for any thread count."""
    rows = _BLOCKS["rows"]
    n = 1
    while 2 * n <= B and 2 * n <= max(2, B // rows):
        n *= 2
    return n


@contextlib.contextmanager
def block_rows(rows):
    """Within the block, batches split into blocks of at least ``rows`` rows (a run's --block-rows: the
    trainer and lnrnn.api's evaluate_run, predict and sample_run enter it with the run's value). Smaller
    blocks let more threads share a small batch, larger ones make fewer, larger products; either way the
    results are the same on any thread count, but not the same as with another ``rows``. Process-wide:
    not for two runs with different values at once in one process."""
    rows = int(rows)
    if rows < 1:
        raise ValueError(f"block rows must be at least 1, not {rows}")
    old, _BLOCKS["rows"] = _BLOCKS["rows"], rows
    try:
        yield
    finally:
        _BLOCKS["rows"] = old


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
# exchange buffer and waits at a barrier, then all combine them alike (bn_parts.py).
# The parts run at once on their own threads (run_synced) and meet through a spin barrier on atomic
# counters (0.14 us per barrier on 2 cores): a thread-pool entry per step, tried before, lost to the
# serial loop at every size, as waking a descheduled worker costs milliseconds.
# n = the thread count when a step has at least ``par_min`` elements B*G (config.BN_PAR_MIN_WORK), else 1
# (the same compiled loop on the calling thread). Parts that own hidden units instead would each need all
# of h_{t-1} for their product: an exchange of h between cores at every step (measured: a 1.4x slower step).

# Threads a step is split over when it is split (None: numba.get_num_threads(); tests set more).
PART_THREADS = None


def n_parts(B, H, G, par_min):
    """Threads a BN cell's time loop is split over (batch rows [r0, r1) each, chunk_bounds): 1 when a step
    has fewer than par_min elements B*G (G the gate width), else the thread count (at most B)."""
    if B * G < par_min:
        return 1
    return max(1, min(PART_THREADS or numba.get_num_threads(), B))


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
