"""BN-LSTM (Cooijmans et al. 2016), forward and BPTT: CUDA twin of bn_lstm.py (same names, arguments,
outputs, ``saved`` layout and running-statistics rules; the NumPy spec is reference.bn_lstm_forward).

Design note: one module per op and side, named after its functions (bn_lstm_forward/backward here and in
bn_lstm.py; bn_rnn_cuda.py is the BN-RNN's). The BN column machinery both BN cells use (col_stats,
col_backward, the x side's BatchNorm launches, running statistics on the device) is batchnorm_cuda's;
the GEMMs and the weight-gradient tail (projection_into) are gemm_cuda's. Here: the LSTM's fused
step kernels and the plans that launch them.

Host or device arrays in, device arrays out (arrays_cuda); running statistics are updated where they
live (device arrays in place; host arrays through a device copy written back at the end, as in
batchnorm_cuda). ``par_min`` is accepted for signature parity and ignored. Masks (``lengths``) as in
the CPU twin: every BN_t counts the rows with t < lengths[b]; backward ignores dy at padded rows.

Layout of the work. A call copies its inputs into a plan's buffers (``_ForwardPlan``, ``_BackwardPlan``), runs the
plan's loop and copies the results out. On the graph path (where PyTorch serves cuBLAS and graphs, from
config.CUDA_GRAPH_MIN_STEPS steps: graphs_cuda.loop_path) the plan is cached per shape and its loop, captured
once as a CUDA graph, is one replay: the host no longer launches T GEMMs and T kernels through numba's
dispatcher, as lstm_cuda's plans. Otherwise the plan is a fresh one of the call's T steps on gemm_cuda.Direct,
whose loop the host launches step by step (the per-step path): both paths run the same launches.
    1. xw = x @ Wx over all T*B rows (GEMM); xn = BN_t(xw; gx, b) for all T at once (batchnorm_cuda).
    2. Per step: hw_t = h_{t-1} @ Wh (GEMM, written straight into saved hw), then one fused kernel.
       BN couples the batch but not the hidden units, so a block of TILE x TILE threads owns TILE
       hidden units j (threadIdx.x) and strides over the batch with TILE lanes (threadIdx.y): it
       computes the statistics of columns j, H+j, 2H+j, 3H+j of hw_t (lane sums in shared memory),
       the gates, c_t[:, j], its statistics, tanh and h_t[:, j]. No block needs another's results.
       A thread reads its rows once and keeps them in local arrays (compiled per rows a lane owns);
       a phase's lane sums share one exchange (_kernels).
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
from lnrnn.kernels.batchnorm_cuda import (bn_backward_launch, bn_forward_launch, device_lengths, fold_running,
                                          lane_sums, load_lengths, local_rstd, running_on_device, write_back)
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.cuda.arrays_cuda import (copy, copy_bytes, empty, fill_zeros, head, load, nbtype, take_row,
                                            to_device, transpose_into)
from lnrnn.kernels.cuda.gemm_cuda import (SUM, call_plan, colsum_launch, colsum_parts, input_product, product,
                                          projection_into, projection_views, tile)
from lnrnn.kernels.cuda.graphs_cuda import capture_loop
from lnrnn.kernels.cuda.rows_cuda import sigmoid, units


@lru_cache(maxsize=None)
def _kernels(dtype, t, R):
    """The step kernels for blocks of t x t threads whose lanes own R batch rows each (R = units(B, t): lane y owns
    rows b = y, y + t, ...). A thread loads its rows' values once and keeps them in local arrays of R or 4R entries
    across the lane sums; nothing it wrote is read back. The lane sums of a phase go through one exchange
    (batchnorm_cuda.lane_sums): the forward has 4 a step (the gates' counts and sums, their squared deviations,
    c_t's sum, its squared deviations), the backward 2 (c_t's two sums and the count, then the gates' eight), where
    col_stats and col_backward, column by column, took 15 each. Every sum is added in their order."""
    dt = nbtype(dtype)
    R4 = 4 * R

    @cuda.jit
    def fwd(hw_t, xn_t, c_prev, lengths, s, p, training, update_h, update_c, run, momentum, eps, out, stats):
        """BN-LSTM step s; block = TILE hidden units j x TILE batch lanes.
            hw_t, xn_t (B,G); c_prev (B,H); lengths (B,) (masks); p = (gh (G,), gc (H,), bc (H,))
            run = (rmh_r, rvh_r (G,), rmc_r, rvc_r (H,)): running-statistics rows of this step
            out = (gates_t (B,G), c_t, tc_t, y_t (B,H));  stats = (mean_h_t, rstd_h_t (G,), mean_c_t, rstd_c_t (H,))"""
        sh = cuda.shared.array((5, t, t), dt)
        tot = cuda.shared.array((5, t), dt)
        a = cuda.local.array(R4, dt)  # hw_t[b, q*H + j] of the thread's row r at a[4r + q]; o there once known
        cv = cuda.local.array(R, dt)  # c_t[b, j]
        act = cuda.local.array(R, dt)  # 1 where s < lengths[b] (a row BN_t counts), else 0
        m4 = cuda.local.array(4, dt)  # the four gate columns' mean, rstd, gain and sum
        r4 = cuda.local.array(4, dt)
        g4 = cuda.local.array(4, dt)
        s4 = cuda.local.array(4, dt)
        gh, gc, bc = p
        rmh_r, rvh_r, rmc_r, rvc_r = run
        gates_t, c_t, tc_t, y_t = out
        mean_h_t, rstd_h_t, mean_c_t, rstd_c_t = stats
        B, G = hw_t.shape
        H = G // 4
        tx = cuda.threadIdx.x
        j = cuda.blockIdx.x * t + tx
        valid = j < H
        lane = cuda.threadIdx.y
        nl = cuda.blockDim.y
        one = dt(1.0)
        zero = one - one
        mom, e = dt(momentum), dt(eps)
        for q in range(4):
            m4[q], r4[q], g4[q], s4[q] = zero, one, one, zero
        cnt = zero
        for r in range(R):
            b = lane + r * nl
            act[r] = zero
            if valid and b < B:
                on = s < lengths[b]
                if on:
                    act[r] = one
                    cnt += one
                for q in range(4):
                    v = hw_t[b, q * H + j]
                    a[4 * r + q] = v
                    if on:
                        s4[q] += v
        n = zero
        inv = one
        if training:  # batch statistics of the active rows, folded into the running rows
            for q in range(4):
                sh[q, lane, tx] = s4[q]
            sh[4, lane, tx] = cnt
            lane_sums(sh, tot, 5)
            n = tot[4, tx]  # active rows, exact in floating point (B < 2^24)
            inv = one / max(n, one)
            for q in range(4):
                m4[q] = tot[q, tx] * inv
                d2 = zero
                for r in range(R):
                    if act[r] > zero:
                        d = a[4 * r + q] - m4[q]
                        d2 += d * d
                sh[q, lane, tx] = d2
            lane_sums(sh, tot, 4)
            for q in range(4):
                var = tot[q, tx] * inv
                r4[q] = one / math.sqrt(var + e)
                if update_h and valid and n > zero and lane == 0:
                    fold_running(rmh_r, rvh_r, q * H + j, m4[q], var, n, mom, one)
        elif valid:
            for q in range(4):
                m4[q] = rmh_r[q * H + j]
                r4[q] = one / math.sqrt(rvh_r[q * H + j] + e)
        csum = zero
        if valid:
            for q in range(4):
                g4[q] = gh[q * H + j]
                if lane == 0:
                    mean_h_t[q * H + j], rstd_h_t[q * H + j] = m4[q], r4[q]
            for r in range(R):
                b = lane + r * nl
                if b < B:
                    i = sigmoid(g4[0] * (a[4 * r] - m4[0]) * r4[0] + xn_t[b, j], one)
                    f = sigmoid(g4[1] * (a[4 * r + 1] - m4[1]) * r4[1] + xn_t[b, H + j], one)
                    g = math.tanh(g4[2] * (a[4 * r + 2] - m4[2]) * r4[2] + xn_t[b, 2 * H + j])
                    o = sigmoid(g4[3] * (a[4 * r + 3] - m4[3]) * r4[3] + xn_t[b, 3 * H + j], one)
                    gates_t[b, j] = i
                    gates_t[b, H + j] = f
                    gates_t[b, 2 * H + j] = g
                    gates_t[b, 3 * H + j] = o
                    c = f * c_prev[b, j] + i * g
                    c_t[b, j] = c
                    cv[r] = c
                    a[4 * r + 3] = o
                    if act[r] > zero:
                        csum += c
        mc, rc = zero, one
        if training:
            sh[0, lane, tx] = csum
            lane_sums(sh, tot, 1)
            mc = tot[0, tx] * inv
            rc = local_rstd(sh, tot, cv, act, mc, n, inv, update_c and valid, rmc_r, rvc_r, j, (one, mom, e))
        elif valid:
            mc, rc = rmc_r[j], one / math.sqrt(rvc_r[j] + e)
        if valid:
            if lane == 0:
                mean_c_t[j], rstd_c_t[j] = mc, rc
            gcj, bcj = gc[j], bc[j]
            for r in range(R):
                b = lane + r * nl
                if b < B:
                    tcv = math.tanh(gcj * (cv[r] - mc) * rc + bcj)
                    tc_t[b, j] = tcv
                    y_t[b, j] = a[4 * r + 3] * tcv

    @cuda.jit
    def bwd(dy_t, dhn, dcarry, lengths, s, sv, st, p, training, clip, da_t, dhw_t, part):
        """BN-LSTM step s backward; block = TILE hidden units j x TILE batch lanes.
            dy_t, dhn (B,H): dL/dh_t from the output and from step t+1; dcarry (B,H): dL/dc_t in,
            dL/dc_{t-1} out; lengths (B,): a padded row (s >= lengths[b]) gets zero da_t, dhw_t and dc_{t-1};
            sv = (gates_t, hw_t (B,G), c_t, c_prev, tc_t (B,H));
            st = (mean_h_t, rstd_h_t (G,), mean_c_t, rstd_c_t (H,)); p = (gh (G,), gc (H,));
            clip: Graves's bound on da_t (0: off);  -> da_t, dhw_t (B,G);
            part = (pgh_t (G,), pgc_t, pbc_t (H,)): this step's dgh, dgc, dbc sums."""
        sh = cuda.shared.array((8, t, t), dt)
        tot = cuda.shared.array((8, t), dt)
        ga = cuda.local.array(R4, dt)  # gates i, f, g, o of the thread's row r at ga[4r + q]; then dL/da of each
        xm = cuda.local.array(R4, dt)  # hw_t[b, q*H + j] - mean_h_t[q*H + j]
        dcn = cuda.local.array(R, dt)  # dL/d(BN_t(c_t) output): (dy + dhn) o (1 - tc^2)
        cm = cuda.local.array(R, dt)  # c_t[b, j] - mean_c_t[j]
        dov = cuda.local.array(R, dt)  # dL/d(o's preactivation)
        act = cuda.local.array(R, dt)  # 1 where s < lengths[b], else 0
        m4 = cuda.local.array(4, dt)  # the four gate columns' mean, rstd, gain and two sums
        r4 = cuda.local.array(4, dt)
        g4 = cuda.local.array(4, dt)
        s14 = cuda.local.array(4, dt)
        s24 = cuda.local.array(4, dt)
        gates_t, hw_t, c_t, c_prev, tc_t = sv
        mean_h_t, rstd_h_t, mean_c_t, rstd_c_t = st
        gh, gc = p
        pgh_t, pgc_t, pbc_t = part
        B, G = hw_t.shape
        H = G // 4
        tx = cuda.threadIdx.x
        j = cuda.blockIdx.x * t + tx
        valid = j < H
        lane = cuda.threadIdx.y
        nl = cuda.blockDim.y
        one = dt(1.0)
        zero = one - one
        cl = dt(clip)
        mc, rc, gcj = zero, one, one
        if valid:
            mc, rc, gcj = mean_c_t[j], rstd_c_t[j], gc[j]
        for q in range(4):
            m4[q], r4[q], g4[q], s14[q], s24[q] = zero, one, one, zero, zero
            if valid:
                m4[q], r4[q], g4[q] = mean_h_t[q * H + j], rstd_h_t[q * H + j], gh[q * H + j]
        s1 = zero
        s2 = zero
        cnt = zero
        for r in range(R):
            b = lane + r * nl
            act[r] = zero
            if valid and b < B:
                for q in range(4):
                    ga[4 * r + q] = gates_t[b, q * H + j]
                    xm[4 * r + q] = hw_t[b, q * H + j] - m4[q]
                tcv = tc_t[b, j]
                dho = dy_t[b, j] + dhn[b, j]
                o = ga[4 * r + 3]
                d = dho * o * (one - tcv * tcv)
                cmr = c_t[b, j] - mc
                dcn[r], cm[r] = d, cmr
                dov[r] = dho * tcv * o * (one - o)
                if s < lengths[b]:
                    act[r] = one
                    cnt += one
                    s1 += d
                    s2 += d * cmr * rc
        sh[0, lane, tx] = s1
        sh[1, lane, tx] = s2
        sh[2, lane, tx] = cnt
        lane_sums(sh, tot, 3)
        s1, s2 = tot[0, tx], tot[1, tx]
        inv = one / max(tot[2, tx], one)
        if valid:
            if lane == 0:
                pbc_t[j] = s1
                pgc_t[j] = s2
            for r in range(R):
                b = lane + r * nl
                if b >= B:
                    continue
                if act[r] == zero:  # padded: outside the loss
                    da_t[b, j] = zero
                    da_t[b, H + j] = zero
                    da_t[b, 2 * H + j] = zero
                    da_t[b, 3 * H + j] = zero
                    dcarry[b, j] = zero
                    continue
                if training:
                    dcbn = gcj * rc * (dcn[r] - (s1 + cm[r] * rc * s2) * inv)
                else:
                    dcbn = gcj * rc * dcn[r]
                i = ga[4 * r]
                f = ga[4 * r + 1]
                gg = ga[4 * r + 2]
                dc = dcarry[b, j] + dcbn
                di = dc * gg * i * (one - i)
                df = dc * c_prev[b, j] * f * (one - f)
                dg = dc * i * (one - gg * gg)
                do = dov[r]
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
                ga[4 * r], ga[4 * r + 1], ga[4 * r + 2], ga[4 * r + 3] = di, df, dg, do
                for q in range(4):
                    s14[q] += ga[4 * r + q]
                    s24[q] += ga[4 * r + q] * xm[4 * r + q] * r4[q]
        for q in range(4):
            sh[q, lane, tx] = s14[q]
            sh[4 + q, lane, tx] = s24[q]
        lane_sums(sh, tot, 8)
        if valid:
            for q in range(4):
                s14[q], s24[q] = tot[q, tx], tot[4 + q, tx]
                if lane == 0:
                    pgh_t[q * H + j] = s24[q]
            for r in range(R):
                b = lane + r * nl
                if b >= B:
                    continue
                for q in range(4):
                    if act[r] == zero:
                        dhw_t[b, q * H + j] = zero
                    elif training:
                        dhw_t[b, q * H + j] = g4[q] * r4[q] * (ga[4 * r + q] - (s14[q] + xm[4 * r + q] * r4[q] * s24[q])
                                                               * inv)
                    else:
                        dhw_t[b, q * H + j] = g4[q] * r4[q] * ga[4 * r + q]

    return fwd, bwd


def kernels(dtype, B):
    """((forward step kernel, backward step kernel), tile edge) for a dtype and B batch rows at the current tile
    size (compiled per rows a lane owns, rows_cuda.units(B, tile))."""
    t = tile()
    return _kernels(np.dtype(dtype), t, units(B, t)), t


class _ForwardPlan:
    """bn_lstm_forward over S steps for one (B, H, I, dtype, the running rows' Ts, training, momentum, eps),
    captured over buffers of its own: copies in, one replay, copies out. A call of T <= S steps fills steps
    0..T-1 of x; its lengths are at most T, so the steps after T have no active row: their statistics count
    nothing, fold nothing into the running rows (col_stats folds only where a row is active) and no step
    before T reads them.
        read:    x (S,B,I), Wx (I,G), h0, c0 (B,H), Wh (H,G), lengths (B,) int64, p = (b, gx, gh) (G,) each,
                 then (gc, bc) (H,) each; running rows rmx, rvx (Tsx,G), rmh, rvh (Tsh,G), rmc, rvc (Tsc,H),
                 folded in place when training (copied in before a replay and out after it)
        before the loop: xw (S,B,G) = x Wx over all S*B rows; xn (S,B,G), mean_x, rstd_x (S,G) = BN_t(xw; gx, b)
        the loop: hw (S,B,G), mean_h, rstd_h (S,G), gates (S,B,G), c, tc, y (S,B,H), mean_c, rstd_c (S,H)."""

    def __init__(self, prov, S, B, H, I, dt, Ts, training, momentum, eps):
        G = 4 * H
        N = S * B
        (fwd, _), t = kernels(dt, B)
        gemm = product(prov)
        self.x, self.Wx = empty((S, B, I), dt), empty((I, G), dt)
        self.h0, self.c0, self.Wh = empty((B, H), dt), empty((B, H), dt), empty((H, G), dt)
        self.lengths = empty(B, np.int64)
        self.p = tuple(empty(G, dt) for _ in range(3)) + (empty(H, dt), empty(H, dt))
        Tsx, Tsh, Tsc = Ts
        self.run = (empty((Tsx, G), dt), empty((Tsx, G), dt), empty((Tsh, G), dt), empty((Tsh, G), dt),
                    empty((Tsc, H), dt), empty((Tsc, H), dt))
        self.xw, self.xn, self.hw, self.gates = (empty((S, B, G), dt) for _ in range(4))
        self.mean_x, self.rstd_x, self.mean_h, self.rstd_h = (empty((S, G), dt) for _ in range(4))
        self.c, self.tc, self.y = (empty((S, B, H), dt) for _ in range(3))
        self.mean_c, self.rstd_c = empty((S, H), dt), empty((S, H), dt)
        fill_zeros(self.x, self.Wx, self.xw, self.h0, self.c0, self.Wh, self.lengths, *self.p, *self.run)
        b, gx, gh, gc, bc = self.p
        rmx, rvx, rmh, rvh, rmc, rvc = self.run
        vh0, vy, vWh, vhw = (prov.view(a) for a in (self.h0, self.y, self.Wh, self.hw))
        xw = input_product(prov, gemm, self.x.reshape(N, I), self.Wx, self.xw.reshape(N, G))
        grid = ((H + t - 1) // t, 1)

        def before(stream):
            xw()
            bn_forward_launch(self.xw, self.lengths, gx, b, rmx, rvx, training, momentum, eps, self.xn, self.mean_x,
                              self.rstd_x, stream)

        def step(s, stream):
            gemm(vh0 if s == 0 else vy[s - 1], vWh, vhw[s])
            rh, rc = min(s, Tsh - 1), min(s, Tsc - 1)
            fwd[grid, (t, t), stream](self.hw[s], self.xn[s], self.c0 if s == 0 else self.c[s - 1], self.lengths, s,
                                      (gh, gc, bc), training, s < Tsh, s < Tsc, (rmh[rh], rvh[rh], rmc[rc], rvc[rc]),
                                      momentum, eps, (self.gates[s], self.c[s], self.tc[s], self.y[s]),
                                      (self.mean_h[s], self.rstd_h[s], self.mean_c[s], self.rstd_c[s]))
        self.replay = capture_loop(prov, step, range(S), before)


class _BackwardPlan:
    """bn_lstm_backward over S steps for one (B, H, I, dtype, training, clip), captured over buffers of its own:
    copies in, one replay, copies out. A call of T <= S steps fills steps 0..T-1 of what the graph reads and
    zeros the rest of dy, x and y; its lengths are at most T, so the loop's first S - T steps have no active
    row: they write zero dL/da, dL/d(hw) and per-step sums (col_backward's padded rows), leave dh and dc zero,
    and the products and sums after the loop see exact zeros there.
        read:    dy (S,B,H); the saved xw, hw, gates (S,B,G), mean_x, rstd_x, mean_h, rstd_h (S,G), c, tc,
                 y (S,B,H), mean_c, rstd_c (S,H), lengths (B,); x (S,B,I), h0, c0 (B,H), Wx (I,G), Wh (H,G),
                 p = (gx, gh) (G,) each, gc (H,)
        before the loop: WhT (G,H) = Wh^T
        the loop: da, dhw (S,B,G); pgh (S,G), pgc, pbc (S,H) per-step sums; dh, dc (B,H) set to zero before a
                 replay, they end as dh0, dc0
        after it: dxw (S,B,G), pgx, pbx (S,G) = the x side's BN_t backward; dx (S,B,I), dWx (I,G), dWh (H,G)
                 (projection_into over S*B rows); sums = db, dgx, dgh (1,G), dgc, dbc (1,H)."""

    def __init__(self, prov, S, B, H, I, dt, training, clip):
        G = 4 * H
        N = S * B
        (_, bwd), t = kernels(dt, B)
        gemm = product(prov)
        self.dy = empty((S, B, H), dt)
        self.xw, self.hw, self.gates = (empty((S, B, G), dt) for _ in range(3))
        self.mean_x, self.rstd_x, self.mean_h, self.rstd_h = (empty((S, G), dt) for _ in range(4))
        self.c, self.tc, self.y = (empty((S, B, H), dt) for _ in range(3))
        self.mean_c, self.rstd_c = empty((S, H), dt), empty((S, H), dt)
        self.lengths = empty(B, np.int64)
        self.x, self.Wx = empty((S, B, I), dt), empty((I, G), dt)
        self.h0, self.c0, self.Wh = empty((B, H), dt), empty((B, H), dt), empty((H, G), dt)
        self.p = (empty(G, dt), empty(G, dt), empty(H, dt))
        self.WhT = empty((G, H), dt)
        self.da, self.dhw, self.dxw = (empty((S, B, G), dt) for _ in range(3))
        self.pgh, self.pgx, self.pbx = (empty((S, G), dt) for _ in range(3))
        self.pgc, self.pbc = empty((S, H), dt), empty((S, H), dt)
        self.dh, self.dc = empty((B, H), dt), empty((B, H), dt)
        self.dx, self.dWx, self.dWh = empty((S, B, I), dt), empty((I, G), dt), empty((H, G), dt)
        self.sums = tuple(empty((1, n), dt) for n in (G, G, G, H, H))  # db, dgx, dgh, dgc, dbc
        P = colsum_parts(S)
        parts = (empty((P, G), dt), empty((P, H), dt)) if P > 1 else (None, None)
        fill_zeros(self.dy, self.xw, self.hw, self.gates, self.mean_x, self.rstd_x, self.mean_h, self.rstd_h, self.c,
                   self.tc, self.y, self.mean_c, self.rstd_c, self.lengths, self.x, self.Wx, self.h0, self.c0,
                   self.Wh, *self.p)
        gx, gh, gc = self.p
        vdhw, vWhT, vdh = (prov.view(a) for a in (self.dhw, self.WhT, self.dh))
        proj = projection_views(prov, self.x.reshape(N, I), self.dxw.reshape(N, G), self.dhw.reshape(N, G), self.h0,
                                self.y.reshape(N, H), self.Wx, self.dx.reshape(N, I), self.dWx, self.dWh)
        d1 = empty(1, dt)
        grid = ((H + t - 1) // t, 1)

        def before(stream):
            transpose_into(self.Wh, self.WhT, stream)

        def step(s, stream):
            sv = (self.gates[s], self.hw[s], self.c[s], self.c0 if s == 0 else self.c[s - 1], self.tc[s])
            st = (self.mean_h[s], self.rstd_h[s], self.mean_c[s], self.rstd_c[s])
            bwd[grid, (t, t), stream](self.dy[s], self.dh, self.dc, self.lengths, s, sv, st, (gh, gc), training, clip,
                                      self.da[s], self.dhw[s], (self.pgh[s], self.pgc[s], self.pbc[s]))
            gemm(vdhw[s], vWhT, vdh)

        def after(stream):  # bn_lstm_backward's x side, products and column sums, over all S steps
            bn_backward_launch(self.da, self.xw, self.lengths, self.mean_x, self.rstd_x, gx, training, self.dxw,
                               self.pgx, self.pbx, stream)
            projection_into(gemm, *proj)
            for part, src, out in ((parts[0], self.pbx, self.sums[0]), (parts[0], self.pgx, self.sums[1]),
                                   (parts[0], self.pgh, self.sums[2]), (parts[1], self.pgc, self.sums[3]),
                                   (parts[1], self.pbc, self.sums[4])):
                colsum_launch(src, src, d1, d1, SUM, out, part, stream)
        self.replay = capture_loop(prov, step, range(S - 1, -1, -1), before, after)


def bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh, rmc, rvc,
                    training, momentum, eps, par_min=PAR_MIN_WORK, lengths=None):
    """x (T,B,I), h0/c0 (B,H), Wx (I,G), Wh (H,G), b/gx/gh (G,), gc/bc (H,),
    rmx/rvx/rmh/rvh (Ts,G), rmc/rvc (Ts,H) (updated in place when training), lengths (B,) or None
    -> y (T,B,H), hT (B,H), cT (B,H), saved   (device arrays). Copies in, the plan's loop, copies out
    (gemm_cuda.call_plan)."""
    x, h0, c0, Wx, Wh, b, gx, gh, gc, bc = (to_device(a) for a in (x, h0, c0, Wx, Wh, b, gx, gh, gc, bc))
    runs = [running_on_device(a) for a in (rmx, rvx, rmh, rvh, rmc, rvc)]
    run = [dev for dev, _ in runs]
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    training = bool(training)
    lengths = device_lengths(lengths, T, B)
    key = (B, H, I, np.dtype(dt).str, (rmx.shape[0], rmh.shape[0], rmc.shape[0]), training, float(momentum),
           float(eps))
    plan, fresh = call_plan("bn-lstm forward", T, key,
                            lambda prov, S: _ForwardPlan(prov, S, B, H, I, dt, *key[4:]))
    load(zip((plan.x, plan.Wx, plan.h0, plan.c0, plan.Wh) + plan.p + plan.run, (x, Wx, h0, c0, Wh, b, gx, gh, gc, bc,
                                                                                *run)))
    load_lengths(plan.lengths, lengths, T)
    plan.replay()
    if training:  # the folded running rows back where they live
        for dst, src in zip(run, plan.run):
            copy_bytes(dst, src, src.nbytes)
        write_back(runs)
    out = (lambda a: a) if fresh else (lambda a: head(a, T))  # a cached plan's buffers serve the next call
    saved = tuple(out(a) for a in (plan.xw, plan.mean_x, plan.rstd_x, plan.hw, plan.mean_h, plan.rstd_h, plan.gates,
                                   plan.c, plan.mean_c, plan.rstd_c, plan.tc, plan.y))
    return saved[11], take_row(plan.y, T - 1), take_row(plan.c, T - 1), saved + (lengths, training)


def bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, par_min=PAR_MIN_WORK, clip=0.0):
    """dy (T,B,H) = dL/dy, saved from bn_lstm_forward, inputs as in the forward
    -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G), db (G,), dgx (G,), dgh (G,),
       dgc (H,), dbc (H,)   (device arrays). clip: Graves's bound on dL/d(preactivation); 0 or inf: off.
    Copies in, the plan's loop, copies out (gemm_cuda.call_plan)."""
    dy, x, h0, c0, Wx, Wh, gx, gh, gc = (to_device(a) for a in (dy, x, h0, c0, Wx, Wh, gx, gh, gc))
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, lengths, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    key = (B, H, I, np.dtype(dt).str, bool(training), clip_bound(clip))  # clip 0: off
    plan, fresh = call_plan("bn-lstm backward", T, key,
                            lambda prov, S: _BackwardPlan(prov, S, B, H, I, dt, *key[4:]))
    load(zip((plan.dy, plan.xw, plan.mean_x, plan.rstd_x, plan.hw, plan.mean_h, plan.rstd_h, plan.gates, plan.c,
              plan.mean_c, plan.rstd_c, plan.tc, plan.y, plan.x, plan.h0, plan.c0, plan.Wx, plan.Wh) + plan.p,
             (dy, xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, x, h0, c0, Wx, Wh, gx, gh,
              gc)))
    load_lengths(plan.lengths, lengths, T)
    if plan.dy.shape[0] > T:  # the extra steps' rows that the products after the loop read: zeros
        fill_zeros(plan.dy[T:], plan.x[T:], plan.y[T:])
    fill_zeros(plan.dh, plan.dc)
    plan.replay()
    own = (lambda a: a) if fresh else copy  # a cached plan's buffers serve the next call
    db, dgx, dgh, dgc, dbc = (own(a).reshape(a.shape[1]) for a in plan.sums)
    return (plan.dx if fresh else head(plan.dx, T), own(plan.dh), own(plan.dc), own(plan.dWx), own(plan.dWh), db, dgx,
            dgh, dgc, dbc)
