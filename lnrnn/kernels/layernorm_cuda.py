"""LayerNorm over the last axis: CUDA twin of layernorm.py (same names, arguments, outputs).

    x (N,F) -> y (N,F) = gain * (x - mean) * rstd + bias,   mean, rstd: (N,)
One block of ``config.THREADS_PER_BLOCK`` threads per row; each thread strides over the row's F
features and the row statistics are block-wide sums in shared memory (two passes: mean, then the
biased variance, as in the CPU twin). dgain/dbias are column reductions over all N rows after the
row kernel. Arguments: host or device arrays; results: device arrays (see arrays_cuda).
``nchunks`` is accepted for signature parity with the CPU twin and ignored.
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda.arrays_cuda import empty, nbtype, threads_per_block, to_device
from lnrnn.kernels.cuda.gemm_cuda import colsum, colsum_ln
from lnrnn.kernels.cuda.rows_cuda import block_sum


@cuda.jit(device=True)
def row_stats(sh, x, F, inv_f, eps, one):
    """Mean and 1/sqrt(biased var + eps) of row x (F,), every thread of the block taking part."""
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    s = one - one
    for j in range(tid, F, n):
        s += x[j]
    m = block_sum(sh, s) * inv_f
    s = one - one
    for j in range(tid, F, n):
        d = x[j] - m
        s += d * d
    v = block_sum(sh, s) * inv_f
    return m, one / math.sqrt(v + eps)


@lru_cache(maxsize=None)
def _kernels(dtype, tpb):
    dt = nbtype(dtype)

    @cuda.jit
    def fwd(x, gain, bias, eps, affine, y, mean, rstd):
        """Block r: row r of x (N,F) -> y[r] = xhat*gain + bias (or xhat when not affine; y may be x
        itself: every element is read and written by the same thread), mean[r], rstd[r]."""
        sh = cuda.shared.array(tpb, dt)
        r = cuda.blockIdx.x
        F = x.shape[1]
        one = dt(1.0)
        m, rs = row_stats(sh, x[r], F, one / dt(F), dt(eps), one)
        for j in range(cuda.threadIdx.x, F, cuda.blockDim.x):
            xh = (x[r, j] - m) * rs
            y[r, j] = xh * gain[j] + bias[j] if affine else xh
        if cuda.threadIdx.x == 0:
            mean[r] = m
            rstd[r] = rs

    @cuda.jit
    def bwd(dy, x, mean, rstd, gain, dx):
        """Block r: dx[r] from dy[r], x[r] (N,F) and the saved mean[r], rstd[r] (N,)."""
        sh = cuda.shared.array(tpb, dt)
        r = cuda.blockIdx.x
        F = x.shape[1]
        inv_f = dt(1.0) / dt(F)
        m = mean[r]
        rs = rstd[r]
        s1 = dt(0.0)
        s2 = dt(0.0)
        for j in range(cuda.threadIdx.x, F, cuda.blockDim.x):
            d = dy[r, j] * gain[j]
            s1 += d
            s2 += d * (x[r, j] - m) * rs
        s1 = block_sum(sh, s1) * inv_f
        s2 = block_sum(sh, s2) * inv_f
        for j in range(cuda.threadIdx.x, F, cuda.blockDim.x):
            dx[r, j] = rs * (dy[r, j] * gain[j] - s1 - (x[r, j] - m) * rs * s2)

    return fwd, bwd


def kernels(dtype):
    """(forward, backward) row kernels for dtype at the configured block size."""
    return _kernels(np.dtype(dtype), threads_per_block())


def ln_rows(x, gain, bias, eps, affine, y, mean, rstd, stream=0):
    """Launch the row kernel over x (N,F): y (N,F), mean (N,), rstd (N,) are written (device arrays)."""
    if x.shape[0]:
        kernels(x.dtype)[0][x.shape[0], threads_per_block(), stream](x, gain, bias, eps, affine, y, mean, rstd)


def layernorm_forward(x, gain, bias, eps, nchunks=1):
    """x (N,F), gain (F,), bias (F,) -> y (N,F), mean (N,), rstd (N,)  (device arrays)."""
    x, gain, bias = to_device(x), to_device(gain), to_device(bias)
    N, F = x.shape
    y = empty((N, F), x.dtype)
    mean = empty(N, x.dtype)
    rstd = empty(N, x.dtype)
    ln_rows(x, gain, bias, float(eps), True, y, mean, rstd)
    return y, mean, rstd


def layernorm_backward(dy, x, mean, rstd, gain, nchunks=1):
    """dy (N,F) -> dx (N,F), dgain (F,), dbias (F,)  (device arrays)."""
    dy, x, mean, rstd, gain = (to_device(a) for a in (dy, x, mean, rstd, gain))
    N, F = x.shape
    dx = empty((N, F), x.dtype)
    if N:
        kernels(x.dtype)[1][N, threads_per_block()](dy, x, mean, rstd, gain, dx)
    return dx, colsum_ln(dy, x, mean, rstd), colsum(dy)
