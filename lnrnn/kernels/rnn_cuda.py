"""Vanilla (tanh) RNN and LN-RNN over a whole sequence, forward and BPTT: CUDA twin of rnn.py.

    norm NONE: h_t = tanh(x_t Wx + h_{t-1} Wh + b)
    norm LN:   h_t = tanh(LN(x_t Wx + h_{t-1} Wh; g, b))     (Ba et al. 2016, eq. 4; joint normalization)
Same names, arguments, outputs and ``saved`` layout as the CPU twin; host or device arrays in,
device arrays out (``arrays_cuda``); ``nchunks`` is accepted and ignored. Same layout of work as
lstm_cuda.py: x Wx over all T*B rows once; then the time loop, on one of three paths (rnn_path:
graphs_cuda.loop_path's choice): the per-step loop (one GEMM and one fused row kernel a step) captured
once per shape as a CUDA graph over buffers of its own and replayed (``_ForwardPlan``, ``_BackwardPlan``,
as lstm_cuda's), one sequence kernel (one block per batch row runs every step), or that per-step loop
launched step by step; weight gradients and the b/g reductions over all T*B rows after the loop.

saved (device arrays):
    y    (T,B,H)  h_t (also the output)
    ahat (T,B,H)  LN-normalized preactivation (norm LN; (0,0,0) otherwise)
    rstd (T,B)    its 1/std (norm LN; (0,0) otherwise)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda.arrays_cuda import (bounded, copy, empty, fill_zeros, head, load, nbtype, seq_fits,
                                       seq_threads, take_row, threads_per_block, to_device, transpose, transpose_into,
                                       zeros)
from lnrnn.kernels.cuda.gemm_cuda import (SUM, SUM_PROD, colsum, colsum_launch, colsum_parts, colsum_prod, matmul,
                                      input_product, product, projection_grads, projection_into, projection_views)
from lnrnn.kernels.cuda.graphs_cuda import capture_loop, loop_path, plan_for
from lnrnn.kernels.cuda.rows_cuda import block_sum2, local_stats, split_groups, split_matvec, units
from lnrnn.kernels.codes import NORM_LN, NORM_NONE  # noqa: F401  (the same codes as the CPU twin)


# ------------------------------------------------------------------------------------------------
# One batch row at one step, forward and BPTT: device functions shared by the per-step kernels (the
# row in global memory) and the sequence kernels (the preactivation and dL/dh in shared memory).
# Every thread of the block calls them (they synchronize); thread tid owns hidden units k = tid,
# tid + n, ... (at most nu of them), loads what it needs once and keeps what it computes in its local
# arrays across the block's sums, as lstm_cuda.row_functions.
# ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def row_functions(dtype, nu):
    """(fwd_row, bwd_row) for a working dtype and threads owning at most nu hidden units each
    (rows_cuda.units)."""
    dt = nbtype(dtype)
    N2 = 2 * nu  # local array sizes must be compile-time constants

    @cuda.jit(device=True)
    def fwd_row(sh, a, xp, b, g, ln, e, one, inv_h, y, ahat, h_copy):
        """a (H,) = h_{t-1} Wh on entry, x_t Wx + h_{t-1} Wh after; xp (H,) = x_t Wx; b, g (H,); e: eps
        -> y (H,) = h_t, also written to h_copy (H,); with LN also ahat (H,) ((0,) without). Returns the
        LayerNorm's rstd (one without LN). sh: shared scratch of blockDim.x elements."""
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        H = y.shape[0]
        zero = one - one
        av = cuda.local.array(nu, dt)  # the thread's preactivations
        gb = cuda.local.array(N2, dt)  # g (LN), b of its units
        s = zero
        for u in range(nu):
            k = tid + u * n
            if k < H:
                v = a[k] + xp[k]
                a[k] = v
                av[u] = v
                s += v
                gb[2 * u] = g[k] if ln else one
                gb[2 * u + 1] = b[k]
        m, r = zero, one
        if ln:
            m, r = local_stats(sh, av, 1, s, H, inv_h, e, one)
        for u in range(nu):
            k = tid + u * n
            if k < H:
                if ln:
                    ah = (av[u] - m) * r
                    ahat[k] = ah
                    h = math.tanh(gb[2 * u] * ah + gb[2 * u + 1])
                else:
                    h = math.tanh(av[u] + gb[2 * u + 1])
                y[k] = h
                h_copy[k] = h
        return r

    @cuda.jit(device=True)
    def bwd_row(sh, dy, dh, y, ahat, r, g, ln, one, inv_h, dz, da, dv):
        """dy, dh (H,) dL/dh_t from the output and from step t+1; y (H,); ahat (H,), r, g (H,) (LN only)
        -> dz (H,) dL/d(tanh argument); with LN da (H,) dL/d(x_t Wx + h_{t-1} Wh) (without LN that is dz,
        and da is not written); dL/d(x_t Wx + h_{t-1} Wh) also goes to dv (H,) (a shared row, or da).
        sh: shared scratch of 2 * blockDim.x elements (the LayerNorm's two sums at once)."""
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        H = y.shape[0]
        zero = one - one
        dzv = cuda.local.array(nu, dt)  # the thread's dL/d(tanh argument)
        ga = cuda.local.array(N2, dt)   # g, ahat of its units (LN)
        s1, s2 = zero, zero
        for u in range(nu):
            k = tid + u * n
            if k < H:
                yk = y[k]
                d = (dy[k] + dh[k]) * (one - yk * yk)
                dz[k] = d
                dzv[u] = d
                if ln:
                    gk = g[k]
                    ak = ahat[k]
                    ga[2 * u] = gk
                    ga[2 * u + 1] = ak
                    s1 += d * gk
                    s2 += d * gk * ak
                else:
                    dv[k] = d
        if ln:
            s1, s2 = block_sum2(sh, s1, s2)
            s1, s2 = s1 * inv_h, s2 * inv_h
            for u in range(nu):
                k = tid + u * n
                if k < H:
                    v = r * (dzv[u] * ga[2 * u] - s1 - ga[2 * u + 1] * s2)
                    da[k] = v
                    dv[k] = v

    return fwd_row, bwd_row


def step_kernels(dt, H, tpb):
    """(fwd_step, bwd_step) for width H on blocks of tpb threads (compiled per units a thread owns)."""
    return _kernels(np.dtype(dt), tpb, units(H, tpb))


@lru_cache(maxsize=None)
def _kernels(dtype, tpb, nu):
    """The per-step kernels for blocks of tpb threads owning at most nu hidden units each (rows_cuda.units)."""
    dt = nbtype(dtype)
    fwd_row, bwd_row = row_functions(dtype, nu)
    SH2 = 2 * tpb  # bwd_row's scratch (shared sizes must be compile-time constants)

    @bounded(tpb)
    def fwd_step(a, xp_t, b, g, ln, eps, y_t, ahat_t, rstd_t):
        """Block bb, batch row bb (fwd_row).
            a (B,H) = h_{t-1} Wh on entry, x_t Wx + h_{t-1} Wh after (scratch); xp_t (B,H); b, g (H,)
            -> y_t (B,H); with LN also ahat_t (B,H) and rstd_t (B,) (ahat_t is (B,0) without LN)."""
        sh = cuda.shared.array(tpb, dt)
        bb = cuda.blockIdx.x
        one = dt(1.0)
        r = fwd_row(sh, a[bb], xp_t[bb], b, g, ln, dt(eps), one, one / dt(a.shape[1]), y_t[bb], ahat_t[bb],
                    y_t[bb])
        if ln and cuda.threadIdx.x == 0:
            rstd_t[bb] = r

    @bounded(tpb)
    def bwd_step(dy_t, dh_next, y_t, ahat_t, rstd_t, g, ln, dz_t, da_t):
        """Block bb, batch row bb (bwd_row).
            dy_t, dh_next (B,H) dL/dh_t from the output and from step t+1; y_t (B,H);
            ahat_t (B,H), rstd_t (B,), g (H,) (LN only; ahat_t is (B,0) without LN)
            -> dz_t (B,H) dL/d(tanh argument); da_t (B,H) dL/d(x_t Wx + h_{t-1} Wh) (without LN da_t
               is dz_t itself)."""
        sh = cuda.shared.array(SH2, dt)
        bb = cuda.blockIdx.x
        one = dt(1.0)
        bwd_row(sh, dy_t[bb], dh_next[bb], y_t[bb], ahat_t[bb], rstd_t[bb] if ln else one, g, ln, one,
                one / dt(y_t.shape[1]), dz_t[bb], da_t[bb], da_t[bb])

    return fwd_step, bwd_step


@lru_cache(maxsize=None)
def _seq_kernels(dtype, tpb, H):
    """Sequence kernels: one block per batch row runs the whole time loop (as in lstm_cuda), compiled
    per (dtype, threads per block, H)."""
    dt = nbtype(dtype)
    NRED = split_groups(H, tpb) * H  # shared sizes must be compile-time constants
    matvec = split_matvec(H, H, tpb)   # both recurrent products: h Wh and dv Wh^T
    fwd_row, bwd_row = row_functions(dtype, units(H, tpb))
    SH2 = 2 * tpb  # bwd_row's scratch

    @bounded(tpb)
    def fwd_seq(xp, h0, Wh, b, g, ln, eps, y, ahat, rstd):
        """Block bb: batch row bb for t = 0..T-1 (fwd_row at every step). xp (T,B,H) x Wx, h0 (B,H),
        Wh (H,H), b, g (H,) -> y (T,B,H); with LN also ahat (T,B,H), rstd (T,B) (ahat (T,B,0)
        without LN). h_{t-1} and the preactivation live in shared memory."""
        sh = cuda.shared.array(tpb, dt)
        hs = cuda.shared.array(H, dt)
        a = cuda.shared.array(H, dt)
        red = cuda.shared.array(NRED, dt)
        T = xp.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        for k in range(tid, H, n):
            hs[k] = h0[bb, k]
        cuda.syncthreads()
        for t in range(T):
            matvec(hs, Wh, a, red, tid, n, zero)
            r = fwd_row(sh, a, xp[t, bb], b, g, ln, dt(eps), one, one / dt(H), y[t, bb], ahat[t, bb], hs)
            if ln and tid == 0:
                rstd[t, bb] = r
            cuda.syncthreads()

    @bounded(tpb)
    def bwd_seq(dy, y, ahat, rstd, g, WhT, ln, dZ, dA, dh0):
        """Block bb: BPTT of batch row bb for t = T-1..0 (bwd_row at every step). dy, y (T,B,H);
        ahat (T,B,H) ((T,B,0) without LN), rstd (T,B), g (H,) (LN only); WhT (H,H) = Wh^T
        -> dZ (T,B,H), dA (T,B,H) (LN only; without LN dA is dZ), dh0 (B,H)."""
        sh = cuda.shared.array(SH2, dt)
        dh = cuda.shared.array(H, dt)
        dv = cuda.shared.array(H, dt)
        red = cuda.shared.array(NRED, dt)
        T = dy.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        for k in range(tid, H, n):
            dh[k] = zero
        cuda.syncthreads()
        for t in range(T - 1, -1, -1):
            bwd_row(sh, dy[t, bb], dh, y[t, bb], ahat[t, bb], rstd[t, bb] if ln else one, g, ln, one, one / dt(H),
                    dZ[t, bb], dA[t, bb], dv)
            cuda.syncthreads()
            matvec(dv, WhT, dh, red, tid, n, zero)
            cuda.syncthreads()
        for k in range(tid, H, n):
            dh0[bb, k] = dh[k]

    return fwd_seq, bwd_seq


def _dummies(dtype, T, B):
    """Empty device arrays standing in for the LN buffers of a norm='none' cell: (0,) for rstd rows, and
    (B,0), (T,B,0) for ahat, whose rows the kernels take (the saved one stays (0,0,0))."""
    return empty(0, dtype), empty((B, 0), dtype), empty((T, B, 0), dtype)


def _seq_geometry(H, dtype):
    """(threads per block, whether the sequence kernels serve this H and dtype)."""
    tpb = seq_threads(H)
    return tpb, seq_fits(2 * tpb + 2 * H + split_groups(H, tpb) * H, dtype)  # the backward's shared arrays


def rnn_path(H, dtype, T=None):
    """The time loop rnn_forward and rnn_backward run for width H, dtype and T steps (None: a long sequence):
    graphs_cuda.loop_path's choice, the sequence kernels serving where their shared arrays fit."""
    return loop_path(_seq_geometry(H, dtype)[1], T)


class _ForwardPlan:
    """rnn_forward over S steps for one (B, H, I, dtype, norm, eps), captured over buffers of its own, zeros at first:
    the whole forward (a call of T <= S steps: as lstm_cuda._ForwardPlan's):
        read:    x (S,B,I), Wx (I,H), h0 (B,H), Wh (H,H), b, g (H,)
        before the loop: xp (S,B,H) = x Wx over all S*B rows
        the loop: y (S,B,H); with LN ahat (S,B,H) and rstd (S,B) (else (S,B,0) and (0,0)); a (B,H): the step's
                 preactivation."""

    def __init__(self, prov, S, B, H, I, dt, ln, eps):
        N = S * B
        tpb = threads_per_block()
        fwd_step = step_kernels(dt, H, tpb)[0]
        gemm = product(prov)
        d1, d2, d3 = _dummies(dt, S, B)
        self.x, self.Wx = empty((S, B, I), dt), empty((I, H), dt)
        self.xp, self.y = empty((S, B, H), dt), empty((S, B, H), dt)
        self.h0, self.a = empty((B, H), dt), empty((B, H), dt)
        self.Wh = empty((H, H), dt)
        self.b, self.g = empty(H, dt), empty(H, dt)
        self.ahat = empty((S, B, H), dt) if ln else d3
        self.rstd = empty((S, B), dt) if ln else empty((0, 0), dt)
        fill_zeros(self.x, self.Wx, self.xp, self.h0, self.Wh, self.b, self.g)
        vh0, vy, vWh, va = (prov.view(a) for a in (self.h0, self.y, self.Wh, self.a))
        xp = input_product(prov, gemm, self.x.reshape(N, I), self.Wx, self.xp.reshape(N, H))

        def before(stream):
            xp()

        def step(t, stream):
            gemm(vh0 if t == 0 else vy[t - 1], vWh, va)
            fwd_step[B, tpb, stream](self.a, self.xp[t], self.b, self.g, ln, eps, self.y[t], self.ahat[t],
                                     self.rstd[t] if ln else d1)
        self.replay = capture_loop(prov, step, range(S), before)


class _BackwardPlan:
    """rnn_backward over S steps for one (B, H, I, dtype, norm), captured over buffers of its own, zeros at first:
    the whole backward (a call of T <= S steps zeros the rest of what it reads: as lstm_cuda._BackwardPlan's):
        read:    dy, y (S,B,H); with LN ahat (S,B,H), rstd (S,B), g (H,) (else (S,B,0), (0,0)); x (S,B,I),
                 h0 (B,H), Wx (I,H), Wh (H,H)
        before the loop: WhT (H,H) = Wh^T
        the loop: dZ (S,B,H), dA (S,B,H) (dZ itself without LN); dh (B,H): zeros before a replay, dh0 after
        after it: dx (S,B,I), dWx (I,H), dWh (H,H) (gemm_cuda.projection_grads's products over S*B rows) and the
                 column sums db = sum dZ, with LN dg = sum dZ*ahat, each (1,H)."""

    def __init__(self, prov, S, B, H, I, dt, ln):
        N = S * B
        tpb = threads_per_block()
        bwd_step = step_kernels(dt, H, tpb)[1]
        gemm = product(prov)
        d1, d2, d3 = _dummies(dt, S, B)
        self.dy, self.y = empty((S, B, H), dt), empty((S, B, H), dt)
        self.ahat = empty((S, B, H), dt) if ln else d3
        self.rstd = empty((S, B), dt) if ln else empty((0, 0), dt)
        self.g = empty(H, dt)
        self.x, self.h0 = empty((S, B, I), dt), empty((B, H), dt)
        self.Wx, self.Wh, self.WhT = empty((I, H), dt), empty((H, H), dt), empty((H, H), dt)
        self.dZ = empty((S, B, H), dt)
        self.dA = empty((S, B, H), dt) if ln else self.dZ
        self.dh = empty((B, H), dt)
        self.dx, self.dWx, self.dWh = empty((S, B, I), dt), empty((I, H), dt), empty((H, H), dt)
        self.sums = tuple(empty((1, H), dt) for _ in range(2 if ln else 1))  # db, dg
        P = colsum_parts(N)
        part = empty((P, H), dt) if P > 1 else None
        fill_zeros(self.dy, self.y, self.ahat, self.rstd, self.g, self.x, self.h0, self.Wx, self.Wh, self.WhT)
        vdA, vWhT, vdh = (prov.view(a) for a in (self.dA, self.WhT, self.dh))
        dZ2, dA2, y2 = self.dZ.reshape(N, H), self.dA.reshape(N, H), self.y.reshape(N, H)
        proj = projection_views(prov, self.x.reshape(N, I), dA2, dA2, self.h0, y2, self.Wx, self.dx.reshape(N, I),
                                self.dWx, self.dWh)

        def before(stream):
            transpose_into(self.Wh, self.WhT, stream)

        def step(t, stream):
            bwd_step[B, tpb, stream](self.dy[t], self.dh, self.y[t], self.ahat[t], self.rstd[t] if ln else d1,
                                     self.g, ln, self.dZ[t], self.dA[t])
            gemm(vdA[t], vWhT, vdh)

        def after(stream):  # gemm_cuda.projection_grads and the column sums of rnn_backward, over all S*B rows
            projection_into(gemm, *proj)
            colsum_launch(dZ2, dZ2, d1, d1, SUM, self.sums[0], part, stream)
            if ln:
                colsum_launch(dZ2, self.ahat.reshape(N, H), d1, d1, SUM_PROD, self.sums[1], part, stream)
        self.replay = capture_loop(prov, step, range(S - 1, -1, -1), before, after)


def rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks=1):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b (H,), g (H,) -> y (T,B,H), hT (B,H), saved (device)."""
    x, h0, Wx, Wh, b, g = (to_device(a) for a in (x, h0, Wx, Wh, b, g))
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    ln = norm == NORM_LN
    tpb = threads_per_block()
    fwd_step = step_kernels(dt, H, tpb)[0]
    path = rnn_path(H, dt, T)
    if path == "graph":
        plan = plan_for("rnn forward", T, (B, H, I, np.dtype(dt).str, ln, float(eps)),
                        lambda prov, S: _ForwardPlan(prov, S, B, H, I, dt, ln, float(eps)))
        load([(plan.x, x), (plan.Wx, Wx), (plan.h0, h0), (plan.Wh, Wh), (plan.b, b), (plan.g, g)])
        plan.replay()
        y = head(plan.y, T)
        saved = (y, head(plan.ahat, T), head(plan.rstd, T)) if ln else (y, empty((0, 0, 0), dt), empty((0, 0), dt))
        return y, take_row(y, T - 1), saved
    xp = matmul(x.reshape(T * B, I), Wx).reshape(T, B, H)
    y = empty((T, B, H), dt)
    if ln:
        ahat = empty((T, B, H), dt)
        rstd = empty((T, B), dt)
    else:
        ahat = empty((0, 0, 0), dt)
        rstd = empty((0, 0), dt)
    d1, d2, d3 = _dummies(dt, T, B)
    stpb = _seq_geometry(H, dt)[0]
    seq = path == "seq"
    if seq:
        _seq_kernels(np.dtype(dt), stpb, H)[0][B, stpb](xp, h0, Wh, b, g, ln, float(eps), y, ahat if ln else d3,
                                                        rstd)
    a = None if seq else empty((B, H), dt)  # per-step path: preactivation of the current step
    for t in range(0 if seq else T):  # the per-step path
        matmul(h0 if t == 0 else y[t - 1], Wh, out=a)
        fwd_step[B, tpb](a, xp[t], b, g, ln, float(eps), y[t], ahat[t] if ln else d2, rstd[t] if ln else d1)
    return y, copy(y[T - 1]), (y, ahat, rstd)


def rnn_infer(x, h0, Wx, Wh, b, g, norm, eps, nchunks=1):
    """The CPU twin's forward without BPTT's saved tuple: the same arguments -> y (T,B,H), hT (B,H)
    (device arrays); rnn_forward with its saved tuple dropped on return."""
    y, hT, _ = rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks)
    return y, hT


def rnn_backward(dy, saved, x, h0, Wx, Wh, g, norm, nchunks=1):
    """dy (T,B,H) -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H), db (H,), dg (H,)   (device arrays;
    dg is zeros without LN)."""
    dy, x, h0, Wx, Wh, g = (to_device(a) for a in (dy, x, h0, Wx, Wh, g))
    y, ahat, rstd = saved
    T, B, H = dy.shape
    I = x.shape[2]
    dt = dy.dtype
    ln = norm == NORM_LN
    path = rnn_path(H, dt, T)
    if path == "graph":
        plan = plan_for("rnn backward", T, (B, H, I, np.dtype(dt).str, ln),
                        lambda prov, S: _BackwardPlan(prov, S, B, H, I, dt, ln))
        load([(plan.dy, dy), (plan.y, y), (plan.x, x), (plan.h0, h0), (plan.Wx, Wx), (plan.Wh, Wh)]
             + ([(plan.ahat, ahat), (plan.rstd, rstd), (plan.g, g)] if ln else []))
        if plan.dy.shape[0] > T:  # the extra steps on zeros (an earlier call's rows there may not be finite)
            fill_zeros(plan.dy[T:], plan.y[T:], plan.x[T:], plan.ahat[T:], plan.rstd[T:])
        fill_zeros(plan.dh)
        plan.replay()
        return (head(plan.dx, T), copy(plan.dh), copy(plan.dWx), copy(plan.dWh), copy(plan.sums[0]).reshape(H),
                copy(plan.sums[1]).reshape(H) if ln else zeros(H, dt))
    dZ, dA, dh_next = _backward_loop(path, dy, y, ahat, rstd, g, Wh, ln)
    dx, dWx, dWh = projection_grads(dA, dA, x, h0, y, Wx)
    return dx, dh_next, dWx, dWh, colsum(dZ), colsum_prod(dZ, ahat) if ln else zeros(H, dt)


def _backward_loop(path, dy, y, ahat, rstd, g, Wh, ln):
    """rnn_backward's time loop on the sequence kernels (path "seq") or one launch pair a step ("step")
    -> dZ, dA (as _BackwardPlan's), dh0."""
    T, B, H = dy.shape
    dt = dy.dtype
    tpb = threads_per_block()
    bwd_step = step_kernels(dt, H, tpb)[1]
    dZ = empty((T, B, H), dt)               # dL/d(tanh argument): db (and dg) reduce over it
    dA = empty((T, B, H), dt) if ln else dZ  # dL/d(x Wx + h Wh)
    dh_next = zeros((B, H), dt)             # dL/dh_t from step t+1; ends as dh0
    d1, d2, d3 = _dummies(dt, T, B)
    stpb = _seq_geometry(H, dt)[0]
    seq = path == "seq"
    if seq:
        _seq_kernels(np.dtype(dt), stpb, H)[1][B, stpb](dy, y, ahat if ln else d3, rstd, g, transpose(Wh), ln, dZ,
                                                        dA, dh_next)
    for t in range(-1 if seq else T - 1, -1, -1):  # the per-step path
        bwd_step[B, tpb](dy[t], dh_next, y[t], ahat[t] if ln else d2, rstd[t] if ln else d1, g, ln, dZ[t], dA[t])
        matmul(dA[t], Wh, out=dh_next, trans_b=True)
    return dZ, dA, dh_next
