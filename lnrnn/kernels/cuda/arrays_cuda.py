"""Device arrays and launch sizes shared by the ``*_cuda`` kernels.

Device-array convention (every ``*_cuda`` module)
    Public functions take host (NumPy) or device arrays; a host array is copied to the device once on
    entry (``to_device``). Every array they return is a device array, and nothing is copied back to
    the host: a training step keeps parameters, activations and gradients on the device. Call
    ``to_host`` on a result (or a tuple of them) to get NumPy arrays.

Launch geometry
    Row kernels (LayerNorm, the fused recurrent steps) use one block of ``config.THREADS_PER_BLOCK``
    threads per row (``threads_per_block``), sequence kernels ``seq_threads``; GEMM and column
    reductions use square blocks of TILE x TILE threads (gemm_cuda.py). Both are read at call time
    (tests shrink them so the simulator runs several small blocks), and kernels are compiled once per
    (dtype, geometry) by ``lru_cache``d factories: the sizes of shared arrays must be compile-time
    constants.
"""
import numpy as np

from lnrnn import config
from lnrnn.kernels.cuda.cuda_env import numpy_compat, simulator_enabled
from lnrnn.kernels.cuda.graphs_cuda import pool

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)
from numba import cuda, float32, float64  # noqa: E402


_NB = {np.dtype(np.float32): float32, np.dtype(np.float64): float64}


def nbtype(dtype):
    """numba scalar type of a NumPy float dtype (float32 or float64)."""
    try:
        return _NB[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"CUDA kernels support float32 and float64, got {np.dtype(dtype).name}") from None


def bounded(threads):
    """``cuda.jit`` for a kernel launched with at most ``threads`` threads per block: the compiler then keeps
    each thread's registers within what a block of that size may hold (launch bounds), so the launch cannot
    fail for want of registers (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: a 512-thread block may use at most
    128 registers a thread, which a float64 sequence kernel can exceed when left to the compiler). The
    simulator takes no launch bounds."""
    if simulator_enabled():
        return cuda.jit
    return cuda.jit(launch_bounds=int(threads))


def threads_per_block():
    return int(config.THREADS_PER_BLOCK)


# grid-stride kernels over n elements: at most this many blocks (a grid's partial sums stay one block's work)
GRID_MAX_BLOCKS = 1024


def grid_1d(n):
    """(blocks, threads per block) of a grid-stride launch over n elements: at least one block."""
    tpb = threads_per_block()
    return max(1, min((n + tpb - 1) // tpb, GRID_MAX_BLOCKS)), tpb


def seq_threads(G):
    """Threads per block of a sequence kernel whose widest per-row loop has G elements: G rounded up to
    a warp (32), at most config.CUDA_SEQ_MAX_THREADS."""
    return int(min(config.CUDA_SEQ_MAX_THREADS, (G + 31) // 32 * 32))


def seq_fits(n_elems, dtype):
    """Whether a block's n_elems shared elements of dtype fit in static shared memory, and the
    sequence kernels are enabled (config.CUDA_SEQUENCE_KERNELS)."""
    return bool(config.CUDA_SEQUENCE_KERNELS) and n_elems * np.dtype(dtype).itemsize <= config.CUDA_SHARED_BYTES


# ------------------------------------------------------------------------------------------------
# Device arrays
# ------------------------------------------------------------------------------------------------
def is_device(a):
    return not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host")


def to_device(a):
    """Device array as is; a host array copied to the device once, into a fresh C-ordered device array
    (``empty``), so that it reshapes as any other: copy_to_device lays out a host array of other strides
    (x[0][None], whose length-1 axis NumPy lets keep any stride; a broadcast or transposed view) in C order
    on its way (tests/kernels/test_upload_strides.py)."""
    if is_device(a):
        return a
    a = np.ascontiguousarray(a)
    out = empty(a.shape, a.dtype)
    out.copy_to_device(a)
    return out


def to_host(obj):
    """Copy a device array, or a (nested) tuple/list of them, back to NumPy; other values pass through."""
    if isinstance(obj, (tuple, list)):
        return type(obj)(to_host(o) for o in obj)
    return obj.copy_to_host() if is_device(obj) else obj


def empty(shape, dtype):
    """A fresh device array, uninitialized: from graphs_cuda.pool() where one serves (PyTorch's caching
    allocator), else numba's own allocation."""
    alloc = pool()
    return cuda.device_array(shape, dtype=dtype) if alloc is None else alloc(shape, dtype)


def copy(a):
    """A fresh C-contiguous device array holding the contents of device array a: one device-to-device copy
    where a is C-contiguous (every caller's case); a strided view (a transpose, a column block) goes through
    the host, since numba's device-to-device copy takes only a source laid out as its destination."""
    out = empty(a.shape, a.dtype)
    if a.size:
        if a.is_c_contiguous():
            copy_bytes(out, a, a.nbytes)
        else:
            out.copy_to_device(np.ascontiguousarray(a.copy_to_host()))
    return out


def copy_bytes(dst, src, nbytes, dst_at=0, src_at=0):
    """nbytes of C-contiguous device array src from byte src_at into C-contiguous device array dst from byte
    dst_at. On a GPU one cuMemcpyDtoD, ordered on the legacy default stream with numba's launches: a plan's
    dozen copies a call through numba's copy_to_device and slicing cost ~0.3 ms of host time each (an H200
    machine's host, bench/gpu_step.py --overhead); under the simulator the same bytes through flat views."""
    if nbytes < 0 or dst_at < 0 or src_at < 0 or dst_at + nbytes > dst.nbytes or src_at + nbytes > src.nbytes:
        raise ValueError(f"copy_bytes: {nbytes} bytes from {src_at} of {src.nbytes} into {dst_at} of {dst.nbytes}")
    if nbytes == 0:
        return
    if simulator_enabled():
        d, s = dst.dtype.itemsize, src.dtype.itemsize
        if dst.dtype != src.dtype or (dst_at | src_at | nbytes) % d:
            raise ValueError("copy_bytes: under the simulator, arrays of one dtype and whole elements only")
        flat(dst)[dst_at // d:(dst_at + nbytes) // d].copy_to_device(flat(src)[src_at // s:(src_at + nbytes) // s])
        return
    from numba.cuda.cudadrv.driver import driver
    driver.cuMemcpyDtoD(dst.device_ctypes_pointer.value + dst_at, src.device_ctypes_pointer.value + src_at, nbytes)


def load(pairs):
    """Copy each (plan buffer, array) pair's array into the buffer (device to device, copy_bytes); a
    buffer longer than its array (a plan of more steps) takes it in its first steps."""
    for dst, src in pairs:
        if dst.size:
            if (dst.dtype != src.dtype or tuple(dst.shape[1:]) != tuple(src.shape[1:]) or src.shape[0] > dst.shape[0]
                    or not src.is_c_contiguous()):
                raise ValueError(f"load: a {src.dtype} {src.shape} array into a plan's {dst.dtype} {dst.shape}")
            copy_bytes(dst, src, src.nbytes)


def head(a, n):
    """A fresh device array holding the first n rows of C-contiguous device array a (n <= len(a))."""
    out = empty((n,) + tuple(a.shape[1:]), a.dtype)
    copy_bytes(out, a, out.nbytes)
    return out


def take_row(a, t):
    """A fresh device array holding row t of C-contiguous device array a (a[t], copied without a slice)."""
    out = empty(tuple(a.shape[1:]), a.dtype)
    copy_bytes(out, a, out.nbytes, src_at=t * out.nbytes)
    return out


def flat(a):
    """1-D view of a C-contiguous device array."""
    return a.reshape(a.size)


def rows2d(a):
    """(..., F) C-contiguous device array as (N, F)."""
    F = a.shape[a.ndim - 1]  # the simulator's shapes reject negative indices
    return a.reshape(a.size // F, F)


@cuda.jit
def _fill_kernel(a, value):
    """a (n,) <- value; grid-stride loop."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, a.shape[0], stride):
        a[i] = value


def fill(a, value):
    """Set every element of device array a to value (in place); returns a."""
    if a.size:
        f = flat(a)
        blocks, tpb = grid_1d(f.size)
        _fill_kernel[blocks, tpb](f, a.dtype.type(value))
    return a


def fill_zeros(*arrays):
    """Zero each device array in place (C-contiguous: on a GPU one cuMemsetD8 each, under the simulator a fill)."""
    for a in arrays:
        if not a.size:
            continue
        if simulator_enabled():
            fill(a, 0.0)
        else:
            from numba.cuda.cudadrv.driver import driver
            driver.cuMemsetD8(a.device_ctypes_pointer.value, 0, a.nbytes)


def zeros(shape, dtype):
    return fill(empty(shape, dtype), 0)


@cuda.jit
def _add_kernel(out, a):
    """out (n,) += a (n,); grid-stride loop."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, out.shape[0], stride):
        out[i] += a[i]


def add_into(out, a):
    """out += a for two C-contiguous device arrays of one shape (a gradient accumulating on the device);
    returns out."""
    if out.shape != a.shape:
        raise ValueError(f"add_into: shapes {out.shape} and {a.shape} differ")
    if out.size:
        blocks, tpb = grid_1d(out.size)
        _add_kernel[blocks, tpb](flat(out), flat(a))
    return out


@cuda.jit
def _transpose_kernel(a, out):
    """a (M,N) -> out (N,M); grid-stride loop over out, consecutive threads write consecutive out."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    M, N = a.shape
    for q in range(start, M * N, stride):
        i = q // M
        j = q - i * M
        out[i, j] = a[j, i]


def transpose_into(a, out, stream=0):
    """out (N,M) <- a^T, a (M,N) device arrays: launches only (a captured loop runs it inside a graph)."""
    if a.size:
        blocks, tpb = grid_1d(a.size)
        _transpose_kernel[blocks, tpb, stream](a, out)
    return out


def transpose(a):
    """(M,N) device array -> a fresh (N,M) device array holding a^T."""
    M, N = a.shape
    return transpose_into(a, empty((N, M), a.dtype))


# ------------------------------------------------------------------------------------------------
# Rows of a sequence by each row's own step (ragged batches: lengths, a chunk's last valid step)
# ------------------------------------------------------------------------------------------------
@cuda.jit
def _take_steps_kernel(seq, steps, rev, out):
    """out[b, j] <- seq[steps[b], b, j], or seq[0, b, j] where rev (H,) is given and rev[j] != 0 (rev of
    length 0: no column reversed); seq (T,B,H), out (B,H); grid-stride loop over out."""
    B, H = out.shape
    any_rev = rev.shape[0] > 0
    for q in range(cuda.grid(1), B * H, cuda.gridsize(1)):
        b = q // H
        j = q - b * H
        out[b, j] = seq[0 if any_rev and rev[j] != 0 else steps[b], b, j]


def _no_columns():
    """The rev argument of a gather with no column reversed: an empty int64 device array."""
    return cuda.device_array(0, np.int64)


def take_steps(seq, steps, rev=None):
    """seq (T,B,H) device array, steps (B,) int64 device array in [0, T) -> a fresh (B,H) device array, row b
    the step steps[b] of sequence b (a last-step head's rows of a ragged batch). rev (H,) int64 device array or
    None: where rev[j] != 0, column j is taken at step 0 instead (a bidirectional stack's backward columns,
    whose last step is the row's first: ``SequenceModel._select``)."""
    T, B, H = seq.shape
    out = empty((B, H), seq.dtype)
    blocks, tpb = grid_1d(B * H)
    _take_steps_kernel[blocks, tpb](seq, steps, _no_columns() if rev is None else rev, out)
    return out


@cuda.jit
def _put_steps_kernel(rows, steps, rev, seq):
    """seq[steps[b], b, j] <- rows[b, j], or seq[0, b, j] where rev[j] != 0 (rev as ``_take_steps_kernel``
    reads it); rows (B,H), seq (T,B,H); grid-stride loop over rows."""
    B, H = rows.shape
    any_rev = rev.shape[0] > 0
    for q in range(cuda.grid(1), B * H, cuda.gridsize(1)):
        b = q // H
        j = q - b * H
        seq[0 if any_rev and rev[j] != 0 else steps[b], b, j] = rows[b, j]


def put_steps(rows, steps, T, rev=None):
    """rows (B,H), steps (B,) int64 in [0, T) (device arrays) -> a fresh (T,B,H) device array of zeros but for
    row b at step steps[b] (``take_steps``'s backward: dL/dy of a last-step head); rev as ``take_steps`` takes
    it (columns where rev[j] != 0 go to step 0)."""
    B, H = rows.shape
    seq = zeros((T, B, H), rows.dtype)
    blocks, tpb = grid_1d(B * H)
    _put_steps_kernel[blocks, tpb](rows, steps, _no_columns() if rev is None else rev, seq)
    return seq


@cuda.jit
def _reverse_valid_kernel(a, lengths, out):
    """out[t, b] <- a[L_b-1-t, b] for t < L_b, a[t, b] after (T,B,F); grid-stride loop over out."""
    T, B, F = a.shape
    for q in range(cuda.grid(1), T * B * F, cuda.gridsize(1)):
        t = q // (B * F)
        r = q - t * B * F
        b = r // F
        j = r - b * F
        L = lengths[b]
        out[t, b, j] = a[L - 1 - t, b, j] if t < L else a[t, b, j]


def reverse_valid(a, lengths):
    """``functional.reverse_valid`` on the device: a (T,B,F) device array, lengths (B,) int64 device array (every
    row's length; T for all where the batch has none) -> a fresh (T,B,F) device array, each row's first
    lengths[b] steps in reverse order and its padded steps as they are (its own inverse)."""
    out = empty(a.shape, a.dtype)
    if a.size:
        blocks, tpb = grid_1d(a.size)
        _reverse_valid_kernel[blocks, tpb](a, lengths, out)
    return out


@cuda.jit
def _final_rows_kernel(s_T, seq, s0, lengths, out):
    """out[b] <- s_T[b] where lengths[b] >= T, seq[lengths[b]-1, b] where 0 < lengths[b] < T, else s0[b]."""
    T = seq.shape[0]
    B, H = out.shape
    for q in range(cuda.grid(1), B * H, cuda.gridsize(1)):
        b = q // H
        j = q - b * H
        L = lengths[b]
        if L >= T:
            out[b, j] = s_T[b, j]
        elif L > 0:
            out[b, j] = seq[L - 1, b, j]
        else:
            out[b, j] = s0[b, j]


def final_rows(s_T, seq, s0, lengths):
    """Each row's state after its own last step (``functional.final_state`` on the device): s_T, s0 (B,H), seq
    (T,B,H), lengths (B,) int64, device arrays -> a fresh (B,H) device array."""
    out = empty(s_T.shape, s_T.dtype)
    blocks, tpb = grid_1d(s_T.size)
    _final_rows_kernel[blocks, tpb](s_T, seq, s0, lengths, out)
    return out


@cuda.jit
def _mask_steps_kernel(a, lengths, zero, out):
    """out[t, b] <- a[t, b] where t < lengths[b], a[t, b] * zero after (T,B,H); grid-stride loop."""
    T, B, H = a.shape
    for q in range(cuda.grid(1), T * B * H, cuda.gridsize(1)):
        t = q // (B * H)
        r = q - t * B * H
        b = r // H
        j = r - b * H
        out[t, b, j] = a[t, b, j] if t < lengths[b] else a[t, b, j] * zero


def mask_steps(a, lengths):
    """a (T,B,H) device array, lengths (B,) int64 device array -> a fresh (T,B,H) device array, a times the running
    mask (1 at t < lengths[b], 0 after: ``functional.running_mask``; a NaN at a padded step stays NaN, as on
    the host)."""
    out = empty(a.shape, a.dtype)
    blocks, tpb = grid_1d(a.size)
    _mask_steps_kernel[blocks, tpb](a, lengths, nbtype(a.dtype)(0.0), out)
    return out
