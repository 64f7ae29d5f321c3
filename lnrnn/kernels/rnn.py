"""Vanilla (tanh) RNN and LN-RNN over a whole sequence, forward and BPTT (CPU twin).

    norm NONE: h_t = tanh(x_t Wx + h_{t-1} Wh + b)
    norm LN:   h_t = tanh(LN(x_t Wx + h_{t-1} Wh; g, b))     (Ba et al. 2016, eq. 4; joint normalization)
The BN-RNN lives in bn_rnn.py. Same layout of work as lstm.py: x_t Wx per step for a block's rows
(inside the row loop for a narrow input, I <= config.FOLD_MAX_I), the batch split into its fixed row blocks
(``nchunks``, threads.batch_blocks; threads take whole blocks: threads.run_chunks) for the time loop, weight
gradients as one GEMM each.

saved:
    y    (T,B,H)  h_t (also the output)
    ahat (T,B,H)  LN-normalized preactivation (norm LN; (0,0,0) otherwise)
    rstd (T,B)    its 1/std (norm LN; (0,0) otherwise)
"""
import numpy as np
from numba import njit

from lnrnn.config import CHUNK_GAP as GAP, FOLD_MAX_I, ROWS
from lnrnn.kernels.cpu.blas import rec_mul_fetch, rec_pack, rec_pack_once, rows_mul_fetch, rows_pack
from lnrnn.kernels.codes import NORM_LN, NORM_NONE  # noqa: F401  (re-exported: one set of codes for every cell)
from lnrnn.kernels.cpu.gemm import matmul, matmul_tn, recurrent_weight_grad, transposed
from lnrnn.kernels.cpu.rows import copy_rows, input_row_grads, ln_row_backward, ln_row_forward, sigmoid_row
from lnrnn.kernels.cpu.threads import clamp_chunks, readonly, run_chunks, unowned
from lnrnn.kernels.lstm import fetch_table, plan_steps


def rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b (H,), g (H,) -> y (T,B,H), hT (B,H), saved."""
    saved = _run_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks, True)
    y = saved[0]
    return y, y[x.shape[0] - 1].copy(), saved


def rnn_infer(x, h0, Wx, Wh, b, g, norm, eps, nchunks):
    """The forward without BPTT's saved tuple (evaluation, prediction): rnn_forward's arguments and
    arithmetic (its compiled chunk function: y and hT bit for bit its own), with the LayerNorm's ahat and
    rstd in buffers of one step that every step overwrites instead of (T,B,H) and (T,B).
    x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b (H,), g (H,) -> y (T,B,H), hT (B,H)."""
    y = _run_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks, False)[0]
    return y, y[x.shape[0] - 1].copy()


def _run_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks, keep):
    """rnn_forward (keep: ahat (T,B,H) and rstd (T,B) for BPTT) and rnn_infer (not kept: one step of
    each) -> (y (T,B,H), ahat, rstd)."""
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    ln = norm == NORM_LN
    fold = 0 < I <= FOLD_MAX_I
    y = np.empty((T, B, H), dtype=dt)
    if ln:
        S = T if keep else 1
        ahat, rstd = np.empty((S, B, H), dtype=dt), np.empty((S, B), dtype=dt)
    else:
        ahat, rstd = np.empty((0, 0, 0), dtype=dt), np.empty((0, 0), dtype=dt)
    saved = (y, ahat, rstd)
    nch = clamp_chunks(nchunks, B)
    m = -(-B // nch)  # rows of the largest chunk
    # each chunk's scratch, owned here (the chunks take unowned views of it: threads.unowned)
    # (each chunk's part padded by config.CHUNK_GAP: no cache line holds two chunks' parts)
    work = (np.empty((nch, m + 1, H), dt),           # its preactivations
            np.empty((nch, 2 * H + GAP), np.int32),  # sigmoid_row's scratch
            np.empty((nch, m + 1 if not fold else 1, H), dt))  # its rows' x_t Wx (wide input)
    packs = (rec_pack_once(Wh, m),  # Wh packed for every chunk's per-step product (blas.rec_pack_once)
             fetch_table((y, ahat), (0, 0)))  # the rows each step writes (lstm.fetch_table)
    run_chunks(_forward_rows, B, nch, *readonly(x, h0, Wx, Wh, b, g), packs, ln, fold, dt.type(eps), saved, work)
    return saved


@njit(**ROWS)
def _forward_rows(q, lo, hi, x, h0, Wx, Wh, b, g, packs, ln, fold, eps, saved, work):
    """The forward time loop of batch rows [lo, hi); writes their rows of saved = (y, ahat, rstd) (or
    rnn_infer's: ahat and rstd one step long); work: the chunks' scratch (rnn_forward), of which this
    chunk uses row q; packs: (Wh packed for the per-step products (blas.rec_pack_once; empty: this chunk
    packs its own), the arrays whose rows each step writes (lstm.fetch_table), asked for while the step's
    product runs, as in lstm._forward_rows). x_t Wx: per step for the chunk's rows (blas.rows_mul_fetch
    with nothing to fetch), or inside the row loop for a narrow input (fold)."""
    # every array here as an unowned view (threads.unowned): no shared reference counts between threads
    y, ahat, rstd = unowned(saved[0]), unowned(saved[1]), unowned(saved[2])
    x, h0, Wx, Wh, b, g = unowned(x), unowned(h0), unowned(Wx), unowned(Wh), unowned(b), unowned(g)
    T, B, I = x.shape
    H = h0.shape[1]
    one = x.dtype.type(1.0)
    two = x.dtype.type(2.0)
    a = unowned(work[0])[q, :hi - lo]  # (Bc,H) preactivation of this chunk
    kb = unowned(work[1])[q, :2 * H]   # (2H,) scratch of sigmoid_row
    xw = unowned(work[2])[q, :hi - lo]  # (Bc,H) x_t Wx of this chunk (wide input)
    Ps = unowned(packs[0])
    P = Ps if Ps.size > 0 else rec_pack(Wh, hi - lo)  # Wh in the per-step product's layout, once per sequence
    PW = rows_pack(Wx)                         # Wx likewise, for a wide input's x_t Wx
    tab = unowned(packs[1])            # (2,5) the arrays whose rows each step writes (lstm.fetch_table)
    plan = np.empty((2, 2), np.int64)  # (2,2) their regions at step t (lstm.plan_steps)
    for t in range(T):
        ts = t % max(ahat.shape[0], 1)  # ahat's and rstd's row: t, or 0 in rnn_infer's one-step buffers
        npl = plan_steps(plan, tab, t, lo, hi)
        if t == 0:
            rec_mul_fetch(h0[lo:hi], Wh, P, a, plan[:npl])
        else:
            rec_mul_fetch(y[t - 1, lo:hi], Wh, P, a, plan[:npl])
        if not fold:
            rows_mul_fetch(x[t, lo:hi], Wx, PW, xw, plan[:0])
        for r in range(hi - lo):
            bb = lo + r
            if fold:
                for i in range(I):
                    for k in range(H):
                        a[r, k] += x[t, bb, i] * Wx[i, k]
            else:
                for k in range(H):
                    a[r, k] += xw[r, k]
            if ln:
                m, s = ln_row_forward(ahat[ts, bb], a[r], eps)
                rstd[ts, bb] = s
                for k in range(H):
                    y[t, bb, k] = two * (g[k] * ahat[ts, bb, k] + b[k])
            else:
                for k in range(H):
                    y[t, bb, k] = two * (a[r, k] + b[k])
            sigmoid_row(y[t, bb], y[t, bb], kb)  # tanh(z) = 2 sigmoid(2z) - 1, vectorised
            for k in range(H):
                y[t, bb, k] = two * y[t, bb, k] - one


def rnn_backward(dy, saved, x, h0, Wx, Wh, g, norm, nchunks):
    """dy (T,B,H) -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H), db (H,), dg (H,)."""
    y = saved[0]
    T, B, H = dy.shape
    I = x.shape[2]
    dt = dy.dtype
    ln = norm == NORM_LN
    fold = 0 < I <= FOLD_MAX_I
    dA = np.empty((T, B, H), dtype=dt)  # dL/d(x Wx + h Wh), per row
    dx = np.empty((T, B, I), dtype=dt)
    dh0 = np.empty((B, H), dtype=dt)
    WhT = transposed(Wh)
    nch = clamp_chunks(nchunks, B)
    pH = np.zeros((2, nch, H + GAP), dtype=dt)  # per-chunk partial sums of db, dg (padded: rnn_forward)
    pWx = np.zeros((nch, I + 1, H), dtype=dt)   # ... of dWx (narrow input)
    m = -(-B // nch)  # rows of the largest chunk
    work = (np.zeros((nch, m + 1, H), dt),  # each chunk's dL/dh_t from step t+1 (zeros at first)
            np.empty((nch, H + GAP), dt))   # one row's dL/dz
    packs = (rec_pack_once(WhT, m),  # Wh^T packed for every chunk (as rnn_forward's Wh)
             fetch_table((y, dy, saved[1], dA), (-1, -1, -1, -1)))  # what step t-1 reads (y, dy, ahat), writes (dA)
    run_chunks(_backward_rows, B, nch, *readonly(dy, saved, x, Wx, WhT, g), packs, ln, fold, (dA, dx, dh0),
               (pH, pWx), work)
    if fold:
        dWx = pWx[:, :I].sum(axis=0)
    else:
        dA2 = dA.reshape(T * B, H)
        dx = matmul(dA2, transposed(Wx), nchunks).reshape(T, B, I)
        dWx = matmul_tn(x.reshape(T * B, I), dA2, nchunks)
    dWh = recurrent_weight_grad(dA, h0, y, nchunks)
    db, dg = pH[:, :, :H].sum(axis=1)
    return dx, dh0, dWx, dWh, db, dg


@njit(**ROWS)
def _backward_rows(q, lo, hi, dy, saved, x, Wx, WhT, g, packs, ln, fold, out, part, work):
    """BPTT of batch rows [lo, hi): their rows of out = (dA (T,B,H), dx (T,B,I) (fold only), dh0 (B,H)),
    and chunk q's partials, part = (pH, pWx): pH[:, q] = db, dg (H,) and pWx[q] (I,H); work: the chunks'
    scratch (rnn_backward), of which this chunk uses row q; packs: (Wh^T packed (as _forward_rows's), the
    arrays of step t-1's row pass (lstm.fetch_table), asked for while step t's product runs)."""
    # every array here as an unowned view (threads.unowned): no shared reference counts between threads
    y, ahat, rstd = unowned(saved[0]), unowned(saved[1]), unowned(saved[2])
    dA, dx, dh0 = unowned(out[0]), unowned(out[1]), unowned(out[2])
    pH, pWx = unowned(part[0]), unowned(part[1])
    dy, x, Wx, WhT, g = unowned(dy), unowned(x), unowned(Wx), unowned(WhT), unowned(g)
    T, B, H = dy.shape
    one = dy.dtype.type(1.0)
    pdb, pdg, pwx = pH[0, q], pH[1, q], pWx[q]
    dh_next = unowned(work[0])[q, :hi - lo]  # (Bc,H) dL/dh_t from step t+1
    dz = unowned(work[1])[q, :H]             # (H,)
    Ps = unowned(packs[0])
    PT = Ps if Ps.size > 0 else rec_pack(WhT, hi - lo)  # Wh^T packed once per sequence
    tab = unowned(packs[1])            # (4,5) the arrays step t-1's row pass reads and writes
    plan = np.empty((4, 2), np.int64)  # (4,2) their regions (lstm.plan_steps)
    for t in range(T - 1, -1, -1):
        for r in range(hi - lo):
            bb = lo + r
            for k in range(H):
                yk = y[t, bb, k]
                dz[k] = (dy[t, bb, k] + dh_next[r, k]) * (one - yk * yk)
                pdb[k] += dz[k]
            if ln:
                for k in range(H):
                    pdg[k] += dz[k] * ahat[t, bb, k]
                    dz[k] *= g[k]
                ln_row_backward(dA[t, bb], dz, ahat[t, bb], rstd[t, bb])
            else:
                for k in range(H):
                    dA[t, bb, k] = dz[k]
            if fold:  # narrow input: dx and dWx while the row is in cache
                input_row_grads(dx[t, bb], pwx, dA[t, bb], x[t, bb], Wx)
        npl = plan_steps(plan, tab, t, lo, hi)
        rec_mul_fetch(dA[t, lo:hi], WhT, PT, dh_next, plan[:npl])
    copy_rows(dh0[lo:hi], dh_next)
