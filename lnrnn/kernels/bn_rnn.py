"""BN-RNN (Cooijmans et al. 2016): whole-sequence forward and backpropagation through time (CPU twin;
the CUDA twin is bn_rnn_cuda.py, the NumPy spec reference.bn_rnn_forward/backward).

Design note: the BN-RNN's own module, named after its functions as every op module is (bn_lstm.py is
its LSTM sibling and explains the layout); BN_t over batch rows held by several threads comes from
batchnorm.py and the threads that meet within every step from common.py, so what is here is the RNN's
step, forward and backward, and the drivers that allocate and run them.

    h_t = tanh(BN_t(h_{t-1} Wh; gh, 0) + BN_t(x_t Wx; gx, 0) + b)
Running statistics, inference mode and masks (``lengths``) as in bn_lstm.py: BN_t counts the rows with
t < lengths[b]; backward ignores dy at padded rows, whose dL/d(preactivation) is computed and read by
nobody (the BN backward gives them zero dL/dhw, hence zero dL/dh_{t-1}).

Layout of the work (as bn_lstm.py, with one gate block and no cell): xw = x Wx and its BN_t over all T*B
rows once; the time loop split by batch rows into parts (each owning whole blocks of the batch,
threads.batch_blocks) that meet at one barrier per step (forward: every block's moments of hw_t;
backward: its sums of the BN backward, combined in block order), with exchange buffers by step parity (a part
may write step t+1's while another still reads step t's); after the BPTT loop, BN_t backward of the x
side and the weight-gradient GEMMs (gemm.projection_grads). Narrow inputs (I <= config.FOLD_MAX_I)
take bn_lstm.py's fold path: BN_t(x_t Wx) and its backward inside the loop from the batch mean and
covariance of x_t; no (T,B,H) array of the x side.

saved (the tuple bn_rnn_forward returns and bn_rnn_backward takes back):
    (xw (T,B,H), mean_x (T,H), rstd_x (T,H), hw (T,B,H), mean_h (T,H), rstd_h (T,H), y (T,B,H), lengths (B,),
     training); for a narrow input xw is replaced by xs (T,I+I*I) float64 (as in bn_lstm.py).
"""
import numpy as np
from numba import njit

from lnrnn.config import BN_PAR_MIN_WORK as PAR_MIN_WORK  # default of the trailing par_min argument
from lnrnn.config import CHUNK_GAP as GAP, FOLD_MAX_I, JIT, ROWS
from lnrnn.kernels.batchnorm import active_rows
from lnrnn.kernels.bn_cell_x import (cell_x_backward, cell_x_forward, fold_rows_dx, fold_rows_forward,
                                     fold_rows_sums, fold_step_backward, fold_step_stats, fold_v)
from lnrnn.kernels.bn_parts import (add_cols, block_packs, blocks_bwd_sums, blocks_moments, blocks_mul, part_rows,
                                    parts_stats, rows_bwd_dx, sum_parts)
from lnrnn.kernels.cpu.rows import rows_transposed, sigmoid_row
from lnrnn.kernels.cpu.threads import barrier, batch_blocks, chunk_bounds, n_parts, readonly, run_synced, unowned
from lnrnn.kernels.masks import as_lengths


@njit(**JIT)
def _forward_rows(r0, r1, hw_t, xn_t, gh, mean_h_t, rstd_h_t, y_t, z, kb):
    """Rows [r0, r1) of step t: y_t = tanh(gh (hw_t - mean) rstd + xn_t). hw_t, xn_t, y_t (B,H);
    gh, mean_h_t, rstd_h_t (H,); z (H,), kb (2H,) int32: scratch."""
    H = hw_t.shape[1]
    one = hw_t.dtype.type(1.0)
    two = hw_t.dtype.type(2.0)
    for b in range(r0, r1):
        hr, xr, yr = hw_t[b], xn_t[b], y_t[b]
        for j in range(H):
            z[j] = two * (gh[j] * (hr[j] - mean_h_t[j]) * rstd_h_t[j] + xr[j])
        sigmoid_row(z, z, kb)  # tanh(v) = 2 sigmoid(2v) - 1, vectorised
        for j in range(H):
            yr[j] = two * z[j] - one


def bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum, eps, par_min=PAR_MIN_WORK,
                   lengths=None):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b/gx/gh (H,), rm*/rv* (Ts,H) (updated in place
    when training), lengths (B,) or None -> y (T,B,H), hT (B,H), saved (see module docstring)."""
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    lengths = as_lengths(lengths, T, B)
    fold = 0 < I <= FOLD_MAX_I  # x Wx and BN_t of it row by row inside the loop (as bn_lstm.py)
    xs, xn, mean_x, rstd_x, saved0 = cell_x_forward(x, Wx, gx, b, rmx, rvx, training, momentum, eps, lengths, fold)
    hw = np.empty((T, B, H), dtype=dt)
    mean_h = np.empty((T, H), dtype=dt)
    rstd_h = np.empty((T, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    nblk = batch_blocks(B)
    n = min(n_parts(B, H, H, par_min), nblk)
    ex = np.empty((2, nblk, 2 * H + 1 + GAP), dtype=dt)  # the blocks' moments of hw_t, by step parity
    run_synced(_forward_part, n, xn, *readonly(lengths, h0, Wh, gh), (rmh, rvh, rmx, rvx), (training, momentum, eps),
               readonly(fold, x, xs, Wx, gx, b), (hw, mean_h, rstd_h, y, mean_x, rstd_x), ex)
    saved = (saved0, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training)
    return y, y[T - 1].copy(), saved


@njit(**ROWS)
def _forward_part(q, n, flags, xn, lengths, h0, Wh, gh, run, bn, xin, out, ex):
    """The forward time loop for batch rows [r0, r1), part q of n (threads.run_synced): per step those
    rows of h_{t-1} Wh and their moments, the barrier, the step's statistics from every part's moments
    (bn_parts.parts_stats), then the rows' output. xn (T,B,H) = BN_t(x Wx; gx, b), or with xin's fold set
    (1,B,H), where the part writes its rows of step t's BN_t(x_t Wx; gx, b) from xin = (fold, x (T,B,I),
    xs (T,I+I*I), Wx (I,H), gx, b (H,)) (bn_cell_x.fold_step_stats, fold_rows_forward); run = (rmh, rvh,
    rmx, rvx) (Ts,H); bn = (training, momentum, eps); out = (hw, mean_h, rstd_h, y, mean_x, rstd_x) as saved,
    the statistics written (and the running rows updated) by part 0; ex (2,nblk,>=2H+1): the exchange, a row
    per block of the batch (bn_parts)."""
    rmh, rvh, rmx, rvx = unowned(run[0]), unowned(run[1]), unowned(run[2]), unowned(run[3])
    hw, mean_h, rstd_h, y = unowned(out[0]), unowned(out[1]), unowned(out[2]), unowned(out[3])
    mean_x, rstd_x = unowned(out[4]), unowned(out[5])
    fold, x, xs, Wx, gx, b = xin[0], unowned(xin[1]), unowned(xin[2]), unowned(xin[3]), unowned(xin[4]), \
        unowned(xin[5])
    xn, lengths, h0, Wh, gh, ex = unowned(xn), unowned(lengths), unowned(h0), unowned(Wh), unowned(gh), unowned(ex)
    training, momentum, eps = bn
    T, B, H = hw.shape
    Ts, Tsx = rmh.shape[0], rmx.shape[0]
    nblk = ex.shape[1]
    k0, k1, r0, r1 = part_rows(B, nblk, n, q)  # its blocks and their rows
    P = block_packs(Wh, B, nblk)  # packed once for the blocks' row products (MKL; np.dot without it)
    z = np.empty(H, dtype=hw.dtype)
    kb = np.empty(2 * H, dtype=np.int32)  # scratch of sigmoid_row
    st = np.empty((4, H), dtype=hw.dtype)  # the step's statistics, parts q > 0 (part 0 writes saved's)
    for t in range(T):
        blocks_mul(h0 if t == 0 else y[t - 1], Wh, P, hw[t], B, nblk, k0, k1)
        mh, rh = (mean_h[t], rstd_h[t]) if q == 0 else (st[0], st[1])
        if fold:
            mx, rx = (mean_x[t], rstd_x[t]) if q == 0 else (st[2], st[3])
            tx = min(t, Tsx - 1)
            fold_step_stats(xs[t], Wx, active_rows(lengths, t), training, q == 0 and t < Tsx, rmx[tx], rvx[tx],
                            momentum, eps, mx, rx)
            fold_rows_forward(x[t], xs[t], Wx, gx, b, mx, rx, training, r0, r1, xn[0])
        if training:
            blocks_moments(hw[t], lengths, t, nblk, k0, k1, ex[t % 2])
            if not barrier(flags, q, n, t + 1):
                return
        th = min(t, Ts - 1)
        parts_stats(ex[t % 2], training, q == 0 and t < Ts, rmh[th], rvh[th], momentum, eps, mh, rh)
        _forward_rows(r0, r1, hw[t], xn[0] if fold else xn[t], gh, mh, rh, y[t], z, kb)


def bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, par_min=PAR_MIN_WORK):
    """dy (T,B,H), saved from bn_rnn_forward -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H),
    db (H,), dgx (H,), dgh (H,), all freshly allocated."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    fold = 0 < I <= FOLD_MAX_I  # then saved[0] is xs (T,I+I*I), and the x side's backward runs in the loop
    nblk = batch_blocks(B)
    n = min(n_parts(B, H, H, par_min), nblk)
    da = np.empty((1 if fold else T, B, H), dtype=dt)  # fold: step t's only
    dhw = np.empty((T, B, H), dtype=dt)
    dhn = np.zeros((B, H), dtype=dt)
    dgh = np.zeros(H, dtype=dt)
    # fold: dWx (I,H), dgx, db (H,) accumulated by column chunk, dx (T,B,I) by row chunk, in the loop
    dWx, dgx, db = np.zeros((I, H), dt), np.zeros(H, dt), np.zeros(H, dt)
    dx = np.zeros((T, B, I) if fold else (0, 0, 0), dt)
    xs = xw if fold else np.empty((T, 0))
    # the blocks' sums [sum da | sum da hhat | fold: P (I,H)], by step parity
    ex = np.empty((2, nblk, 2 * H + (I * H if fold else 0) + GAP), dtype=dt)
    run_synced(_backward_part, n, *readonly(dy, saved, Wh, gh), readonly(fold, x, xs, Wx, gx),
               (da, dhw, dhn, dgh, dWx, dgx, db, dx), ex)
    dx, dWx, dWh, db, dgx = cell_x_backward(fold, (dx, dWx, dgx, db), da, xw, mean_x, rstd_x, gx, training, lengths,
                                            dhw, x, h0, y, Wx)
    return dx, dhn, dWx, dWh, db, dgx, dgh


@njit(**ROWS)
def _backward_part(q, n, flags, dy, saved, Wh, gh, xin, grads, ex):
    """The backward time loop for batch rows [r0, r1), part q of n: per step those rows of dL/d(preactivation)
    da and this part's batch sums of the BN backwards, the barrier, every part's sums added, then the
    rows of dhw_t and dh_{t-1} = dhw_t Wh^T. saved: the forward's; xin = (fold, x (T,B,I), xs (T,I+I*I),
    Wx (I,H), gx (H,)); grads = (da (T,B,H), or (1,B,H) with fold, dhw (T,B,H), dhn (B,H), dgh (H,),
    dWx (I,H), dgx, db (H,), dx (T,B,I)): the part adds its column chunk of the sums into dgh (and with
    fold dWx, dgx, db) and writes its rows of dx; ex (2,nblk,>=2H(+I*H)): the exchange, a row per block."""
    mean_x, rstd_x, hw, mean_h, rstd_h = unowned(saved[1]), unowned(saved[2]), unowned(saved[3]), \
        unowned(saved[4]), unowned(saved[5])
    y, lengths, training = unowned(saved[6]), unowned(saved[7]), saved[8]
    da, dhw, dhn, dgh = unowned(grads[0]), unowned(grads[1]), unowned(grads[2]), unowned(grads[3])
    dWx, dgx, db, dx = unowned(grads[4]), unowned(grads[5]), unowned(grads[6]), unowned(grads[7])
    fold, x, xs, Wx, gx = xin[0], unowned(xin[1]), unowned(xin[2]), unowned(xin[3]), unowned(xin[4])
    dy, Wh, gh, ex = unowned(dy), unowned(Wh), unowned(gh), unowned(ex)
    T, B, H = dy.shape
    I = x.shape[2]
    dt = dy.dtype
    nblk = ex.shape[1]
    kb0, kb1, r0, r1 = part_rows(B, nblk, n, q)  # its blocks and their rows
    k0, k1 = chunk_bounds(H, n, q)  # the columns of the summed gradients this part adds
    WT = rows_transposed(Wh, 0, H)  # (H,H) = Wh^T
    PT = block_packs(WT, B, nblk)
    one = dt.type(1.0)
    s = np.empty(2 * H + I * H, dtype=dt)  # every part's sums added: [s1 | s2 | P (I,H)]
    V = np.empty((I, H), dtype=dt)         # fold: W gx rstd_x (bn_cell_x.fold_v)
    M = np.empty((I, I), dtype=dt)
    cv = np.empty(I, dtype=dt)
    for t in range(T - 1, -1, -1):
        da_t = da[0] if fold else da[t]
        for b in range(r0, r1):
            yr, dyr, dhr, dar = y[t, b], dy[t, b], dhn[b], da_t[b]
            for j in range(H):
                dar[j] = (dyr[j] + dhr[j]) * (one - yr[j] * yr[j])
        blocks_bwd_sums(da_t, hw[t], lengths, t, mean_h[t], rstd_h[t], nblk, kb0, kb1, ex[t % 2])
        if fold:
            fold_v(Wx, gx, rstd_x[t], V)
            for k in range(kb0, kb1):
                b0, b1 = chunk_bounds(B, nblk, k)
                fold_rows_sums(da_t, x[t], xs[t], lengths, t, b0, b1, V,
                               ex[t % 2, k, 2 * H:2 * H + I * H].reshape((I, H)), dx[t])
        if not barrier(flags, q, n, T - t):
            return
        sum_parts(ex[t % 2], 0, 2 * H + (I * H if fold else 0), s)
        s1, s2 = s[:H], s[H:2 * H]
        add_cols(dgh, s2, k0, k1)
        nt = active_rows(lengths, t)
        rows_bwd_dx(da_t, hw[t], lengths, t, r0, r1, mean_h[t], rstd_h[t], gh, s1, s2, nt, training, dhw[t])
        if fold:
            fold_step_backward(s1, s[2 * H:].reshape((I, H)), xs[t], Wx, V, mean_x[t], rstd_x[t], gx, k0, k1, training,
                               dWx, dgx, db, M, cv)
            if training:
                fold_rows_dx(x[t], xs[t], lengths, t, r0, r1, M, cv, nt, dx[t])
        blocks_mul(dhw[t], WT, PT, dhn, B, nblk, kb0, kb1)
