"""LSTM and LN-LSTM over a whole sequence, forward and BPTT: CUDA twin of lstm.py.

Same function names, arguments, outputs and ``saved`` layout as the CPU twin (equations, gate order
[i|f|g|o] and shape letters: ``lnrnn.kernels``). Arguments: host or device arrays (host ones are
copied to the device once); every result, ``saved`` included, is a device array (``arrays_cuda``).
``nchunks`` is accepted for signature parity and ignored.

Layout of the work (everything stays on the device; the host only launches)
    Graph path (default where PyTorch serves cuBLAS and graphs, from config.CUDA_GRAPH_MIN_STEPS steps:
    graphs_cuda.loop_path, config.CUDA_LOOP_PATH): the per-step path below, its products on cuBLAS, captured
    whole once per (T, B, H, I, dtype, norm, eps or clip) as a CUDA graph over buffers of its own
    (``_ForwardPlan``, ``_BackwardPlan``) and replayed: the inputs are copied into the plan's buffers, one
    replay runs the call (the input's product and LayerNorm, the T steps, and in the backward the products
    and column sums after them), the results are copied out (the next call with the same shape reuses the
    buffers).
    Sequence path (where no library serves graphs and the shared arrays fit: config.CUDA_SEQUENCE_KERNELS): batch rows
    never meet, so after the x @ Wx GEMM (and its LayerNorm) one block per batch row runs the whole
    time loop, h_{t-1} and h_{t-1} Wh in shared memory: one launch for the forward, one for the BPTT
    loop (dh = dhw Wh^T through a transposed copy of Wh), then the same weight GEMMs and reductions
    as below. Measured on an H100 (bench/gpu_step.py): S1 2.4 s -> 36 ms against the per-step path.
    Per-step path (wide layers; what follows):
    forward   xp = x @ Wx over all T*B rows (one GEMM); for LN each row of xp is normalized in place
              (one row kernel), so xp holds xhat_x as in the CPU twin (and is saved where the CPU twin
              saves it: LN with a wide input; a narrow input's backward recomputes it as
              (x @ Wc) * rstd_x, Wc the centered Wx of lstm.ln_weights). Then per step t:
                  hw = h_{t-1} @ Wh                 (GEMM, (B,H) @ (H,G))
                  fused step kernel, one block per batch row: LN of hw, gates, c_t, LN of c_t, h_t.
    backward  per step t, in reverse:
                  fused step kernel, one block per batch row: dL/d(gates), the cell recurrence
                  dc_{t-1}, and (LN) the two LayerNorm backwards -> dHW_t, dXW_t
                  dh_{t-1} = dHW_t @ Wh^T          (GEMM)
              after the loop, over all T*B rows: dWx = X^T dXW, dx = dXW Wx^T, dWh = Hprev^T dHW
              (GEMMs) and the gate/normalization parameter gradients (column reductions of the
              saved per-step dL/da and dL/d(cell output)).

Graves's gate clip (``clip`` of lstm_backward, as in the CPU twin): every thread clips the four gate
columns of its hidden units k to [-clip, clip] right after writing them (each thread reads back only
what it wrote), before the LayerNorm sums, dv and the column sums of DA read them. 0 or inf: off.

saved (device arrays, exactly the CPU twin's layout):
    gates (T,B,G)  activated gates [i|f|g|o]
    c     (T,B,H)  cell state c_t
    tc    (T,B,H)  tanh of the cell output, tanh(c_t) or tanh(LN(c_t))
    y     (T,B,H)  hidden state h_t (also the layer output)
    xp    (T,B,G)  LN-normalized x_t Wx (xhat_x): norm LN unless the input is narrow (0 < I <= FOLD_MAX_I);
                   shape (0,0,0) otherwise
    hhat  (T,B,G)  LN-normalized h_{t-1} Wh     (norm LN; shape (0,0,0) otherwise)
    chat  (T,B,H)  LN-normalized c_t            (norm LN; shape (0,0,0) otherwise)
    rstd  (3,T,B)  1/std of the x, h and c LayerNorms (norm LN; shape (3,0,0) otherwise)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda, float64

from lnrnn import config
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.cuda.arrays_cuda import (bounded, copy, copy_bytes, empty, fill_zeros, grid_1d, head, load,
                                       nbtype, seq_fits, seq_threads, take_row, threads_per_block, to_device,
                                       transpose, transpose_into, zeros)
from lnrnn.kernels.cuda.graphs_cuda import capture_loop, loop_path, plan_for
from lnrnn.kernels.cuda.gemm_cuda import (SUM, SUM_PROD, Direct, colsum, colsum_launch, colsum_parts, colsum_prod,
                                          matmul, input_product, product, projection_grads, projection_into,
                                          projection_views)
from lnrnn.kernels.cuda.rows_cuda import (block_sum2, block_sum4, dot_col, local_stats, sigmoid, split_groups,
                                          split_matvec, units)
from lnrnn.kernels.layernorm_cuda import ln_rows
from lnrnn.kernels.codes import NORM_LN, NORM_NONE, centered, clip_bound  # noqa: F401  (the same codes as the CPU twin)


# ------------------------------------------------------------------------------------------------
# One batch row at one step, forward and BPTT: device functions shared by the per-step kernels (the
# row's vectors in global memory), the sequence kernels (h_{t-1} Wh and dL/dh in shared memory) and the
# window layer's kernels (window_cuda). Every thread of the block calls them (they synchronize); thread
# tid owns hidden units k = tid, tid + n, ... (at most nu of them: rows_cuda.units) and their four gate columns k, H+k,
# 2H+k, 3H+k. What a thread needs it loads once, at the start, and what it computes stays in its own
# local arrays (registers) across the block's sums: nothing it wrote is read back from global memory, so
# a step waits for memory once, not at every phase (these kernels are bound by that latency, not by
# their arithmetic).
# ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def row_functions(dtype, nu):
    """(fwd_row, bwd_row) for a working dtype and threads owning at most nu hidden units each (rows_cuda.units)."""
    dt = nbtype(dtype)
    NG = 4 * nu  # a thread's gate columns (local array sizes must be compile-time constants)
    NC = 2 * nu
    NL = 16 * nu
    NU = 5 * nu

    @cuda.jit(device=True)
    def fwd_row(sh, hw, xp, c_prev, p, ln, e, one, inv_g, inv_h, out, h_copy):
        """hw (G,) = h_{t-1} Wh, xp (G,) = x_t Wx (xhat_x with LN), c_prev (H,) of one row;
        p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each; e: eps; inv_g, inv_h: 1/G, 1/H;
        out = the row's (gates (G,), c, tc, y (H,), hhat (G,), chat (H,)) (hhat, chat (0,) without LN);
        h_t is also written to h_copy (H,). Returns (rstd of hw, rstd of c_t), ones without LN.
        sh: shared scratch of blockDim.x elements."""
        b, gx, bx, gh, bh, gc, bc = p
        gates, c, tc, y, hhat, chat = out
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        H = gates.shape[0] // 4
        zero = one - one
        v = cuda.local.array(NG, dt)    # the thread's columns of hw, then its gates
        pre = cuda.local.array(NG, dt)  # the rest of each preactivation: gx xhat_x + bx + bh + b (xp + b)
        g_h = cuda.local.array(NG, dt)  # gh of its columns (LN)
        cv = cuda.local.array(nu, dt)   # c_{t-1} of its units, then c_t
        gcb = cuda.local.array(NC, dt)  # gc, bc of its units (LN)
        s = zero
        for u in range(nu):
            k = tid + u * n
            if k < H:
                for q in range(4):
                    j = q * H + k
                    h = hw[j]
                    v[4 * u + q] = h
                    s += h
                    if ln:
                        g_h[4 * u + q] = gh[j]
                        pre[4 * u + q] = gx[j] * xp[j] + bx[j] + bh[j] + b[j]
                    else:
                        pre[4 * u + q] = xp[j] + b[j]
                cv[u] = c_prev[k]
                if ln:
                    gcb[2 * u] = gc[k]
                    gcb[2 * u + 1] = bc[k]
        m_h, r_h, m_c, r_c = zero, one, zero, one
        if ln:  # LayerNorm of hw
            m_h, r_h = local_stats(sh, v, 4, s, H, inv_g, e, one)
        s = zero
        for u in range(nu):
            k = tid + u * n
            if k < H:
                for q in range(4):
                    j = q * H + k
                    if ln:
                        hh = (v[4 * u + q] - m_h) * r_h
                        hhat[j] = hh
                        a = g_h[4 * u + q] * hh + pre[4 * u + q]
                    else:
                        a = v[4 * u + q] + pre[4 * u + q]
                    g = math.tanh(a) if q == 2 else sigmoid(a, one)
                    gates[j] = g
                    v[4 * u + q] = g
                ck = v[4 * u + 1] * cv[u] + v[4 * u] * v[4 * u + 2]
                c[k] = ck
                cv[u] = ck
                s += ck
        if ln:  # LayerNorm of c_t
            m_c, r_c = local_stats(sh, cv, 1, s, H, inv_h, e, one)
        for u in range(nu):
            k = tid + u * n
            if k < H:
                if ln:
                    ch = (cv[u] - m_c) * r_c
                    chat[k] = ch
                    tk = math.tanh(gcb[2 * u] * ch + gcb[2 * u + 1])
                else:
                    tk = math.tanh(cv[u])
                tc[k] = tk
                h = v[4 * u + 3] * tk
                y[k] = h
                h_copy[k] = h
        return r_h, r_c

    @cuda.jit(device=True)
    def bwd_row(sh, dy, dh, dc, sv, rs, p, ln, clip, one, fh, inv_g, grads, dv):
        """BPTT of one row at one step. dy (H,) dL/dh_t from the output, dh (H,) from step t+1 (read);
        dc (H,) dL/dc_t from step t+1, replaced by dL/dc_{t-1};
        sv = the row's (gates (G,), xp (G,), hhat (G,), c_prev (H,), tc (H,), chat (H,));
        rs = its (rstd_x, rstd_h, rstd_c) and p = (gx, gh, gc) (LN only); clip > 0: Graves's bound on
        dL/d(preactivation) (0: off); fh: H in the working dtype;
        grads = the row's (da (G,) dL/d(preactivation), dcn (H,) dL/d(cell output before tanh),
                dhw (G,) dL/d(h_{t-1} Wh), dxw (G,) dL/d(x_t Wx)); without LN dhw and dxw are da itself
                and are not written; dL/d(h_{t-1} Wh) also goes to dv (G,).
        sh: shared scratch of 4 * blockDim.x elements (the LayerNorm sums, four at once)."""
        gates, xp, hhat, c_prev, tc, chat = sv
        r_x, r_h, r_c = rs
        gx, gh, gc = p
        da, dcn, dhw, dxw = grads
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        H = gates.shape[0] // 4
        zero = one - one
        gv = cuda.local.array(NG, dt)   # the thread's gates
        dav = cuda.local.array(NG, dt)  # their dL/d(preactivation)
        lnv = cuda.local.array(NL, dt)  # LN: gh, hhat, gx, xhat_x of its columns
        uv = cuda.local.array(NU, dt)   # per unit: dL/d(cell output), chat, gc (LN), c_{t-1}, dL/dc_t
        # 1. everything the thread reads; the output gate, and dL/d(cell output) with its LayerNorm sums
        s1, s2 = zero, zero
        for u in range(nu):
            k = tid + u * n
            if k < H:
                for q in range(4):
                    j = q * H + k
                    gv[4 * u + q] = gates[j]
                    if ln:
                        lnv[16 * u + q] = gh[j]
                        lnv[16 * u + 4 + q] = hhat[j]
                        lnv[16 * u + 8 + q] = gx[j]
                        lnv[16 * u + 12 + q] = xp[j]
                uv[5 * u + 3] = c_prev[k]
                uv[5 * u + 4] = dc[k]
                dhk = dy[k] + dh[k]
                tk = tc[k]
                o = gv[4 * u + 3]
                dav[4 * u + 3] = dhk * tk * o * (one - o)
                d = dhk * o * (one - tk * tk)
                dcn[k] = d
                uv[5 * u] = d
                if ln:
                    ch = chat[k]
                    g = gc[k]
                    uv[5 * u + 1] = ch
                    uv[5 * u + 2] = g
                    s1 += d * g
                    s2 += d * g * ch
        if ln:
            s1, s2 = block_sum2(sh, s1, s2)
            s1, s2 = s1 / fh, s2 / fh
        # 2. cell recurrence and the input/forget/candidate gates
        for u in range(nu):
            k = tid + u * n
            if k < H:
                d = uv[5 * u]
                if ln:
                    d = r_c * (d * uv[5 * u + 2] - s1 - uv[5 * u + 1] * s2)
                dck = d + uv[5 * u + 4]
                i = gv[4 * u]
                f = gv[4 * u + 1]
                g = gv[4 * u + 2]
                dav[4 * u] = dck * g * i * (one - i)
                dav[4 * u + 1] = dck * uv[5 * u + 3] * f * (one - f)
                dav[4 * u + 2] = dck * i * (one - g * g)
                dc[k] = dck * f
                for q in range(4):
                    a = dav[4 * u + q]
                    if clip > zero:  # Graves: clip dL/da before anything reads it (dc, carried on, stays unclipped)
                        a = min(max(a, -clip), clip)
                        dav[4 * u + q] = a
                    da[q * H + k] = a
                    if not ln:
                        dv[q * H + k] = a
        # 3. LayerNorm backward of both products (a = LN(hw; gh, bh) + LN(xw; gx, bx) + b)
        if ln:
            h1, h2, x1, x2 = zero, zero, zero, zero
            for u in range(nu):
                if tid + u * n < H:
                    for q in range(4):
                        d = dav[4 * u + q]
                        h1 += d * lnv[16 * u + q]
                        h2 += d * lnv[16 * u + q] * lnv[16 * u + 4 + q]
                        x1 += d * lnv[16 * u + 8 + q]
                        x2 += d * lnv[16 * u + 8 + q] * lnv[16 * u + 12 + q]
            h1, h2, x1, x2 = block_sum4(sh, h1, h2, x1, x2)
            h1, h2, x1, x2 = h1 * inv_g, h2 * inv_g, x1 * inv_g, x2 * inv_g
            for u in range(nu):
                k = tid + u * n
                if k < H:
                    for q in range(4):
                        j = q * H + k
                        d = dav[4 * u + q]
                        w = r_h * (d * lnv[16 * u + q] - h1 - lnv[16 * u + 4 + q] * h2)
                        dhw[j] = w
                        dv[j] = w
                        dxw[j] = r_x * (d * lnv[16 * u + 8 + q] - x1 - lnv[16 * u + 12 + q] * x2)

    return fwd_row, bwd_row


def step_kernels(dt, H, tpb):
    """(fwd_step, bwd_step) for width H on blocks of tpb threads (compiled per units a thread owns)."""
    return _kernels(np.dtype(dt), tpb, units(H, tpb))


@lru_cache(maxsize=None)
def _kernels(dtype, tpb, nu):
    """The per-step kernels for blocks of tpb threads owning at most nu hidden units each (rows_cuda.units)."""
    dt = nbtype(dtype)
    fwd_row, bwd_row = row_functions(dtype, nu)
    SH4 = 4 * tpb  # bwd_row's scratch (shared sizes must be compile-time constants)

    @bounded(tpb)
    def fwd_step(hw, xp_t, c_prev, p, ln, eps, out, rstd_h_t, rstd_c_t):
        """One time step (fwd_row); block bb handles batch row bb.
            hw (B,G) = h_{t-1} Wh,  xp_t (B,G),  c_prev (B,H)
            p   = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each
            out = (gates_t (B,G), c_t (B,H), tc_t (B,H), y_t (B,H), hhat_t (B,G), chat_t (B,H));
                  hhat_t and chat_t are (B,0) without LN
            rstd_h_t, rstd_c_t (B,) written with LN."""
        sh = cuda.shared.array(tpb, dt)
        gates_t, c_t, tc_t, y_t, hhat_t, chat_t = out
        bb = cuda.blockIdx.x
        one = dt(1.0)
        G = hw.shape[1]
        H = G // 4
        r_h, r_c = fwd_row(sh, hw[bb], xp_t[bb], c_prev[bb], p, ln, dt(eps), one, one / dt(G), one / dt(H),
                           (gates_t[bb], c_t[bb], tc_t[bb], y_t[bb], hhat_t[bb], chat_t[bb]), y_t[bb])
        if ln and cuda.threadIdx.x == 0:
            rstd_h_t[bb] = r_h
            rstd_c_t[bb] = r_c

    @bounded(tpb)
    def bwd_step(dy_t, dh_next, dc_next, sv, rs, p, ln, clip, grads):
        """One time step of BPTT (bwd_row); block bb handles batch row bb.
            dy_t (B,H) dL/dh_t from the output; dh_next (B,H) dL/dh_t from step t+1 (read);
            dc_next (B,H) dL/dc_t from step t+1, replaced in place by dL/dc_{t-1}
            sv    = (gates_t (B,G), xp_t (B,G), hhat_t (B,G), c_prev (B,H), tc_t (B,H), chat_t (B,H));
                    hhat_t and chat_t are (B,0) without LN
            rs    = (rstd_x_t, rstd_h_t, rstd_c_t) (B,) each        (LN only)
            p     = (gx, gh, gc)                                   (LN only)
            clip  Graves's bound on dL/d(preactivation), 0: off
            grads = (da_t (B,G), dcn_t (B,H), dhw_t (B,G), dxw_t (B,G)) as in bwd_row; without LN
                    dhw_t and dxw_t are da_t itself."""
        sh = cuda.shared.array(SH4, dt)
        gates_t, xp_t, hhat_t, c_prev, tc_t, chat_t = sv
        rstd_x_t, rstd_h_t, rstd_c_t = rs
        da_t, dcn_t, dhw_t, dxw_t = grads
        bb = cuda.blockIdx.x
        one = dt(1.0)
        G = gates_t.shape[1]
        r = (rstd_x_t[bb], rstd_h_t[bb], rstd_c_t[bb]) if ln else (one, one, one)
        bwd_row(sh, dy_t[bb], dh_next[bb], dc_next[bb],
                (gates_t[bb], xp_t[bb], hhat_t[bb], c_prev[bb], tc_t[bb], chat_t[bb]), r, p, ln, dt(clip), one,
                dt(G // 4), one / dt(G), (da_t[bb], dcn_t[bb], dhw_t[bb], dxw_t[bb]), dhw_t[bb])

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
    fwd_row, bwd_row = row_functions(dtype, units(H, tpb))
    SH4 = 4 * tpb  # bwd_row's scratch

    @bounded(tpb)
    def fwd_seq(xp, h0, c0, Wh, p, ln, eps, out, rstd):
        """Block bb: batch row bb for t = 0..T-1 (fwd_row at every step; saved layout as fwd_step).
            xp (T,B,G) x Wx (xhat_x with LN), h0, c0 (B,H), Wh (H,G)
            p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each
            out = (gates (T,B,G), c, tc, y (T,B,H), hhat (T,B,G), chat (T,B,H)); hhat and chat are
                  (T,B,0) without LN; rstd (3,T,B)
        h_{t-1} and h_{t-1} Wh live in shared memory; thread j computes columns j, j+n, ... of the
        recurrent product (coalesced reads of Wh)."""
        sh = cuda.shared.array(tpb, dt)
        hs = cuda.shared.array(H, dt)  # h_{t-1} of this row
        hw = cuda.shared.array(G, dt)  # h_{t-1} Wh of this row
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
            r_h, r_c = fwd_row(sh, hw, xp[t, bb], c0[bb] if t == 0 else c[t - 1, bb], p, ln, e, one, one / dt(G),
                               one / dt(H), (gates[t, bb], c[t, bb], tc[t, bb], y[t, bb], hhat[t, bb], chat[t, bb]),
                               hs)
            if ln and tid == 0:
                rstd[1, t, bb] = r_h
                rstd[2, t, bb] = r_c
            cuda.syncthreads()  # hs holds h_t for the next step's product

    @bounded(tpb)
    def bwd_seq(dy, sv, c0, rstd, p, WhT, ln, clip, grads, dh0, dc0):
        """Block bb: BPTT of batch row bb for t = T-1..0 (bwd_row at every step).
            dy (T,B,H); sv = (gates, xp, hhat, c, tc, chat) as saved (hhat, chat (T,B,0) without LN);
            c0 (B,H); rstd (3,T,B); p = (gx, gh, gc); WhT (G,H) = Wh^T (coalesced reads of dh = dv Wh^T);
            clip: Graves's bound on dL/d(preactivation), 0: off
            grads = (DA (T,B,G), DCN (T,B,H), dHW (T,B,G), dXW (T,B,G)); without LN DCN is a (1,B,H)
                    scratch and dHW, dXW are DA itself (not written)
            -> dh0, dc0 (B,H). dL/dh_t from step t+1 and the step's dL/d(h Wh) live in shared
            memory; dL/dc_t from step t+1 is carried in dc0 (each thread its own k)."""
        sh = cuda.shared.array(SH4, dt)  # bwd_row's sums
        dh = cuda.shared.array(H, dt)      # dL/dh_t from step t+1
        dv = cuda.shared.array(G, dt)      # dL/d(h_{t-1} Wh) of this step
        red = cuda.shared.array(NRED, dt)  # partial sums of dv Wh^T, one row per thread group
        gates, xp, hhat, c, tc, chat = sv
        DA, DCN, dHW, dXW = grads
        T = dy.shape[0]
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        cl = dt(clip)
        for k in range(tid, H, n):
            dh[k] = zero
            dc0[bb, k] = zero
        cuda.syncthreads()
        for t in range(T - 1, -1, -1):
            tt = t if ln else 0
            r = (rstd[0, t, bb], rstd[1, t, bb], rstd[2, t, bb]) if ln else (one, one, one)
            bwd_row(sh, dy[t, bb], dh, dc0[bb],
                    (gates[t, bb], xp[t, bb], hhat[t, bb], c0[bb] if t == 0 else c[t - 1, bb], tc[t, bb],
                     chat[t, bb]), r, p, ln, cl, one, dt(H), one / dt(G),
                    (DA[t, bb], DCN[tt, bb], dHW[t, bb], dXW[t, bb]), dv)
            cuda.syncthreads()  # dv complete; dh of this step fully read
            # dh <- dv Wh^T (thread groups split the G-long sums; see rows_cuda.split_matvec)
            matvec(dv, WhT, dh, red, tid, n, zero)
            cuda.syncthreads()
        for k in range(tid, H, n):
            dh0[bb, k] = dh[k]

    return fwd_seq, bwd_seq


def _seq_geometry(H, dtype):
    """(threads per block, whether the sequence kernels serve this H and dtype)."""
    G = 4 * H
    tpb = seq_threads(G)
    return tpb, seq_fits(4 * tpb + H + G + split_groups(H, tpb) * H, dtype)  # the backward's shared arrays


def _dummies(dtype, T, B):
    """Empty device arrays standing in for the LN buffers of a norm='none' cell: (0,) for rstd rows, and
    (B,0), (T,B,0) for hhat/chat, whose rows the kernels take (the saved ones stay (0,0,0))."""
    return empty(0, dtype), empty((B, 0), dtype), empty((T, B, 0), dtype)


def lstm_path(H, dtype, dcT=False, T=None):
    """The time loop lstm_forward (and lstm_backward, ``dcT``: a seed for dL/dc_n given) runs for width H,
    dtype and T steps (None: a long sequence): graphs_cuda.loop_path's choice, the sequence kernels serving
    where their shared arrays fit and no dL/dc_n seed is given (they start dL/dc at zero)."""
    return loop_path(_seq_geometry(H, dtype)[1] and not dcT, T)


def step_threads(H):
    """Threads a block of the graph path's fused step kernels: H rounded up to a power of two, at least
    config.THREADS_PER_BLOCK, at most config.CUDA_SEQ_MAX_THREADS. Measured on an H200 (bench/gpu_step.py
    --threads, LN-LSTM forward + backward): S3's H 400 16.7 ms with 512 threads against 21.2 with 128, S2's
    H 256 9.1 with 256 against 9.7, S1's H 128 best with 128 (29.9 with 256, 33.1 with 512)."""
    n = 1 << max(H - 1, 0).bit_length()
    return max(threads_per_block(), min(int(config.CUDA_SEQ_MAX_THREADS), n))


class _ForwardPlan:
    """lstm_forward over S steps for one (B, H, I, dtype, norm, eps), captured over buffers of its own, zeros at
    first: the whole forward, so that a call is copies in, one replay, copies out. A call of T <= S steps fills
    steps 0..T-1 of x and reads back the same (the steps after T run on what their rows hold, and nothing before
    them reads them):
        read:    x (S,B,I), Wx (I,G), h0, c0 (B,H), Wh (H,G), p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc)
                 (H,) each
        before the loop: xp (S,B,G) = x Wx over all S*B rows, with LN normalized in place (xhat_x; its 1/std in
                 row 0 of rstd, the means in a scratch row)
        the loop: gates (S,B,G), c, tc, y (S,B,H), hhat (S,B,G), chat (S,B,H), rows 1, 2 of rstd (3,S,B)
                 (hhat, chat (S,B,0) and rstd (3,0,0) without LN); hw (B,G): the step's h_{t-1} Wh."""

    def __init__(self, prov, S, B, H, I, dt, ln, eps):
        G = 4 * H
        N = S * B
        tpb = step_threads(H)
        fwd_step = step_kernels(dt, H, tpb)[0]
        gemm = product(prov)
        d1, d2, d3 = _dummies(dt, S, B)
        self.x, self.Wx = empty((S, B, I), dt), empty((I, G), dt)
        self.xp = empty((S, B, G), dt)
        self.h0, self.c0 = empty((B, H), dt), empty((B, H), dt)
        self.Wh = empty((H, G), dt)
        self.p = tuple(empty(G, dt) for _ in range(5)) + (empty(H, dt), empty(H, dt))
        self.gates = empty((S, B, G), dt)
        self.c, self.tc, self.y = (empty((S, B, H), dt) for _ in range(3))
        self.hhat = empty((S, B, G), dt) if ln else d3
        self.chat = empty((S, B, H), dt) if ln else d3
        self.rstd = empty((3, S, B), dt) if ln else empty((3, 0, 0), dt)
        self.hw = empty((B, G), dt)
        mean = empty(N, dt)  # the x LayerNorm's row means (not kept)
        fill_zeros(self.x, self.Wx, self.xp, self.h0, self.c0, self.Wh, *self.p)
        vh0, vy, vWh, vhw = (prov.view(a) for a in (self.h0, self.y, self.Wh, self.hw))
        xp2 = self.xp.reshape(N, G)
        xp = input_product(prov, gemm, self.x.reshape(N, I), self.Wx, xp2)

        def before(stream):
            xp()
            if ln:  # xp <- xhat_x
                ln_rows(xp2, d1, d1, eps, False, xp2, mean, self.rstd[0].reshape(N), stream)

        def step(t, stream):
            gemm(vh0 if t == 0 else vy[t - 1], vWh, vhw)
            out = (self.gates[t], self.c[t], self.tc[t], self.y[t], self.hhat[t], self.chat[t])
            fwd_step[B, tpb, stream](self.hw, self.xp[t], self.c0 if t == 0 else self.c[t - 1], self.p, ln, eps, out,
                                     self.rstd[1, t] if ln else d1, self.rstd[2, t] if ln else d1)
        self.replay = capture_loop(prov, step, range(S), before)


class _BackwardPlan:
    """lstm_backward over S steps for one (B, H, I, dtype, norm, clip), captured over buffers of its own, zeros at
    first: the whole backward, so that a call is copies in, one replay, copies out. A call of T <= S steps fills
    steps 0..T-1 of what the graph reads and zeros the rest of dy, x and y, so that the loop's first S - T steps
    (t = S-1 .. T) leave dh and dc exactly zero (dL/dh = 0 and finite saved values give zeros everywhere) and
    steps T-1 .. 0 see what T steps would; the padded rows then add nothing to the products and sums after it.
        read:    dy (S,B,H); the saved gates (S,B,G), c, tc (S,B,H), and with LN hhat (S,B,G), chat (S,B,H),
                 rstd (3,S,B) (else (S,B,0) and (3,0,0)); xp (S,B,G) with LN and a wide input (I > FOLD_MAX_I);
                 x (S,B,I), h0, c0 (B,H), y (S,B,H), Wx (I,G), Wh (H,G); p = (gx, gh, gc)
        before the loop: WhT (G,H) = Wh^T; with LN and a narrow input xp = (x Wc) * rstd_x, Wc = Wx with
                 centered rows (xhat_into)
        the loop: DA (S,B,G), DCN (S,B,H) ((1,B,H) scratch without LN), dHW, dXW (S,B,G) (DA itself without LN),
                 as the per-step path's; dh, dc (B,H): set before a replay to dL/dh, dL/dc of step S-1 from
                 outside (zeros; a dL/dc_n seed only with S = T), they end as dh0, dc0
        after it: dx (S,B,I), dWx (I,G), dWh (H,G) (gemm_cuda.projection_grads's products over S*B rows), and the
                 column sums db = sum DA, with LN dgx = sum DA*xp, dgh = sum DA*hhat (G,), dgc = sum DCN*chat,
                 dbc = sum DCN (H,), each (1,G) or (1,H)."""

    def __init__(self, prov, S, B, H, I, dt, ln, clip):
        G = 4 * H
        N = S * B
        tpb = step_threads(H)
        bwd_step = step_kernels(dt, H, tpb)[1]
        gemm = product(prov)
        d1, d2, d3 = _dummies(dt, S, B)
        narrow = ln and 0 < I <= FOLD_MAX_I  # xhat_x recomputed (the CPU twin's layout), else read as saved
        self.dy = empty((S, B, H), dt)
        self.gates = empty((S, B, G), dt)
        self.c, self.tc = empty((S, B, H), dt), empty((S, B, H), dt)
        self.xp = empty((S, B, G), dt) if ln else d3
        self.hhat = empty((S, B, G), dt) if ln else d3
        self.chat = empty((S, B, H), dt) if ln else d3
        self.rstd = empty((3, S, B), dt) if ln else empty((3, 0, 0), dt)
        self.x, self.y = empty((S, B, I), dt), empty((S, B, H), dt)
        self.h0, self.c0 = empty((B, H), dt), empty((B, H), dt)
        self.Wx, self.Wh = empty((I, G), dt), empty((H, G), dt)
        self.Wc = empty((I, G), dt) if narrow else None
        self.WhT = empty((G, H), dt)  # Wh^T: the step's product is a plain one (no transposed operand)
        self.p = (empty(G, dt), empty(G, dt), empty(H, dt))
        self.DA = empty((S, B, G), dt)
        self.DCN = empty((S, B, H), dt) if ln else empty((1, B, H), dt)
        self.dHW = empty((S, B, G), dt) if ln else self.DA
        self.dXW = empty((S, B, G), dt) if ln else self.DA
        self.dh, self.dc = empty((B, H), dt), empty((B, H), dt)
        self.dx, self.dWx, self.dWh = empty((S, B, I), dt), empty((I, G), dt), empty((H, G), dt)
        self.sums = tuple(empty((1, n), dt) for n in ((G, G, G, H, H) if ln else (G,)))  # db, dgx, dgh, dgc, dbc
        P = colsum_parts(N)
        parts = (empty((P, G), dt), empty((P, H), dt)) if P > 1 else (None, None)
        fill_zeros(self.dy, self.gates, self.c, self.tc, self.xp, self.hhat, self.chat, self.rstd, self.x, self.y,
                   self.h0, self.c0, self.Wx, self.Wh, self.WhT, *self.p)
        vdHW, vWhT, vdh = (prov.view(a) for a in (self.dHW, self.WhT, self.dh))
        x2, y2, xp2 = self.x.reshape(N, I), self.y.reshape(N, H), self.xp.reshape(N, self.xp.shape[2])
        DA2, DCN2 = self.DA.reshape(N, G), self.DCN.reshape(self.DCN.shape[0] * B, H)
        proj = projection_views(prov, x2, self.dXW.reshape(N, G), self.dHW.reshape(N, G), self.h0, y2, self.Wx,
                                self.dx.reshape(N, I), self.dWx, self.dWh)
        vx2 = proj[0]
        vWc, vxp2 = (prov.view(self.Wc), prov.view(xp2)) if narrow else (None, None)
        rstd_x = self.rstd[0].reshape(N) if narrow else d1

        def before(stream):
            transpose_into(self.Wh, self.WhT, stream)
            if narrow:  # xhat_x recomputed (the per-step path's _xhat)
                xhat_into(gemm, (vx2, vWc, vxp2), self.Wx, self.Wc, xp2, rstd_x, stream)

        def step(t, stream):
            sv = (self.gates[t], self.xp[t], self.hhat[t], self.c0 if t == 0 else self.c[t - 1], self.tc[t],
                  self.chat[t])
            rs = (self.rstd[0, t], self.rstd[1, t], self.rstd[2, t]) if ln else (d1, d1, d1)
            bwd_step[B, tpb, stream](self.dy[t], self.dh, self.dc, sv, rs, self.p, ln, clip,
                                     (self.DA[t], self.DCN[t if ln else 0], self.dHW[t], self.dXW[t]))
            gemm(vdHW[t], vWhT, vdh)

        def after(stream):  # gemm_cuda.projection_grads and the column sums of lstm_backward, over all S*B rows
            projection_into(gemm, *proj)
            colsum_launch(DA2, DA2, d1, d1, SUM, self.sums[0], parts[0], stream)
            if ln:
                colsum_launch(DA2, xp2, d1, d1, SUM_PROD, self.sums[1], parts[0], stream)
                colsum_launch(DA2, self.hhat.reshape(N, G), d1, d1, SUM_PROD, self.sums[2], parts[0], stream)
                colsum_launch(DCN2, self.chat.reshape(N, H), d1, d1, SUM_PROD, self.sums[3], parts[1], stream)
                colsum_launch(DCN2, DCN2, d1, d1, SUM, self.sums[4], parts[1], stream)
        self.replay = capture_loop(prov, step, range(S - 1, -1, -1), before, after)


def _rstd_head(rstd, T):
    """rows 0..T-1 of every row of a plan's rstd (3,S,B), as a fresh (3,T,B) array ((3,0,0): itself)."""
    _, S, B = rstd.shape
    if S == 0:
        return rstd
    out = empty((3, T, B), rstd.dtype)
    n, m = T * B * rstd.dtype.itemsize, S * B * rstd.dtype.itemsize
    for r in range(3):
        copy_bytes(out, rstd, n, r * n, r * m)
    return out


def _rstd_load(dst, rstd):
    """A call's rstd (3,T,B) into the first T steps of each row of a plan's (3,S,B)."""
    _, S, B = dst.shape
    T = rstd.shape[1]
    n, m = T * B * rstd.dtype.itemsize, S * B * rstd.dtype.itemsize
    if rstd.dtype != dst.dtype or tuple(rstd.shape) != (3, T, B) or T > S or not rstd.is_c_contiguous():
        raise ValueError(f"_rstd_load: a {rstd.dtype} {rstd.shape} rstd into a plan's {dst.dtype} {dst.shape}")
    for r in range(3):
        copy_bytes(dst, rstd, n, r * m, r * n)


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
    keep = ln and not 0 < I <= FOLD_MAX_I  # the CPU twin's layout: a narrow input's xhat_x is not saved
    p = (b, gx, bx, gh, bh, gc, bc)
    path = lstm_path(H, dt, T=T)
    if path == "graph":  # the whole forward in one replay: copies in, the replay, copies out
        plan = plan_for("lstm forward", T, (B, H, I, np.dtype(dt).str, ln, eps),
                     lambda prov, S: _ForwardPlan(prov, S, B, H, I, dt, ln, eps))
        load(zip((plan.x, plan.Wx, plan.h0, plan.c0, plan.Wh) + plan.p, (x, Wx, h0, c0, Wh) + p))
        plan.replay()
        y = head(plan.y, T)
        none = empty((0, 0, 0), dt)
        saved = (head(plan.gates, T), head(plan.c, T), head(plan.tc, T), y, head(plan.xp, T) if keep else none,
                 head(plan.hhat, T) if ln else none, head(plan.chat, T) if ln else none, _rstd_head(plan.rstd, T))
        return y, take_row(y, T - 1), take_row(saved[1], T - 1), saved

    tpb = threads_per_block()
    fwd_step = step_kernels(dt, H, tpb)[0]
    d1, d2, d3 = _dummies(dt, T, B)

    xp = matmul(x.reshape(T * B, I), Wx).reshape(T, B, G)
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
    stpb = _seq_geometry(H, dt)[0]
    seq = path == "seq"
    hw = None if seq else empty((B, G), dt)  # per-step path: recurrent product of the current step
    if seq:
        fwd_seq = _seq_kernels(np.dtype(dt), stpb, H)[0]
        fwd_seq[B, stpb](xp, h0, c0, Wh, p, ln, eps, (gates, c, tc, y, hhat if ln else d3, chat if ln else d3), rstd)
    for t in range(0 if seq else T):  # the per-step path
        matmul(h0 if t == 0 else y[t - 1], Wh, out=hw)
        out = (gates[t], c[t], tc[t], y[t], hhat[t] if ln else d2, chat[t] if ln else d2)
        fwd_step[B, tpb](hw, xp[t], c0 if t == 0 else c[t - 1], p, ln, eps, out,
                         rstd[1, t] if ln else d1, rstd[2, t] if ln else d1)
    saved = (gates, c, tc, y, xp if keep else empty((0, 0, 0), dt), hhat, chat, rstd)
    return y, copy(y[T - 1]), copy(c[T - 1]), saved


def lstm_infer(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks=1):
    """The CPU twin's forward without BPTT's saved tuple: the same arguments -> y (T,B,H), hT (B,H),
    cT (B,H) (device arrays). Here it is lstm_forward with its saved tuple dropped on return: the
    kernels write every step's arrays, and device memory, unlike the CPU twin's caches, does not
    suffer from a large short-lived buffer."""
    y, hT, cT, _ = lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks)
    return y, hT, cT


@cuda.jit
def _scale_rows(X, s):
    """X (N,F) row n *= s[n]; grid-stride loop over all elements."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    F = X.shape[1]
    for e in range(start, X.shape[0] * F, stride):
        X[e // F, e % F] *= s[e // F]


@cuda.jit
def _centered_rows(W, out):
    """out (K,G) <- W (K,G) minus each row's mean: one thread per row, the float64 sum written as the CPU twin's
    (``codes.centered``): float32 weights agree bit for bit; float64 ones within a few ulps of their row's scale
    (the CPU twin is compiled with reassociation allowed, so its float64 sum may run in another order);
    grid-stride loop over rows."""
    K, G = W.shape
    for k in range(cuda.grid(1), K, cuda.gridsize(1)):
        s = 0.0
        for j in range(G):
            s += float64(W[k, j])
        m = s / G
        for j in range(G):
            out[k, j] = float64(W[k, j]) - m


def centered_device(W):
    """``codes.centered`` on the device: W (K,G) device array -> a fresh (K,G) device array, W with centered
    rows (nothing leaves the device)."""
    out = empty(W.shape, W.dtype)
    blocks, tpb = grid_1d(W.shape[0])
    _centered_rows[blocks, tpb](W, out)
    return out


def xhat_into(gemm, views, Wx, Wc, xh, rstd_x, stream=0):
    """xhat_x of a narrow input into xh (N,G): (x @ Wc) * rstd_x, Wc (I,G) = Wx (I,G) with centered rows
    (x Wc = x Wx - mean_j(x Wx)). gemm(*views) writes x (N,I) @ Wc into xh (views: the provider's of x, Wc,
    xh); rstd_x (N,). Launched on stream, so that a plan captures it."""
    blocks, n = grid_1d(Wx.shape[0])
    _centered_rows[blocks, n, stream](Wx, Wc)  # as the CPU twin's centered(Wx), on the device
    gemm(*views)
    tpb = threads_per_block()
    _scale_rows[min((xh.size + tpb - 1) // tpb, 1024), tpb, stream](xh, rstd_x)


def _xhat(x, Wx, rstd_x):
    """xhat_x (T,B,G) of a narrow input, recomputed into fresh arrays (xhat_into). x (T,B,I), Wx (I,G),
    rstd_x (T,B): device arrays."""
    T, B, I = x.shape
    G = Wx.shape[1]
    Wc, xh = empty((I, G), Wx.dtype), empty((T * B, G), Wx.dtype)
    xhat_into(product(Direct()), (x.reshape(T * B, I), Wc, xh), Wx, Wc, xh, rstd_x.reshape(T * B))
    return xh.reshape(T, B, G)


def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nchunks=1, clip=0.0, dcT=None):
    """dy (T,B,H) = dL/dh_t for every t -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G),
    db (G,), dgx (G,), dbx (G,), dgh (G,), dbh (G,), dgc (H,), dbc (H,)   (device arrays; gradients
    of parameters the norm does not use are zeros). clip: Graves's bound on dL/d(preactivation)
    (module docstring); 0 or inf: off. dcT (B,H) = dL/dc_{T-1} from outside (None: zeros), as the CPU
    twin's: it runs the graph or the per-step path, whose kernel reads dc_next as given (the sequence
    kernels start it at zero)."""
    dy, x, h0, c0, Wx, Wh, gx, gh, gc = (to_device(a) for a in (dy, x, h0, c0, Wx, Wh, gx, gh, gc))
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    dt = dy.dtype
    ln = norm == NORM_LN
    clip = clip_bound(clip)  # 0: off
    path = lstm_path(H, dt, dcT is not None, T)
    if path == "graph":  # the whole backward in one replay: copies in, the replay, copies out
        plan = plan_for("lstm backward", T, (B, H, I, np.dtype(dt).str, ln, clip),
                     lambda prov, S: _BackwardPlan(prov, S, B, H, I, dt, ln, clip), exact=dcT is not None)
        S = plan.dy.shape[0]
        pairs = [(plan.dy, dy), (plan.gates, gates), (plan.c, c), (plan.tc, tc), (plan.x, x), (plan.y, y),
                 (plan.h0, h0), (plan.c0, c0), (plan.Wx, Wx), (plan.Wh, Wh)]
        if ln:
            pairs += [(plan.hhat, hhat), (plan.chat, chat), (plan.p[0], gx), (plan.p[1], gh), (plan.p[2], gc)]
            pairs += [] if 0 < I <= FOLD_MAX_I else [(plan.xp, xp)]
            _rstd_load(plan.rstd, rstd)
        load(pairs)
        if S > T:  # the extra steps on zeros (an earlier call's rows there may not be finite)
            fill_zeros(*(a[T:] for a in (plan.dy, plan.x, plan.y, plan.gates, plan.c, plan.tc, plan.xp, plan.hhat,
                                         plan.chat)), *(plan.rstd[r, T:] for r in range(3) if ln))
        fill_zeros(plan.dh)
        if dcT is None:
            fill_zeros(plan.dc)
        else:
            load([(plan.dc, to_device(dcT))])
        plan.replay()
        db = copy(plan.sums[0]).reshape(G)
        grads = (head(plan.dx, T), copy(plan.dh), copy(plan.dc), copy(plan.dWx), copy(plan.dWh), db)
        if ln:
            dgx, dgh, dgc, dbc = (copy(a).reshape(a.shape[1]) for a in plan.sums[1:])
            return grads + (dgx, copy(db), dgh, copy(db), dgc, dbc)
        return grads + (zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(H, dt), zeros(H, dt))

    if ln and 0 < I <= FOLD_MAX_I:  # not saved (the CPU twin's layout): recomputed
        xp = _xhat(x, Wx, rstd[0])
    elif not ln:
        xp = empty((T, B, 0), dt)  # never read without LN; the kernels take its rows
    DA, DCN, dHW, dXW, dh_next, dc_next = _backward_loop(path, dy, dcT, (gates, c, tc, xp, hhat, chat, rstd), c0, Wh,
                                                         (gx, gh, gc), ln, clip)
    dx, dWx, dWh = projection_grads(dXW, dHW, x, h0, y, Wx)
    db = colsum(DA)
    if ln:
        return (dx, dh_next, dc_next, dWx, dWh, db, colsum_prod(DA, xp), copy(db), colsum_prod(DA, hhat), copy(db),
                colsum_prod(DCN, chat), colsum(DCN))
    return dx, dh_next, dc_next, dWx, dWh, db, zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(G, dt), \
        zeros(H, dt), zeros(H, dt)


def _backward_loop(path, dy, dcT, sv, c0, Wh, p, ln, clip):
    """lstm_backward's time loop on the sequence kernels (path "seq") or one launch pair a step ("step"):
    sv = the saved (gates, c, tc, xp, hhat, chat, rstd) (xp: xhat_x with LN, recomputed or saved)
    -> DA, DCN, dHW, dXW (as _BackwardPlan's), dh0, dc0."""
    gates, c, tc, xp, hhat, chat, rstd = sv
    T, B, H = dy.shape
    G = 4 * H
    dt = dy.dtype
    d1, d2, d3 = _dummies(dt, T, B)
    tpb = threads_per_block()
    bwd_step = step_kernels(dt, H, tpb)[1]
    DA = empty((T, B, G), dt)  # dL/d(preactivation a), per row
    if ln:
        DCN = empty((T, B, H), dt)  # dL/d(gc * chat + bc), per row
        dHW = empty((T, B, G), dt)  # dL/d(h_{t-1} Wh)
        dXW = empty((T, B, G), dt)  # dL/d(x_t Wx)
    else:
        DCN = empty((1, B, H), dt)  # scratch, overwritten every step (no dgc/dbc without LN)
        dHW = dXW = DA  # without normalization both products see dL/da
    dh_next = zeros((B, H), dt)  # dL/dh_t from step t+1; ends as dh0
    dc_next = zeros((B, H), dt) if dcT is None else copy(to_device(dcT))  # dL/dc_t from step t+1; ends as dc0
    stpb = _seq_geometry(H, dt)[0]
    seq = path == "seq"
    if seq:
        bwd_seq = _seq_kernels(np.dtype(dt), stpb, H)[1]
        sv = (gates, xp, hhat if ln else d3, c, tc, chat if ln else d3)
        bwd_seq[B, stpb](dy, sv, c0, rstd, p, transpose(Wh), ln, clip, (DA, DCN, dHW, dXW), dh_next, dc_next)
    for t in range(-1 if seq else T - 1, -1, -1):  # the per-step path
        sv = (gates[t], xp[t] if ln else d2, hhat[t] if ln else d2, c0 if t == 0 else c[t - 1], tc[t],
              chat[t] if ln else d2)
        rs = (rstd[0, t], rstd[1, t], rstd[2, t]) if ln else (d1, d1, d1)
        bwd_step[B, tpb](dy[t], dh_next, dc_next, sv, rs, p, ln, clip, (DA[t], DCN[t if ln else 0], dHW[t], dXW[t]))
        matmul(dHW[t], Wh, out=dh_next, trans_b=True)
    return DA, DCN, dHW, dXW, dh_next, dc_next
