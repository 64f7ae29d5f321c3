"""Small compiled building blocks shared by the kernels: threaded GEMMs over row chunks,
column reductions with per-thread partials, row LayerNorm, activations.

Every GEMM here splits the rows of the big operand into one chunk per Numba thread and calls
single-threaded BLAS (``np.dot``) on each chunk; reductions over rows write per-thread partial
sums and add them afterwards (no shared ``+=`` inside ``prange``).
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import JIT, PJIT


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
            np.dot(A[lo:hi], W, out[lo:hi])
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
            np.dot(A[lo:hi].T, D[lo:hi], part[k])
    out = part[0].copy()
    for k in range(1, nch):
        out += part[k]
    return out


@njit(**PJIT)
def colsum(D, nchunks):
    """Sum over rows: D (N,M) -> (M,)."""
    N, M = D.shape
    nch = clamp_chunks(nchunks, N)
    part = np.zeros((nch, M), dtype=D.dtype)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        for r in range(lo, hi):
            for j in range(M):
                part[k, j] += D[r, j]
    return part.sum(axis=0)


@njit(**PJIT)
def colsum_prod(D, X, nchunks):
    """Sum over rows of the elementwise product: D (N,M), X (N,M) -> (M,) (gain gradients)."""
    N, M = D.shape
    nch = clamp_chunks(nchunks, N)
    part = np.zeros((nch, M), dtype=D.dtype)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        for r in range(lo, hi):
            for j in range(M):
                part[k, j] += D[r, j] * X[r, j]
    return part.sum(axis=0)


@njit(**JIT)
def sigmoid(z, one):
    """one: the constant 1 in the working dtype (keeps float32 arithmetic in float32)."""
    return one / (one + np.exp(-z))


@njit(**JIT)
def tanh(z, one):
    """tanh(z) = 2 sigmoid(2z) - 1. libm's tanhf cost twice its expf here (9.4 vs 4.7 ns an element,
    float32); the absolute error stays at rounding level (about 6e-8 in float32, 1e-16 in float64)."""
    two = one + one
    return two * sigmoid(two * z, one) - one


@njit(**JIT)
def ln_row_forward(xhat, x, eps):
    """Normalize one row x (F,) into xhat (F,); returns (mean, rstd). Biased variance."""
    F = x.shape[0]
    zero = x.dtype.type(0.0)
    m = zero
    for j in range(F):
        m += x[j]
    m /= F
    v = zero
    for j in range(F):
        d = x[j] - m
        v += d * d
    v /= F
    rstd = x.dtype.type(1.0) / np.sqrt(v + eps)
    for j in range(F):
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
    s1 /= F
    s2 /= F
    for j in range(F):
        dx[j] = rstd * (dxhat[j] - s1 - xhat[j] * s2)
