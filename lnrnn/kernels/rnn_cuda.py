"""Vanilla (tanh) RNN and LN-RNN over a whole sequence, forward and BPTT: CUDA twin of rnn.py.

    norm NONE: h_t = tanh(x_t Wx + h_{t-1} Wh + b)
    norm LN:   h_t = tanh(LN(x_t Wx + h_{t-1} Wh; g, b))     (Ba et al. 2016, eq. 4; joint normalization)
Same names, arguments, outputs and ``saved`` layout as the CPU twin; host or device arrays in,
device arrays out (``arrays_cuda``); ``nchunks`` is accepted and ignored. Same layout of work as
lstm_cuda.py: x Wx over all T*B rows once; then either one sequence kernel (one block per batch row
runs every step; the default when its shared arrays fit) or, per step, one GEMM and one fused row
kernel; weight gradients and the b/g reductions over all T*B rows after the loop.

saved (device arrays):
    y    (T,B,H)  h_t (also the output)
    ahat (T,B,H)  LN-normalized preactivation (norm LN; (0,0,0) otherwise)
    rstd (T,B)    its 1/std (norm LN; (0,0) otherwise)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda.arrays_cuda import (bounded, copy, empty, nbtype, seq_fits, seq_threads, threads_per_block, to_device,
                                       transpose, zeros)
from lnrnn.kernels.cuda.gemm_cuda import colsum, colsum_prod, matmul, projection_grads
from lnrnn.kernels.cuda.rows_cuda import block_sum, split_groups, split_matvec
from lnrnn.kernels.layernorm_cuda import row_stats
from lnrnn.kernels.codes import NORM_LN, NORM_NONE  # noqa: F401  (the same codes as the CPU twin)


# ------------------------------------------------------------------------------------------------
# One batch row at one step, forward and BPTT: device functions shared by the per-step kernels (the
# row in global memory) and the sequence kernels (the preactivation and dL/dh in shared memory).
# Every thread of the block calls them (they synchronize); threads stride over hidden units k.
# ------------------------------------------------------------------------------------------------
@cuda.jit(device=True)
def fwd_row(sh, a, xp, b, g, ln, e, one, inv_h, y, ahat, h_copy):
    """a (H,) = h_{t-1} Wh on entry, x_t Wx + h_{t-1} Wh after; xp (H,) = x_t Wx; b, g (H,); e: eps
    -> y (H,) = h_t, also written to h_copy (H,); with LN also ahat (H,) ((0,) without). Returns the
    LayerNorm's rstd (one without LN)."""
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    H = y.shape[0]
    for k in range(tid, H, n):
        a[k] += xp[k]
    r = one
    if ln:
        m, r = row_stats(sh, a, H, inv_h, e, one)
        for k in range(tid, H, n):
            ah = (a[k] - m) * r
            ahat[k] = ah
            h = math.tanh(g[k] * ah + b[k])
            y[k] = h
            h_copy[k] = h
    else:
        for k in range(tid, H, n):
            h = math.tanh(a[k] + b[k])
            y[k] = h
            h_copy[k] = h
    return r


@cuda.jit(device=True)
def bwd_row(sh, dy, dh, y, ahat, r, g, ln, one, inv_h, dz, da, dv):
    """dy, dh (H,) dL/dh_t from the output and from step t+1; y (H,); ahat (H,), r, g (H,) (LN only)
    -> dz (H,) dL/d(tanh argument); with LN da (H,) dL/d(x_t Wx + h_{t-1} Wh) (without LN that is dz,
    and da is not written); dL/d(x_t Wx + h_{t-1} Wh) also goes to dv (H,) (a shared row, or da)."""
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    H = y.shape[0]
    s1 = one - one
    s2 = one - one
    for k in range(tid, H, n):
        yk = y[k]
        d = (dy[k] + dh[k]) * (one - yk * yk)
        dz[k] = d
        dv[k] = d
        if ln:
            s1 += d * g[k]
            s2 += d * g[k] * ahat[k]
    if ln:
        s1 = block_sum(sh, s1) * inv_h
        s2 = block_sum(sh, s2) * inv_h
        for k in range(tid, H, n):
            v = r * (dv[k] * g[k] - s1 - ahat[k] * s2)
            da[k] = v
            dv[k] = v


@lru_cache(maxsize=None)
def _kernels(dtype, tpb):
    dt = nbtype(dtype)

    @bounded(tpb)
    def fwd_step(a, xp_t, b, g, ln, eps, y_t, ahat_t, rstd_t):
        """Block bb, batch row bb (fwd_row).
            a (B,H) = h_{t-1} Wh on entry, x_t Wx + h_{t-1} Wh after (scratch); xp_t (B,H); b, g (H,)
            -> y_t (B,H); with LN also ahat_t (B,H) and rstd_t (B,) (ahat_t is (B,0) without LN)."""
        sh = cuda.shared.array(tpb, dt)
        bb = cuda.blockIdx.x
        one = dt(1.0)
        r = fwd_row(sh, a[bb], xp_t[bb], b, g, ln, dt(eps), one, one / dt(a.shape[1]), y_t[bb], ahat_t[bb],
                    y_t[bb])
        if ln and cuda.threadIdx.x == 0:
            rstd_t[bb] = r

    @bounded(tpb)
    def bwd_step(dy_t, dh_next, y_t, ahat_t, rstd_t, g, ln, dz_t, da_t):
        """Block bb, batch row bb (bwd_row).
            dy_t, dh_next (B,H) dL/dh_t from the output and from step t+1; y_t (B,H);
            ahat_t (B,H), rstd_t (B,), g (H,) (LN only; ahat_t is (B,0) without LN)
            -> dz_t (B,H) dL/d(tanh argument); da_t (B,H) dL/d(x_t Wx + h_{t-1} Wh) (without LN da_t
               is dz_t itself)."""
        sh = cuda.shared.array(tpb, dt)
        bb = cuda.blockIdx.x
        one = dt(1.0)
        bwd_row(sh, dy_t[bb], dh_next[bb], y_t[bb], ahat_t[bb], rstd_t[bb] if ln else one, g, ln, one,
                one / dt(y_t.shape[1]), dz_t[bb], da_t[bb], da_t[bb])

    return fwd_step, bwd_step


@lru_cache(maxsize=None)
def _seq_kernels(dtype, tpb, H):
    """Sequence kernels: one block per batch row runs the whole time loop (as in lstm_cuda), compiled
    per (dtype, threads per block, H)."""
    dt = nbtype(dtype)
    NRED = split_groups(H, tpb) * H  # shared sizes must be compile-time constants
    matvec = split_matvec(H, H, tpb)   # both recurrent products: h Wh and dv Wh^T

    @bounded(tpb)
    def fwd_seq(xp, h0, Wh, b, g, ln, eps, y, ahat, rstd):
        """Block bb: batch row bb for t = 0..T-1 (fwd_row at every step). xp (T,B,H) x Wx, h0 (B,H),
        Wh (H,H), b, g (H,) -> y (T,B,H); with LN also ahat (T,B,H), rstd (T,B) (ahat (T,B,0)
        without LN). h_{t-1} and the preactivation live in shared memory."""
        sh = cuda.shared.array(tpb, dt)
        hs = cuda.shared.array(H, dt)
        a = cuda.shared.array(H, dt)
        red = cuda.shared.array(NRED, dt)
        T = xp.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        for k in range(tid, H, n):
            hs[k] = h0[bb, k]
        cuda.syncthreads()
        for t in range(T):
            matvec(hs, Wh, a, red, tid, n, zero)
            r = fwd_row(sh, a, xp[t, bb], b, g, ln, dt(eps), one, one / dt(H), y[t, bb], ahat[t, bb], hs)
            if ln and tid == 0:
                rstd[t, bb] = r
            cuda.syncthreads()

    @bounded(tpb)
    def bwd_seq(dy, y, ahat, rstd, g, WhT, ln, dZ, dA, dh0):
        """Block bb: BPTT of batch row bb for t = T-1..0 (bwd_row at every step). dy, y (T,B,H);
        ahat (T,B,H) ((T,B,0) without LN), rstd (T,B), g (H,) (LN only); WhT (H,H) = Wh^T
        -> dZ (T,B,H), dA (T,B,H) (LN only; without LN dA is dZ), dh0 (B,H)."""
        sh = cuda.shared.array(tpb, dt)
        dh = cuda.shared.array(H, dt)
        dv = cuda.shared.array(H, dt)
        red = cuda.shared.array(NRED, dt)
        T = dy.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        for k in range(tid, H, n):
            dh[k] = zero
        cuda.syncthreads()
        for t in range(T - 1, -1, -1):
            bwd_row(sh, dy[t, bb], dh, y[t, bb], ahat[t, bb], rstd[t, bb] if ln else one, g, ln, one, one / dt(H),
                    dZ[t, bb], dA[t, bb], dv)
            cuda.syncthreads()
            matvec(dv, WhT, dh, red, tid, n, zero)
            cuda.syncthreads()
        for k in range(tid, H, n):
            dh0[bb, k] = dh[k]

    return fwd_seq, bwd_seq


def _dummies(dtype, T, B):
    """Empty device arrays standing in for the LN buffers of a norm='none' cell: (0,) for rstd rows, and
    (B,0), (T,B,0) for ahat, whose rows the kernels take (the saved one stays (0,0,0))."""
    return empty(0, dtype), empty((B, 0), dtype), empty((T, B, 0), dtype)


def _seq_geometry(H, dtype):
    """(threads per block, whether the sequence kernels serve this H and dtype)."""
    tpb = seq_threads(H)
    return tpb, seq_fits(tpb + 2 * H + split_groups(H, tpb) * H, dtype)


def rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks=1):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b (H,), g (H,) -> y (T,B,H), hT (B,H), saved (device)."""
    x, h0, Wx, Wh, b, g = (to_device(a) for a in (x, h0, Wx, Wh, b, g))
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    ln = norm == NORM_LN
    tpb = threads_per_block()
    fwd_step = _kernels(np.dtype(dt), tpb)[0]
    xp = matmul(x.reshape(T * B, I), Wx).reshape(T, B, H)
    y = empty((T, B, H), dt)
    if ln:
        ahat = empty((T, B, H), dt)
        rstd = empty((T, B), dt)
    else:
        ahat = empty((0, 0, 0), dt)
        rstd = empty((0, 0), dt)
    d1, d2, d3 = _dummies(dt, T, B)
    stpb, seq = _seq_geometry(H, dt)
    if seq:
        _seq_kernels(np.dtype(dt), stpb, H)[0][B, stpb](xp, h0, Wh, b, g, ln, float(eps), y, ahat if ln else d3,
                                                        rstd)
    a = None if seq else empty((B, H), dt)  # per-step path: preactivation of the current step
    for t in range(0 if seq else T):  # the per-step path
        matmul(h0 if t == 0 else y[t - 1], Wh, out=a)
        fwd_step[B, tpb](a, xp[t], b, g, ln, float(eps), y[t], ahat[t] if ln else d2, rstd[t] if ln else d1)
    return y, copy(y[T - 1]), (y, ahat, rstd)


def rnn_infer(x, h0, Wx, Wh, b, g, norm, eps, nchunks=1):
    """The CPU twin's forward without BPTT's saved tuple: the same arguments -> y (T,B,H), hT (B,H)
    (device arrays); rnn_forward with its saved tuple dropped on return."""
    y, hT, _ = rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks)
    return y, hT


def rnn_backward(dy, saved, x, h0, Wx, Wh, g, norm, nchunks=1):
    """dy (T,B,H) -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H), db (H,), dg (H,)   (device arrays;
    dg is zeros without LN)."""
    dy, x, h0, Wx, Wh, g = (to_device(a) for a in (dy, x, h0, Wx, Wh, g))
    y, ahat, rstd = saved
    T, B, H = dy.shape
    I = x.shape[2]
    dt = dy.dtype
    ln = norm == NORM_LN
    tpb = threads_per_block()
    bwd_step = _kernels(np.dtype(dt), tpb)[1]
    dZ = empty((T, B, H), dt)               # dL/d(tanh argument): db (and dg) reduce over it
    dA = empty((T, B, H), dt) if ln else dZ  # dL/d(x Wx + h Wh)
    dh_next = zeros((B, H), dt)             # dL/dh_t from step t+1; ends as dh0
    d1, d2, d3 = _dummies(dt, T, B)
    stpb, seq = _seq_geometry(H, dt)
    if seq:
        _seq_kernels(np.dtype(dt), stpb, H)[1][B, stpb](dy, y, ahat if ln else d3, rstd, g, transpose(Wh), ln, dZ,
                                                        dA, dh_next)
    for t in range(-1 if seq else T - 1, -1, -1):  # the per-step path
        bwd_step[B, tpb](dy[t], dh_next, y[t], ahat[t] if ln else d2, rstd[t] if ln else d1, g, ln, dZ[t], dA[t])
        matmul(dA[t], Wh, out=dh_next, trans_b=True)
    dx, dWx, dWh = projection_grads(dA, dA, x, h0, y, Wx)
    return dx, dh_next, dWx, dWh, colsum(dZ), colsum_prod(dZ, ahat) if ln else zeros(H, dt)
