"""BN-RNN (Cooijmans et al. 2016): whole-sequence forward and backpropagation through time (CPU twin;
the CUDA twin is bn_rnn_cuda.py, the NumPy spec reference.bn_rnn_forward/backward).

Design note: the BN-RNN's own module, named after its functions as every op module is (bn_lstm.py is
its LSTM sibling and explains the layout); the column statistics come from batchnorm.py and the time
loop split by hidden units from common.py, so what is here is the RNN's step, forward and backward,
and the drivers that allocate and run them.

    h_t = tanh(BN_t(h_{t-1} Wh; gh, 0) + BN_t(x_t Wx; gx, 0) + b)
Running statistics, inference mode and masks (``lengths``) as in bn_lstm.py: BN_t counts the rows with
t < lengths[b]; backward ignores dy at padded rows, whose dL/d(preactivation) is computed and read by
nobody (the BN backward gives them zero dL/dhw, hence zero dL/dh_{t-1}).

Layout of the work (as bn_lstm.py, with one gate block): xw = x Wx and its BN_t over all T*B rows once;
the time loop split by hidden units into parts that meet at a barrier every step (common.py); after
the BPTT loop, BN_t backward of the x side and the weight-gradient GEMMs (common.projection_grads).
Narrow inputs (I <= config.FOLD_MAX_I) take bn_lstm.py's fold path: BN_t(x_t Wx) and its backward column
by column inside the loop from the batch mean and covariance of x_t; no (T,B,H) array of the x side.

saved (the tuple bn_rnn_forward returns and bn_rnn_backward takes back):
    (xw (T,B,H), mean_x (T,H), rstd_x (T,H), hw (T,B,H), mean_h (T,H), rstd_h (T,H), y (T,B,H), lengths (B,),
     training); for a narrow input xw is replaced by xs (T,I+I*I) float64 (as in bn_lstm.py).
"""
import numpy as np
from numba import njit

from lnrnn.config import BN_PAR_MIN_WORK as PAR_MIN_WORK  # default of the trailing par_min argument
from lnrnn.config import FOLD_MAX_I, JIT, ROWS
from lnrnn.kernels.batchnorm import (bn_col_backward, bn_col_stats, cell_x_backward, cell_x_forward, fold_col_backward,
                                     fold_col_forward)
from lnrnn.kernels.blas import rec_pack
from lnrnn.kernels.common import (barrier, block_columns, chunk_bounds, n_parts, part_dh, part_hw, rows_transposed,
                                  run_synced, sigmoid_row)
from lnrnn.kernels.masks import as_lengths


@njit(**JIT)
def _forward_step(j0, j1, lengths, t, hw_t, xn_t, gh, bn, update, run_t, out_t):
    """Step t, hidden units [j0, j1): y_t = tanh(BN(hw_t; gh, 0) + xn_t). hw_t, xn_t (B,H); lengths (B,);
    bn = (training, momentum, eps); update: whether the step has a running row, run_t = (rmh_r, rvh_r)
    (H,) that row; out_t = (mean_h_t, rstd_h_t (H,), y_t (B,H)), written for the chunk's columns only."""
    training, momentum, eps = bn
    rmh_r, rvh_r = run_t
    mean_h_t, rstd_h_t, y_t = out_t
    B = hw_t.shape[0]
    w = j1 - j0
    one = hw_t.dtype.type(1.0)
    two = hw_t.dtype.type(2.0)
    z = np.empty(w, dtype=hw_t.dtype)
    kb = np.empty(2 * w, dtype=np.int32)  # scratch of sigmoid_row
    bn_col_stats(hw_t, lengths, t, j0, j1, training, update, rmh_r, rvh_r, momentum, eps, mean_h_t, rstd_h_t)
    gq, mq, rq = gh[j0:j1], mean_h_t[j0:j1], rstd_h_t[j0:j1]  # 0-based loops over slices (bn_col_stats)
    for b in range(B):
        hr, xr, yr = hw_t[b, j0:j1], xn_t[b, j0:j1], y_t[b, j0:j1]
        for j in range(w):
            z[j] = two * (gq[j] * (hr[j] - mq[j]) * rq[j] + xr[j])
        sigmoid_row(z, z, kb)  # tanh(v) = 2 sigmoid(2v) - 1, vectorised
        for j in range(w):
            yr[j] = two * z[j] - one


def bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum, eps, par_min=PAR_MIN_WORK,
                   lengths=None):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b/gx/gh (H,), rm*/rv* (Ts,H) (updated in place
    when training), lengths (B,) or None -> y (T,B,H), hT (B,H), saved (see module docstring)."""
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    lengths = as_lengths(lengths, T, B)
    fold = 0 < I <= FOLD_MAX_I  # x Wx and BN_t of it column by column inside the loop (as bn_lstm.py)
    xs, xn, mean_x, rstd_x, saved0 = cell_x_forward(x, Wx, gx, b, rmx, rvx, training, momentum, eps, lengths, fold)
    hw = np.empty((T, B, H), dtype=dt)
    mean_h = np.empty((T, H), dtype=dt)
    rstd_h = np.empty((T, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    run_synced(_forward_part, n_parts(B, H, H, par_min), xn, lengths, h0, Wh, gh, (rmh, rvh, rmx, rvx),
               (training, momentum, eps), (fold, x, xs, Wx, gx, b), (hw, mean_h, rstd_h, y, mean_x, rstd_x))
    saved = (saved0, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training)
    return y, y[T - 1].copy(), saved


@njit(**ROWS)
def _forward_part(q, n, flags, xn, lengths, h0, Wh, gh, run, bn, xin, out):
    """The forward time loop for hidden units [j0, j1), part q of n: per step the columns j0:j1 of
    h_{t-1} Wh, those units' BN and output, then the step's barrier. xn (T,B,H) = BN_t(x Wx; gx, b), or
    with xin's fold set (1,B,H), where the part writes its columns of step t's BN_t(x_t Wx; gx, b) from
    xin = (fold, x (T,B,I), xs (T,I+I*I), Wx (I,H), gx, b (H,)) (batchnorm.fold_col_forward);
    run = (rmh, rvh, rmx, rvx) (Ts,H); bn = (training, momentum, eps);
    out = (hw, mean_h, rstd_h, y, mean_x, rstd_x) as saved."""
    rmh, rvh, rmx, rvx = run
    hw, mean_h, rstd_h, y, mean_x, rstd_x = out
    fold, x, xs, Wx, gx, b = xin
    training, momentum, eps = bn
    T, B, H = hw.shape
    Ts, Tsx = rmh.shape[0], rmx.shape[0]
    j0, j1 = chunk_bounds(H, n, q)
    Wq = block_columns(Wh, 1, j0, j1)  # (H,w)
    P = rec_pack(Wq, B)
    hq = np.empty((B, j1 - j0), dtype=xn.dtype)  # (n > 1)
    for t in range(T):
        if t == 0:
            part_hw(h0, Wq, P, hq, hw[t], 1, j0, j1)
        else:
            part_hw(y[t - 1], Wq, P, hq, hw[t], 1, j0, j1)
        r = min(t, Ts - 1)
        if fold:
            rx = min(t, Tsx - 1)
            fold_col_forward(x[t], xs[t], lengths, t, Wx, gx, b, j0, j1, training, t < Tsx, rmx[rx], rvx[rx],
                             momentum, eps, mean_x[t], rstd_x[t], xn[0])
        _forward_step(j0, j1, lengths, t, hw[t], xn[0] if fold else xn[t], gh, bn, t < Ts, (rmh[r], rvh[r]),
                      (mean_h[t], rstd_h[t], y[t]))
        if not barrier(flags, q, n, t + 1):
            return


@njit(**JIT)
def _backward_step(j0, j1, lengths, t, dy_t, dhn, sv_t, gh, training, grads, scratch):
    """Step t backward, hidden units [j0, j1). dy_t, dhn (B,H); sv_t = the step's saved (y_t, hw_t (B,H),
    mean_h_t, rstd_h_t (H,)); grads = (da_t, dhw_t (B,H): the chunk's columns assigned, dgh (H,):
    accumulated); scratch = (dbh, s1, s2) (H,). A padded row (t >= lengths[b]) is outside the loss: the BN
    backward ignores its da_t (left as computed, read by nobody) and gives it zero dhw_t, hence zero
    dh_{t-1}."""
    y_t, hw_t, mean_h_t, rstd_h_t = sv_t
    da_t, dhw_t, dgh = grads
    dbh, s1, s2 = scratch
    B = hw_t.shape[0]
    one = hw_t.dtype.type(1.0)
    for b in range(B):  # 0-based loops over slices (see batchnorm.bn_col_stats)
        yr, dyr, dhr, dar = y_t[b, j0:j1], dy_t[b, j0:j1], dhn[b, j0:j1], da_t[b, j0:j1]
        for j in range(j1 - j0):
            dar[j] = (dyr[j] + dhr[j]) * (one - yr[j] * yr[j])
    bn_col_backward(da_t, hw_t, lengths, t, mean_h_t, rstd_h_t, gh, j0, j1, training, dhw_t, dgh, dbh, s1, s2)


def bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, par_min=PAR_MIN_WORK):
    """dy (T,B,H), saved from bn_rnn_forward -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H),
    db (H,), dgx (H,), dgh (H,), all freshly allocated."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    fold = 0 < I <= FOLD_MAX_I  # then saved[0] is xs (T,I+I*I), and the x side's backward runs in the loop
    n = n_parts(B, H, H, par_min)
    da = np.empty((1 if fold else T, B, H), dtype=dt)  # fold: step t's only
    dhw = np.empty((T, B, H), dtype=dt)
    dhn = np.zeros((B, H), dtype=dt)
    dgh = np.zeros(H, dtype=dt)
    scratch = (np.zeros(H, dt), np.empty(H, dt), np.empty(H, dt))  # dbh (= db, unused), s1, s2
    # fold: dWx (I,H), dgx, db (H,) accumulated by column owners; dxp (n,T,B,I): each part's share of dx
    dWx, dgx, db = np.zeros((I, H), dt), np.zeros(H, dt), np.zeros(H, dt)
    dxp = np.zeros((n, T, B, I) if fold else (1, 1, 1, 1), dt)
    xs = xw if fold else np.empty((T, 0))
    run_synced(_backward_part, n, dy, saved, Wh, gh, (fold, x, xs, Wx, gx), (da, dhw, dhn, dgh, dWx, dgx, db, dxp),
               scratch)
    dx, dWx, dWh, db, dgx = cell_x_backward(fold, (dWx, dgx, db), dxp, da, xw, mean_x, rstd_x, gx, training, lengths,
                                            dhw, x, h0, y, Wx)
    return dx, dhn, dWx, dWh, db, dgx, dgh


@njit(**ROWS)
def _backward_part(q, n, flags, dy, saved, Wh, gh, xin, grads, scratch):
    """The backward time loop for hidden units [j0, j1), part q of n: per step those units' columns of
    da and dhw, the barrier, then units j0:j1 of dh_{t-1} = dhw_t Wh^T. saved: the forward's;
    xin = (fold, x (T,B,I), xs (T,I+I*I), Wx (I,H), gx (H,)); grads = (da (T,B,H), or (1,B,H) with fold,
    dhw (T,B,H), dhn (B,H), dgh (H,), dWx (I,H), dgx, db (H,), dxp (n,T,B,I)): with fold the part also runs
    its columns' x-side BN backward at every step (batchnorm.fold_col_backward: dWx, dgx, db and its share
    dxp[q] of dx); scratch (dbh, s1, s2) (H,) shared by column."""
    _, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training = saved
    da, dhw, dhn, dgh, dWx, dgx, db, dxp = grads
    fold, x, xs, Wx, gx = xin
    T, B, H = dy.shape
    j0, j1 = chunk_bounds(H, n, q)
    WTq = rows_transposed(Wh, j0, j1)  # (H,w)
    PT = rec_pack(WTq, B)
    dq = np.empty((B, j1 - j0), dtype=dy.dtype)
    for t in range(T - 1, -1, -1):
        _backward_step(j0, j1, lengths, t, dy[t], dhn, (y[t], hw[t], mean_h[t], rstd_h[t]), gh, training,
                       (da[0] if fold else da[t], dhw[t], dgh), scratch)
        if fold:
            fold_col_backward(da[0], x[t], xs[t], lengths, t, Wx, mean_x[t], rstd_x[t], gx, j0, j1, training, dWx,
                              dgx, db, dxp[q, t])
        if not barrier(flags, q, n, T - t):
            return
        part_dh(dhw[t], WTq, PT, dq, dhn, j0, j1)
