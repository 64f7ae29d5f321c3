"""Vanilla (tanh) RNN and LN-RNN over a whole sequence, forward and BPTT (CPU twin).

    norm NONE: h_t = tanh(x_t Wx + h_{t-1} Wh + b)
    norm LN:   h_t = tanh(LN(x_t Wx + h_{t-1} Wh; g, b))     (Ba et al. 2016, eq. 4; joint normalization)
The BN-RNN lives in bn_cells.py. Same layout of work as lstm.py: x Wx over all T*B rows once, the
batch split into chunks (one per thread) for the time loop, weight gradients as one GEMM each.

saved:
    y    (T,B,H)  h_t (also the output)
    ahat (T,B,H)  LN-normalized preactivation (norm LN; (0,0,0) otherwise)
    rstd (T,B)    its 1/std (norm LN; (0,0) otherwise)
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import PJIT
from lnrnn.kernels.common import (chunk_bounds, clamp_chunks, ln_row_backward, ln_row_forward, matmul,
                                  projection_grads, sigmoid_row)
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE  # noqa: F401  (re-exported: same codes for every cell)


@njit(**PJIT)
def rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b (H,), g (H,) -> y (T,B,H), hT (B,H), saved."""
    T, B, I = x.shape
    H = h0.shape[1]
    one = x.dtype.type(1.0)
    two = x.dtype.type(2.0)
    ln = norm == NORM_LN
    xp = matmul(x.reshape(T * B, I), Wx, nchunks).reshape(T, B, H)
    y = np.empty((T, B, H), dtype=x.dtype)
    if ln:
        ahat = np.empty((T, B, H), dtype=x.dtype)
        rstd = np.empty((T, B), dtype=x.dtype)
    else:
        ahat = np.empty((0, 0, 0), dtype=x.dtype)
        rstd = np.empty((0, 0), dtype=x.dtype)
    nch = clamp_chunks(nchunks, B)
    for q in prange(nch):
        lo, hi = chunk_bounds(B, nch, q)
        a = np.empty((hi - lo, H), dtype=x.dtype)  # (Bc,H) preactivation of this chunk
        kb = np.empty(H, dtype=np.int32)           # scratch of sigmoid_row
        for t in range(T):
            if t == 0:
                np.dot(h0[lo:hi], Wh, a)
            else:
                np.dot(y[t - 1, lo:hi], Wh, a)
            for r in range(hi - lo):
                bb = lo + r
                for k in range(H):
                    a[r, k] += xp[t, bb, k]
                if ln:
                    m, s = ln_row_forward(ahat[t, bb], a[r], eps)
                    rstd[t, bb] = s
                    for k in range(H):
                        y[t, bb, k] = two * (g[k] * ahat[t, bb, k] + b[k])
                else:
                    for k in range(H):
                        y[t, bb, k] = two * (a[r, k] + b[k])
                sigmoid_row(y[t, bb], y[t, bb], kb)  # tanh(z) = 2 sigmoid(2z) - 1, vectorised
                for k in range(H):
                    y[t, bb, k] = two * y[t, bb, k] - one
    return y, y[T - 1].copy(), (y, ahat, rstd)


@njit(**PJIT)
def rnn_backward(dy, saved, x, h0, Wx, Wh, g, norm, nchunks):
    """dy (T,B,H) -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H), db (H,), dg (H,)."""
    y, ahat, rstd = saved
    T, B, H = dy.shape
    one = dy.dtype.type(1.0)
    ln = norm == NORM_LN
    dA = np.empty((T, B, H), dtype=dy.dtype)  # dL/d(x Wx + h Wh), per row
    dh0 = np.empty((B, H), dtype=dy.dtype)
    WhT = np.ascontiguousarray(Wh.T)
    nch = clamp_chunks(nchunks, B)
    pdb = np.zeros((nch, H), dtype=dy.dtype)
    pdg = np.zeros((nch, H), dtype=dy.dtype)
    for q in prange(nch):
        lo, hi = chunk_bounds(B, nch, q)
        dh_next = np.zeros((hi - lo, H), dtype=dy.dtype)
        dz = np.empty(H, dtype=dy.dtype)
        for t in range(T - 1, -1, -1):
            for r in range(hi - lo):
                bb = lo + r
                for k in range(H):
                    yk = y[t, bb, k]
                    dz[k] = (dy[t, bb, k] + dh_next[r, k]) * (one - yk * yk)
                    pdb[q, k] += dz[k]
                if ln:
                    for k in range(H):
                        pdg[q, k] += dz[k] * ahat[t, bb, k]
                        dz[k] *= g[k]
                    ln_row_backward(dA[t, bb], dz, ahat[t, bb], rstd[t, bb])
                else:
                    for k in range(H):
                        dA[t, bb, k] = dz[k]
            np.dot(dA[t, lo:hi], WhT, dh_next)
        dh0[lo:hi] = dh_next
    dx, dWx, dWh = projection_grads(dA, dA, x, h0, y, Wx, nchunks)
    return dx, dh0, dWx, dWh, pdb.sum(axis=0), pdg.sum(axis=0)
