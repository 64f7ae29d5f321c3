"""BN-RNN (Cooijmans et al. 2016), forward and BPTT: CUDA twin of bn_rnn.py (same names, arguments,
outputs, ``saved`` layout and running-statistics rules; the NumPy spec is reference.bn_rnn_forward).

Design note: the BN-RNN's CUDA module, named after its functions; bn_lstm_cuda.py is its LSTM sibling
and explains the layout (per step a GEMM for h_{t-1} Wh, then one fused kernel whose blocks own TILE
hidden units and stride over the batch; backward the same in reverse, then the x side and the weight
GEMMs; a call copies into a plan's buffers, runs its loop, captured and replayed on the graph path or launched
step by step on gemm_cuda.Direct, and copies out). The BN column machinery is batchnorm_cuda's, the GEMMs
gemm_cuda's. Host or device arrays in, device arrays out; ``par_min`` is accepted and ignored; masks
(``lengths``) as in the CPU twin.

saved (device arrays, plus the mode):
    (xw (T,B,H), mean_x (T,H), rstd_x (T,H), hw (T,B,H), mean_h (T,H), rstd_h (T,H), y (T,B,H), lengths (B,),
     training)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.config import BN_PAR_MIN_WORK as PAR_MIN_WORK  # the CPU twin's default, for signature parity (unused)
from lnrnn.kernels.batchnorm_cuda import (bn_backward_launch, bn_forward_launch, device_lengths, lane_sums,
                                          load_lengths, local_rstd, running_on_device, write_back)
from lnrnn.kernels.cuda.arrays_cuda import (copy, copy_bytes, empty, fill_zeros, head, load, nbtype, take_row,
                                            to_device, transpose_into)
from lnrnn.kernels.cuda.gemm_cuda import (SUM, call_plan, colsum_launch, colsum_parts, input_product, product,
                                          projection_into, projection_views, tile)
from lnrnn.kernels.cuda.graphs_cuda import capture_loop
from lnrnn.kernels.cuda.rows_cuda import units


@lru_cache(maxsize=None)
def _kernels(dtype, t, R):
    """The step kernels for blocks of t x t threads whose lanes own R batch rows each (R = units(B, t)), as
    bn_lstm_cuda's: a thread loads its rows once into local arrays and a phase's lane sums share one exchange
    (forward 2 a step, backward 1, where col_stats and col_backward took 3 each), added in their order."""
    dt = nbtype(dtype)

    @cuda.jit
    def fwd(hw_t, xn_t, lengths, s, gh, training, update, rmh_r, rvh_r, momentum, eps, mean_h_t, rstd_h_t, y_t):
        """BN-RNN step s: y_t = tanh(BN(hw_t; gh, 0) + xn_t); hw_t, xn_t, y_t (B,H); lengths (B,); stats (H,)."""
        sh = cuda.shared.array((2, t, t), dt)
        tot = cuda.shared.array((2, t), dt)
        a = cuda.local.array(R, dt)  # hw_t[b, j] of the thread's row r
        act = cuda.local.array(R, dt)  # 1 where s < lengths[b], else 0
        B, H = hw_t.shape
        tx = cuda.threadIdx.x
        j = cuda.blockIdx.x * t + tx
        valid = j < H
        lane = cuda.threadIdx.y
        nl = cuda.blockDim.y
        one = dt(1.0)
        zero = one - one
        mom, e = dt(momentum), dt(eps)
        sm = zero
        cnt = zero
        for r in range(R):
            b = lane + r * nl
            act[r] = zero
            if valid and b < B:
                v = hw_t[b, j]
                a[r] = v
                if s < lengths[b]:
                    act[r] = one
                    cnt += one
                    sm += v
        m, rs = zero, one
        if training:
            sh[0, lane, tx] = sm
            sh[1, lane, tx] = cnt
            lane_sums(sh, tot, 2)
            n = tot[1, tx]  # active rows, exact in floating point (B < 2^24)
            inv = one / max(n, one)
            m = tot[0, tx] * inv
            rs = local_rstd(sh, tot, a, act, m, n, inv, update and valid, rmh_r, rvh_r, j, (one, mom, e))
        elif valid:
            m, rs = rmh_r[j], one / math.sqrt(rvh_r[j] + e)
        if valid:
            if lane == 0:
                mean_h_t[j], rstd_h_t[j] = m, rs
            g = gh[j]
            for r in range(R):
                b = lane + r * nl
                if b < B:
                    y_t[b, j] = math.tanh(g * (a[r] - m) * rs + xn_t[b, j])

    @cuda.jit
    def bwd(dy_t, dhn, lengths, s, y_t, hw_t, mean_h_t, rstd_h_t, gh, training, da_t, dhw_t, pgh_t):
        """BN-RNN step s backward: da_t = dL/d(tanh argument), dhw_t (B,H); pgh_t (H,) this step's dgh;
        a padded row (s >= lengths[b]) gets zero da_t and dhw_t."""
        sh = cuda.shared.array((3, t, t), dt)
        tot = cuda.shared.array((3, t), dt)
        da = cuda.local.array(R, dt)  # dL/d(tanh argument) of the thread's row r (0 where padded)
        xm = cuda.local.array(R, dt)  # hw_t[b, j] - mean_h_t[j]
        act = cuda.local.array(R, dt)  # 1 where s < lengths[b], else 0
        B, H = hw_t.shape
        tx = cuda.threadIdx.x
        j = cuda.blockIdx.x * t + tx
        valid = j < H
        lane = cuda.threadIdx.y
        nl = cuda.blockDim.y
        one = dt(1.0)
        zero = one - one
        m, r1, g = zero, one, one
        if valid:
            m, r1, g = mean_h_t[j], rstd_h_t[j], gh[j]
        s1 = zero
        s2 = zero
        cnt = zero
        for r in range(R):
            b = lane + r * nl
            act[r] = zero
            if valid and b < B:
                xm[r] = hw_t[b, j] - m
                da[r] = zero
                if s < lengths[b]:
                    h = y_t[b, j]
                    d = (dy_t[b, j] + dhn[b, j]) * (one - h * h)
                    da[r] = d
                    act[r] = one
                    cnt += one
                    s1 += d
                    s2 += d * xm[r] * r1
                da_t[b, j] = da[r]
        sh[0, lane, tx] = s1
        sh[1, lane, tx] = s2
        sh[2, lane, tx] = cnt
        lane_sums(sh, tot, 3)
        s1, s2 = tot[0, tx], tot[1, tx]
        inv = one / max(tot[2, tx], one)
        if valid:
            if lane == 0:
                pgh_t[j] = s2
            for r in range(R):
                b = lane + r * nl
                if b >= B:
                    continue
                if act[r] == zero:
                    dhw_t[b, j] = zero
                elif training:
                    dhw_t[b, j] = g * r1 * (da[r] - (s1 + xm[r] * r1 * s2) * inv)
                else:
                    dhw_t[b, j] = g * r1 * da[r]

    return fwd, bwd


def kernels(dtype, B):
    """((forward step kernel, backward step kernel), tile edge) for a dtype and B batch rows at the current tile
    size (compiled per rows a lane owns, rows_cuda.units(B, tile))."""
    t = tile()
    return _kernels(np.dtype(dtype), t, units(B, t)), t


class _ForwardPlan:
    """bn_rnn_forward over S steps for one (B, H, I, dtype, the running rows' Ts, training, momentum, eps), captured
    over buffers of its own (as bn_lstm_cuda._ForwardPlan: a call of T <= S steps fills steps 0..T-1; its lengths
    are at most T, so the later steps count no row and fold nothing into the running rows).
        read:    x (S,B,I), Wx (I,H), h0 (B,H), Wh (H,H), lengths (B,) int64, p = (b, gx, gh) (H,) each; running
                 rows rmx, rvx (Tsx,H), rmh, rvh (Tsh,H)
        before the loop: xw (S,B,H) = x Wx; xn (S,B,H), mean_x, rstd_x (S,H) = BN_t(xw; gx, b)
        the loop: hw (S,B,H), mean_h, rstd_h (S,H), y (S,B,H)."""

    def __init__(self, prov, S, B, H, I, dt, Ts, training, momentum, eps):
        N = S * B
        (fwd, _), t = kernels(dt, B)
        gemm = product(prov)
        self.x, self.Wx = empty((S, B, I), dt), empty((I, H), dt)
        self.h0, self.Wh = empty((B, H), dt), empty((H, H), dt)
        self.lengths = empty(B, np.int64)
        self.p = tuple(empty(H, dt) for _ in range(3))
        Tsx, Tsh = Ts
        self.run = (empty((Tsx, H), dt), empty((Tsx, H), dt), empty((Tsh, H), dt), empty((Tsh, H), dt))
        self.xw, self.xn, self.hw, self.y = (empty((S, B, H), dt) for _ in range(4))
        self.mean_x, self.rstd_x, self.mean_h, self.rstd_h = (empty((S, H), dt) for _ in range(4))
        fill_zeros(self.x, self.Wx, self.xw, self.h0, self.Wh, self.lengths, *self.p, *self.run)
        b, gx, gh = self.p
        rmx, rvx, rmh, rvh = self.run
        vh0, vy, vWh, vhw = (prov.view(a) for a in (self.h0, self.y, self.Wh, self.hw))
        xw = input_product(prov, gemm, self.x.reshape(N, I), self.Wx, self.xw.reshape(N, H))
        grid = ((H + t - 1) // t, 1)

        def before(stream):
            xw()
            bn_forward_launch(self.xw, self.lengths, gx, b, rmx, rvx, training, momentum, eps, self.xn, self.mean_x,
                              self.rstd_x, stream)

        def step(s, stream):
            gemm(vh0 if s == 0 else vy[s - 1], vWh, vhw[s])
            r = min(s, Tsh - 1)
            fwd[grid, (t, t), stream](self.hw[s], self.xn[s], self.lengths, s, gh, training, s < Tsh, rmh[r], rvh[r],
                                      momentum, eps, self.mean_h[s], self.rstd_h[s], self.y[s])
        self.replay = capture_loop(prov, step, range(S), before)


class _BackwardPlan:
    """bn_rnn_backward over S steps for one (B, H, I, dtype, training), captured over buffers of its own (as
    bn_lstm_cuda._BackwardPlan: the steps after a call's T run first on zero dy and no active row, and leave dh
    and every sum exactly zero; dy, x and y are zeroed there for the products after the loop).
        read:    dy (S,B,H); the saved xw, hw, y (S,B,H), mean_x, rstd_x, mean_h, rstd_h (S,H), lengths (B,);
                 x (S,B,I), h0 (B,H), Wx (I,H), Wh (H,H), p = (gx, gh) (H,) each
        before the loop: WhT (H,H) = Wh^T
        the loop: da, dhw (S,B,H), pgh (S,H); dh (B,H) zero before a replay, dh0 after it
        after it: dxw (S,B,H), pgx, pbx (S,H) (the x side's BN_t backward); dx (S,B,I), dWx (I,H), dWh (H,H);
                 sums = db, dgx, dgh (1,H) each."""

    def __init__(self, prov, S, B, H, I, dt, training):
        N = S * B
        (_, bwd), t = kernels(dt, B)
        gemm = product(prov)
        self.dy, self.xw, self.hw, self.y = (empty((S, B, H), dt) for _ in range(4))
        self.mean_x, self.rstd_x, self.mean_h, self.rstd_h = (empty((S, H), dt) for _ in range(4))
        self.lengths = empty(B, np.int64)
        self.x, self.Wx = empty((S, B, I), dt), empty((I, H), dt)
        self.h0, self.Wh = empty((B, H), dt), empty((H, H), dt)
        self.p = (empty(H, dt), empty(H, dt))
        self.WhT = empty((H, H), dt)
        self.da, self.dhw, self.dxw = (empty((S, B, H), dt) for _ in range(3))
        self.pgh, self.pgx, self.pbx = (empty((S, H), dt) for _ in range(3))
        self.dh = empty((B, H), dt)
        self.dx, self.dWx, self.dWh = empty((S, B, I), dt), empty((I, H), dt), empty((H, H), dt)
        self.sums = tuple(empty((1, H), dt) for _ in range(3))  # db, dgx, dgh
        P = colsum_parts(S)
        part = empty((P, H), dt) if P > 1 else None
        fill_zeros(self.dy, self.xw, self.hw, self.y, self.mean_x, self.rstd_x, self.mean_h, self.rstd_h, self.lengths,
                   self.x, self.Wx, self.h0, self.Wh, *self.p)
        gx, gh = self.p
        vdhw, vWhT, vdh = (prov.view(a) for a in (self.dhw, self.WhT, self.dh))
        proj = projection_views(prov, self.x.reshape(N, I), self.dxw.reshape(N, H), self.dhw.reshape(N, H), self.h0,
                                self.y.reshape(N, H), self.Wx, self.dx.reshape(N, I), self.dWx, self.dWh)
        d1 = empty(1, dt)
        grid = ((H + t - 1) // t, 1)

        def before(stream):
            transpose_into(self.Wh, self.WhT, stream)

        def step(s, stream):
            bwd[grid, (t, t), stream](self.dy[s], self.dh, self.lengths, s, self.y[s], self.hw[s], self.mean_h[s],
                                      self.rstd_h[s], gh, training, self.da[s], self.dhw[s], self.pgh[s])
            gemm(vdhw[s], vWhT, vdh)

        def after(stream):  # bn_rnn_backward's x side, products and column sums, over all S steps
            bn_backward_launch(self.da, self.xw, self.lengths, self.mean_x, self.rstd_x, gx, training, self.dxw,
                               self.pgx, self.pbx, stream)
            projection_into(gemm, *proj)
            for src, out in zip((self.pbx, self.pgx, self.pgh), self.sums):
                colsum_launch(src, src, d1, d1, SUM, out, part, stream)
        self.replay = capture_loop(prov, step, range(S - 1, -1, -1), before, after)


def bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum, eps, par_min=PAR_MIN_WORK,
                   lengths=None):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b/gx/gh (H,), rm*/rv* (Ts,H) (updated in place
    when training), lengths (B,) or None -> y (T,B,H), hT (B,H), saved   (device arrays). Copies in, the plan's
    loop, copies out (gemm_cuda.call_plan)."""
    x, h0, Wx, Wh, b, gx, gh = (to_device(a) for a in (x, h0, Wx, Wh, b, gx, gh))
    runs = [running_on_device(a) for a in (rmx, rvx, rmh, rvh)]
    run = [dev for dev, _ in runs]
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    training = bool(training)
    lengths = device_lengths(lengths, T, B)
    key = (B, H, I, np.dtype(dt).str, (rmx.shape[0], rmh.shape[0]), training, float(momentum), float(eps))
    plan, fresh = call_plan("bn-rnn forward", T, key, lambda prov, S: _ForwardPlan(prov, S, B, H, I, dt, *key[4:]))
    load(zip((plan.x, plan.Wx, plan.h0, plan.Wh) + plan.p + plan.run, (x, Wx, h0, Wh, b, gx, gh, *run)))
    load_lengths(plan.lengths, lengths, T)
    plan.replay()
    if training:  # the folded running rows back where they live
        for dst, src in zip(run, plan.run):
            copy_bytes(dst, src, src.nbytes)
        write_back(runs)
    out = (lambda a: a) if fresh else (lambda a: head(a, T))  # a cached plan's buffers serve the next call
    saved = tuple(out(a) for a in (plan.xw, plan.mean_x, plan.rstd_x, plan.hw, plan.mean_h, plan.rstd_h, plan.y))
    return saved[6], take_row(plan.y, T - 1), saved + (lengths, training)


def bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, par_min=PAR_MIN_WORK):
    """dy (T,B,H), saved from bn_rnn_forward -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H),
    db (H,), dgx (H,), dgh (H,)   (device arrays). Copies in, the plan's loop, copies out (gemm_cuda.call_plan)."""
    dy, x, h0, Wx, Wh, gx, gh = (to_device(a) for a in (dy, x, h0, Wx, Wh, gx, gh))
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    key = (B, H, I, np.dtype(dt).str, bool(training))
    plan, fresh = call_plan("bn-rnn backward", T, key, lambda prov, S: _BackwardPlan(prov, S, B, H, I, dt, key[4]))
    load(zip((plan.dy, plan.xw, plan.mean_x, plan.rstd_x, plan.hw, plan.mean_h, plan.rstd_h, plan.y, plan.x, plan.h0,
              plan.Wx, plan.Wh) + plan.p, (dy, xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, x, h0, Wx, Wh, gx, gh)))
    load_lengths(plan.lengths, lengths, T)
    if plan.dy.shape[0] > T:  # the extra steps' rows that the products after the loop read: zeros
        fill_zeros(plan.dy[T:], plan.x[T:], plan.y[T:])
    fill_zeros(plan.dh)
    plan.replay()
    own = (lambda a: a) if fresh else copy  # a cached plan's buffers serve the next call
    db, dgx, dgh = (own(a).reshape(H) for a in plan.sums)
    return plan.dx if fresh else head(plan.dx, T), own(plan.dh), own(plan.dWx), own(plan.dWh), db, dgx, dgh
