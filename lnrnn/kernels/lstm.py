"""LSTM and LN-LSTM over a whole sequence, forward and backpropagation through time (CPU twin).

Equations, gate order [i|f|g|o] and shape letters: see ``lnrnn.kernels``. ``norm`` is NORM_NONE or
NORM_LN (the BN-LSTM couples the batch at every step and lives in bn_cells.py).

Layout of the work
    1. xp = x @ Wx over all T*B rows at once (one threaded GEMM); for LN, each row is normalized in
       place, so xp holds xhat_x.
    2. Time loop, with the batch split into ``nchunks`` chunks run in parallel (one per thread):
       per step one GEMM h_{t-1} @ Wh for the chunk, then one fused pass per row: LN of the
       recurrent product, gates, cell update, LN of the cell, output.
    3. Backward runs the same chunks in reverse time; per step one GEMM dHW_t @ Wh^T. The gate and
       normalization parameter gradients are summed into per-chunk partials inside the loop;
       dWh and dWx are each one GEMM over all T*B rows after it.

saved (the tuple forward returns and backward takes back):
    gates (T,B,G)  activated gates [i|f|g|o]
    c     (T,B,H)  cell state c_t (the carried, unnormalized one)
    tc    (T,B,H)  tanh of the cell output, tanh(c_t) or tanh(LN(c_t))
    y     (T,B,H)  hidden state h_t (also the layer output)
    xp    (T,B,G)  input projection x Wx; LN-normalized (xhat_x) when norm is LN
    hhat  (T,B,G)  LN-normalized h_{t-1} Wh     (norm LN; shape (0,0,0) otherwise)
    chat  (T,B,H)  LN-normalized c_t            (norm LN; shape (0,0,0) otherwise)
    rstd  (3,T,B)  1/std of the x, h and c LayerNorms (norm LN; shape (3,0,0) otherwise)
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import PJIT
from lnrnn.kernels.blas import rec_mul, rec_pack
from lnrnn.kernels.common import (chunk_bounds, clamp_chunks, ln_row_backward, ln_row_forward,
                                  matmul, projection_grads, sigmoid_row)

NORM_NONE = 0
NORM_LN = 1


@njit(**PJIT)
def lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks):
    """x (T,B,I), h0 (B,H), c0 (B,H), Wx (I,G), Wh (H,G), b (G,), gx/bx/gh/bh (G,), gc/bc (H,)
    -> y (T,B,H), hT (B,H), cT (B,H), saved."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    one = x.dtype.type(1.0)
    two = x.dtype.type(2.0)
    ln = norm == NORM_LN
    xp = matmul(x.reshape(T * B, I), Wx, nchunks).reshape(T, B, G)
    if ln:
        hhat = np.empty((T, B, G), dtype=x.dtype)
        chat = np.empty((T, B, H), dtype=x.dtype)
        rstd = np.empty((3, T, B), dtype=x.dtype)
        nrow = clamp_chunks(nchunks, T * B)
        for q in prange(nrow):
            lo, hi = chunk_bounds(T * B, nrow, q)
            for r in range(lo, hi):
                t, bb = r // B, r % B
                m, s = ln_row_forward(xp[t, bb], xp[t, bb], eps)  # in place: xp becomes xhat_x
                rstd[0, t, bb] = s
    else:
        hhat = np.empty((0, 0, 0), dtype=x.dtype)
        chat = np.empty((0, 0, 0), dtype=x.dtype)
        rstd = np.empty((3, 0, 0), dtype=x.dtype)
    gates = np.empty((T, B, G), dtype=x.dtype)
    c = np.empty((T, B, H), dtype=x.dtype)
    tc = np.empty((T, B, H), dtype=x.dtype)
    y = np.empty((T, B, H), dtype=x.dtype)

    nch = clamp_chunks(nchunks, B)
    for q in prange(nch):
        lo, hi = chunk_bounds(B, nch, q)
        hw = np.empty((hi - lo, G), dtype=x.dtype)  # (Bc,G) recurrent product of this chunk
        kb = np.empty(G, dtype=np.int32)            # scratch of sigmoid_row
        P = rec_pack(Wh, hi - lo)                   # Wh in the BLAS's own layout (MKL), once per sequence
        for t in range(T):
            if t == 0:
                rec_mul(h0[lo:hi], Wh, P, hw)
            else:
                rec_mul(y[t - 1, lo:hi], Wh, P, hw)
            for r in range(hi - lo):
                bb = lo + r
                a = gates[t, bb]  # (G,) preactivation, then activated in place
                if ln:
                    m, s = ln_row_forward(hhat[t, bb], hw[r], eps)
                    rstd[1, t, bb] = s
                    for j in range(G):
                        a[j] = gh[j] * hhat[t, bb, j] + bh[j] + gx[j] * xp[t, bb, j] + bx[j] + b[j]
                else:
                    for j in range(G):
                        a[j] = hw[r, j] + xp[t, bb, j] + b[j]
                # one vectorised sigmoid pass over the whole row; the g block as tanh(z) = 2 sigmoid(2z) - 1
                for j in range(2 * H, 3 * H):
                    a[j] *= two
                sigmoid_row(a, a, kb)
                for j in range(2 * H, 3 * H):
                    a[j] = two * a[j] - one
                cp = c0[bb] if t == 0 else c[t - 1, bb]
                for k in range(H):
                    c[t, bb, k] = a[H + k] * cp[k] + a[k] * a[2 * H + k]
                if ln:
                    m, s = ln_row_forward(chat[t, bb], c[t, bb], eps)
                    rstd[2, t, bb] = s
                    for k in range(H):
                        tc[t, bb, k] = two * (gc[k] * chat[t, bb, k] + bc[k])
                else:
                    for k in range(H):
                        tc[t, bb, k] = two * c[t, bb, k]
                sigmoid_row(tc[t, bb], tc[t, bb], kb)
                for k in range(H):
                    tc[t, bb, k] = two * tc[t, bb, k] - one
                    y[t, bb, k] = a[3 * H + k] * tc[t, bb, k]
    saved = (gates, c, tc, y, xp, hhat, chat, rstd)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


@njit(**PJIT)
def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nchunks):
    """dy (T,B,H) = dL/dh_t for every t -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G),
    db (G,), dgx (G,), dbx (G,), dgh (G,), dbh (G,), dgc (H,), dbc (H,). Gradients of parameters
    that the norm does not use are returned as zeros."""
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    T, B, H = dy.shape
    G = 4 * H
    one = dy.dtype.type(1.0)
    ln = norm == NORM_LN
    dXW = np.empty((T, B, G), dtype=dy.dtype)  # dL/d(x Wx), per row
    if ln:
        dHW = np.empty((T, B, G), dtype=dy.dtype)  # dL/d(h_{t-1} Wh)
    else:
        dHW = dXW  # without normalization both products see the same gradient
    dh0 = np.empty((B, H), dtype=dy.dtype)
    dc0 = np.empty((B, H), dtype=dy.dtype)
    WhT = np.ascontiguousarray(Wh.T)  # (G,H)

    nch = clamp_chunks(nchunks, B)
    pdb = np.zeros((nch, G), dtype=dy.dtype)  # per-chunk partial sums of parameter gradients
    pgx = np.zeros((nch, G), dtype=dy.dtype)
    pgh = np.zeros((nch, G), dtype=dy.dtype)
    pgc = np.zeros((nch, H), dtype=dy.dtype)
    pbc = np.zeros((nch, H), dtype=dy.dtype)
    for q in prange(nch):
        lo, hi = chunk_bounds(B, nch, q)
        dh_next = np.zeros((hi - lo, H), dtype=dy.dtype)  # dL/dh_t from step t+1
        dc_next = np.zeros((hi - lo, H), dtype=dy.dtype)  # dL/dc_t from step t+1
        PT = rec_pack(WhT, hi - lo)                        # Wh^T packed once (MKL)
        da = np.empty(G, dtype=dy.dtype)    # dL/d(preactivation), one row
        dxh = np.empty(G, dtype=dy.dtype)   # dL/d(xhat) for a LayerNorm backward
        dcn = np.empty(H, dtype=dy.dtype)   # dL/d(cell output before tanh), then dL/dc_t
        dch = np.empty(H, dtype=dy.dtype)
        for t in range(T - 1, -1, -1):
            for r in range(hi - lo):
                bb = lo + r
                a = gates[t, bb]
                for k in range(H):
                    dh = dy[t, bb, k] + dh_next[r, k]
                    o = a[3 * H + k]
                    tk = tc[t, bb, k]
                    da[3 * H + k] = dh * tk * o * (one - o)
                    dcn[k] = dh * o * (one - tk * tk)
                if ln:
                    for k in range(H):
                        pgc[q, k] += dcn[k] * chat[t, bb, k]
                        pbc[q, k] += dcn[k]
                        dch[k] = dcn[k] * gc[k]
                    ln_row_backward(dcn, dch, chat[t, bb], rstd[2, t, bb])
                cp = c0[bb] if t == 0 else c[t - 1, bb]
                for k in range(H):
                    dc = dcn[k] + dc_next[r, k]
                    i = a[k]
                    f = a[H + k]
                    g = a[2 * H + k]
                    da[k] = dc * g * i * (one - i)
                    da[H + k] = dc * cp[k] * f * (one - f)
                    da[2 * H + k] = dc * i * (one - g * g)
                    dc_next[r, k] = dc * f
                for j in range(G):
                    pdb[q, j] += da[j]
                if ln:
                    for j in range(G):
                        pgx[q, j] += da[j] * xp[t, bb, j]
                        pgh[q, j] += da[j] * hhat[t, bb, j]
                        dxh[j] = da[j] * gh[j]
                    ln_row_backward(dHW[t, bb], dxh, hhat[t, bb], rstd[1, t, bb])
                    for j in range(G):
                        dxh[j] = da[j] * gx[j]
                    ln_row_backward(dXW[t, bb], dxh, xp[t, bb], rstd[0, t, bb])
                else:
                    for j in range(G):
                        dXW[t, bb, j] = da[j]
            rec_mul(dHW[t, lo:hi], WhT, PT, dh_next)
        dh0[lo:hi] = dh_next
        dc0[lo:hi] = dc_next

    dx, dWx, dWh = projection_grads(dXW, dHW, x, h0, y, Wx, nchunks)
    db = pdb.sum(axis=0)
    if ln:
        return dx, dh0, dc0, dWx, dWh, db, pgx.sum(axis=0), db.copy(), pgh.sum(axis=0), db.copy(), \
            pgc.sum(axis=0), pbc.sum(axis=0)
    zG = np.zeros(G, dtype=dy.dtype)
    zH = np.zeros(H, dtype=dy.dtype)
    return dx, dh0, dc0, dWx, dWh, db, zG, zG.copy(), zG.copy(), zG.copy(), zH, zH.copy()
