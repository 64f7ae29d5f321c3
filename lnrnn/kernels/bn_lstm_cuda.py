"""BN-LSTM (Cooijmans et al. 2016), forward and BPTT: CUDA twin of bn_lstm.py (same names, arguments,
outputs, ``saved`` layout and running-statistics rules; the NumPy spec is reference.bn_lstm_forward).

Design note: one module per op and side, named after its functions (bn_lstm_forward/backward here and in
bn_lstm.py; bn_rnn_cuda.py is the BN-RNN's). The BN column machinery both BN cells use (col_stats,
col_backward, the x-side bn_forward/bn_backward, running statistics on the device) is batchnorm_cuda's;
the GEMMs and the weight-gradient tail (projection_grads) are gemm_cuda's. Here: the LSTM's fused
step kernels and the drivers that launch them.

Host or device arrays in, device arrays out (arrays_cuda); running statistics are updated where they
live (device arrays in place; host arrays through a device copy written back at the end, as in
batchnorm_cuda). ``par_min`` is accepted for signature parity and ignored. Masks (``lengths``) as in
the CPU twin: every BN_t counts the rows with t < lengths[b]; backward ignores dy at padded rows.

Layout of the work
    1. xw = x @ Wx over all T*B rows (GEMM); xn = BN_t(xw; gx, b) for all T at once (batchnorm_cuda).
    2. Per step: hw_t = h_{t-1} @ Wh (GEMM, written straight into saved hw), then one fused kernel.
       BN couples the batch but not the hidden units, so a block of TILE x TILE threads owns TILE
       hidden units j (threadIdx.x) and strides over the batch with TILE lanes (threadIdx.y): it
       computes the statistics of columns j, H+j, 2H+j, 3H+j of hw_t (lane sums in shared memory),
       the gates, c_t[:, j], its statistics, tanh and h_t[:, j]. No block needs another's results.
    3. Backward, per step in reverse: one fused kernel with the same ownership (BN_t backward of the
       cell and of the four gate columns; the step's gain/bias sums go to per-step partials (T,G) or
       (T,H), reduced after the loop: no atomics), then dh_{t-1} = dhw_t @ Wh^T (GEMM). After the
       loop: BN_t backward of the x side over all T, then dWx, dx and dWh, one GEMM each.

Graves's gate clip (``clip`` of bn_lstm_backward, as in the CPU twin): the thread that computes a
row's four gate derivatives of unit j clips them to [-clip, clip] before writing da_t, which the
h-side column backward, the x side and the bias sum read afterwards. 0 or inf: off.

saved (device arrays, plus the mode):
    (xw (T,B,G), mean_x (T,G), rstd_x (T,G), hw (T,B,G), mean_h (T,G), rstd_h (T,G), gates (T,B,G),
     c (T,B,H), mean_c (T,H), rstd_c (T,H), tc (T,B,H), y (T,B,H), lengths (B,) int64, training)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.config import BN_PAR_MIN_WORK as PAR_MIN_WORK  # the CPU twin's default, for signature parity (unused)
from lnrnn.kernels.batchnorm_cuda import (bn_backward, bn_forward, col_backward, col_stats, device_lengths,
                                          running_on_device, write_back)
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.cuda.arrays_cuda import copy, empty, nbtype, to_device, zeros
from lnrnn.kernels.cuda.gemm_cuda import colsum, matmul, projection_grads, tile
from lnrnn.kernels.cuda.rows_cuda import sigmoid


@lru_cache(maxsize=None)
def _kernels(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def fwd(hw_t, xn_t, c_prev, lengths, s, p, training, update_h, update_c, run, momentum, eps, out, stats):
        """BN-LSTM step s; block = TILE hidden units j x TILE batch lanes.
            hw_t, xn_t (B,G); c_prev (B,H); lengths (B,) (masks); p = (gh (G,), gc (H,), bc (H,))
            run = (rmh_r, rvh_r (G,), rmc_r, rvc_r (H,)): running-statistics rows of this step
            out = (gates_t (B,G), c_t, tc_t, y_t (B,H));  stats = (mean_h_t, rstd_h_t (G,), mean_c_t, rstd_c_t (H,))"""
        sh = cuda.shared.array((t, t), dt)
        gh, gc, bc = p
        rmh_r, rvh_r, rmc_r, rvc_r = run
        gates_t, c_t, tc_t, y_t = out
        mean_h_t, rstd_h_t, mean_c_t, rstd_c_t = stats
        B, G = hw_t.shape
        H = G // 4
        j = cuda.blockIdx.x * t + cuda.threadIdx.x
        valid = j < H
        lane = cuda.threadIdx.y
        nl = cuda.blockDim.y
        one = dt(1.0)
        cst = (one, dt(momentum), dt(eps))
        mi, ri = col_stats(sh, hw_t, lengths, s, j, valid, training, update_h, rmh_r, rvh_r, cst)
        mf, rf = col_stats(sh, hw_t, lengths, s, H + j, valid, training, update_h, rmh_r, rvh_r, cst)
        mg, rg = col_stats(sh, hw_t, lengths, s, 2 * H + j, valid, training, update_h, rmh_r, rvh_r, cst)
        mo, ro = col_stats(sh, hw_t, lengths, s, 3 * H + j, valid, training, update_h, rmh_r, rvh_r, cst)
        if valid:
            if lane == 0:
                mean_h_t[j], rstd_h_t[j] = mi, ri
                mean_h_t[H + j], rstd_h_t[H + j] = mf, rf
                mean_h_t[2 * H + j], rstd_h_t[2 * H + j] = mg, rg
                mean_h_t[3 * H + j], rstd_h_t[3 * H + j] = mo, ro
            for b in range(lane, B, nl):
                i = sigmoid(gh[j] * (hw_t[b, j] - mi) * ri + xn_t[b, j], one)
                f = sigmoid(gh[H + j] * (hw_t[b, H + j] - mf) * rf + xn_t[b, H + j], one)
                g = math.tanh(gh[2 * H + j] * (hw_t[b, 2 * H + j] - mg) * rg + xn_t[b, 2 * H + j])
                gates_t[b, j] = i
                gates_t[b, H + j] = f
                gates_t[b, 2 * H + j] = g
                gates_t[b, 3 * H + j] = sigmoid(gh[3 * H + j] * (hw_t[b, 3 * H + j] - mo) * ro + xn_t[b, 3 * H + j],
                                                one)
                c_t[b, j] = f * c_prev[b, j] + i * g
        mc, rc = col_stats(sh, c_t, lengths, s, j, valid, training, update_c, rmc_r, rvc_r, cst)
        if valid:
            if lane == 0:
                mean_c_t[j], rstd_c_t[j] = mc, rc
            for b in range(lane, B, nl):
                tcv = math.tanh(gc[j] * (c_t[b, j] - mc) * rc + bc[j])
                tc_t[b, j] = tcv
                y_t[b, j] = gates_t[b, 3 * H + j] * tcv

    @cuda.jit
    def bwd(dy_t, dhn, dcarry, lengths, s, sv, st, p, training, clip, scratch, da_t, dhw_t, part):
        """BN-LSTM step s backward; block = TILE hidden units j x TILE batch lanes.
            dy_t, dhn (B,H): dL/dh_t from the output and from step t+1; dcarry (B,H): dL/dc_t in,
            dL/dc_{t-1} out; lengths (B,): a padded row (s >= lengths[b]) gets zero da_t and dc_{t-1};
            sv = (gates_t, hw_t (B,G), c_t, c_prev, tc_t (B,H));
            st = (mean_h_t, rstd_h_t (G,), mean_c_t, rstd_c_t (H,)); p = (gh (G,), gc (H,));
            clip: Graves's bound on da_t (0: off);
            scratch = (dcn, dcbn (B,H)) -> da_t, dhw_t (B,G);
            part = (pgh_t (G,), pgc_t, pbc_t (H,)): this step's dgh, dgc, dbc sums."""
        sh = cuda.shared.array((t, t), dt)
        gates_t, hw_t, c_t, c_prev, tc_t = sv
        mean_h_t, rstd_h_t, mean_c_t, rstd_c_t = st
        gh, gc = p
        dcn, dcbn = scratch
        pgh_t, pgc_t, pbc_t = part
        B, G = hw_t.shape
        H = G // 4
        j = cuda.blockIdx.x * t + cuda.threadIdx.x
        valid = j < H
        lane = cuda.threadIdx.y
        nl = cuda.blockDim.y
        one = dt(1.0)
        zero = one - one
        cl = dt(clip)
        if valid:
            for b in range(lane, B, nl):
                tcv = tc_t[b, j]
                dcn[b, j] = (dy_t[b, j] + dhn[b, j]) * gates_t[b, 3 * H + j] * (one - tcv * tcv)
        m, r, g = zero, one, one
        if valid:
            m, r, g = mean_c_t[j], rstd_c_t[j], gc[j]
        s1, s2 = col_backward(sh, dcn, c_t, lengths, s, m, r, g, j, valid, training, dcbn, one)
        if valid:
            if lane == 0:
                pbc_t[j] = s1
                pgc_t[j] = s2
            for b in range(lane, B, nl):
                if s >= lengths[b]:  # padded: outside the loss
                    da_t[b, j] = zero
                    da_t[b, H + j] = zero
                    da_t[b, 2 * H + j] = zero
                    da_t[b, 3 * H + j] = zero
                    dcarry[b, j] = zero
                    continue
                i = gates_t[b, j]
                f = gates_t[b, H + j]
                gg = gates_t[b, 2 * H + j]
                o = gates_t[b, 3 * H + j]
                dc = dcarry[b, j] + dcbn[b, j]
                di = dc * gg * i * (one - i)
                df = dc * c_prev[b, j] * f * (one - f)
                dg = dc * i * (one - gg * gg)
                do = (dy_t[b, j] + dhn[b, j]) * tc_t[b, j] * o * (one - o)
                if cl > zero:  # Graves: clip dL/da (dcarry, carried on, stays unclipped)
                    di = min(max(di, -cl), cl)
                    df = min(max(df, -cl), cl)
                    dg = min(max(dg, -cl), cl)
                    do = min(max(do, -cl), cl)
                da_t[b, j] = di
                da_t[b, H + j] = df
                da_t[b, 2 * H + j] = dg
                da_t[b, 3 * H + j] = do
                dcarry[b, j] = dc * f
        for q in range(4):
            k = q * H + j
            m, r, g = zero, one, one
            if valid:
                m, r, g = mean_h_t[k], rstd_h_t[k], gh[k]
            s1, s2 = col_backward(sh, da_t, hw_t, lengths, s, m, r, g, k, valid, training, dhw_t, one)
            if valid and lane == 0:
                pgh_t[k] = s2

    return fwd, bwd


def kernels(dtype):
    """((forward step kernel, backward step kernel), tile edge) for a dtype at the current tile size."""
    t = tile()
    return _kernels(np.dtype(dtype), t), t


def bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh, rmc, rvc,
                    training, momentum, eps, par_min=PAR_MIN_WORK, lengths=None):
    """x (T,B,I), h0/c0 (B,H), Wx (I,G), Wh (H,G), b/gx/gh (G,), gc/bc (H,),
    rmx/rvx/rmh/rvh (Ts,G), rmc/rvc (Ts,H) (updated in place when training), lengths (B,) or None
    -> y (T,B,H), hT (B,H), cT (B,H), saved   (device arrays)."""
    x, h0, c0, Wx, Wh, b, gx, gh, gc, bc = (to_device(a) for a in (x, h0, c0, Wx, Wh, b, gx, gh, gc, bc))
    runs = [running_on_device(a) for a in (rmh, rvh, rmc, rvc)]
    (rmh, _), (rvh, _), (rmc, _), (rvc, _) = runs
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    training = bool(training)
    (fwd, _), t = kernels(dt)
    lengths = device_lengths(lengths, T, B)
    xw = matmul(x.reshape(T * B, I), Wx).reshape(T, B, G)
    xn, mean_x, rstd_x = bn_forward(xw, gx, b, rmx, rvx, training, momentum, eps, lengths)  # BN_t(xw; gx, 0) + b
    hw = empty((T, B, G), dt)
    mean_h = empty((T, G), dt)
    rstd_h = empty((T, G), dt)
    gates = empty((T, B, G), dt)
    c = empty((T, B, H), dt)
    mean_c = empty((T, H), dt)
    rstd_c = empty((T, H), dt)
    tc = empty((T, B, H), dt)
    y = empty((T, B, H), dt)
    Tsh, Tsc = rmh.shape[0], rmc.shape[0]
    grid = ((H + t - 1) // t, 1)
    for s in range(T):
        matmul(h0 if s == 0 else y[s - 1], Wh, out=hw[s])
        rh, rc = min(s, Tsh - 1), min(s, Tsc - 1)
        fwd[grid, (t, t)](hw[s], xn[s], c0 if s == 0 else c[s - 1], lengths, s, (gh, gc, bc), training,
                          s < Tsh, s < Tsc, (rmh[rh], rvh[rh], rmc[rc], rvc[rc]), float(momentum), float(eps),
                          (gates[s], c[s], tc[s], y[s]), (mean_h[s], rstd_h[s], mean_c[s], rstd_c[s]))
    if training:
        write_back(runs)
    saved = (xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training)
    return y, copy(y[T - 1]), copy(c[T - 1]), saved


def bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, par_min=PAR_MIN_WORK, clip=0.0):
    """dy (T,B,H) = dL/dy, saved from bn_lstm_forward, inputs as in the forward
    -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G), db (G,), dgx (G,), dgh (G,),
       dgc (H,), dbc (H,)   (device arrays). clip: Graves's bound on dL/d(preactivation); 0 or inf: off."""
    dy, x, h0, c0, Wx, Wh, gx, gh, gc = (to_device(a) for a in (dy, x, h0, c0, Wx, Wh, gx, gh, gc))
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training = saved
    T, B, _ = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    (_, bwd), t = kernels(dt)
    da = empty((T, B, G), dt)    # dL/d(preactivation) = dL/d BN_t(xw; gx, b)
    dhw = empty((T, B, G), dt)   # dL/d(h_{t-1} Wh)
    dhn = zeros((B, H), dt)      # dL/dh_t arriving from step t+1; ends as dh0
    dcarry = zeros((B, H), dt)   # dL/dc_t arriving from step t+1; ends as dc0
    scratch = (empty((B, H), dt), empty((B, H), dt))  # dL/d(BN_t(c) output), dL/dc through BN_t
    pgh = empty((T, G), dt)      # per-step partial sums of dgh, dgc, dbc
    pgc = empty((T, H), dt)
    pbc = empty((T, H), dt)
    grid = ((H + t - 1) // t, 1)
    clip = clip_bound(clip)  # 0: off
    for s in range(T - 1, -1, -1):
        sv = (gates[s], hw[s], c[s], c0 if s == 0 else c[s - 1], tc[s])
        st = (mean_h[s], rstd_h[s], mean_c[s], rstd_c[s])
        bwd[grid, (t, t)](dy[s], dhn, dcarry, lengths, s, sv, st, (gh, gc), bool(training), clip, scratch, da[s],
                          dhw[s], (pgh[s], pgc[s], pbc[s]))
        matmul(dhw[s], Wh, out=dhn, trans_b=True)
    dxw, dgx, db = bn_backward(da, xw, mean_x, rstd_x, gx, training, lengths)  # the x side, all T at once
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx)
    return dx, dhn, dcarry, dWx, dWh, db, dgx, colsum(pgh), colsum(pgc), colsum(pbc)
