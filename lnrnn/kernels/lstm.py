"""LSTM and LN-LSTM over a whole sequence, forward and backpropagation through time (CPU twin).

Equations, gate order [i|f|g|o] and shape letters: see ``lnrnn.kernels``. ``norm`` is NORM_NONE or
NORM_LN (the BN-LSTM couples the batch at every step and lives in bn_lstm.py).

Layout of the work
    1. xp = x @ Wx over all T*B rows at once (one threaded GEMM), unless the input is narrow
       (I <= config.FOLD_MAX_I: pixel MNIST has I=1, strokes I=3): then each row's x Wx is computed
       inside the time loop, where a BLAS call would cost more than the I*G multiply-adds.
    2. Time loop, with the batch split into ``nchunks`` chunks run in parallel (one per thread):
       per step one GEMM h_{t-1} @ Wh for the chunk, then per row: the statistics of the two G-wide
       LayerNorms, one pass that writes xhat_x, hhat and the preactivation, one sigmoid pass, the
       cell update, LN of the cell with tanh, output.
    3. Backward runs the same chunks in reverse time; per step one GEMM dHW_t @ Wh^T, and for a wide
       input two small GEMMs for dx_t and the step's share of dWx (a narrow input does them in the row
       loop). Per row, both G-wide LayerNorm backwards take two passes together: one summing the
       parameter gradients and the four row sums they need, one writing dL/d(h Wh) and dL/d(x Wx).
       The parameter gradients are per-chunk partials; dWh is one GEMM over all T*B rows after the loop.

Threads and compilation: a thread's whole chunk is one compiled function (``_forward_rows``,
``_backward_rows``, nogil), and ``lstm_forward``/``lstm_backward`` are Python: they allocate, run the
chunks on threads (``common.run_chunks``) and call the threaded GEMMs. Numba compiles a prange body
three times over; this way each chunk function is compiled once (see run_chunks).

Graves's gate clip (``clip`` of lstm_backward; Graves 2013, sec. 4): at every step of BPTT the
derivative of the loss with respect to the gate preactivations, dL/da (G,) per row, is clipped
element-wise to [-clip, clip] before anything reads it: the bias gradient, the two LayerNorm
backwards, dL/d(h_{t-1} Wh) (so dh_{t-1} and dWh) and dL/d(x_t Wx) (so dx and dWx). The carried
dL/dc_{t-1} is not clipped. 0 or inf is off, and off is the unclipped arithmetic bit for bit (the
clip pass sits behind one test per row). A clipped gradient is not the gradient of any loss, so it
cannot be checked by finite differences: reference.lstm_backward with the same clip is its spec.

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
from lnrnn.kernels.codes import NORM_LN, NORM_NONE, clip_bound  # noqa: F401  (re-exported: one set of codes for every cell)
from lnrnn.kernels.common import (clamp_chunks, input_row_grads, ln_row_stats, matmul, recurrent_weight_grad,
                                  run_chunks, sigmoid_row)


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
    saved = (gates, c, tc, y, xp, hhat, chat, rstd)
    run_chunks(_forward_rows, B, nchunks, x, h0, c0, Wx, Wh, (b, gx, bx, gh, bh, gc, bc), ln, fold, dt.type(eps),
               saved)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


@njit(**ROWS)
def _forward_rows(q, lo, hi, x, h0, c0, Wx, Wh, p, ln, fold, eps, saved):
    """The whole forward time loop for batch rows [lo, hi); writes their rows of the saved arrays.
    p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,); saved: the tuple forward returns (written).

    With LN, a row's two G-wide LayerNorms and the gate preactivation are one pass after the two
    statistics passes: xhat_x, hhat and gx xhat_x + gh hhat + (b + bx + bh) are written together."""
    b, gx, bx, gh, bh, gc, bc = p
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    one = x.dtype.type(1.0)
    two = x.dtype.type(2.0)
    hw = np.empty((hi - lo, G), dtype=x.dtype)  # (Bc,G) recurrent product of this chunk
    xs = np.empty(G, dtype=x.dtype)             # x_t Wx of one row before its LayerNorm
    kb = np.empty(2 * G, dtype=np.int32)        # scratch of sigmoid_row
    bs = b.copy()                               # every bias the preactivation adds
    if ln:
        for j in range(G):
            bs[j] += bx[j] + bh[j]
    P = rec_pack(Wh, hi - lo)                   # Wh in the BLAS's own layout (MKL), once per sequence
    for t in range(T):
        if t == 0:
            rec_mul(h0[lo:hi], Wh, P, hw)
        else:
            rec_mul(y[t - 1, lo:hi], Wh, P, hw)
        for r in range(hi - lo):
            bb = lo + r
            xr = xp[t, bb]    # (G,) saved: x_t Wx, or xhat_x for LN
            a = gates[t, bb]  # (G,) preactivation, then activated in place
            hr = hw[r]
            if fold:  # a narrow input's x_t Wx, here instead of a GEMM
                xf = xs if ln else xr
                for j in range(G):
                    xf[j] = x[t, bb, 0] * Wx[0, j]
                for i in range(1, I):
                    for j in range(G):
                        xf[j] += x[t, bb, i] * Wx[i, j]
            elif ln:  # a copy, so the normalized row is not written over its source (see ln_row_forward)
                for j in range(G):
                    xs[j] = xr[j]
            if ln:
                mx, sx = ln_row_stats(xs, eps)
                mh, sh = ln_row_stats(hr, eps)
                rstd[0, t, bb] = sx
                rstd[1, t, bb] = sh
                hh = hhat[t, bb]
                for j in range(G):
                    u = (xs[j] - mx) * sx
                    v = (hr[j] - mh) * sh
                    xr[j] = u
                    hh[j] = v
                    a[j] = gx[j] * u + gh[j] * v + bs[j]
            else:
                for j in range(G):
                    a[j] = hr[j] + xr[j] + bs[j]
            # one vectorised sigmoid pass over the whole row; the g block as tanh(z) = 2 sigmoid(2z) - 1
            ai, af, ag, ao = a[:H], a[H:2 * H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks
            for j in range(H):
                ag[j] *= two
            sigmoid_row(a, a, kb)
            for j in range(H):
                ag[j] = two * ag[j] - one
            cp = c0[bb] if t == 0 else c[t - 1, bb]
            ct = c[t, bb]
            tct = tc[t, bb]
            for k in range(H):
                ct[k] = af[k] * cp[k] + ai[k] * ag[k]
            if ln:
                mc, sc = ln_row_stats(ct, eps)
                rstd[2, t, bb] = sc
                ch = chat[t, bb]
                for k in range(H):
                    u = (ct[k] - mc) * sc
                    ch[k] = u
                    tct[k] = two * (gc[k] * u + bc[k])
            else:
                for k in range(H):
                    tct[k] = two * ct[k]
            sigmoid_row(tct, tct, kb)
            yr = y[t, bb]
            for k in range(H):
                tct[k] = two * tct[k] - one
                yr[k] = ao[k] * tct[k]


def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nchunks, clip=0.0):
    """dy (T,B,H) = dL/dh_t for every t -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G),
    db (G,), dgx (G,), dbx (G,), dgh (G,), dbh (G,), dgc (H,), dbc (H,). Gradients of parameters
    that the norm does not use are returned as zeros. clip: Graves's bound on dL/d(preactivation)
    (module docstring); 0 or inf: off."""
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
    clip = dt.type(clip_bound(clip))  # 0: off
    run_chunks(_backward_rows, B, nch, dy, saved, x, c0, (Wx, WxT, WhT), (gx, gh, gc), ln, fold, clip,
               (dHW, dx, dh0, dc0), (pG, pH, pWx))
    dWx = pWx.sum(axis=0)
    dWh = recurrent_weight_grad(dHW, h0, saved[3], nchunks)
    db, dgx, dgh = pG.sum(axis=1)
    dgc, dbc = pH.sum(axis=1)
    if not ln:  # parameters the plain LSTM does not use
        zG, zH = np.zeros(G, dtype=dt), np.zeros(H, dtype=dt)
        return dx, dh0, dc0, dWx, dWh, db, zG, zG.copy(), zG.copy(), zG.copy(), zH, zH.copy()
    return dx, dh0, dc0, dWx, dWh, db, dgx, db.copy(), dgh, db.copy(), dgc, dbc


@njit(**ROWS)
def _backward_rows(q, lo, hi, dy, saved, x, c0, w, p, ln, fold, clip, out, part):
    """BPTT for batch rows [lo, hi) (chunk q): w = (Wx (I,G), WxT (G,I), WhT (G,H)), p = (gx, gh (G,),
    gc (H,)); clip > 0: Graves's bound on dL/d(preactivation) (0: off); fills their rows of
    out = (dHW (T,B,G), dx (T,B,I), dh0, dc0 (B,H)), and adds this chunk's parameter gradients into
    its partials, part = (pG, pH, pWx): pG[:, q] = db, dgx, dgh (G,), pH[:, q] = dgc, dbc (H,) and
    pWx[q] = dWx (I,G).

    dL/d(x_t Wx) is never stored for the whole sequence: a narrow input (fold) takes dx and dWx row
    by row; a wide one takes them as two small GEMMs per step on this chunk's rows (same FLOPs as one
    GEMM over all T*B rows, without a (T,B,G) buffer: 15 MB of the S2 step's 96 MB peak)."""
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    Wx, WxT, WhT = w
    gx, gh, gc = p
    dHW, dx, dh0, dc0 = out
    pG, pH, pWx = part
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    one = dy.dtype.type(1.0)
    zero = dy.dtype.type(0.0)
    invH = one / dy.dtype.type(H)  # means as products: dividing a float32 by an int gives a float64
    invG = one / dy.dtype.type(G)
    pdb, pgx, pgh, pgc, pbc, pWx = pG[0, q], pG[1, q], pG[2, q], pH[0, q], pH[1, q], pWx[q]
    dxs = np.empty((hi - lo, G), dtype=dy.dtype)  # dL/d(x_t Wx) of these rows (LN; else it equals dHW's)
    tW = np.empty((I, G), dtype=dy.dtype)         # x_t^T dL/d(x_t Wx), one step (wide input)
    dh_next = np.zeros((hi - lo, H), dtype=dy.dtype)  # dL/dh_t from step t+1
    dc_next = np.zeros((hi - lo, H), dtype=dy.dtype)  # dL/dc_t from step t+1
    PT = rec_pack(WhT, hi - lo)                        # Wh^T packed once (MKL)
    da = np.empty(G, dtype=dy.dtype)    # dL/d(preactivation), one row
    dcn = np.empty(H, dtype=dy.dtype)   # dL/d(cell output before tanh), then dL/dc_t
    dch = np.empty(H, dtype=dy.dtype)
    for t in range(T - 1, -1, -1):
        for r in range(hi - lo):
            bb = lo + r
            a = gates[t, bb]
            ai, af, ag, ao = a[:H], a[H:2 * H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks
            dai, daf, dag, dao = da[:H], da[H:2 * H], da[2 * H:3 * H], da[3 * H:]
            dyr, dhr, tcr, dcr = dy[t, bb], dh_next[r], tc[t, bb], dc_next[r]
            for k in range(H):
                dh = dyr[k] + dhr[k]
                o = ao[k]
                tk = tcr[k]
                dao[k] = dh * tk * o * (one - o)
                dcn[k] = dh * o * (one - tk * tk)
            if ln:  # LayerNorm of the cell, backward: sums and gain gradients in one pass, then dL/dc_t
                ch = chat[t, bb]
                s1 = zero
                s2 = zero
                for k in range(H):
                    d = dcn[k]
                    pgc[k] += d * ch[k]
                    pbc[k] += d
                    u = d * gc[k]
                    dch[k] = u
                    s1 += u
                    s2 += u * ch[k]
                s1 *= invH
                s2 *= invH
                rc = rstd[2, t, bb]
                for k in range(H):
                    dcn[k] = rc * (dch[k] - s1 - ch[k] * s2)
            cp = c0[bb] if t == 0 else c[t - 1, bb]
            for k in range(H):
                dc = dcn[k] + dcr[k]
                i = ai[k]
                f = af[k]
                g = ag[k]
                dai[k] = dc * g * i * (one - i)
                daf[k] = dc * cp[k] * f * (one - f)
                dag[k] = dc * i * (one - g * g)
                dcr[k] = dc * f
            if clip > zero:  # Graves: clip dL/da before anything reads it (dcr, carried on, stays unclipped)
                for j in range(G):
                    da[j] = min(max(da[j], -clip), clip)
            dhw = dHW[t, bb]
            dxr = dxs[r] if ln else dhw  # dL/d(x_t Wx) of this row
            if ln:  # both G-wide LayerNorms, backward: one pass for the parameter gradients and the
                    # four sums, one pass writing dL/d(h_{t-1} Wh) and dL/d(x_t Wx)
                xh = xp[t, bb]
                hh = hhat[t, bb]
                s1h = zero
                s2h = zero
                s1x = zero
                s2x = zero
                for j in range(G):
                    d = da[j]
                    pdb[j] += d
                    pgx[j] += d * xh[j]
                    pgh[j] += d * hh[j]
                    u = d * gh[j]
                    s1h += u
                    s2h += u * hh[j]
                    w = d * gx[j]
                    s1x += w
                    s2x += w * xh[j]
                s1h *= invG
                s2h *= invG
                s1x *= invG
                s2x *= invG
                rh = rstd[1, t, bb]
                rx = rstd[0, t, bb]
                for j in range(G):
                    dhw[j] = rh * (da[j] * gh[j] - s1h - hh[j] * s2h)
                    dxr[j] = rx * (da[j] * gx[j] - s1x - xh[j] * s2x)
            else:
                for j in range(G):
                    pdb[j] += da[j]
                    dhw[j] = da[j]
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
