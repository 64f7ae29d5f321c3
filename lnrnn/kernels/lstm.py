"""LSTM and LN-LSTM over a whole sequence, forward and backpropagation through time (CPU twin).

Equations, gate order [i|f|g|o] and shape letters: see ``lnrnn.kernels``. ``norm`` is NORM_NONE or
NORM_LN (the BN-LSTM couples the batch at every step and lives in bn_cells.py).

Layout of the work
    1. xp = x @ Wx over all T*B rows at once (one threaded GEMM), unless the input is narrow
       (I <= config.FOLD_MAX_I: pixel MNIST has I=1, strokes I=3): then each row's x Wx is computed
       inside the time loop, where a BLAS call would cost more than the I*G multiply-adds.
    2. Time loop, with the batch split into ``nchunks`` chunks run in parallel (one per thread):
       per step one GEMM h_{t-1} @ Wh for the chunk, then one fused pass per row: LN of the input
       projection (in place: xp holds xhat_x), LN of the recurrent product, gates, cell update, LN of
       the cell, output.
    3. Backward runs the same chunks in reverse time; per step one GEMM dHW_t @ Wh^T, and for a wide
       input two small GEMMs for dx_t and the step's share of dWx (a narrow input does them in the row
       loop). The gate and normalization parameter gradients are summed into per-chunk partials
       inside the loop; dWh is one GEMM over all T*B rows after it.

Threads and compilation: a thread's whole chunk is one compiled function (``_forward_rows``,
``_backward_rows``, nogil), and ``lstm_forward``/``lstm_backward`` are Python: they allocate, run the
chunks on threads (``common.run_chunks``) and call the threaded GEMMs. Numba compiles a prange body
three times over; this way each chunk function is compiled once (see run_chunks).

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
from numba import njit

from lnrnn.config import FOLD_MAX_I, ROWS
from lnrnn.kernels.blas import gemm, rec_mul, rec_pack
from lnrnn.kernels.common import (clamp_chunks, input_row_grads, ln_row_backward, ln_row_forward, matmul,
                                  recurrent_weight_grad, run_chunks, sigmoid_row)

NORM_NONE = 0
NORM_LN = 1


def lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks):
    """x (T,B,I), h0 (B,H), c0 (B,H), Wx (I,G), Wh (H,G), b (G,), gx/bx/gh/bh (G,), gc/bc (H,)
    -> y (T,B,H), hT (B,H), cT (B,H), saved."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    ln = norm == NORM_LN
    fold = 0 < I <= FOLD_MAX_I
    dt = x.dtype
    if fold:
        xp = np.empty((T, B, G), dtype=dt)  # filled row by row inside the time loop
    else:
        xp = matmul(x.reshape(T * B, I), Wx, nchunks).reshape(T, B, G)
    if ln:
        hhat, chat, rstd = np.empty((T, B, G), dt), np.empty((T, B, H), dt), np.empty((3, T, B), dt)
    else:
        hhat, chat, rstd = np.empty((0, 0, 0), dt), np.empty((0, 0, 0), dt), np.empty((3, 0, 0), dt)
    gates = np.empty((T, B, G), dtype=dt)
    c = np.empty((T, B, H), dtype=dt)
    tc = np.empty((T, B, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    run_chunks(_forward_rows, B, nchunks, x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, ln, fold, dt.type(eps),
               gates, c, tc, y, xp, hhat, chat, rstd)
    saved = (gates, c, tc, y, xp, hhat, chat, rstd)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


@njit(**ROWS)
def _forward_rows(q, lo, hi, x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, ln, fold, eps,
                  gates, c, tc, y, xp, hhat, chat, rstd):
    """The whole forward time loop for batch rows [lo, hi); writes their rows of the saved arrays."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    one = x.dtype.type(1.0)
    two = x.dtype.type(2.0)
    hw = np.empty((hi - lo, G), dtype=x.dtype)  # (Bc,G) recurrent product of this chunk
    kb = np.empty(2 * G, dtype=np.int32)        # scratch of sigmoid_row
    P = rec_pack(Wh, hi - lo)                   # Wh in the BLAS's own layout (MKL), once per sequence
    for t in range(T):
        if t == 0:
            rec_mul(h0[lo:hi], Wh, P, hw)
        else:
            rec_mul(y[t - 1, lo:hi], Wh, P, hw)
        for r in range(hi - lo):
            bb = lo + r
            xr = xp[t, bb]  # (G,) x_t Wx, normalized in place for LN
            if fold:
                for j in range(G):
                    xr[j] = x[t, bb, 0] * Wx[0, j]
                for i in range(1, I):
                    for j in range(G):
                        xr[j] += x[t, bb, i] * Wx[i, j]
            a = gates[t, bb]  # (G,) preactivation, then activated in place
            if ln:
                m, s = ln_row_forward(xr, xr, eps)
                rstd[0, t, bb] = s
                m, s = ln_row_forward(hhat[t, bb], hw[r], eps)
                rstd[1, t, bb] = s
                for j in range(G):
                    a[j] = gh[j] * hhat[t, bb, j] + bh[j] + gx[j] * xr[j] + bx[j] + b[j]
            else:
                for j in range(G):
                    a[j] = hw[r, j] + xr[j] + b[j]
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


def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nchunks):
    """dy (T,B,H) = dL/dh_t for every t -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G),
    db (G,), dgx (G,), dbx (G,), dgh (G,), dbh (G,), dgc (H,), dbc (H,). Gradients of parameters
    that the norm does not use are returned as zeros."""
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    ln = norm == NORM_LN
    fold = 0 < I <= FOLD_MAX_I
    dt = dy.dtype
    dHW = np.empty((T, B, G), dtype=dt)  # dL/d(h_{t-1} Wh), for the dWh GEMM after the loop
    dx = np.empty((T, B, I), dtype=dt)
    dh0 = np.empty((B, H), dtype=dt)
    dc0 = np.empty((B, H), dtype=dt)
    WhT = np.ascontiguousarray(Wh.T)  # (G,H)
    WxT = np.ascontiguousarray(Wx.T)  # (G,I)
    nch = clamp_chunks(nchunks, B)
    pG = np.zeros((3, nch, G), dtype=dt)   # per-chunk partial sums of db, dgx, dgh
    pH = np.zeros((2, nch, H), dtype=dt)   # ... of dgc, dbc
    pWx = np.zeros((nch, I, G), dtype=dt)  # ... of dWx
    run_chunks(_backward_rows, B, nch, dy, saved, x, c0, Wx, WxT, WhT, gx, gh, gc, ln, fold, dHW, dx, dh0, dc0,
               pG, pH, pWx)
    dWx = pWx.sum(axis=0)
    dWh = recurrent_weight_grad(dHW, h0, saved[3], nchunks)
    db, dgx, dgh = pG.sum(axis=1)
    dgc, dbc = pH.sum(axis=1)
    if not ln:  # parameters the plain LSTM does not use
        zG, zH = np.zeros(G, dtype=dt), np.zeros(H, dtype=dt)
        return dx, dh0, dc0, dWx, dWh, db, zG, zG.copy(), zG.copy(), zG.copy(), zH, zH.copy()
    return dx, dh0, dc0, dWx, dWh, db, dgx, db.copy(), dgh, db.copy(), dgc, dbc


@njit(**ROWS)
def _backward_rows(q, lo, hi, dy, saved, x, c0, Wx, WxT, WhT, gx, gh, gc, ln, fold, dHW, dx, dh0, dc0,
                   pG, pH, pWx):
    """BPTT for batch rows [lo, hi) (chunk q): fills their rows of dHW, dx, dh0, dc0, and adds this
    chunk's parameter gradients into its partials pG[:, q] = db, dgx, dgh (G,), pH[:, q] = dgc, dbc
    (H,) and pWx[q] = dWx (I,G).

    dL/d(x_t Wx) is never stored for the whole sequence: a narrow input (fold) takes dx and dWx row
    by row; a wide one takes them as two small GEMMs per step on this chunk's rows (same FLOPs as one
    GEMM over all T*B rows, without a (T,B,G) buffer: 15 MB of the S2 step's 96 MB peak)."""
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    one = dy.dtype.type(1.0)
    pdb, pgx, pgh, pgc, pbc, pWx = pG[0, q], pG[1, q], pG[2, q], pH[0, q], pH[1, q], pWx[q]
    dxs = np.empty((hi - lo, G), dtype=dy.dtype)  # dL/d(x_t Wx) of these rows (LN; else it equals dHW's)
    tW = np.empty((I, G), dtype=dy.dtype)         # x_t^T dL/d(x_t Wx), one step (wide input)
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
                    pgc[k] += dcn[k] * chat[t, bb, k]
                    pbc[k] += dcn[k]
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
                pdb[j] += da[j]
            dxr = dxs[r] if ln else dHW[t, bb]  # dL/d(x_t Wx) of this row
            if ln:
                for j in range(G):
                    pgx[j] += da[j] * xp[t, bb, j]
                    pgh[j] += da[j] * hhat[t, bb, j]
                    dxh[j] = da[j] * gh[j]
                ln_row_backward(dHW[t, bb], dxh, hhat[t, bb], rstd[1, t, bb])
                for j in range(G):
                    dxh[j] = da[j] * gx[j]
                ln_row_backward(dxr, dxh, xp[t, bb], rstd[0, t, bb])
            else:
                for j in range(G):
                    dxr[j] = da[j]
            if fold:  # narrow input: dx = dxr Wx^T and dWx += x^T dxr, here while the row is in cache
                input_row_grads(dx[t, bb], pWx, dxr, x[t, bb], Wx)
        if not fold:
            dX = dxs if ln else dHW[t, lo:hi]
            gemm(dX, WxT, dx[t, lo:hi], False)  # dx_t = dL/d(x_t Wx) Wx^T
            gemm(x[t, lo:hi], dX, tW, True)     # x_t^T dL/d(x_t Wx)
            for i in range(I):
                for j in range(G):
                    pWx[i, j] += tW[i, j]
        rec_mul(dHW[t, lo:hi], WhT, PT, dh_next)
    dh0[lo:hi] = dh_next
    dc0[lo:hi] = dc_next
