"""CUDA building blocks shared by the ``*_cuda`` kernels: device-array helpers, a tiled shared-memory
GEMM, column reductions with shared memory, and a block-wide sum for row reductions.

Device-array convention (every ``*_cuda`` module)
    Public functions take host (NumPy) or device arrays; a host array is copied to the device once on
    entry (``to_device``). Every array they return is a device array, and nothing is copied back to
    the host: a training step keeps parameters, activations and gradients on the device. Call
    ``to_host`` on a result (or a tuple of them) to get NumPy arrays.

Why a hand-written GEMM (not cuBLAS)
    numba.cuda has no BLAS, and the libraries that bind cuBLAS for Numba device arrays are either
    unmaintained or pull in a second array stack (CuPy). A tiled shared-memory GEMM keeps the
    ``cuda`` extra to ``numba-cuda`` alone, runs under the simulator (so CI checks it without a GPU),
    and serves the shapes of a recurrent step. It is the first thing to replace if profiling on a
    real GPU shows the recurrent product dominating.

Launch geometry
    GEMM and column reductions use square blocks of TILE x TILE threads; row kernels (LayerNorm, the
    fused recurrent steps) use one block of ``config.THREADS_PER_BLOCK`` threads per row. Both are
    read at call time (tests shrink them so the simulator runs several small blocks), and kernels
    are compiled once per (dtype, geometry) by the ``lru_cache``d factories below: the sizes of
    shared arrays must be compile-time constants.
"""
import math
from functools import lru_cache

import numpy as np

from lnrnn import config
from lnrnn.kernels.cuda_env import numpy_compat

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)
from numba import cuda, float32, float64  # noqa: E402

# GEMM and column-reduction tile edge: blocks of TILE x TILE threads (tests shrink it).
TILE = config.CUDA_TILE
# A column reduction over N rows is split into at most this many row ranges (grid.y), whose partial
# sums are added by a second launch: enough blocks to fill a GPU when the output has few columns.
REDUCE_PARTS = 64

_NB = {np.dtype(np.float32): float32, np.dtype(np.float64): float64}


def nbtype(dtype):
    """numba scalar type of a NumPy float dtype (float32 or float64)."""
    try:
        return _NB[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"CUDA kernels support float32 and float64, got {np.dtype(dtype).name}") from None


def threads_per_block():
    return int(config.THREADS_PER_BLOCK)


def tile():
    return int(TILE)


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
    """Device array as is; a host array copied to the device (C-contiguous) once."""
    return a if is_device(a) else cuda.to_device(np.ascontiguousarray(a))


def to_host(obj):
    """Copy a device array, or a (nested) tuple/list of them, back to NumPy; other values pass through."""
    if isinstance(obj, (tuple, list)):
        return type(obj)(to_host(o) for o in obj)
    return obj.copy_to_host() if is_device(obj) else obj


def empty(shape, dtype):
    return cuda.device_array(shape, dtype=dtype)


def copy(a):
    """A fresh device array holding the contents of device array a (device-to-device copy)."""
    out = cuda.device_array(a.shape, dtype=a.dtype)
    if a.size:
        out.copy_to_device(a)
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
        tpb = threads_per_block()
        _fill_kernel[min((f.size + tpb - 1) // tpb, 1024), tpb](f, a.dtype.type(value))
    return a


def zeros(shape, dtype):
    return fill(empty(shape, dtype), 0)


@cuda.jit
def _transpose_kernel(a, out):
    """a (M,N) -> out (N,M); grid-stride loop over out, consecutive threads write consecutive out."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    M, N = a.shape
    for q in range(start, M * N, stride):
        i = q // M
        j = q - i * M
        out[i, j] = a[j, i]


def transpose(a):
    """(M,N) device array -> a fresh (N,M) device array holding a^T."""
    M, N = a.shape
    out = empty((N, M), a.dtype)
    if a.size:
        tpb = threads_per_block()
        _transpose_kernel[min((a.size + tpb - 1) // tpb, 1024), tpb](a, out)
    return out


# ------------------------------------------------------------------------------------------------
# Block-wide reduction (rows: one block per row)
# ------------------------------------------------------------------------------------------------
@cuda.jit(device=True)
def block_sum(sh, v):
    """Sum of v over the threads of a 1-D block, returned to every thread. Every thread of the block
    must call it (it synchronizes); sh is a shared scratch array of at least blockDim.x elements.
    Pairwise tree that works for any block size, not only powers of two."""
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    sh[tid] = v
    cuda.syncthreads()
    while n > 1:
        half = (n + 1) // 2
        if tid < n - half:
            sh[tid] += sh[tid + half]
        cuda.syncthreads()
        n = half
    s = sh[0]
    cuda.syncthreads()  # nobody overwrites sh[0] before everyone has read it
    return s


@cuda.jit(device=True)
def dot_col(v, W, col, start, stop, step, zero):
    """sum of v[i] * W[i, col] for i = start, start+step, ... < stop (v: e.g. a shared row, W: global).
    Eight independent accumulators, so a thread has eight loads of W in flight instead of waiting out
    each one's latency: the recurrent matrix-vector products of the sequence kernels are bound by
    that latency, not by bandwidth (W is read from L2)."""
    s0 = zero
    s1 = zero
    s2 = zero
    s3 = zero
    s4 = zero
    s5 = zero
    s6 = zero
    s7 = zero
    i = start
    while i + 7 * step < stop:
        s0 += v[i] * W[i, col]
        s1 += v[i + step] * W[i + step, col]
        s2 += v[i + 2 * step] * W[i + 2 * step, col]
        s3 += v[i + 3 * step] * W[i + 3 * step, col]
        s4 += v[i + 4 * step] * W[i + 4 * step, col]
        s5 += v[i + 5 * step] * W[i + 5 * step, col]
        s6 += v[i + 6 * step] * W[i + 6 * step, col]
        s7 += v[i + 7 * step] * W[i + 7 * step, col]
        i += 8 * step
    while i < stop:
        s0 += v[i] * W[i, col]
        i += step
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))


def split_matvec(H, N, tpb):
    """Device function matvec(v, W, out, red, tid, n, zero): out[k] = sum_{j<N} v[j] W[j, k] for k < H,
    every thread of a block of tpb threads taking part (it synchronizes). v, out: shared rows; W (N,H)
    global, read along rows so that consecutive threads read consecutive addresses; red: a shared
    scratch of split_groups(H, tpb) * H elements. With H <= tpb, P = tpb // H thread groups each sum
    j = q, q+P, ... for every k and red adds the groups; with H > tpb each thread sums whole columns."""
    P = split_groups(H, tpb)
    wide = H > tpb

    @cuda.jit(device=True)
    def matvec(v, W, out, red, tid, n, zero):
        if wide:
            for k in range(tid, H, n):
                red[k] = dot_col(v, W, k, 0, N, 1, zero)
        else:
            q = tid // H
            k = tid - q * H
            if q < P:
                red[q * H + k] = dot_col(v, W, k, q, N, P, zero)
        cuda.syncthreads()
        for k in range(tid, H, n):
            s = zero
            for q in range(1 if wide else P):
                s += red[q * H + k]
            out[k] = s

    return matvec


def split_groups(H, tpb):
    """Thread groups of split_matvec: how many copies of H units a block of tpb threads holds (>= 1)."""
    return max(1, tpb // H)


@cuda.jit(device=True)
def sigmoid(z, one):
    """one: 1 in the working dtype (float32 code stays float32). exp's argument stops at 80, where the
    result is 1.8e-35 (or 0 before): a GPU's exp returns inf past the range, but the simulator's math.exp
    raises OverflowError (BatchNorm of a step with one or two active rows normalizes padded rows far out)."""
    return one / (one + math.exp(min(-z, one * float32(80.0))))


# ------------------------------------------------------------------------------------------------
# GEMM: C (M,N) = op(A) @ op(B)  [+ C]
# ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _gemm_kernel(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def gemm(A, B, C, trans_a, trans_b, accumulate):
        """op(A) (M,K) = A or A^T, op(B) (K,N) = B or B^T; C (M,N). Block (t,t) computes one t x t tile
        of C, walking K in t-wide slabs staged in shared memory. Loads of transposed operands swap
        the thread roles so that consecutive threadIdx.x still read consecutive addresses."""
        sA = cuda.shared.array((t, t), dt)  # sA[m, k] of the current slab
        sB = cuda.shared.array((t, t), dt)  # sB[k, n]
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        m0 = cuda.blockIdx.y * t
        n0 = cuda.blockIdx.x * t
        M, N = C.shape
        K = A.shape[0] if trans_a else A.shape[1]
        s = dt(0.0)
        for k0 in range(0, K, t):
            if trans_a:  # A (K,M): thread reads A[k0+ty, m0+tx]
                k = k0 + ty
                m = m0 + tx
                sA[tx, ty] = A[k, m] if (k < K and m < M) else dt(0.0)
            else:        # A (M,K): thread reads A[m0+ty, k0+tx]
                k = k0 + tx
                m = m0 + ty
                sA[ty, tx] = A[m, k] if (k < K and m < M) else dt(0.0)
            if trans_b:  # B (N,K): thread reads B[n0+ty, k0+tx]
                k = k0 + tx
                n = n0 + ty
                sB[tx, ty] = B[n, k] if (k < K and n < N) else dt(0.0)
            else:        # B (K,N): thread reads B[k0+ty, n0+tx]
                k = k0 + ty
                n = n0 + tx
                sB[ty, tx] = B[k, n] if (k < K and n < N) else dt(0.0)
            cuda.syncthreads()
            for q in range(t):
                s += sA[ty, q] * sB[q, tx]
            cuda.syncthreads()
        m = m0 + ty
        n = n0 + tx
        if m < M and n < N:
            if accumulate:
                C[m, n] += s
            else:
                C[m, n] = s

    return gemm


def matmul(A, B, out=None, trans_a=False, trans_b=False, accumulate=False):
    """Device GEMM: out (M,N) = op(A) @ op(B), or out += ... with accumulate=True (out required).
    op(X) is X, or X^T when trans_x. A, B, out: 2-D C-contiguous device arrays of one dtype."""
    M, K = (A.shape[1], A.shape[0]) if trans_a else A.shape
    K2, N = (B.shape[1], B.shape[0]) if trans_b else B.shape
    if K != K2:
        raise ValueError(f"matmul: inner dimensions differ, op(A) is {(M, K)} and op(B) is {(K2, N)}")
    if out is None:
        if accumulate:
            raise ValueError("matmul: accumulate=True needs out")
        out = empty((M, N), A.dtype)
    elif out.shape != (M, N):
        raise ValueError(f"matmul: out has shape {out.shape}, expected {(M, N)}")
    if M and N:
        t = tile()
        grid = ((N + t - 1) // t, (M + t - 1) // t)
        _gemm_kernel(np.dtype(A.dtype), t)[grid, (t, t)](A, B, out, bool(trans_a), bool(trans_b),
                                                         bool(accumulate))
    return out


def projection_grads(dXW, dHW, x, h0, y, Wx):
    """The GEMMs after a BPTT time loop, each over all T*B rows (twin of common.projection_grads):
        dx = dXW Wx^T,  dWx = X^T dXW,  dWh = Hprev^T dHW  with Hprev = (h0, y_0, ..., y_{T-2}).
    dXW, dHW (T,B,G): dL/d(x_t Wx) and dL/d(h_{t-1} Wh); x (T,B,I); h0 (B,H); y (T,B,H); Wx (I,G)
    -> dx (T,B,I), dWx (I,G), dWh (H,G)   (device arrays)."""
    T, B, I = x.shape
    dX2 = rows2d(dXW)
    dWx = matmul(x.reshape(T * B, I), dX2, trans_a=True)
    dx = matmul(dX2, Wx, trans_b=True).reshape(T, B, I)
    dWh = matmul(h0, dHW[0], trans_a=True)
    if T > 1:
        matmul(rows2d(y[:T - 1]), rows2d(dHW[1:]), out=dWh, trans_a=True, accumulate=True)
    return dx, dWx, dWh


# ------------------------------------------------------------------------------------------------
# Column reductions: out (M,) = sum over the N rows of D, D*X, or D*xhat(X)
# ------------------------------------------------------------------------------------------------
SUM, SUM_PROD, SUM_LN = 0, 1, 2


@lru_cache(maxsize=None)
def _colsum_kernel(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def colsum(D, X, mean, rstd, mode, part):
        """D, X (N,M); mean, rstd (N,) (mode SUM_LN only) -> part (P,M), P = gridDim.y row ranges.
        Block (t,t): threadIdx.x picks a column (coalesced reads along a row), threadIdx.y one of t
        lanes striding over this block's row range; lanes are added through shared memory.
        mode SUM: D; SUM_PROD: D*X; SUM_LN: D*(X - mean[r])*rstd[r] (the LayerNorm gain gradient)."""
        sh = cuda.shared.array((t, t), dt)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        N, M = D.shape
        j = cuda.blockIdx.x * t + tx
        p = cuda.blockIdx.y
        P = cuda.gridDim.y
        lo = (p * N) // P
        hi = ((p + 1) * N) // P
        s = dt(0.0)
        if j < M:
            for r in range(lo + ty, hi, t):
                d = D[r, j]
                if mode == 1:
                    d *= X[r, j]
                elif mode == 2:
                    d *= (X[r, j] - mean[r]) * rstd[r]
                s += d
        sh[ty, tx] = s
        cuda.syncthreads()
        if ty == 0 and j < M:
            for q in range(1, t):
                s += sh[q, tx]
            part[p, j] = s

    return colsum


def _colsum(D, X, mean, rstd, mode):
    D = rows2d(D)
    X = rows2d(X)
    N, M = D.shape
    out = empty((1, M), D.dtype)
    if M == 0:
        return out.reshape(M)
    t = tile()
    kern = _colsum_kernel(np.dtype(D.dtype), t)
    P = max(1, min(REDUCE_PARTS, (N + 4 * t - 1) // (4 * t)))  # at least 4 rows per lane
    gx = (M + t - 1) // t
    if P == 1:
        kern[(gx, 1), (t, t)](D, X, mean, rstd, mode, out)
    else:
        part = empty((P, M), D.dtype)
        kern[(gx, P), (t, t)](D, X, mean, rstd, mode, part)
        kern[(gx, 1), (t, t)](part, part, mean, rstd, SUM, out)
    return out.reshape(M)


def colsum(D):
    """(..., M) -> (M,): sum over all leading indices."""
    dummy = empty(1, D.dtype)
    return _colsum(D, D, dummy, dummy, SUM)


def colsum_prod(D, X):
    """(..., M), (..., M) -> (M,): sum of D*X over all leading indices (gain gradients)."""
    dummy = empty(1, D.dtype)
    return _colsum(D, X, dummy, dummy, SUM_PROD)


def colsum_ln(D, X, mean, rstd):
    """D, X (N,M); mean, rstd (N,) -> (M,): sum_r D[r]*(X[r]-mean[r])*rstd[r] (LayerNorm dgain)."""
    return _colsum(D, X, mean, rstd, SUM_LN)
