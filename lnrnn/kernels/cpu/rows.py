"""Passes over one row that the cell kernels' time loops share: copies, a row LayerNorm (statistics,
forward, backward), the float32 sigmoid, and a row's input gradients. The CUDA twin is rows_cuda.py.
"""
import numpy as np
from numba import njit

from lnrnn.config import JIT


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
    1e-7 and relative error ~1e-7 in the tails (tests/kernels/test_kernels.py). exp(r) goes to the second half
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
