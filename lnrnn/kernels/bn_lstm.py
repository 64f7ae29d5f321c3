"""BN-LSTM (Cooijmans et al. 2016): whole-sequence forward and backpropagation through time (CPU twin;
the CUDA twin is bn_lstm_cuda.py, the NumPy spec reference.bn_lstm_forward/backward).

Design note: one module per op, named after its functions (bn_lstm_forward/bn_lstm_backward here, as
lstm.py holds lstm_forward/lstm_backward), on both sides: bn_lstm.py / bn_lstm_cuda.py, bn_rnn.py /
bn_rnn_cuda.py. What the two BN cells share lives where both already look: BN_t over batch rows held
by several threads and the fold path in batchnorm.py (rows_moments, parts_stats, rows_bwd_sums,
rows_bwd_dx, fold_*; bn_forward/bn_backward for a wide x side), the threads that meet within every step
in common.py (n_parts, run_synced, barrier). This file holds only what is the LSTM's: its step, forward
and backward, and the drivers that allocate and run them.

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
    2. Time loop, split into parts by batch rows (threads.py), one per thread for the whole sequence,
       each owning whole blocks of the batch (threads.batch_blocks: fixed by B, whatever the thread
       count). Per step a part computes its blocks' rows of h_{t-1} Wh (one packed product per block)
       and each block's moments (count, mean, M2 per column), meets the others at a barrier, and every
       part combines all blocks' moments in block order into BN_t's statistics (bn_parts.parts_stats:
       Chan et al.'s pairwise rule, as exact as a two-pass variance; part 0 writes them to saved and
       updates the running rows); then its rows' gates and cell, the cell's moments, a second barrier,
       the cell's statistics, its rows' output.
    3. Backward runs the same parts in reverse time, two barriers per step: its rows' dL/d BN_t(c_t) and
       their two batch sums, the barrier, every part's sums added (bn_parts.sum_parts), its rows' dL/dc
       and gate gradients da; their sums of the h side's BN backward (per block, added in block order),
       the barrier, the sums added, its rows of dhw_t and of dh_{t-1} = dhw_t @ Wh^T. Each part adds one column chunk of the summed gain
       gradients: no shared +=. After the loop: BN_t backward of the x side over all T (gives dxw, dgx
       and db), then dWx = X^T dxw, dx = dxw Wx^T and dWh = Hprev^T dhw, each one GEMM over all T*B rows
       (gemm.projection_grads).
    Narrow inputs (I <= config.FOLD_MAX_I: pixel MNIST I=1, strokes I=3) skip step 1 and the x side of
    step 3: BN_t(x_t Wx) follows from the mean and covariance of x_t over the batch (bn_cell_x.fold_stats,
    O(B I^2) per step, before the loop), so every part computes its statistics (fold_step_stats, O(G I^2))
    and its rows of it (fold_rows_forward) inside the loop with no exchange; backward adds I*G sums to the
    h side's exchange (fold_rows_sums), and each part its column chunk of dWx, dgx, db (fold_step_backward)
    and its rows of dx (fold_rows_dx). x Wx, BN_t(x Wx) and dL/dx Wx ((T,B,G) each, 100 MB at S1) are
    never stored, and only dWh = Hprev^T dhw is left for after the loop.
    Inference (training=False) uses the running statistics: the parts never meet.

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
            (T,I+I*I) float64, per step the batch mean and covariance of x_t (bn_cell_x.fold_stats;
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
from lnrnn.config import CHUNK_GAP as GAP, FOLD_MAX_I, JIT, ROWS
from lnrnn.kernels.batchnorm import active_rows
from lnrnn.kernels.bn_cell_x import (cell_x_backward, cell_x_forward, fold_rows_dx, fold_rows_forward,
                                     fold_rows_sums, fold_step_backward, fold_step_stats, fold_v)
from lnrnn.kernels.bn_parts import (add_cols, block_packs, blocks_bwd_sums, blocks_moments, blocks_mul, part_rows,
                                    parts_stats, rows_bwd_dx, sum_parts)
from lnrnn.kernels.cpu.rows import rows_transposed, sigmoid_row
from lnrnn.kernels.cpu.threads import barrier, batch_blocks, chunk_bounds, n_parts, readonly, run_synced, unowned
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.masks import as_lengths


@njit(**JIT)
def _gate_rows(r0, r1, hw_t, xn_t, cprev, gh, mean_h_t, rstd_h_t, gates_t, c_t, kb):
    """Rows [r0, r1) of step t up to the cell: a = gh (hw_t - mean) rstd + xn_t, the gates [i|f|g|o] and
    c_t = s(f) c_{t-1} + s(i) tanh(g). hw_t, xn_t, gates_t (B,G); cprev, c_t (B,H); gh, mean_h_t,
    rstd_h_t (G,); kb (2G,) int32 scratch of sigmoid_row."""
    G = hw_t.shape[1]
    H = G // 4
    one = hw_t.dtype.type(1.0)
    two = hw_t.dtype.type(2.0)
    for b in range(r0, r1):
        hr, xr, ar = hw_t[b], xn_t[b], gates_t[b]
        for k in range(G):
            ar[k] = gh[k] * (hr[k] - mean_h_t[k]) * rstd_h_t[k] + xr[k]
        ag = ar[2 * H:3 * H]
        for j in range(H):  # the g block as tanh(v) = 2 sigmoid(2v) - 1
            ag[j] *= two
        sigmoid_row(ar, ar, kb)  # vectorised (lnrnn.kernels.cpu.rows); libm's scalar expf/tanhf cost 3-6x more
        ai, af = ar[:H], ar[H:2 * H]
        cp, cr = cprev[b], c_t[b]
        for j in range(H):
            g = two * ag[j] - one
            ag[j] = g
            cr[j] = af[j] * cp[j] + ai[j] * g


@njit(**JIT)
def _output_rows(r0, r1, c_t, gc, bc, mean_c_t, rstd_c_t, gates_t, tc_t, y_t, z, kb):
    """Rows [r0, r1) of step t from the cell on: tc = tanh(BN(c_t; gc, bc)), h_t = s(o) tc. c_t, tc_t,
    y_t (B,H); gates_t (B,G); gc, bc, mean_c_t, rstd_c_t (H,); z (H,), kb (2H,) int32: scratch."""
    H = c_t.shape[1]
    one = c_t.dtype.type(1.0)
    two = c_t.dtype.type(2.0)
    for b in range(r0, r1):
        cr = c_t[b]
        for j in range(H):
            z[j] = two * (gc[j] * (cr[j] - mean_c_t[j]) * rstd_c_t[j] + bc[j])
        sigmoid_row(z, z, kb)
        tr, yr, ao = tc_t[b], y_t[b], gates_t[b, 3 * H:]
        for j in range(H):
            tcv = two * z[j] - one
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
    fold = 0 < I <= FOLD_MAX_I  # x Wx and BN_t of it row by row inside the loop, from xs
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
    nblk = batch_blocks(B)
    n = min(n_parts(B, H, G, par_min), nblk)
    ex = (np.empty((nblk, 2 * G + 1 + GAP), dt), np.empty((nblk, 2 * H + 1 + GAP), dt))  # the blocks' moments of hw_t, c_t
    run_synced(_forward_part, n, xn, *readonly(lengths, h0, c0, Wh, (gh, gc, bc)), (rmh, rvh, rmc, rvc, rmx, rvx),
               (training, momentum, eps), readonly(fold, x, xs, Wx, gx, b),
               (hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, mean_x, rstd_x), ex)
    saved = (saved0, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


@njit(**ROWS)
def _forward_part(q, n, flags, xn, lengths, h0, c0, Wh, p, run, bn, xin, out, ex):
    """The forward time loop for batch rows [r0, r1), part q of n (threads.run_synced). Per step: those rows
    of h_{t-1} Wh and their moments, the first barrier, BN_t's statistics of hw_t from every part's
    moments (bn_parts.parts_stats), the rows' gates and cell; the cell's moments, the second barrier,
    its statistics, the rows' output. xn (T,B,G) = BN_t(x Wx; gx, b), or with xin's fold set (1,B,G),
    where the part writes its rows of step t's BN_t(x_t Wx; gx, b) from xin = (fold, x (T,B,I),
    xs (T,I+I*I), Wx (I,G), gx, b (G,)) (bn_cell_x.fold_step_stats, fold_rows_forward);
    p = (gh, gc, bc); run = (rmh, rvh (Ts,G), rmc, rvc (Ts,H), rmx, rvx (Ts,G)); bn = (training, momentum,
    eps); out = (hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, mean_x, rstd_x) as saved, the
    statistics written (and the running rows updated) by part 0; ex = ((nblk,>=2G+1), (nblk,>=2H+1)): the
    exchange of hw_t's and c_t's moments, one row per block of the batch (bn_parts; each is rewritten
    only after the other's barrier: no part still reads it). Inference uses the running statistics: no exchange, no barrier."""
    gh, gc, bc = unowned(p[0]), unowned(p[1]), unowned(p[2])
    rmh, rvh, rmc, rvc = unowned(run[0]), unowned(run[1]), unowned(run[2]), unowned(run[3])
    rmx, rvx = unowned(run[4]), unowned(run[5])
    hw, mean_h, rstd_h, gates = unowned(out[0]), unowned(out[1]), unowned(out[2]), unowned(out[3])
    c, mean_c, rstd_c, tc, y = unowned(out[4]), unowned(out[5]), unowned(out[6]), unowned(out[7]), unowned(out[8])
    mean_x, rstd_x = unowned(out[9]), unowned(out[10])
    fold, x, xs, Wx, gx, b = xin[0], unowned(xin[1]), unowned(xin[2]), unowned(xin[3]), unowned(xin[4]), \
        unowned(xin[5])
    xn, lengths, h0, c0, Wh = unowned(xn), unowned(lengths), unowned(h0), unowned(c0), unowned(Wh)
    exh, exc = unowned(ex[0]), unowned(ex[1])
    training, momentum, eps = bn
    T, B, G = hw.shape
    H = G // 4
    Tsh, Tsc, Tsx = rmh.shape[0], rmc.shape[0], rmx.shape[0]
    nblk = exh.shape[0]
    k0, k1, r0, r1 = part_rows(B, nblk, n, q)  # its blocks and their rows
    P = block_packs(Wh, B, nblk)  # packed once for the blocks' row products (MKL; np.dot without it)
    z = np.empty(H, dtype=hw.dtype)
    kb = np.empty(2 * G, dtype=np.int32)  # scratch of sigmoid_row
    st = np.empty((6, G), dtype=hw.dtype)  # the step's statistics, parts q > 0 (part 0 writes saved's)
    for t in range(T):
        blocks_mul(h0 if t == 0 else y[t - 1], Wh, P, hw[t], B, nblk, k0, k1)
        cprev = c0 if t == 0 else c[t - 1]
        if q == 0:
            mh, rh, mc, rc = mean_h[t], rstd_h[t], mean_c[t], rstd_c[t]
        else:
            mh, rh, mc, rc = st[0], st[1], st[2, :H], st[3, :H]
        if fold:
            mx, rx = (mean_x[t], rstd_x[t]) if q == 0 else (st[4], st[5])
            tx = min(t, Tsx - 1)
            fold_step_stats(xs[t], Wx, active_rows(lengths, t), training, q == 0 and t < Tsx, rmx[tx], rvx[tx],
                            momentum, eps, mx, rx)
            fold_rows_forward(x[t], xs[t], Wx, gx, b, mx, rx, training, r0, r1, xn[0])
        if training:
            blocks_moments(hw[t], lengths, t, nblk, k0, k1, exh)
            if not barrier(flags, q, n, 2 * t + 1):
                return
        th, tc_ = min(t, Tsh - 1), min(t, Tsc - 1)
        parts_stats(exh, training, q == 0 and t < Tsh, rmh[th], rvh[th], momentum, eps, mh, rh)
        _gate_rows(r0, r1, hw[t], xn[0] if fold else xn[t], cprev, gh, mh, rh, gates[t], c[t], kb)
        if training:
            blocks_moments(c[t], lengths, t, nblk, k0, k1, exc)
            if not barrier(flags, q, n, 2 * t + 2):
                return
        parts_stats(exc, training, q == 0 and t < Tsc, rmc[tc_], rvc[tc_], momentum, eps, mc, rc)
        _output_rows(r0, r1, c[t], gc, bc, mc, rc, gates[t], tc[t], y[t], z, kb)


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
    nblk = batch_blocks(B)
    n = min(n_parts(B, H, G, par_min), nblk)
    da = np.empty((1 if fold else T, B, G), dtype=dt)  # dL/d(preactivation) = dL/d BN_t(xw; gx, b); fold: step t's
    dhw = np.empty((T, B, G), dtype=dt)  # dL/d(h_{t-1} Wh)
    dhn = np.zeros((B, H), dtype=dt)     # dL/dh_t arriving from step t+1; ends as dh0
    dcarry = np.zeros((B, H), dtype=dt)  # dL/dc_t arriving from step t+1; ends as dc0
    dcn = np.empty((2, B, H), dtype=dt)  # dL/d BN_t(c_t), then dL/dc_t through it
    dgh = np.zeros(G, dtype=dt)
    dgc = np.zeros(H, dtype=dt)
    dbc = np.zeros(H, dtype=dt)
    clip = dt.type(clip_bound(clip))  # 0: off
    # fold: dWx (I,G), dgx, db (G,) accumulated by column chunk, dx (T,B,I) by row chunk, in the loop
    dWx, dgx, db = np.zeros((I, G), dt), np.zeros(G, dt), np.zeros(G, dt)
    dx = np.zeros((T, B, I) if fold else (0, 0, 0), dt)
    xs = xw if fold else np.empty((T, 0))  # (T,I+I*I) with fold, else unused
    # the blocks' sums: the cell's [sum | sum * chat] (2H); the gates' [sum da | sum da hhat | fold: P (I,G)]
    ex = (np.empty((nblk, 2 * H + GAP), dt), np.empty((nblk, 2 * G + (I * G if fold else 0) + GAP), dt))
    run_synced(_backward_part, n, *readonly(dy, saved, c0, Wh, (gh, gc)), clip, readonly(fold, x, xs, Wx, gx),
               (da, dhw, dhn, dcarry, dcn, dgh, dgc, dbc, dWx, dgx, db, dx), ex)
    dx, dWx, dWh, db, dgx = cell_x_backward(fold, (dx, dWx, dgx, db), da, xw, mean_x, rstd_x, gx, training, lengths,
                                            dhw, x, h0, y, Wx)
    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dgc, dbc


@njit(**JIT)
def _gate_grad_rows(r0, r1, dy_t, dhn, dcarry, dcbn, gates_t, tc_t, cprev, clip, da_t):
    """Rows [r0, r1) of dL/d(preactivation) da_t (B,G) from dL/dh_t = dy_t + dhn and dL/dc_t = dcarry + dcbn
    (B,H); dcarry becomes dL/dc_{t-1} (unclipped); clip > 0: Graves's bound on da_t."""
    G = gates_t.shape[1]
    H = G // 4
    one = tc_t.dtype.type(1.0)
    zero = tc_t.dtype.type(0.0)
    for b in range(r0, r1):
        ar, dar = gates_t[b], da_t[b]
        ai, af, ag, ao = ar[:H], ar[H:2 * H], ar[2 * H:3 * H], ar[3 * H:]
        di, df, dg, do = dar[:H], dar[H:2 * H], dar[2 * H:3 * H], dar[3 * H:]
        tr, dyr, dhr, cp = tc_t[b], dy_t[b], dhn[b], cprev[b]
        dcr, dbr = dcarry[b], dcbn[b]
        for j in range(H):
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
            for k in range(G):
                dar[k] = min(max(dar[k], -clip), clip)


@njit(**ROWS)
def _backward_part(q, n, flags, dy, saved, c0, Wh, p, clip, xin, grads, ex):
    """The backward time loop for batch rows [r0, r1), part q of n. Per step: those rows of dL/d BN_t(c_t)
    and this part's sums of the cell's BN backward, the first barrier, every part's sums added, the rows'
    gate gradients da; their sums of the h side's BN backward (and the fold x side's), the second barrier,
    every part's sums added, the rows of dhw_t and dh_{t-1} = dhw_t Wh^T. saved: the forward's;
    p = (gh, gc); clip > 0: Graves's bound on da; xin = (fold, x (T,B,I), xs (T,I+I*I), Wx (I,G), gx (G,));
    grads = (da (T,B,G), or (1,B,G) with fold, dhw (T,B,G), dhn, dcarry (B,H), dcn (2,B,H) scratch,
    dgh (G,), dgc, dbc (H,), dWx (I,G), dgx, db (G,), dx (T,B,I)): the part adds its column chunk of the
    summed gradients (dgh, dgc, dbc; with fold dWx, dgx, db) and writes its rows of the rest;
    ex = ((nblk,>=2H), (nblk,>=2G(+I*G))): the exchange, a row per block, as the forward's."""
    mean_x, rstd_x, hw, mean_h, rstd_h = unowned(saved[1]), unowned(saved[2]), unowned(saved[3]), \
        unowned(saved[4]), unowned(saved[5])
    gates, c, mean_c, rstd_c, tc = unowned(saved[6]), unowned(saved[7]), unowned(saved[8]), unowned(saved[9]), \
        unowned(saved[10])
    lengths, training = unowned(saved[12]), saved[13]
    da, dhw, dhn, dcarry, dcn = unowned(grads[0]), unowned(grads[1]), unowned(grads[2]), unowned(grads[3]), \
        unowned(grads[4])
    dgh, dgc, dbc, dWx = unowned(grads[5]), unowned(grads[6]), unowned(grads[7]), unowned(grads[8])
    dgx, db, dx = unowned(grads[9]), unowned(grads[10]), unowned(grads[11])
    fold, x, xs, Wx, gx = xin[0], unowned(xin[1]), unowned(xin[2]), unowned(xin[3]), unowned(xin[4])
    dy, c0, Wh, gh, gc = unowned(dy), unowned(c0), unowned(Wh), unowned(p[0]), unowned(p[1])
    exc, exh = unowned(ex[0]), unowned(ex[1])
    T, B, H = dy.shape
    G = 4 * H
    I = x.shape[2]
    dt = dy.dtype
    nblk = exc.shape[0]
    kb0, kb1, r0, r1 = part_rows(B, nblk, n, q)  # its blocks and their rows
    k0, k1 = chunk_bounds(G, n, q)  # the columns of the summed gradients this part adds (gate width)
    j0, j1 = chunk_bounds(H, n, q)  # (cell width)
    WT = rows_transposed(Wh, 0, H)  # (G,H) = Wh^T
    PT = block_packs(WT, B, nblk)
    one = dt.type(1.0)
    zero = dt.type(0.0)
    sc = np.empty(2 * H, dtype=dt)          # every part's cell sums added
    s = np.empty(2 * G + I * G, dtype=dt)   # every part's gate sums added: [s1 | s2 | P (I,G)]
    V = np.empty((I, G), dtype=dt)          # fold: W gx rstd_x (bn_cell_x.fold_v)
    M = np.empty((I, I), dtype=dt)
    cv = np.empty(I, dtype=dt)
    dcg, dcbn = dcn[0], dcn[1]
    for t in range(T - 1, -1, -1):
        cprev = c0 if t == 0 else c[t - 1]
        da_t = da[0] if fold else da[t]
        nt = active_rows(lengths, t)
        for b in range(r0, r1):
            tr, dyr, dhr, dr, ao = tc[t, b], dy[t, b], dhn[b], dcg[b], gates[t, b, 3 * H:]
            for j in range(H):
                dr[j] = (dyr[j] + dhr[j]) * ao[j] * (one - tr[j] * tr[j])
        blocks_bwd_sums(dcg, c[t], lengths, t, mean_c[t], rstd_c[t], nblk, kb0, kb1, exc)
        if not barrier(flags, q, n, 2 * (T - t) - 1):
            return
        sum_parts(exc, 0, 2 * H, sc)
        add_cols(dbc, sc[:H], j0, j1)
        add_cols(dgc, sc[H:], j0, j1)
        rows_bwd_dx(dcg, c[t], lengths, t, r0, r1, mean_c[t], rstd_c[t], gc, sc[:H], sc[H:], nt, training, dcbn)
        _gate_grad_rows(r0, r1, dy[t], dhn, dcarry, dcbn, gates[t], tc[t], cprev, clip, da_t)
        blocks_bwd_sums(da_t, hw[t], lengths, t, mean_h[t], rstd_h[t], nblk, kb0, kb1, exh)
        if fold:
            fold_v(Wx, gx, rstd_x[t], V)
            for k in range(kb0, kb1):
                b0, b1 = chunk_bounds(B, nblk, k)
                fold_rows_sums(da_t, x[t], xs[t], lengths, t, b0, b1, V, exh[k, 2 * G:2 * G + I * G].reshape((I, G)),
                               dx[t])
        if not barrier(flags, q, n, 2 * (T - t)):
            return
        sum_parts(exh, 0, 2 * G + (I * G if fold else 0), s)
        s1, s2 = s[:G], s[G:2 * G]
        add_cols(dgh, s2, k0, k1)
        rows_bwd_dx(da_t, hw[t], lengths, t, r0, r1, mean_h[t], rstd_h[t], gh, s1, s2, nt, training, dhw[t])
        if fold:
            fold_step_backward(s1, s[2 * G:].reshape((I, G)), xs[t], Wx, V, mean_x[t], rstd_x[t], gx, k0, k1, training,
                               dWx, dgx, db, M, cv)
            if training:
                fold_rows_dx(x[t], xs[t], lengths, t, r0, r1, M, cv, nt, dx[t])
        if nt < B:  # padded rows: no dc reaches step t-1
            for b in range(r0, r1):
                if t >= lengths[b]:
                    dcr = dcarry[b]
                    for j in range(H):
                        dcr[j] = zero
        blocks_mul(dhw[t], WT, PT, dhn, B, nblk, kb0, kb1)
