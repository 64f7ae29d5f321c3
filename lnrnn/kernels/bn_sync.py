"""Synchronized BatchNorm cells: BN-RNN and BN-LSTM whose per-step batch statistics span every process
of a data-parallel group (CPU only; ``lnrnn.training.distributed`` runs the group).

Why a second formulation. The fused kernels (bn_lstm.py, bn_rnn.py) run the whole time loop in
compiled code, and BN_t's statistics at step t are needed before step t's output can be computed. When
a global batch is split across ranks, every rank holds B_r of its rows, and single-process semantics
need the statistics of all B = sum_r B_r rows: a cross-rank reduction at every step, forward and
backward (a synchronized BatchNorm). Here the time loop runs in Python and calls small compiled pieces
plus ``reduce(buf)``, a callback that sums a small 1-D buffer in place over the group (MPI Allreduce
SUM; the identity in one process). Same names, arguments (plus ``reduce`` first) and saved layout as
the fused twins, so the layer adapters of ``lnrnn.model.cells`` call either (``Cell.kernels`` binds them).

Cost and threads. Around its reductions a step is three compiled calls forward (two for the BN-RNN) and
three backward (two), each doing the whole step for the local batch on the calling thread: the recurrent
products h_{t-1} Wh and dhw_t Wh^T as one MKL packed product per fixed row block (threads.batch_blocks,
bn_parts.blocks_mul), the activations with the fused twins' vectorised rows (bn_lstm._gate_rows,
_output_rows, _gate_grad_rows; bn_rnn._forward_rows). A step's pieces are not split over threads: a
round trip to the pool threads (threads.run_chunks) costs about 65 us on 2 cores, and S3's forward product
(B32 H400, two blocks) took 430 us on two of them against 340 us on one (measured); the fused kernels'
threads that meet at barriers inside a step cannot wait across a Python ``reduce`` (an MPI Allreduce, or
a greenlet switch to another block's cell). The work over all T
steps is threaded: x Wx and the GEMMs after the backward loop (gemm.matmul, projection_grads, over the
fixed row blocks) and the x side's BN_t, whose steps run_chunks splits over threads. Every sum over rows
is a loop over the rows in row order (a step's column sums) or over fixed blocks added in block order (the
GEMMs' partials), never over threads: the results are the same bits on any thread count
(tests/kernels/test_bn_sync_speed_bits.py).

What is reduced (shape letters of ``lnrnn.kernels``; n_t = active rows of step t over all ranks)
    forward, once per call:  x side, every step at once: counts (T,), sum(xw - K) and sum((xw - K)^2)
                             over the active rows (T,G): one buffer of T*(2G+1)
    forward, every step:     [sum(hw_t - K) | sum((hw_t - K)^2)] (2G), then (LSTM) the same of c_t (2H)
    backward, every step:    (LSTM) [sum dcn | sum dcn*chat] (2H), then [sum da | sum da*hhat] (2G)
    backward, once per call: x side: [sum da | sum da*xhat] for every step (T,2G)
The variance is the shifted single-pass one, var = S2/n - (S1/n)^2 with S over x - K: K is the step's
running mean before this update, the same number on every rank, so the cancellation that makes the
plain single-pass formula dangerous only bites when the batch mean is far from the running mean (the
fused kernels' two-pass variance would cost a second reduction per step). Parameter gradients stay
local partial sums: the trainer's one Allreduce of the flat gradient buffer adds them up. In
inference (training=False) the statistics are the running ones and nothing is reduced: the fused
kernels run (ranks may then evaluate different batches).

Masks (lengths) as in batchnorm.py: only rows with t < lengths[b] count, and their count is reduced
too; padded rows are normalized with the active rows' statistics and get zero input gradients.

saved: the fused twin's tuple (bn_lstm.py / bn_rnn.py) plus, last, counts (T,) of active rows over the
group.
"""

import numba
import numpy as np
from numba import njit

from lnrnn.config import JIT, ROWS
from lnrnn.kernels import bn_lstm as fused_lstm, bn_rnn as fused_rnn
from lnrnn.kernels.bn_lstm import _gate_grad_rows, _gate_rows, _output_rows
from lnrnn.kernels.bn_parts import block_packs, blocks_mul
from lnrnn.kernels.bn_rnn import _forward_rows
from lnrnn.kernels.cpu.gemm import matmul, projection_grads, transposed
from lnrnn.kernels.cpu.threads import batch_blocks, run_chunks, unowned
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.masks import as_lengths


# ---------------------------------------------------------------------------------------------
# Column pieces of one step's (B,F) slab
# ---------------------------------------------------------------------------------------------
@njit(**JIT)
def col_sums(x2, lengths, t, shift, out):
    """out (2F,) = [sum_b (x2[b] - shift) | sum_b (x2[b] - shift)^2] over the rows active at step t.
    x2 (B,F); shift (F,)."""
    B, F = x2.shape
    s1, s2 = out[:F], out[F:]
    for k in range(F):
        s1[k] = 0.0
        s2[k] = 0.0
    for b in range(B):
        if t < lengths[b]:
            xr = x2[b]
            for k in range(F):
                d = xr[k] - shift[k]
                s1[k] += d
                s2[k] += d * d


@njit(**JIT)
def stats_from_sums(sums, n, shift, training_update, rm_row, rv_row, momentum, eps, mean, rstd):
    """Batch statistics of one step from the group's sums (2F,) over n active rows (col_sums):
    writes mean, rstd (F,); with training_update and n > 0 folds them into rm_row, rv_row (F,) in place
    (unbiased variance, batchnorm.py's rule). n = 0: mean 0, variance 0, running rows untouched."""
    F = mean.shape[0]
    dt = mean.dtype.type
    one = dt(1)
    if n == 0:
        for k in range(F):
            mean[k] = dt(0)
            rstd[k] = one / np.sqrt(dt(eps))
        return
    inv_n = one / dt(n)
    mom = dt(momentum)
    unbias = dt(n) / dt(max(n - 1, 1))
    for k in range(F):
        d = sums[k] * inv_n
        var = max(sums[F + k] * inv_n - d * d, dt(0))
        m = shift[k] + d
        if training_update:
            rm_row[k] = (one - mom) * rm_row[k] + mom * m
            rv_row[k] = (one - mom) * rv_row[k] + mom * var * unbias
        mean[k] = m
        rstd[k] = one / np.sqrt(var + dt(eps))


@njit(**JIT)
def bwd_sums(dy2, x2, lengths, t, mean, rstd, out):
    """out (2F,) = [sum_b dy | sum_b dy * xhat] over the rows active at step t (the two batch sums of
    the BN backward). dy2, x2 (B,F); mean, rstd (F,)."""
    B, F = x2.shape
    s1, s2 = out[:F], out[F:]
    for k in range(F):
        s1[k] = 0.0
        s2[k] = 0.0
    for b in range(B):
        if t < lengths[b]:
            xr, dr = x2[b], dy2[b]
            for k in range(F):
                s1[k] += dr[k]
                s2[k] += dr[k] * (xr[k] - mean[k]) * rstd[k]


@njit(**JIT)
def bwd_dx(dy2, x2, lengths, t, mean, rstd, gain, sums, n, dx2):
    """dx2 (B,F) = gain * rstd * (dy - (S1 + xhat * S2) / n) for active rows, 0 for padded ones;
    sums (2F,) = the group's [S1 | S2] (bwd_sums reduced), n the group's active rows."""
    B, F = x2.shape
    dt = x2.dtype.type
    inv_n = dt(1) / dt(max(n, 1))
    for b in range(B):
        out = dx2[b]
        if t < lengths[b]:
            xr, dr = x2[b], dy2[b]
            for k in range(F):
                xhat = (xr[k] - mean[k]) * rstd[k]
                out[k] = gain[k] * rstd[k] * (dr[k] - (sums[k] + xhat * sums[F + k]) * inv_n)
        else:
            for k in range(F):
                out[k] = dt(0)


@njit(**JIT)
def local_counts(lengths, T, dtype_probe):
    """(T,) active rows of each step on this rank, in the floating type of dtype_probe (for the reduce)."""
    out = np.zeros(T, dtype=dtype_probe.dtype)
    for b in range(lengths.shape[0]):
        for t in range(min(lengths[b], T)):
            out[t] += 1
    return out


# ---------------------------------------------------------------------------------------------
# The x side: BN_t of x Wx for every step at once (one reduction), its steps split over threads
# ---------------------------------------------------------------------------------------------
def _step_chunks(T):
    """How many chunks of steps run_chunks splits the x side's T steps into: every step's sums are one
    chunk's own loop over the rows in row order, so the chunking (here the thread count) changes no bit."""
    return max(1, min(T, numba.get_num_threads()))


@njit(**ROWS)
def _seq_sums(q, t0, t1, xw, lengths, shift, out):
    """Steps [t0, t1) (chunk q of threads.run_chunks): out (T,2G) the local shifted sums of each step;
    xw (T,B,G); shift (T,G)."""
    xw, lengths, shift, out = unowned(xw), unowned(lengths), unowned(shift), unowned(out)
    for t in range(t0, t1):
        col_sums(xw[t], lengths, t, shift[t], out[t])


@njit(**ROWS)
def _seq_normalize(q, t0, t1, xw, sums, counts, shift, p, run, momentum, eps, out):
    """Steps [t0, t1): y = (xw - mean_t) * rstd_t * gain + bias from the group's sums (T,2G) and counts
    (T,); p = (gain, bias) (G,); run = (rm, rv) (Ts,G), row t updated for t < Ts (one step's own row: no
    two chunks share one); out = (y (T,B,G), mean, rstd (T,G))."""
    xw, sums, counts, shift = unowned(xw), unowned(sums), unowned(counts), unowned(shift)
    gain, bias, rm, rv = unowned(p[0]), unowned(p[1]), unowned(run[0]), unowned(run[1])
    y, mean, rstd = unowned(out[0]), unowned(out[1]), unowned(out[2])
    B, G = xw.shape[1], xw.shape[2]
    Ts = rm.shape[0]
    for t in range(t0, t1):
        r = min(t, Ts - 1)
        stats_from_sums(sums[t], int(counts[t]), shift[t], t < Ts, rm[r], rv[r], momentum, eps, mean[t], rstd[t])
        m_, r_ = mean[t], rstd[t]
        for b in range(B):
            xr, yr = xw[t, b], y[t, b]
            for k in range(G):
                yr[k] = (xr[k] - m_[k]) * r_[k] * gain[k] + bias[k]


def _shift_rows(rm, T):
    """(T,F): each step's running-mean row before this update (the shift of col_sums)."""
    Ts = rm.shape[0]
    return np.ascontiguousarray(rm[np.minimum(np.arange(T), Ts - 1)])


def _x_forward(reduce, xw, lengths, gain, bias, rm, rv, momentum, eps):
    """BN_t(xw; gain, bias) of the x side with the group's statistics -> xn (T,B,G), mean, rstd (T,G),
    counts (T,) (the group's active rows per step, reused by every later step and the backward)."""
    T, B, G = xw.shape
    nch = _step_chunks(T)
    shift = _shift_rows(rm, T)
    buf = np.empty(T * (2 * G + 1), xw.dtype)
    buf[:T] = local_counts(lengths, T, xw)
    sums = buf[T:].reshape(T, 2 * G)
    run_chunks(_seq_sums, T, nch, xw, lengths, shift, sums)
    reduce(buf)
    counts = np.rint(buf[:T]).astype(np.int64)
    xn = np.empty_like(xw)
    mean = np.empty((T, G), xw.dtype)
    rstd = np.empty((T, G), xw.dtype)
    run_chunks(_seq_normalize, T, nch, xw, sums, counts, shift, (gain, bias), (rm, rv), momentum, eps,
               (xn, mean, rstd))
    return xn, mean, rstd, counts


@njit(**ROWS)
def _x_bwd_sums(q, t0, t1, da, xw, lengths, mean, rstd, out):
    """Steps [t0, t1): out (T,2G) the local backward sums of each step."""
    da, xw, lengths, mean, rstd, out = unowned(da), unowned(xw), unowned(lengths), unowned(mean), \
        unowned(rstd), unowned(out)
    for t in range(t0, t1):
        bwd_sums(da[t], xw[t], lengths, t, mean[t], rstd[t], out[t])


@njit(**JIT)
def _step_totals(sums, dgain, dbias):
    """dbias, dgain (G,) += the steps' local sums (T,2G) [sum da | sum da*xhat], added in step order."""
    G = dgain.shape[0]
    for t in range(sums.shape[0]):
        for k in range(G):
            dbias[k] += sums[t, k]
            dgain[k] += sums[t, G + k]


@njit(**ROWS)
def _x_bwd_dx(q, t0, t1, da, xw, lengths, mean, rstd, gain, sums, counts, dxw):
    """Steps [t0, t1) of dxw (T,B,G) from the group's sums (T,2G) and counts (T,)."""
    da, xw, lengths, mean, rstd, gain = unowned(da), unowned(xw), unowned(lengths), unowned(mean), \
        unowned(rstd), unowned(gain)
    sums, counts, dxw = unowned(sums), unowned(counts), unowned(dxw)
    for t in range(t0, t1):
        bwd_dx(da[t], xw[t], lengths, t, mean[t], rstd[t], gain, sums[t], int(counts[t]), dxw[t])


def _x_backward(reduce, da, xw, lengths, mean, rstd, gain, counts):
    """dxw (T,B,G) with the group's sums; dgain, dbias (G,): this rank's partial sums."""
    T, B, G = xw.shape
    dt = xw.dtype
    nch = _step_chunks(T)
    sums = np.empty((T, 2 * G), dt)
    dgain, dbias = np.zeros(G, dt), np.zeros(G, dt)
    run_chunks(_x_bwd_sums, T, nch, da, xw, lengths, mean, rstd, sums)
    _step_totals(sums, dgain, dbias)
    reduce(sums.reshape(-1))
    dxw = np.empty_like(xw)
    run_chunks(_x_bwd_dx, T, nch, da, xw, lengths, mean, rstd, gain, sums, counts, dxw)
    return dxw, dgain, dbias


# ---------------------------------------------------------------------------------------------
# The recurrent product of one step, forward and backward (both cells)
# ---------------------------------------------------------------------------------------------
@njit(**JIT)
def _h_sums(hprev, Wh, packs, nblk, hw_t, lengths, t, rm_row, shift, sums):
    """Step t up to the h-side reduction: hw_t (B,F) = hprev (B,H) @ Wh (H,F), one packed product per
    fixed row block (bn_parts.blocks_mul, packs = block_packs(Wh, B, nblk)); shift (F,) <- rm_row, the
    running mean before this step's update; sums (2F,) the local col_sums of hw_t."""
    blocks_mul(hprev, Wh, packs, hw_t, hw_t.shape[0], nblk, 0, nblk)
    for k in range(shift.shape[0]):
        shift[k] = rm_row[k]
    col_sums(hw_t, lengths, t, shift, sums)


@njit(**JIT)
def _h_back(da_t, hw_t, lengths, t, mean_t, rstd_t, gh, sums, n, dhw_t, WT, packs, nblk, dhn):
    """Step t after the h-side backward reduction: dhw_t (B,F) = dL/d(h_{t-1} Wh) (bwd_dx), then
    dhn (B,H) = dhw_t @ WT (WT = Wh^T (F,H)), one packed product per fixed row block."""
    bwd_dx(da_t, hw_t, lengths, t, mean_t, rstd_t, gh, sums, n, dhw_t)
    blocks_mul(dhw_t, WT, packs, dhn, dhn.shape[0], nblk, 0, nblk)


# ---------------------------------------------------------------------------------------------
# BN-LSTM
# ---------------------------------------------------------------------------------------------
@njit(**JIT)
def _lstm_gates(sums, n, shift, hw_t, xn_t, cprev, gh, update, rm_row, rv_row, momentum, eps,
                mean_t, rstd_t, gates_t, c_t, lengths, t, rmc_row, shift_c, csums, kb):
    """Step t after the h-side reduction: its statistics (mean_t, rstd_t (G,)), the activated gates
    (B,G) [i|f|g|o] and c_t = f c_{t-1} + i g (B,H) (the fused twin's rows, bn_lstm._gate_rows); then
    shift_c (H,) <- rmc_row and csums (2H,) the local col_sums of c_t. kb (2G,) int32: scratch."""
    stats_from_sums(sums, n, shift, update, rm_row, rv_row, momentum, eps, mean_t, rstd_t)
    _gate_rows(0, hw_t.shape[0], hw_t, xn_t, cprev, gh, mean_t, rstd_t, gates_t, c_t, kb)
    for j in range(shift_c.shape[0]):
        shift_c[j] = rmc_row[j]
    col_sums(c_t, lengths, t, shift_c, csums)


@njit(**JIT)
def _lstm_output(sums, n, shift, c_t, gates_t, gc, bc, update, rm_row, rv_row, momentum, eps,
                 mean_t, rstd_t, tc_t, y_t, z, kb):
    """Step t after the cell reduction: tc_t = tanh(BN_t(c_t; gc, bc)), y_t = o tc_t (B,H)
    (bn_lstm._output_rows). z (H,), kb (>= 2H,) int32: scratch."""
    stats_from_sums(sums, n, shift, update, rm_row, rv_row, momentum, eps, mean_t, rstd_t)
    _output_rows(0, c_t.shape[0], c_t, gc, bc, mean_t, rstd_t, gates_t, tc_t, y_t, z, kb)


def bn_lstm_forward(reduce, x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh, rmc, rvc,
                    training, momentum, eps, par_min=None, lengths=None):
    """bn_lstm.bn_lstm_forward with the group's statistics (module docstring); reduce(buf) sums a
    1-D buffer in place over the group. -> y (T,B,H), hT, cT (B,H), saved (+ counts (T,))."""
    if not training:
        y, hT, cT, saved = fused_lstm.bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh,
                                                      rmc, rvc, training, momentum, eps, lengths=lengths)
        return y, hT, cT, saved + (None,)
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    lengths = as_lengths(lengths, T, B)
    nblk = batch_blocks(B)
    xw = matmul(x.reshape(T * B, I), Wx, nblk).reshape(T, B, G)
    xn, mean_x, rstd_x, counts = _x_forward(reduce, xw, lengths, gx, b, rmx, rvx, momentum, eps)
    hw = np.empty((T, B, G), dt)
    mean_h, rstd_h = np.empty((T, G), dt), np.empty((T, G), dt)
    gates = np.empty((T, B, G), dt)
    c = np.empty((T, B, H), dt)
    mean_c, rstd_c = np.empty((T, H), dt), np.empty((T, H), dt)
    tc = np.empty((T, B, H), dt)
    y = np.empty((T, B, H), dt)
    bh, bc_ = np.empty(2 * G, dt), np.empty(2 * H, dt)   # the step's reduce buffers
    sh, sc = np.empty(G, dt), np.empty(H, dt)             # the step's shifts (running means before the update)
    z, kb = np.empty(H, dt), np.empty(2 * G, np.int32)    # scratch of the activations
    Wh = np.ascontiguousarray(Wh)
    P = block_packs(Wh, B, nblk)
    Tsh, Tsc = rmh.shape[0], rmc.shape[0]
    hprev, cprev = np.ascontiguousarray(h0), c0
    for t in range(T):
        rh, rc = min(t, Tsh - 1), min(t, Tsc - 1)
        _h_sums(hprev, Wh, P, nblk, hw[t], lengths, t, rmh[rh], sh, bh)
        reduce(bh)
        _lstm_gates(bh, counts[t], sh, hw[t], xn[t], cprev, gh, t < Tsh, rmh[rh], rvh[rh], momentum, eps,
                    mean_h[t], rstd_h[t], gates[t], c[t], lengths, t, rmc[rc], sc, bc_, kb)
        reduce(bc_)
        _lstm_output(bc_, counts[t], sc, c[t], gates[t], gc, bc, t < Tsc, rmc[rc], rvc[rc], momentum, eps,
                     mean_c[t], rstd_c[t], tc[t], y[t], z, kb)
        hprev, cprev = y[t], c[t]
    saved = (xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training, counts)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


@njit(**JIT)
def _lstm_bwd_cell(dy_t, dhn, gates_t, tc_t, c_t, lengths, t, mean_c, rstd_c, dcn, sums, dgc, dbc):
    """dcn (B,H) = dL/d BN_t(c_t) output; sums (2H,) its local batch sums; dgc, dbc (H,) += them."""
    B, H = c_t.shape
    one = c_t.dtype.type(1)
    for b in range(B):
        for j in range(H):
            tv = tc_t[b, j]
            dcn[b, j] = (dy_t[b, j] + dhn[b, j]) * gates_t[b, 3 * H + j] * (one - tv * tv)
    bwd_sums(dcn, c_t, lengths, t, mean_c, rstd_c, sums)
    for j in range(H):
        dbc[j] += sums[j]
        dgc[j] += sums[H + j]


@njit(**JIT)
def _lstm_bwd_gates(dy_t, dhn, dcarry, gates_t, tc_t, cprev, c_t, lengths, t, mean_c, rstd_c, gc, csums, n,
                    dcn, dcbn, clip, hw_t, mean_h, rstd_h, da_t, hsums, dgh):
    """The gates' gradient da_t (B,G) (Graves's clip when clip > 0), dcarry (B,H) <- dc_{t-1}
    (0 for padded rows), and the local batch sums (2G,) of the h-side BN backward; dgh (G,) += them.
    The gate gradients are the fused twin's rows (bn_lstm._gate_grad_rows)."""
    B, H = c_t.shape
    bwd_dx(dcn, c_t, lengths, t, mean_c, rstd_c, gc, csums, n, dcbn)
    _gate_grad_rows(0, B, dy_t, dhn, dcarry, dcbn, gates_t, tc_t, cprev, clip, da_t)
    for b in range(B):
        if t >= lengths[b]:  # a padded row passes no dc to step t-1
            for j in range(H):
                dcarry[b, j] = 0.0
    bwd_sums(da_t, hw_t, lengths, t, mean_h, rstd_h, hsums)
    for k in range(4 * H):
        dgh[k] += hsums[4 * H + k]


def bn_lstm_backward(reduce, dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, par_min=None, clip=0.0):
    """bn_lstm.bn_lstm_backward with the group's batch sums -> dx (T,B,I), dh0, dc0 (B,H), dWx (I,G),
    dWh (H,G), db, dgx, dgh (G,), dgc, dbc (H,): this rank's parts of the parameter gradients (the
    group's sum is the single-process gradient)."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training, counts = saved
    if not training:
        return fused_lstm.bn_lstm_backward(dy, saved[:-1], x, h0, c0, Wx, Wh, gx, gh, gc, clip=clip)
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    clip = dt.type(clip_bound(clip))
    nblk = batch_blocks(B)
    da = np.empty((T, B, G), dt)
    dhw = np.empty((T, B, G), dt)
    dhn = np.zeros((B, H), dt)
    dcarry = np.zeros((B, H), dt)
    dgh, dgc, dbc = np.zeros(G, dt), np.zeros(H, dt), np.zeros(H, dt)
    dcn, dcbn = np.empty((B, H), dt), np.empty((B, H), dt)
    cs, hs = np.empty(2 * H, dt), np.empty(2 * G, dt)
    WhT = transposed(Wh)
    PT = block_packs(WhT, B, nblk)
    for t in range(T - 1, -1, -1):
        cprev = c0 if t == 0 else c[t - 1]
        n = int(counts[t])
        _lstm_bwd_cell(dy[t], dhn, gates[t], tc[t], c[t], lengths, t, mean_c[t], rstd_c[t], dcn, cs, dgc, dbc)
        reduce(cs)
        _lstm_bwd_gates(dy[t], dhn, dcarry, gates[t], tc[t], cprev, c[t], lengths, t, mean_c[t], rstd_c[t], gc,
                        cs, n, dcn, dcbn, clip, hw[t], mean_h[t], rstd_h[t], da[t], hs, dgh)
        reduce(hs)
        _h_back(da[t], hw[t], lengths, t, mean_h[t], rstd_h[t], gh, hs, n, dhw[t], WhT, PT, nblk, dhn)
    dxw, dgx, db = _x_backward(reduce, da, xw, lengths, mean_x, rstd_x, gx, counts)
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nblk)
    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dgc, dbc


# ---------------------------------------------------------------------------------------------
# BN-RNN
# ---------------------------------------------------------------------------------------------
@njit(**JIT)
def _rnn_step(sums, n, shift, hw_t, xn_t, gh, update, rm_row, rv_row, momentum, eps, mean_t, rstd_t, y_t, z, kb):
    """y_t = tanh(BN_t(hw_t; gh, 0) + xn_t) (B,H) from the group's sums (bn_rnn._forward_rows).
    z (H,), kb (2H,) int32: scratch."""
    stats_from_sums(sums, n, shift, update, rm_row, rv_row, momentum, eps, mean_t, rstd_t)
    _forward_rows(0, hw_t.shape[0], hw_t, xn_t, gh, mean_t, rstd_t, y_t, z, kb)


def bn_rnn_forward(reduce, x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum, eps, par_min=None,
                   lengths=None):
    """bn_rnn.bn_rnn_forward with the group's statistics -> y (T,B,H), hT (B,H), saved (+ counts (T,))."""
    if not training:
        y, hT, saved = fused_rnn.bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum,
                                                eps, lengths=lengths)
        return y, hT, saved + (None,)
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    lengths = as_lengths(lengths, T, B)
    nblk = batch_blocks(B)
    xw = matmul(x.reshape(T * B, I), Wx, nblk).reshape(T, B, H)
    xn, mean_x, rstd_x, counts = _x_forward(reduce, xw, lengths, gx, b, rmx, rvx, momentum, eps)
    hw = np.empty((T, B, H), dt)
    mean_h, rstd_h = np.empty((T, H), dt), np.empty((T, H), dt)
    y = np.empty((T, B, H), dt)
    buf, sh = np.empty(2 * H, dt), np.empty(H, dt)     # the step's reduce buffer and shift
    z, kb = np.empty(H, dt), np.empty(2 * H, np.int32)  # scratch of the activation
    Wh = np.ascontiguousarray(Wh)
    P = block_packs(Wh, B, nblk)
    Ts = rmh.shape[0]
    hprev = np.ascontiguousarray(h0)
    for t in range(T):
        r = min(t, Ts - 1)
        _h_sums(hprev, Wh, P, nblk, hw[t], lengths, t, rmh[r], sh, buf)
        reduce(buf)
        _rnn_step(buf, counts[t], sh, hw[t], xn[t], gh, t < Ts, rmh[r], rvh[r], momentum, eps,
                  mean_h[t], rstd_h[t], y[t], z, kb)
        hprev = y[t]
    saved = (xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training, counts)
    return y, y[T - 1].copy(), saved


@njit(**JIT)
def _rnn_bwd_sums(dy_t, dhn, y_t, hw_t, lengths, t, mean_t, rstd_t, da_t, sums, dgh):
    """da_t (B,H) = dL/d(preactivation); sums (2H,) its local BN batch sums; dgh (H,) += them."""
    B, H = y_t.shape
    one = y_t.dtype.type(1)
    for b in range(B):
        for j in range(H):
            da_t[b, j] = (dy_t[b, j] + dhn[b, j]) * (one - y_t[b, j] * y_t[b, j])
    bwd_sums(da_t, hw_t, lengths, t, mean_t, rstd_t, sums)
    for j in range(H):
        dgh[j] += sums[H + j]


def bn_rnn_backward(reduce, dy, saved, x, h0, Wx, Wh, gx, gh, par_min=None):
    """bn_rnn.bn_rnn_backward with the group's batch sums -> dx (T,B,I), dh0 (B,H), dWx (I,H),
    dWh (H,H), db, dgx, dgh (H,) (this rank's parts of the parameter gradients)."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training, counts = saved
    if not training:
        return fused_rnn.bn_rnn_backward(dy, saved[:-1], x, h0, Wx, Wh, gx, gh)
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    nblk = batch_blocks(B)
    da = np.empty((T, B, H), dt)
    dhw = np.empty((T, B, H), dt)
    dhn = np.zeros((B, H), dt)
    dgh = np.zeros(H, dt)
    buf = np.empty(2 * H, dt)
    WhT = transposed(Wh)
    PT = block_packs(WhT, B, nblk)
    for t in range(T - 1, -1, -1):
        _rnn_bwd_sums(dy[t], dhn, y[t], hw[t], lengths, t, mean_h[t], rstd_h[t], da[t], buf, dgh)
        reduce(buf)
        n = int(counts[t])
        _h_back(da[t], hw[t], lengths, t, mean_h[t], rstd_h[t], gh, buf, n, dhw[t], WhT, PT, nblk, dhn)
    dxw, dgx, db = _x_backward(reduce, da, xw, lengths, mean_x, rstd_x, gx, counts)
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nblk)
    return dx, dhn, dWx, dWh, db, dgx, dgh

