"""LayerNorm over the last axis: CPU twin (the CUDA twin lives in layernorm_cuda.py).

    x (N,F) -> y (N,F) = gain * (x - mean) * rstd + bias,   mean, rstd: (N,)
    rstd = 1 / sqrt(var + eps), var biased. Forward saves mean and rstd; backward recomputes
    xhat from x, mean and rstd (llm.c's choice: no (N,F) buffer kept for it).
Rows are split over threads (``prange`` over row chunks).
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import PJIT
from lnrnn.kernels.cpu.rows import ln_row_backward, ln_row_forward
from lnrnn.kernels.cpu.threads import chunk_bounds, clamp_chunks


@njit(**PJIT)
def layernorm_forward(x, gain, bias, eps, nchunks):
    """x (N,F), gain (F,), bias (F,) -> y (N,F), mean (N,), rstd (N,)."""
    N, F = x.shape
    y = np.empty_like(x)
    mean = np.empty(N, dtype=x.dtype)
    rstd = np.empty(N, dtype=x.dtype)
    e = x.dtype.type(eps)  # a Python float is float64 and would carry float32 rows into float64
    nch = clamp_chunks(nchunks, N)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        for r in range(lo, hi):
            mean[r], rstd[r] = ln_row_forward(y[r], x[r], e)  # y[r] holds xhat for now
            for j in range(F):
                y[r, j] = y[r, j] * gain[j] + bias[j]
    return y, mean, rstd


@njit(**PJIT)
def layernorm_backward(dy, x, mean, rstd, gain, nchunks):
    """dy (N,F) -> dx (N,F), dgain (F,), dbias (F,). Per-thread partial sums for dgain/dbias."""
    N, F = x.shape
    dx = np.empty_like(x)
    nch = clamp_chunks(nchunks, N)
    pg = np.zeros((nch, F), dtype=x.dtype)
    pb = np.zeros((nch, F), dtype=x.dtype)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        xhat = np.empty(F, dtype=x.dtype)
        dxhat = np.empty(F, dtype=x.dtype)
        for r in range(lo, hi):
            for j in range(F):
                xhat[j] = (x[r, j] - mean[r]) * rstd[r]
                dxhat[j] = dy[r, j] * gain[j]
                pg[k, j] += dy[r, j] * xhat[j]
                pb[k, j] += dy[r, j]
            ln_row_backward(dx[r], dxhat, xhat, rstd[r])
    return dx, pg.sum(axis=0), pb.sum(axis=0)
