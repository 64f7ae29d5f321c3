"""LSTM and LN-LSTM over a whole sequence, forward and BPTT: CUDA twin of lstm.py.

Same function names, arguments, outputs and ``saved`` layout as the CPU twin (equations, gate order
[i|f|g|o] and shape letters: ``lnrnn.kernels``). Arguments: host or device arrays (host ones are
copied to the device once); every result, ``saved`` included, is a device array (``cuda_common``).
``nchunks`` is accepted for signature parity and ignored.

Layout of the work (everything stays on the device; the host only launches)
    Sequence path (default, when the shared arrays fit: config.CUDA_SEQUENCE_KERNELS): batch rows
    never meet, so after the x @ Wx GEMM (and its LayerNorm) one block per batch row runs the whole
    time loop, h_{t-1} and h_{t-1} Wh in shared memory: one launch for the forward, one for the BPTT
    loop (dh = dhw Wh^T through a transposed copy of Wh), then the same weight GEMMs and reductions
    as below. Measured on an H100 (bench/gpu_step.py): S1 2.4 s -> 36 ms against the per-step path.
    Per-step path (wide layers; what follows):
    forward   xp = x @ Wx over all T*B rows (one GEMM); for LN each row of xp is normalized in place
              (one row kernel), so xp holds xhat_x as in the CPU twin. Then per step t:
                  hw = h_{t-1} @ Wh                 (GEMM, (B,H) @ (H,G))
                  fused step kernel, one block per batch row: LN of hw, gates, c_t, LN of c_t, h_t.
    backward  per step t, in reverse:
                  fused step kernel, one block per batch row: dL/d(gates), the cell recurrence
                  dc_{t-1}, and (LN) the two LayerNorm backwards -> dHW_t, dXW_t
                  dh_{t-1} = dHW_t @ Wh^T          (GEMM)
              after the loop, over all T*B rows: dWx = X^T dXW, dx = dXW Wx^T, dWh = Hprev^T dHW
              (GEMMs) and the gate/normalization parameter gradients (column reductions of the
              saved per-step dL/da and dL/d(cell output)).

saved (device arrays, exactly the CPU twin's layout):
    gates (T,B,G)  activated gates [i|f|g|o]
    c     (T,B,H)  cell state c_t
    tc    (T,B,H)  tanh of the cell output, tanh(c_t) or tanh(LN(c_t))
    y     (T,B,H)  hidden state h_t (also the layer output)
    xp    (T,B,G)  x Wx; LN-normalized (xhat_x) when norm is LN
    hhat  (T,B,G)  LN-normalized h_{t-1} Wh     (norm LN; shape (0,0,0) otherwise)
    chat  (T,B,H)  LN-normalized c_t            (norm LN; shape (0,0,0) otherwise)
    rstd  (3,T,B)  1/std of the x, h and c LayerNorms (norm LN; shape (3,0,0) otherwise)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda_common import (block_sum, colsum, colsum_prod, copy, dot_col, empty, matmul, nbtype,
                                       rows2d, seq_fits, seq_threads, sigmoid, split_groups, split_matvec,
                                       threads_per_block, to_device, transpose, zeros)
from lnrnn.kernels.layernorm_cuda import ln_rows, row_stats
from lnrnn.kernels.codes import NORM_LN, NORM_NONE  # noqa: F401  (the same codes as the CPU twin)


@lru_cache(maxsize=None)
def _kernels(dtype, tpb):
    dt = nbtype(dtype)

    @cuda.jit
    def fwd_step(hw, xp_t, c_prev, p, ln, eps, out, rstd_h_t, rstd_c_t):
        """One time step; block bb handles batch row bb, each thread a strided set of hidden units k
        (and the four gate columns k, H+k, 2H+k, 3H+k), so every value a thread reads back it wrote.
            hw (B,G) = h_{t-1} Wh,  xp_t (B,G),  c_prev (B,H)
            p   = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each
            out = (gates_t (B,G), c_t (B,H), tc_t (B,H), y_t (B,H), hhat_t (B,G), chat_t (B,H));
                  hhat_t and chat_t are unused (may be empty) without LN
            rstd_h_t, rstd_c_t (B,) written with LN."""
        sh = cuda.shared.array(tpb, dt)
        b, gx, bx, gh, bh, gc, bc = p
        gates_t, c_t, tc_t, y_t, hhat_t, chat_t = out
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        G = hw.shape[1]
        H = G // 4
        one = dt(1.0)
        e = dt(eps)
        m_h, r_h, m_c, r_c = one - one, one, one - one, one
        if ln:
            m_h, r_h = row_stats(sh, hw[bb], G, one / dt(G), e, one)
        for k in range(tid, H, n):
            for q in range(4):
                j = q * H + k
                if ln:
                    hh = (hw[bb, j] - m_h) * r_h
                    hhat_t[bb, j] = hh
                    a = gh[j] * hh + bh[j] + gx[j] * xp_t[bb, j] + bx[j] + b[j]
                else:
                    a = hw[bb, j] + xp_t[bb, j] + b[j]
                gates_t[bb, j] = math.tanh(a) if q == 2 else sigmoid(a, one)
            c_t[bb, k] = gates_t[bb, H + k] * c_prev[bb, k] + gates_t[bb, k] * gates_t[bb, 2 * H + k]
        if ln:
            m_c, r_c = row_stats(sh, c_t[bb], H, one / dt(H), e, one)
        for k in range(tid, H, n):
            if ln:
                ch = (c_t[bb, k] - m_c) * r_c
                chat_t[bb, k] = ch
                tk = math.tanh(gc[k] * ch + bc[k])
            else:
                tk = math.tanh(c_t[bb, k])
            tc_t[bb, k] = tk
            y_t[bb, k] = gates_t[bb, 3 * H + k] * tk
        if ln and tid == 0:
            rstd_h_t[bb] = r_h
            rstd_c_t[bb] = r_c

    @cuda.jit
    def bwd_step(dy_t, dh_next, dc_next, sv, rs, p, ln, grads):
        """One time step of BPTT; block bb handles batch row bb, threads stride over hidden units k.
            dy_t (B,H) dL/dh_t from the output; dh_next (B,H) dL/dh_t from step t+1 (read);
            dc_next (B,H) dL/dc_t from step t+1, replaced in place by dL/dc_{t-1}
            sv    = (gates_t (B,G), xp_t (B,G), hhat_t (B,G), c_prev (B,H), tc_t (B,H), chat_t (B,H))
            rs    = (rstd_x_t, rstd_h_t, rstd_c_t) (B,) each        (LN only)
            p     = (gx, gh, gc)                                   (LN only)
            grads = (da_t (B,G) dL/d(preactivation), dcn_t (B,H) dL/d(cell output before tanh),
                     dhw_t (B,G) dL/d(h_{t-1} Wh), dxw_t (B,G) dL/d(x_t Wx)); without LN dhw_t and
                     dxw_t are da_t itself and are not written."""
        sh = cuda.shared.array(tpb, dt)
        gates_t, xp_t, hhat_t, c_prev, tc_t, chat_t = sv
        rstd_x_t, rstd_h_t, rstd_c_t = rs
        gx, gh, gc = p
        da_t, dcn_t, dhw_t, dxw_t = grads
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        G = gates_t.shape[1]
        H = G // 4
        one = dt(1.0)
        zero = one - one
        # 1. output gate, and dL/d(cell output) with its LayerNorm sums
        s1, s2 = zero, zero
        for k in range(tid, H, n):
            dh = dy_t[bb, k] + dh_next[bb, k]
            o = gates_t[bb, 3 * H + k]
            tk = tc_t[bb, k]
            da_t[bb, 3 * H + k] = dh * tk * o * (one - o)
            d = dh * o * (one - tk * tk)
            dcn_t[bb, k] = d
            if ln:
                s1 += d * gc[k]
                s2 += d * gc[k] * chat_t[bb, k]
        if ln:
            s1 = block_sum(sh, s1) / dt(H)
            s2 = block_sum(sh, s2) / dt(H)
        # 2. cell recurrence and the input/forget/candidate gates
        for k in range(tid, H, n):
            d = dcn_t[bb, k]
            if ln:
                d = rstd_c_t[bb] * (d * gc[k] - s1 - chat_t[bb, k] * s2)
            dc = d + dc_next[bb, k]
            i = gates_t[bb, k]
            f = gates_t[bb, H + k]
            g = gates_t[bb, 2 * H + k]
            da_t[bb, k] = dc * g * i * (one - i)
            da_t[bb, H + k] = dc * c_prev[bb, k] * f * (one - f)
            da_t[bb, 2 * H + k] = dc * i * (one - g * g)
            dc_next[bb, k] = dc * f
        # 3. LayerNorm backward of both products (a = LN(hw; gh, bh) + LN(xw; gx, bx) + b)
        if ln:
            h1, h2, x1, x2 = zero, zero, zero, zero
            for k in range(tid, H, n):
                for q in range(4):
                    j = q * H + k
                    d = da_t[bb, j]
                    h1 += d * gh[j]
                    h2 += d * gh[j] * hhat_t[bb, j]
                    x1 += d * gx[j]
                    x2 += d * gx[j] * xp_t[bb, j]
            inv_g = one / dt(G)
            h1 = block_sum(sh, h1) * inv_g
            h2 = block_sum(sh, h2) * inv_g
            x1 = block_sum(sh, x1) * inv_g
            x2 = block_sum(sh, x2) * inv_g
            rh = rstd_h_t[bb]
            rx = rstd_x_t[bb]
            for k in range(tid, H, n):
                for q in range(4):
                    j = q * H + k
                    d = da_t[bb, j]
                    dhw_t[bb, j] = rh * (d * gh[j] - h1 - hhat_t[bb, j] * h2)
                    dxw_t[bb, j] = rx * (d * gx[j] - x1 - xp_t[bb, j] * x2)

    return fwd_step, bwd_step


@lru_cache(maxsize=None)
def _seq_kernels(dtype, tpb, H):
    """Sequence kernels: one block per batch row runs the whole time loop (batch rows of a plain or LN
    LSTM never meet), so a forward or a backward is one launch whatever T is. Compiled per (dtype,
    threads per block, H): the shared arrays are sized by H."""
    dt = nbtype(dtype)
    G = 4 * H
    NRED = split_groups(H, tpb) * H  # shared sizes must be compile-time constants
    matvec = split_matvec(H, G, tpb)   # backward: dh = dv Wh^T, sums of length G

    @cuda.jit
    def fwd_seq(xp, h0, c0, Wh, p, ln, eps, out, rstd):
        """Block bb: batch row bb for t = 0..T-1 (same equations and saved layout as fwd_step).
            xp (T,B,G) x Wx (xhat_x with LN), h0, c0 (B,H), Wh (H,G)
            p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each
            out = (gates (T,B,G), c, tc, y (T,B,H), hhat (T,B,G), chat (T,B,H)); rstd (3,T,B)
        h_{t-1} and h_{t-1} Wh live in shared memory; thread j computes columns j, j+n, ... of the
        recurrent product (coalesced reads of Wh), then threads stride over hidden units k."""
        sh = cuda.shared.array(tpb, dt)
        hs = cuda.shared.array(H, dt)  # h_{t-1} of this row
        hw = cuda.shared.array(G, dt)  # h_{t-1} Wh of this row
        b, gx, bx, gh, bh, gc, bc = p
        gates, c, tc, y, hhat, chat = out
        T = xp.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        e = dt(eps)
        for k in range(tid, H, n):
            hs[k] = h0[bb, k]
        cuda.syncthreads()
        for t in range(T):
            for j in range(tid, G, n):
                hw[j] = dot_col(hs, Wh, j, 0, H, 1, zero)
            cuda.syncthreads()  # hw complete; nobody reads hs again this step
            m_h, r_h, m_c, r_c = zero, one, zero, one
            if ln:
                m_h, r_h = row_stats(sh, hw, G, one / dt(G), e, one)
            for k in range(tid, H, n):
                for q in range(4):
                    j = q * H + k
                    if ln:
                        hh = (hw[j] - m_h) * r_h
                        hhat[t, bb, j] = hh
                        a = gh[j] * hh + bh[j] + gx[j] * xp[t, bb, j] + bx[j] + b[j]
                    else:
                        a = hw[j] + xp[t, bb, j] + b[j]
                    gates[t, bb, j] = math.tanh(a) if q == 2 else sigmoid(a, one)
                cp = c0[bb, k] if t == 0 else c[t - 1, bb, k]
                c[t, bb, k] = gates[t, bb, H + k] * cp + gates[t, bb, k] * gates[t, bb, 2 * H + k]
            if ln:
                m_c, r_c = row_stats(sh, c[t, bb], H, one / dt(H), e, one)
            for k in range(tid, H, n):
                if ln:
                    ch = (c[t, bb, k] - m_c) * r_c
                    chat[t, bb, k] = ch
                    tk = math.tanh(gc[k] * ch + bc[k])
                else:
                    tk = math.tanh(c[t, bb, k])
                tc[t, bb, k] = tk
                h = gates[t, bb, 3 * H + k] * tk
                y[t, bb, k] = h
                hs[k] = h
            if ln and tid == 0:
                rstd[1, t, bb] = r_h
                rstd[2, t, bb] = r_c
            cuda.syncthreads()  # hs holds h_t for the next step's product

    @cuda.jit
    def bwd_seq(dy, sv, c0, rstd, p, WhT, ln, grads, dh0, dc0):
        """Block bb: BPTT of batch row bb for t = T-1..0 (same equations as bwd_step).
            dy (T,B,H); sv = (gates, xp, hhat, c, tc, chat) as saved; c0 (B,H); rstd (3,T,B)
            p = (gx, gh, gc); WhT (G,H) = Wh^T (coalesced reads of dh = dhw Wh^T)
            grads = (DA (T,B,G), DCN (T,B,H), dHW (T,B,G), dXW (T,B,G)); without LN DCN is a (1,B,H)
                    scratch and dHW, dXW are DA itself (not written)
            -> dh0, dc0 (B,H). dL/dh_t from step t+1 and the step's dL/d(h Wh) live in shared
            memory; dL/dc_t from step t+1 is carried in dc0 (each thread its own k)."""
        sh = cuda.shared.array(tpb, dt)
        dh = cuda.shared.array(H, dt)      # dL/dh_t from step t+1
        dv = cuda.shared.array(G, dt)      # dL/d(h_{t-1} Wh) of this step
        red = cuda.shared.array(NRED, dt)  # partial sums of dv Wh^T, one row per thread group
        gates, xp, hhat, c, tc, chat = sv
        gx, gh, gc = p
        DA, DCN, dHW, dXW = grads
        T = dy.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        for k in range(tid, H, n):
            dh[k] = zero
            dc0[bb, k] = zero
        cuda.syncthreads()
        for t in range(T - 1, -1, -1):
            tt = t if ln else 0
            # 1. output gate, and dL/d(cell output) with its LayerNorm sums
            s1, s2 = zero, zero
            for k in range(tid, H, n):
                dhk = dy[t, bb, k] + dh[k]
                o = gates[t, bb, 3 * H + k]
                tk = tc[t, bb, k]
                DA[t, bb, 3 * H + k] = dhk * tk * o * (one - o)
                d = dhk * o * (one - tk * tk)
                DCN[tt, bb, k] = d
                if ln:
                    s1 += d * gc[k]
                    s2 += d * gc[k] * chat[t, bb, k]
            if ln:
                s1 = block_sum(sh, s1) / dt(H)
                s2 = block_sum(sh, s2) / dt(H)
            # 2. cell recurrence and the input/forget/candidate gates
            for k in range(tid, H, n):
                d = DCN[tt, bb, k]
                if ln:
                    d = rstd[2, t, bb] * (d * gc[k] - s1 - chat[t, bb, k] * s2)
                dc = d + dc0[bb, k]
                i = gates[t, bb, k]
                f = gates[t, bb, H + k]
                g = gates[t, bb, 2 * H + k]
                cp = c0[bb, k] if t == 0 else c[t - 1, bb, k]
                DA[t, bb, k] = dc * g * i * (one - i)
                DA[t, bb, H + k] = dc * cp * f * (one - f)
                DA[t, bb, 2 * H + k] = dc * i * (one - g * g)
                dc0[bb, k] = dc * f
                if not ln:
                    for q in range(4):
                        dv[q * H + k] = DA[t, bb, q * H + k]
            # 3. LayerNorm backward of both products
            if ln:
                h1, h2, x1, x2 = zero, zero, zero, zero
                for k in range(tid, H, n):
                    for q in range(4):
                        j = q * H + k
                        d = DA[t, bb, j]
                        h1 += d * gh[j]
                        h2 += d * gh[j] * hhat[t, bb, j]
                        x1 += d * gx[j]
                        x2 += d * gx[j] * xp[t, bb, j]
                inv_g = one / dt(G)
                h1 = block_sum(sh, h1) * inv_g
                h2 = block_sum(sh, h2) * inv_g
                x1 = block_sum(sh, x1) * inv_g
                x2 = block_sum(sh, x2) * inv_g
                rh = rstd[1, t, bb]
                rx = rstd[0, t, bb]
                for k in range(tid, H, n):
                    for q in range(4):
                        j = q * H + k
                        d = DA[t, bb, j]
                        v = rh * (d * gh[j] - h1 - hhat[t, bb, j] * h2)
                        dHW[t, bb, j] = v
                        dv[j] = v
                        dXW[t, bb, j] = rx * (d * gx[j] - x1 - xp[t, bb, j] * x2)
            cuda.syncthreads()  # dv complete; dh of this step fully read
            # 4. dh <- dv Wh^T (thread groups split the G-long sums; see cuda_common.split_matvec)
            matvec(dv, WhT, dh, red, tid, n, zero)
            cuda.syncthreads()
        for k in range(tid, H, n):
            dh0[bb, k] = dh[k]

    return fwd_seq, bwd_seq


def _seq_geometry(H, dtype):
    """(threads per block, whether the sequence kernels serve this H and dtype)."""
    G = 4 * H
    tpb = seq_threads(G)
    return tpb, seq_fits(tpb + H + G + split_groups(H, tpb) * H, dtype)


def _dummies(dtype):
    """Empty (0,) and (0,0) device arrays standing in for the LN buffers of a norm='none' cell."""
    return empty(0, dtype), empty((0, 0), dtype)


def lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks=1):
    """x (T,B,I), h0 (B,H), c0 (B,H), Wx (I,G), Wh (H,G), b (G,), gx/bx/gh/bh (G,), gc/bc (H,)
    -> y (T,B,H), hT (B,H), cT (B,H), saved   (device arrays)."""
    x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc = (to_device(a) for a in (x, h0, c0, Wx, Wh, b, gx, bx, gh,
                                                                           bh, gc, bc))
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    ln = norm == NORM_LN
    eps = float(eps)
    tpb = threads_per_block()
    fwd_step = _kernels(np.dtype(dt), tpb)[0]

    xp = matmul(x.reshape(T * B, I), Wx).reshape(T, B, G)
    d1, d2 = _dummies(dt)
    if ln:
        hhat = empty((T, B, G), dt)
        chat = empty((T, B, H), dt)
        rstd = empty((3, T, B), dt)
        xp2 = xp.reshape(T * B, G)
        ln_rows(xp2, d1, d1, eps, False, xp2, empty(T * B, dt), rstd[0].reshape(T * B))  # xp <- xhat_x
    else:
        hhat = empty((0, 0, 0), dt)
        chat = empty((0, 0, 0), dt)
        rstd = empty((3, 0, 0), dt)
    gates = empty((T, B, G), dt)
    c = empty((T, B, H), dt)
    tc = empty((T, B, H), dt)
    y = empty((T, B, H), dt)
    p = (b, gx, bx, gh, bh, gc, bc)
    stpb, seq = _seq_geometry(H, dt)
    hw = None if seq else empty((B, G), dt)  # per-step path: recurrent product of the current step
    if seq:
        fwd_seq = _seq_kernels(np.dtype(dt), stpb, H)[0]
        fwd_seq[B, stpb](xp, h0, c0, Wh, p, ln, eps, (gates, c, tc, y, hhat, chat), rstd)
    for t in range(0 if seq else T):  # the per-step path
        matmul(h0 if t == 0 else y[t - 1], Wh, out=hw)
        out = (gates[t], c[t], tc[t], y[t], hhat[t] if ln else d2, chat[t] if ln else d2)
        fwd_step[B, tpb](hw, xp[t], c0 if t == 0 else c[t - 1], p, ln, eps, out,
                         rstd[1, t] if ln else d1, rstd[2, t] if ln else d1)
    saved = (gates, c, tc, y, xp, hhat, chat, rstd)
    return y, copy(y[T - 1]), copy(c[T - 1]), saved


def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nchunks=1):
    """dy (T,B,H) = dL/dh_t for every t -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G),
    db (G,), dgx (G,), dbx (G,), dgh (G,), dbh (G,), dgc (H,), dbc (H,)   (device arrays; gradients
    of parameters the norm does not use are zeros)."""
    dy, x, h0, c0, Wx, Wh, gx, gh, gc = (to_device(a) for a in (dy, x, h0, c0, Wx, Wh, gx, gh, gc))
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    dt = dy.dtype
    ln = norm == NORM_LN
    tpb = threads_per_block()
    bwd_step = _kernels(np.dtype(dt), tpb)[1]

    DA = empty((T, B, G), dt)  # dL/d(preactivation a), per row
    if ln:
        DCN = empty((T, B, H), dt)  # dL/d(gc * chat + bc), per row
        dHW = empty((T, B, G), dt)  # dL/d(h_{t-1} Wh)
        dXW = empty((T, B, G), dt)  # dL/d(x_t Wx)
    else:
        DCN = empty((1, B, H), dt)  # scratch, overwritten every step (no dgc/dbc without LN)
        dHW = dXW = DA  # without normalization both products see dL/da
    dh_next = zeros((B, H), dt)  # dL/dh_t from step t+1; ends as dh0
    dc_next = zeros((B, H), dt)  # dL/dc_t from step t+1; ends as dc0
    d1, d2 = _dummies(dt)
    p = (gx, gh, gc)
    stpb, seq = _seq_geometry(H, dt)
    if seq:
        bwd_seq = _seq_kernels(np.dtype(dt), stpb, H)[1]
        bwd_seq[B, stpb](dy, (gates, xp, hhat, c, tc, chat), c0, rstd, p, transpose(Wh), ln, (DA, DCN, dHW, dXW),
                         dh_next, dc_next)
    for t in range(-1 if seq else T - 1, -1, -1):  # the per-step path
        sv = (gates[t], xp[t], hhat[t] if ln else d2, c0 if t == 0 else c[t - 1], tc[t], chat[t] if ln else d2)
        rs = (rstd[0, t], rstd[1, t], rstd[2, t]) if ln else (d1, d1, d1)
        bwd_step[B, tpb](dy[t], dh_next, dc_next, sv, rs, p, ln, (DA[t], DCN[t if ln else 0], dHW[t], dXW[t]))
        matmul(dHW[t], Wh, out=dh_next, trans_b=True)

    dX2 = rows2d(dXW)
    dWx = matmul(x.reshape(T * B, I), dX2, trans_a=True)
    dx = matmul(dX2, Wx, trans_b=True).reshape(T, B, I)
    dWh = matmul(h0, dHW[0], trans_a=True)
    if T > 1:
        matmul(rows2d(y[:T - 1]), rows2d(dHW[1:]), out=dWh, trans_a=True, accumulate=True)
    db = colsum(DA)
    if ln:
        return (dx, dh_next, dc_next, dWx, dWh, db, colsum_prod(DA, xp), copy(db), colsum_prod(DA, hhat), copy(db),
                colsum_prod(DCN, chat), colsum(DCN))
    return dx, dh_next, dc_next, dWx, dWh, db, zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(G, dt), \
        zeros(H, dt), zeros(H, dt)
