"""BN-LSTM (Cooijmans et al. 2016): whole-sequence forward and backpropagation through time (CPU twin;
the CUDA twin is bn_lstm_cuda.py, the NumPy spec reference.bn_lstm_forward/backward).

Design note: one module per op, named after its functions (bn_lstm_forward/bn_lstm_backward here, as
lstm.py holds lstm_forward/lstm_backward), on both sides: bn_lstm.py / bn_lstm_cuda.py, bn_rnn.py /
bn_rnn_cuda.py. What the two BN cells share lives where both already look: the column statistics and
their backward in batchnorm.py (bn_col_stats, bn_col_backward, and bn_forward/bn_backward for the x
side), the time loop split by hidden units in common.py (n_parts, block_columns, part_hw, part_dh,
run_synced, barrier). This file holds only what is the LSTM's: its step, forward and backward, and the
drivers that allocate and run them.

Equations, gate order [i|f|g|o] and shape letters: see ``lnrnn.kernels``.
    a = BN_t(h Wh; gh, 0) + BN_t(x Wx; gx, 0) + b,  c_t = s(f) c_{t-1} + s(i) tanh(g),
    h_t = s(o) tanh(BN_t(c_t; gc, bc))
BN_t normalizes each feature over the batch with separate statistics per step t (``batchnorm.py``); the
running statistics rm*/rv* (Ts,G) or (Ts,H) follow the rules there: training updates row t in place for
t < Ts (steps t >= Ts are not recorded; the layer grows the arrays first), inference uses row
min(t, Ts-1). Inference mode (training=False) uses the running statistics, so saved mean/rstd hold the
constants actually used and the backward is the exact derivative of the affine normalization.

Layout of the work
    1. xw = x @ Wx over all T*B rows (one GEMM); BN_t of xw for all T at once (prange over chunks of
       steps). The gate bias b is folded in as the bias of that BN: xn = BN_t(xw; gx, b).
    2. Time loop, split into parts by hidden units (common.py: the columns j, H+j, 2H+j, 3H+j of hw, the
       gates, c_t[:, j] and their statistics belong to unit j): per step a part computes its columns of
       h_{t-1} Wh (its four gate blocks of Wh, gathered once), its units' step, then the step's barrier.
    3. Backward runs the same parts in reverse time: per step its units' gradients and columns of
       dhw_t, the barrier, then its units of dh_{t-1} = dhw_t @ Wh^T. Gain gradients are accumulated
       per column, and every column belongs to one part: no shared +=. After the loop: BN_t backward
       of the x side over all T (gives dxw, dgx and db), then dWx = X^T dxw, dx = dxw Wx^T and
       dWh = Hprev^T dhw, each one GEMM over all T*B rows (common.projection_grads).
    Narrow inputs (I <= config.FOLD_MAX_I: pixel MNIST I=1, strokes I=3) skip step 1 and the x side of
    step 3: BN_t(x_t Wx) follows from the mean and covariance of x_t over the batch (batchnorm.fold_stats,
    O(B I^2) per step, before the loop), so each part computes its columns of it inside the loop
    (batchnorm.fold_col_forward: the x side's statistics and running rows too), and backward runs its
    columns' x-side BN backward at every step (fold_col_backward: dWx, dgx, db and the part's share of dx
    from two batch sums per column). x Wx, BN_t(x Wx) and dL/dx Wx ((T,B,G) each, 100 MB at S1) are never
    stored, and only dWh = Hprev^T dhw is left for after the loop. (S1 BN-LSTM step, timed in turns at
    load 3.3: 216 -> 197 ms, the fastest of 7; see README.)

Masks (``lengths=None`` or (B,) int64, the rules of batchnorm.py): at step t only the rows with
t < lengths[b] count in the statistics of every BN_t (x side, h side, cell); padded rows run on
with those statistics (finite values nobody should read; hT and cT are step T-1's, for every row).
Backward ignores dy at a padded (row, step): every BN_t backward leaves the row out of its sums and
gives it zero dL/d(input), so dL/dh_{t-1} of the row is zero, and the step passes it no dc_{t-1};
nothing of it reaches any gradient (its dL/d(preactivation), computed on the way, is read by nobody).

Graves's gate clip (``clip`` of bn_lstm_backward; Graves 2013, sec. 4; as in lstm.py): at every step
dL/da, the derivative with respect to the gate preactivations, is clipped element-wise to
[-clip, clip] before the h-side BN_t backward, the x-side one (after the loop) and the bias gradient
read it; the carried dL/dc_{t-1} is not clipped. 0 or inf: off, the unclipped arithmetic bit for bit.
Not the gradient of a loss, so no finite-difference check: reference.bn_lstm_backward is its spec.

saved (the tuple bn_lstm_forward returns and bn_lstm_backward takes back):
    xw      (T,B,G)  x @ Wx, before BN; for a narrow input (I <= config.FOLD_MAX_I) instead
            (T,I+I*I) float64, per step the batch mean and covariance of x_t (batchnorm.fold_stats;
            zeros in inference). The CUDA twin always saves x @ Wx; each backward reads its own.
    mean_x  (T,G)    statistics used for xw (batch, or running in inference)
    rstd_x  (T,G)    1/sqrt(var + eps) for xw
    hw      (T,B,G)  h_{t-1} @ Wh, before BN
    mean_h  (T,G)
    rstd_h  (T,G)
    gates   (T,B,G)  activated gates [i|f|g|o]
    c       (T,B,H)  cell state c_t (the carried, unnormalized one)
    mean_c  (T,H)
    rstd_c  (T,H)
    tc      (T,B,H)  tanh(BN_t(c_t; gc, bc))
    y       (T,B,H)  h_t (the same array the forward returns as y)
    lengths (B,)     int64, the masks (T for every row when the forward got None)
    training (bool)  the mode the statistics came from
"""
import numpy as np
from numba import njit

from lnrnn.config import BN_PAR_MIN_WORK as PAR_MIN_WORK  # default of the trailing par_min argument
from lnrnn.config import FOLD_MAX_I, JIT, ROWS
from lnrnn.kernels.batchnorm import (active_rows, bn_col_backward, bn_col_stats, cell_x_backward, cell_x_forward,
                                     fold_col_backward, fold_col_forward)
from lnrnn.kernels.blas import rec_pack
from lnrnn.kernels.common import (barrier, block_columns, chunk_bounds, n_parts, part_dh, part_hw, rows_transposed,
                                  run_synced, sigmoid_row)
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.masks import as_lengths


@njit(**JIT)
def _forward_step(j0, j1, lengths, t, hw_t, xn_t, cprev, p, bn, update, run_t, out_t):
    """Step t, hidden units [j0, j1). hw_t, xn_t (B,G), cprev (B,H); lengths (B,); p = (gh (G,), gc, bc (H,));
    bn = (training, momentum, eps); update = (update_h, update_c): whether the step has running rows;
    run_t = (rmh_r, rvh_r (G,), rmc_r, rvc_r (H,)): those rows;
    out_t = (mean_h_t, rstd_h_t (G,), gates_t (B,G), c_t (B,H), mean_c_t, rstd_c_t (H,), tc_t, y_t (B,H)),
            written for this chunk's columns only."""
    gh, gc, bc = p
    training, momentum, eps = bn
    update_h, update_c = update
    rmh_r, rvh_r, rmc_r, rvc_r = run_t
    mean_h_t, rstd_h_t, gates_t, c_t, mean_c_t, rstd_c_t, tc_t, y_t = out_t
    B, G = hw_t.shape
    H = G // 4
    w = j1 - j0
    one = hw_t.dtype.type(1.0)
    two = hw_t.dtype.type(2.0)
    z = np.empty(4 * w, dtype=hw_t.dtype)  # one row's preactivations of this chunk, blocks [i|f|g|o]
    kb = np.empty(8 * w, dtype=np.int32)   # scratch of sigmoid_row
    for q in range(4):
        bn_col_stats(hw_t, lengths, t, q * H + j0, q * H + j1, training, update_h, rmh_r, rvh_r, momentum, eps,
                     mean_h_t, rstd_h_t)
    # Loops index slices from 0 (see batchnorm.bn_col_stats: an offset index k0 + j keeps them scalar).
    gcq, bcq, mcq, rcq = gc[j0:j1], bc[j0:j1], mean_c_t[j0:j1], rstd_c_t[j0:j1]
    for b in range(B):
        hr = hw_t[b]
        xr = xn_t[b]
        for q in range(4):
            o = q * H + j0
            hq, xq, gq, mq, rq = hr[o:o + w], xr[o:o + w], gh[o:o + w], mean_h_t[o:o + w], rstd_h_t[o:o + w]
            zq = z[q * w:(q + 1) * w]
            for j in range(w):
                zq[j] = gq[j] * (hq[j] - mq[j]) * rq[j] + xq[j]
        zi, zf, zg, zo = z[:w], z[w:2 * w], z[2 * w:3 * w], z[3 * w:]
        for j in range(w):  # the g block as tanh(v) = 2 sigmoid(2v) - 1
            zg[j] *= two
        sigmoid_row(z, z, kb)  # vectorised (lnrnn.kernels.common); libm's scalar expf/tanhf cost 3-6x more
        ar = gates_t[b]
        ai, af, ag, ao = ar[j0:j1], ar[H + j0:H + j1], ar[2 * H + j0:2 * H + j1], ar[3 * H + j0:3 * H + j1]
        cp = cprev[b, j0:j1]
        cr = c_t[b, j0:j1]
        for j in range(w):
            i = zi[j]
            f = zf[j]
            g = two * zg[j] - one
            ai[j] = i
            af[j] = f
            ag[j] = g
            ao[j] = zo[j]
            cr[j] = f * cp[j] + i * g
    bn_col_stats(c_t, lengths, t, j0, j1, training, update_c, rmc_r, rvc_r, momentum, eps, mean_c_t, rstd_c_t)
    zc = z[:w]
    for b in range(B):
        cr = c_t[b, j0:j1]
        for j in range(w):
            zc[j] = two * (gcq[j] * (cr[j] - mcq[j]) * rcq[j] + bcq[j])
        sigmoid_row(zc, zc, kb)
        tr = tc_t[b, j0:j1]
        yr = y_t[b, j0:j1]
        ao = gates_t[b, 3 * H + j0:3 * H + j1]
        for j in range(w):
            tcv = two * zc[j] - one
            tr[j] = tcv
            yr[j] = ao[j] * tcv


def bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh, rmc, rvc,
                    training, momentum, eps, par_min=PAR_MIN_WORK, lengths=None):
    """x (T,B,I), h0/c0 (B,H), Wx (I,G), Wh (H,G), b/gx/gh (G,), gc/bc (H,),
    rmx/rvx/rmh/rvh (Ts,G), rmc/rvc (Ts,H) (updated in place when training), lengths (B,) or None
    -> y (T,B,H), hT (B,H), cT (B,H), saved (see module docstring)."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    lengths = as_lengths(lengths, T, B)
    fold = 0 < I <= FOLD_MAX_I  # x Wx and BN_t of it column by column inside the loop, from xs
    xs, xn, mean_x, rstd_x, saved0 = cell_x_forward(x, Wx, gx, b, rmx, rvx, training, momentum, eps, lengths, fold)
    hw = np.empty((T, B, G), dtype=dt)
    mean_h = np.empty((T, G), dtype=dt)
    rstd_h = np.empty((T, G), dtype=dt)
    gates = np.empty((T, B, G), dtype=dt)
    c = np.empty((T, B, H), dtype=dt)
    mean_c = np.empty((T, H), dtype=dt)
    rstd_c = np.empty((T, H), dtype=dt)
    tc = np.empty((T, B, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    run_synced(_forward_part, n_parts(B, H, G, par_min), xn, lengths, h0, c0, Wh, (gh, gc, bc),
               (rmh, rvh, rmc, rvc, rmx, rvx), (training, momentum, eps), (fold, x, xs, Wx, gx, b),
               (hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, mean_x, rstd_x))
    saved = (saved0, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


@njit(**ROWS)
def _forward_part(q, n, flags, xn, lengths, h0, c0, Wh, p, run, bn, xin, out):
    """The forward time loop for hidden units [j0, j1), part q of n (common.run_synced): per step this
    part's columns of the recurrent GEMM, h_{t-1} @ Wh[:, its four gate blocks], then its units' BN,
    gates, cell and output; then it waits at the step's barrier, as the next product needs all of h_t.
    xn (T,B,G) = BN_t(x Wx; gx, b), or with xin's fold set (1,B,G), where the part writes its columns of
    step t's BN_t(x_t Wx; gx, b) from xin = (fold, x (T,B,I), xs (T,I+I*I), Wx (I,G), gx, b (G,))
    (batchnorm.fold_col_forward; with mean_x, rstd_x and the running rows rmx, rvx);
    p = (gh, gc, bc); run = (rmh, rvh (Ts,G), rmc, rvc (Ts,H), rmx, rvx (Ts,G)); bn = (training, momentum,
    eps); out = (hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, mean_x, rstd_x) as saved."""
    rmh, rvh, rmc, rvc, rmx, rvx = run
    hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, mean_x, rstd_x = out
    fold, x, xs, Wx, gx, b = xin
    training, momentum, eps = bn
    T, B, G = hw.shape
    H = G // 4
    Tsh, Tsc, Tsx = rmh.shape[0], rmc.shape[0], rmx.shape[0]
    j0, j1 = chunk_bounds(H, n, q)
    w = j1 - j0
    Wq = block_columns(Wh, 4, j0, j1)   # (H,4w); equals Wh when n == 1
    P = rec_pack(Wq, B)                 # packed once for the B-row products (MKL; np.dot without it)
    hq = np.empty((B, 4 * w), dtype=xn.dtype)  # this part's columns of h_{t-1} Wh (n > 1)
    for t in range(T):
        if t == 0:
            part_hw(h0, Wq, P, hq, hw[t], 4, j0, j1)
        else:
            part_hw(y[t - 1], Wq, P, hq, hw[t], 4, j0, j1)
        cprev = c0 if t == 0 else c[t - 1]
        rh, rc = min(t, Tsh - 1), min(t, Tsc - 1)
        if fold:
            rx = min(t, Tsx - 1)
            for g in range(4):
                fold_col_forward(x[t], xs[t], lengths, t, Wx, gx, b, g * H + j0, g * H + j1, training, t < Tsx,
                                 rmx[rx], rvx[rx], momentum, eps, mean_x[t], rstd_x[t], xn[0])
        _forward_step(j0, j1, lengths, t, hw[t], xn[0] if fold else xn[t], cprev, p, bn, (t < Tsh, t < Tsc),
                      (rmh[rh], rvh[rh], rmc[rc], rvc[rc]),
                      (mean_h[t], rstd_h[t], gates[t], c[t], mean_c[t], rstd_c[t], tc[t], y[t]))
        if not barrier(flags, q, n, t + 1):
            return


@njit(**JIT)
def _backward_step(j0, j1, lengths, t, dy_t, dhn, dcarry, sv_t, p, training, clip, grads, scratch):
    """Step t backward, hidden units [j0, j1). dy_t, dhn (B,H): upstream and recurrent dh;
    dcarry (B,H): dc from step t+1 in, dc_{t-1} out; sv_t = the step's saved (gates_t (B,G), c_t, cprev
    (B,H), mean_c_t, rstd_c_t (H,), tc_t (B,H), hw_t (B,G), mean_h_t, rstd_h_t (G,)); p = (gh (G,), gc (H,));
    clip > 0: Graves's bound on da_t (0: off);
    grads = (da_t, dhw_t (B,G): the chunk's columns assigned; dgh (G,), dgc, dbc (H,): accumulated);
    scratch = (dcn, dcbn (B,H), dbh (G,), s1c, s2c (H,), s1h, s2h (G,)). A padded row (t >= lengths[b]) is
    outside the loss: the BN backwards ignore its dy and give it zero dL/d(input), and it passes zero
    dc_{t-1} on; its da_t is left as computed and read by nobody."""
    gates_t, c_t, cprev, mean_c_t, rstd_c_t, tc_t, hw_t, mean_h_t, rstd_h_t = sv_t
    gh, gc = p
    da_t, dhw_t, dgh, dgc, dbc = grads
    dcn, dcbn, dbh, s1c, s2c, s1h, s2h = scratch
    B, G = hw_t.shape
    H = G // 4
    w = j1 - j0
    one = hw_t.dtype.type(1.0)
    zero = hw_t.dtype.type(0.0)
    for b in range(B):  # 0-based loops over slices (see batchnorm.bn_col_stats)
        tr, dyr, dhr, dr = tc_t[b, j0:j1], dy_t[b, j0:j1], dhn[b, j0:j1], dcn[b, j0:j1]
        ao = gates_t[b, 3 * H + j0:3 * H + j1]
        for j in range(w):
            dr[j] = (dyr[j] + dhr[j]) * ao[j] * (one - tr[j] * tr[j])
    bn_col_backward(dcn, c_t, lengths, t, mean_c_t, rstd_c_t, gc, j0, j1, training, dcbn, dgc, dbc, s1c, s2c)
    for b in range(B):
        ar = gates_t[b]
        dar = da_t[b]
        ai, af, ag, ao = ar[j0:j1], ar[H + j0:H + j1], ar[2 * H + j0:2 * H + j1], ar[3 * H + j0:3 * H + j1]
        di, df, dg, do = dar[j0:j1], dar[H + j0:H + j1], dar[2 * H + j0:2 * H + j1], dar[3 * H + j0:3 * H + j1]
        tr, dyr, dhr, cp = tc_t[b, j0:j1], dy_t[b, j0:j1], dhn[b, j0:j1], cprev[b, j0:j1]
        dcr, dbr = dcarry[b, j0:j1], dcbn[b, j0:j1]
        for j in range(w):
            i = ai[j]
            f = af[j]
            g = ag[j]
            o = ao[j]
            dc = dcr[j] + dbr[j]
            di[j] = dc * g * i * (one - i)
            df[j] = dc * cp[j] * f * (one - f)
            dg[j] = dc * i * (one - g * g)
            do[j] = (dyr[j] + dhr[j]) * tr[j] * o * (one - o)
            dcr[j] = dc * f
        if clip > zero:  # Graves: clip this row's dL/da before the BN backwards read it (dcr stays unclipped)
            for j in range(w):
                di[j] = min(max(di[j], -clip), clip)
                df[j] = min(max(df[j], -clip), clip)
                dg[j] = min(max(dg[j], -clip), clip)
                do[j] = min(max(do[j], -clip), clip)
    for q in range(4):
        bn_col_backward(da_t, hw_t, lengths, t, mean_h_t, rstd_h_t, gh, q * H + j0, q * H + j1, training,
                        dhw_t, dgh, dbh, s1h, s2h)
    if active_rows(lengths, t) < B:  # padded rows: no dc reaches step t-1 (after the loops above: a test
        for b in range(B):           # of every row inside them cost 7% of the backward time loop)
            if t >= lengths[b]:
                dcr = dcarry[b, j0:j1]
                for j in range(w):
                    dcr[j] = zero


def bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, par_min=PAR_MIN_WORK, clip=0.0):
    """dy (T,B,H) = dL/dy, saved from bn_lstm_forward, inputs as in the forward
    -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G), db (G,), dgx (G,), dgh (G,),
       dgc (H,), dbc (H,), all freshly allocated. clip: Graves's bound on dL/d(preactivation) (module
       docstring); 0 or inf: off."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    fold = 0 < I <= FOLD_MAX_I  # then saved[0] is xs (T,I+I*I), and the x side's backward runs in the loop
    n = n_parts(B, H, G, par_min)
    da = np.empty((1 if fold else T, B, G), dtype=dt)  # dL/d(preactivation) = dL/d BN_t(xw; gx, b); fold: step t's
    dhw = np.empty((T, B, G), dtype=dt)  # dL/d(h_{t-1} Wh)
    dhn = np.zeros((B, H), dtype=dt)     # dL/dh_t arriving from step t+1; ends as dh0
    dcarry = np.zeros((B, H), dtype=dt)  # dL/dc_t arriving from step t+1; ends as dc0
    dgh = np.zeros(G, dtype=dt)
    dgc = np.zeros(H, dtype=dt)
    dbc = np.zeros(H, dtype=dt)
    scratch = (np.empty((B, H), dt), np.empty((B, H), dt), np.zeros(G, dt),  # dcn, dcbn, dbh (= db, unused)
               np.empty(H, dt), np.empty(H, dt), np.empty(G, dt), np.empty(G, dt))  # s1c, s2c, s1h, s2h
    clip = dt.type(clip_bound(clip))  # 0: off
    # fold: dWx (I,G), dgx, db (G,) accumulated by column owners; dxp (n,T,B,I): each part's share of dx
    dWx, dgx, db = np.zeros((I, G), dt), np.zeros(G, dt), np.zeros(G, dt)
    dxp = np.zeros((n, T, B, I) if fold else (1, 1, 1, 1), dt)
    xs = xw if fold else np.empty((T, 0))  # (T,I+I*I) with fold, else unused
    run_synced(_backward_part, n, dy, saved, c0, Wh, (gh, gc), clip, (fold, x, xs, Wx, gx),
               (da, dhw, dhn, dcarry, dgh, dgc, dbc, dWx, dgx, db, dxp), scratch)
    dx, dWx, dWh, db, dgx = cell_x_backward(fold, (dWx, dgx, db), dxp, da, xw, mean_x, rstd_x, gx, training, lengths,
                                            dhw, x, h0, y, Wx)
    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dgc, dbc


@njit(**ROWS)
def _backward_part(q, n, flags, dy, saved, c0, Wh, p, clip, xin, grads, scratch):
    """The backward time loop for hidden units [j0, j1), part q of n: per step this part's units and
    gate columns, the barrier (the product needs every column of dhw_t), then its units of
    dh_{t-1} = dhw_t Wh^T. saved: the forward's; p = (gh, gc); clip: as _backward_step's;
    xin = (fold, x (T,B,I), xs (T,I+I*I), Wx (I,G), gx (G,)); grads = (da (T,B,G), or (1,B,G) with fold, dhw (T,B,G),
    dhn, dcarry (B,H), dgh (G,), dgc, dbc (H,), dWx (I,G), dgx, db (G,), dxp (n,T,B,I)): with fold the part
    also runs its columns' x-side BN backward at every step (batchnorm.fold_col_backward: dWx, dgx, db
    and its share dxp[q] of dx); scratch as _backward_step's, shared: each part touches only its own
    columns."""
    _, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, _, lengths, training = saved
    da, dhw, dhn, dcarry, dgh, dgc, dbc, dWx, dgx, db, dxp = grads
    fold, x, xs, Wx, gx = xin
    T, B, H = dy.shape
    j0, j1 = chunk_bounds(H, n, q)
    WTq = rows_transposed(Wh, j0, j1)  # (G,w): the columns of Wh^T this part's units need
    PT = rec_pack(WTq, B)
    dq = np.empty((B, j1 - j0), dtype=dy.dtype)  # this part's units of dh_{t-1} (n > 1)
    for t in range(T - 1, -1, -1):
        cprev = c0 if t == 0 else c[t - 1]
        _backward_step(j0, j1, lengths, t, dy[t], dhn, dcarry,
                       (gates[t], c[t], cprev, mean_c[t], rstd_c[t], tc[t], hw[t], mean_h[t], rstd_h[t]), p, training,
                       clip, (da[0] if fold else da[t], dhw[t], dgh, dgc, dbc), scratch)
        if fold:
            for g in range(4):
                fold_col_backward(da[0], x[t], xs[t], lengths, t, Wx, mean_x[t], rstd_x[t], gx, g * H + j0,
                                  g * H + j1, training, dWx, dgx, db, dxp[q, t])
        if not barrier(flags, q, n, T - t):
            return
        part_dh(dhw[t], WTq, PT, dq, dhn, j0, j1)
