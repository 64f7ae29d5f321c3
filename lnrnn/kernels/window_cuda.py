"""The synthesis network's first layer and its soft window (Graves 2013, sec. 5.1), forward and BPTT:
CUDA twin of window.py (same function names and arguments; the NumPy spec is reference.window_forward,
window_backward, window_lstm_forward and window_lstm_backward, whose comment block defines the window).

    X_t = [x_t | w_{t-1}] (B,I+C);  an LSTM of norm NORM_NONE, NORM_LN or NORM_BN (kernels.codes) reads X_t
    and h_{t-1};  p_t = h_t Wp + bp = [a_hat | b_hat | k_hat];  alpha, beta = exp(a_hat), exp(b_hat);
    kappa_t = kappa_{t-1} + exp(k_hat);  phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2), u = 1..ulen[b];
    w_t[b] = sum_u phi(t,u) one_hot(chars[b,u-1])  (B,C)

Shapes (beyond the library's T, B, I, H, G = 4H): K window components, C character classes (the width
of w), U characters per text: chars (B,U) int64 codes, those before ulen[b] in [0,C); ulen (B,) int64 in
[0,U] (positions u >= ulen[b] are padding: never read, they add nothing). Wx (I+C,G): its first I rows
read x_t (WxI), the last C rows w_{t-1} (WxC). Wp (H,3K), bp (3K,).

Host or device arrays in, device arrays out (arrays_cuda). Running statistics (NORM_BN) are updated
where they live, as in bn_lstm_cuda. Masks: lengths (B,) int64 (masks.py; all T when every row runs):
padded steps run on, their dy and dw are ignored in the backward, and BN_t counts the active rows only.

Graph path (every norm; window_path: graphs_cuda.loop_path's choice, so by default where PyTorch serves cuBLAS and
graphs, from config.CUDA_GRAPH_MIN_STEPS steps): the per-step path below, its products on cuBLAS, captured whole
once per (T, B, H, I, K, C, U, dtype, norm, eps or clip; NORM_BN also the running rows' Ts, training, momentum) as
a CUDA graph over buffers of its own (``_ForwardPlan``, ``_BackwardPlan``, as lstm_cuda's) and replayed: the call's
inputs (x, the initial state, the text, lengths, the weights, NORM_BN's running rows; dy, dw and the saved arrays)
are copied into the plan's buffers, one replay runs the call (forward: x WxI and the T steps; backward: the
transposes, the T steps, the products and column sums after them), the results are copied out (the running rows
back where they live). Both paths run one copy of each step (``_forward_step``, ``_backward_step``, and NORM_BN's
``_bn_forward_step``, ``_bn_backward_step``), so a plan of exactly T steps gives the per-launch path's results bit
for bit. A longer plan's extra steps count no row under NORM_BN (a call's lengths enter clamped to its T:
batchnorm_cuda.load_lengths), so they fold nothing into the running rows, as in bn_lstm_cuda's plans.
LNRNN_CUDA_BLAS=off or config.CUDA_LOOP_PATH = "step" (or "seq": the window has no sequence kernels) keeps the
per-launch loop. Not yet timed on a GPU.

Layout of the work (per-step launches from a host-side time loop, as lstm_cuda's per-step path and
bn_lstm_cuda; everything stays on the device)
    forward   xw = x WxI over all T*B rows (one GEMM). Per step t:
                  xw_t += w_{t-1} WxC             (GEMM, accumulating: the window's share of X_t Wx)
                  hw = h_{t-1} Wh                 (GEMM)
              NORM_NONE, NORM_LN: one kernel, one block per batch row: (LN) the LayerNorm of xw_t (in place:
              xw then holds xhat_x), lstm_cuda.fwd_row (gates, c_t, h_t) and window_row (p_t, kappa_t,
              phi_t, w_t). Rows never meet, so nothing waits for another block.
              NORM_BN: BN_t couples the batch, so three kernels: BN_t of xw_t (blocks of TILE features x
              TILE batch lanes, batchnorm_cuda.col_stats), bn_lstm_cuda's fused step kernel (the h side,
              the gates, BN_t of c_t, h_t), then the window kernel (one block per batch row).
    backward  per step t, in reverse:
                  the window's backward, one block per row (window_bwd_row): dphi gathered from
                  dL/dw_t = dw_t (active rows) + dL/dw_t through X_{t+1}; dalpha, dbeta, dkappa_t;
                  dp_t (B,3K); dkappa_{t-1}; dL/dh_t = dy_t (active rows) + dp_t Wp^T
                  the LSTM's step backward: NORM_NONE/NORM_LN fused into the same kernel (lstm_cuda.bwd_row),
                  NORM_BN by bn_lstm_cuda's step kernel, then BN_t backward of the x side (the next
                  GEMM needs dL/d(xw_t) now)
                  dh_{t-1} = dL/d(hw_t) Wh^T,  dL/dw_{t-1} (through X_t) = dL/d(xw_t) WxC^T   (GEMMs)
              after the loop, over all T*B rows: dx = dXW WxI^T, dWx = X^T dXW, dWh = Hprev^T dHW,
              dWp = Y^T DP (GEMMs) and the bias and gain gradients (column reductions).

The window kernels: a block's threads take the 3K projections p_t (dot products over H, coalesced
reads of Wp's columns), then the K kappas, then the U positions of phi, then the C classes of w, each
class gathering its positions (chars[b,u] == class) in the order u = 0, 1, ... : no atomics, and the
same sum as the spec's scatter. The backward's threads take the K components, each summing over the
row's positions, then the H units of dp_t Wp^T (through Wp^T, coalesced). Block sizes: row kernels
config.THREADS_PER_BLOCK (the graph path's lstm_cuda.step_threads(H), as the LSTM's plans), tiles gemm_cuda.TILE
(read at call time; tests shrink both).

Graves's gate clip (``clip``, reference.clip_gate_grads): dL/d(gate preactivations) clipped to
[-clip, clip] by the thread that writes it, before anything reads it (lstm_cuda.bwd_row, bn_lstm_cuda's
step kernel). 0 or inf: off.

keep=False (inference): the same kernels and arithmetic, so y, w, phi and the final state equal
keep=True's bit for bit, but the per-step state lives in two alternating slots (step t in slot t % 2)
instead of T, and ``saved`` is None.

saved (keep=True; device arrays, plus the mode), one tuple:
     0 xw     (T,B,G)  X_t Wx; NORM_LN: the normalized xhat_x (no gain) in its place
     1 rstd   (3,T,B)  1/std of the x, h and c LayerNorms          (NORM_LN; (3,0,0) otherwise)
     2 hw     (T,B,G)  h_{t-1} Wh                                   (NORM_BN; (0,0,0) otherwise)
     3 mean_x, 4 rstd_x, 5 mean_h, 6 rstd_h (T,G), 7 mean_c, 8 rstd_c (T,H)
                       BN_t statistics used (batch or running)      (NORM_BN; (0,0) otherwise)
     9 gates  (T,B,G)  activated gates [i|f|g|o]
    10 c      (T,B,H)  cell state c_t
    11 tc     (T,B,H)  tanh of the cell output
    12 hhat   (T,B,G)  LN-normalized h_{t-1} Wh                     (NORM_LN; (0,0,0) otherwise)
    13 chat   (T,B,H)  LN-normalized c_t                            (NORM_LN; (0,0,0) otherwise)
    14 abk    (T,B,3K) [alpha | beta | exp(k_hat)] of the window
    15 kappa  (T,B,K)  kappa_t
    16 y      (T,B,H), 17 w (T,B,C): the returned outputs themselves (not copies)
    18 lengths (B,) int64, 19 training (bool)
"""
import math
from functools import lru_cache, partial
from types import SimpleNamespace

import numpy as np
from numba import cuda, float32

from lnrnn.kernels import bn_lstm_cuda
from lnrnn.kernels.cuda.arrays_cuda import (bounded, copy, copy_bytes, empty, fill_zeros, grid_1d, head, is_device, load,
                                            nbtype, rows2d, take_row, threads_per_block, to_device, transpose_into,
                                            zeros)
from lnrnn.kernels.batchnorm_cuda import (col_backward, col_stats, device_lengths, load_lengths, running_on_device,
                                          write_back)
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE, clip_bound
from lnrnn.kernels.cuda.gemm_cuda import (SUM, SUM_PROD, colsum_launch, colsum_parts, matmul, product,
                                          projection_into, tile)
from lnrnn.kernels.cuda.graphs_cuda import capture_loop, loop_path, plan_for
from lnrnn.kernels.layernorm_cuda import row_stats
from lnrnn.kernels.lstm_cuda import _rstd_head, _rstd_load, row_functions, step_threads
from lnrnn.kernels.cuda.rows_cuda import dot_col, units


# ------------------------------------------------------------------------------------------------
# The window of one batch row at one step, forward and backward: device functions every thread of a
# 1-D block calls (they synchronize). A thread reads back only what it wrote, or after a barrier.
# ------------------------------------------------------------------------------------------------
@cuda.jit(device=True)
def window_row(h, Wp, bp, kappa_prev, chars, L, out, one):
    """h (H,) = h_t of the row; Wp (H,3K), bp (3K,); kappa_prev (K,); chars (U,) codes; L: the row's
    text length (<= U) -> out = (abk (3K,) = [alpha | beta | exp(k_hat)], kappa (K,), phi (U,), w (C,))."""
    abk, kappa, phi, w = out
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    zero = one - one
    K = kappa.shape[0]
    for j in range(tid, 3 * K, n):
        abk[j] = math.exp(dot_col(h, Wp, j, 0, h.shape[0], 1, zero) + bp[j])
    cuda.syncthreads()
    for k in range(tid, K, n):
        kappa[k] = kappa_prev[k] + abk[2 * K + k]
    cuda.syncthreads()
    for u in range(tid, phi.shape[0], n):
        s = zero
        if u < L:
            pos = one * float32(u + 1)  # 1-based position, in the working dtype (exact below 2^24)
            for k in range(K):
                d = kappa[k] - pos
                s += abk[k] * math.exp(-abk[K + k] * (d * d))
        phi[u] = s
    cuda.syncthreads()
    for cls in range(tid, w.shape[0], n):  # gather, u ascending: the spec's scatter, without atomics
        s = zero
        for u in range(L):
            if chars[u] == cls:
                s += phi[u]
        w[cls] = s


@cuda.jit(device=True)
def window_bwd_row(up, active, dkappa, sv, chars, L, WpT, dp, dh, one):
    """Backward of window_row for one row at one step.
    up = (dy (H,), dw (C,)): dL/dh_t and dL/dw_t from above, read only when active (a padded step's are
         ignored), and dw_next (C,): dL/dw_t through X_{t+1}
    dkappa (K,): dL/dkappa_t from step t+1 in, dL/dkappa_{t-1} out (each thread its own k)
    sv = (abk (3K,), kappa (K,)) as window_row wrote them; chars (U,), L as there; WpT (3K,H) = Wp^T
    -> dp (3K,) = dL/dp_t; dh (H,) = dL/dh_t from above and through the window (step t+1's share of
       dL/dh_t, through h_t Wh, is added by the cell's backward)."""
    dy, dw, dw_next = up
    abk, kappa = sv
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    zero = one - one
    two = one + one
    K = kappa.shape[0]
    for k in range(tid, K, n):
        a = abk[k]
        be = abk[K + k]
        kap = kappa[k]
        s0 = zero  # sum_u e dphi            = dL/dalpha
        s1 = zero  # sum_u alpha e dphi d^2  = -dL/dbeta
        s2 = zero  # sum_u alpha e dphi d
        for u in range(L):
            cls = chars[u]
            g = dw_next[cls]  # dphi(u) = dL/dw_t[chars[u]]
            if active:
                g = dw[cls] + g
            d = kap - one * float32(u + 1)
            ed = math.exp(-be * (d * d)) * g
            s0 += ed
            ae = a * ed
            s1 += ae * (d * d)
            s2 += ae * d
        dk = dkappa[k] - two * be * s2
        dp[k] = s0 * a
        dp[K + k] = -s1 * be
        dp[2 * K + k] = dk * abk[2 * K + k]
        dkappa[k] = dk
    cuda.syncthreads()  # dp complete
    for j in range(tid, dh.shape[0], n):
        v = dot_col(dp, WpT, j, 0, 3 * K, 1, zero)
        dh[j] = dy[j] + v if active else v


def _cell_kernels(dt, H, tpb):
    """(cell_fwd, cell_bwd) for width H on blocks of tpb threads (compiled per units a thread owns)."""
    return _row_kernels(np.dtype(dt), tpb, units(H, tpb))


@lru_cache(maxsize=None)
def _row_kernels(dtype, tpb, nu):
    """The NORM_NONE/NORM_LN steps, LSTM and window fused, with one block of tpb threads per batch row; a thread
    owns at most nu hidden units (rows_cuda.units)."""
    dt = nbtype(dtype)
    fwd_row, bwd_row = row_functions(dtype, nu)
    SH4 = 4 * tpb  # bwd_row's scratch (shared sizes must be compile-time constants)

    @bounded(tpb)
    def cell_fwd(hw, xw_t, c_prev, p, ln, eps, out, rstd_t, win_in, win_out):
        """Step t of a NORM_NONE/NORM_LN layer; block bb handles batch row bb.
            hw (B,G) = h_{t-1} Wh;  xw_t (B,G) = X_t Wx, normalized in place (xhat_x) with LN;  c_prev (B,H)
            p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each
            out = (gates_t (B,G), c_t, tc_t, y_t (B,H), hhat_t (B,G), chat_t (B,H)); hhat_t, chat_t (B,0) without LN
            rstd_t = (rstd_x_t, rstd_h_t, rstd_c_t) (B,) each, written with LN
            win_in = (Wp (H,3K), bp (3K,), kappa_prev (B,K), chars (B,U), ulen (B,))
            win_out = (abk_t (B,3K), kappa_t (B,K), phi_t (B,U), w_t (B,C))"""
        sh = cuda.shared.array(tpb, dt)
        gates_t, c_t, tc_t, y_t, hhat_t, chat_t = out
        rstd_x_t, rstd_h_t, rstd_c_t = rstd_t
        Wp, bp, kappa_prev, chars, ulen = win_in
        abk_t, kappa_t, phi_t, w_t = win_out
        bb = cuda.blockIdx.x
        tid = cuda.threadIdx.x
        one = dt(1.0)
        G = hw.shape[1]
        H = G // 4
        e = dt(eps)
        inv_g = one / dt(G)
        if ln:  # xw_t <- xhat_x, the row's LayerNorm without gain (fwd_row applies gx, bx)
            xr = xw_t[bb]
            m_x, r_x = row_stats(sh, xr, G, inv_g, e, one)
            for j in range(tid, G, cuda.blockDim.x):
                xr[j] = (xr[j] - m_x) * r_x
            if tid == 0:
                rstd_x_t[bb] = r_x
            cuda.syncthreads()
        r_h, r_c = fwd_row(sh, hw[bb], xw_t[bb], c_prev[bb], p, ln, e, one, inv_g, one / dt(H),
                           (gates_t[bb], c_t[bb], tc_t[bb], y_t[bb], hhat_t[bb], chat_t[bb]), y_t[bb])
        if ln and tid == 0:
            rstd_h_t[bb] = r_h
            rstd_c_t[bb] = r_c
        cuda.syncthreads()  # h_t complete
        window_row(y_t[bb], Wp, bp, kappa_prev[bb], chars[bb], min(ulen[bb], chars.shape[1]),
                   (abk_t[bb], kappa_t[bb], phi_t[bb], w_t[bb]), one)

    @bounded(tpb)
    def cell_bwd(up, lengths, s, win, dh_t, dp_t, carry, sv, rs, p, ln, clip, grads):
        """Step s of a NORM_NONE/NORM_LN layer's BPTT; block bb handles batch row bb.
            up = (dy_s (B,H), dw_s (B,C), dw_next (B,C)) as in window_bwd_row (row bb of each)
            lengths (B,): row bb is active iff s < lengths[bb]
            win = (dkappa (B,K) carried in place, abk_s (B,3K), kappa_s (B,K), chars (B,U), ulen (B,), WpT (3K,H))
            dh_t (B,H) scratch: dL/dh_s from above and through the window;  dp_t (B,3K) = dL/dp_s
            carry = (dh_next (B,H) dL/dh_s from step s+1 (read), dc_next (B,H): dL/dc_s in, dL/dc_{s-1} out)
            sv, rs, p, ln, clip, grads: lstm_cuda.bwd_step's, for step s."""
        sh = cuda.shared.array(SH4, dt)  # bwd_row's sums
        dy_s, dw_s, dw_next = up
        dkappa, abk_s, kappa_s, chars, ulen, WpT = win
        dh_next, dc_next = carry
        gates_t, xp_t, hhat_t, c_prev, tc_t, chat_t = sv
        rstd_x_t, rstd_h_t, rstd_c_t = rs
        da_t, dcn_t, dhw_t, dxw_t = grads
        bb = cuda.blockIdx.x
        one = dt(1.0)
        G = gates_t.shape[1]
        window_bwd_row((dy_s[bb], dw_s[bb], dw_next[bb]), s < lengths[bb], dkappa[bb], (abk_s[bb], kappa_s[bb]),
                       chars[bb], min(ulen[bb], chars.shape[1]), WpT, dp_t[bb], dh_t[bb], one)
        cuda.syncthreads()  # dh_t complete
        r = (rstd_x_t[bb], rstd_h_t[bb], rstd_c_t[bb]) if ln else (one, one, one)
        bwd_row(sh, dh_t[bb], dh_next[bb], dc_next[bb],
                (gates_t[bb], xp_t[bb], hhat_t[bb], c_prev[bb], tc_t[bb], chat_t[bb]), r, p, ln, dt(clip), one,
                dt(G // 4), one / dt(G), (da_t[bb], dcn_t[bb], dhw_t[bb], dxw_t[bb]), dhw_t[bb])

    return cell_fwd, cell_bwd


@lru_cache(maxsize=None)
def _window_kernels(dtype, tpb):
    """The window alone (NORM_BN: the LSTM's step is bn_lstm_cuda's), one block of tpb threads per batch row."""
    dt = nbtype(dtype)

    @bounded(tpb)
    def window_fwd(y_t, win_in, win_out):
        """The window at step t (NORM_BN: after bn_lstm_cuda's step); block bb handles batch row bb.
            y_t (B,H) = h_t; win_in, win_out as in cell_fwd."""
        Wp, bp, kappa_prev, chars, ulen = win_in
        abk_t, kappa_t, phi_t, w_t = win_out
        bb = cuda.blockIdx.x
        window_row(y_t[bb], Wp, bp, kappa_prev[bb], chars[bb], min(ulen[bb], chars.shape[1]),
                   (abk_t[bb], kappa_t[bb], phi_t[bb], w_t[bb]), dt(1.0))

    @bounded(tpb)
    def window_bwd(up, lengths, s, win, dh_t, dp_t):
        """The window's backward at step s (NORM_BN: before bn_lstm_cuda's step); block bb handles batch
        row bb; arguments as in cell_bwd."""
        dy_s, dw_s, dw_next = up
        dkappa, abk_s, kappa_s, chars, ulen, WpT = win
        bb = cuda.blockIdx.x
        window_bwd_row((dy_s[bb], dw_s[bb], dw_next[bb]), s < lengths[bb], dkappa[bb], (abk_s[bb], kappa_s[bb]),
                       chars[bb], min(ulen[bb], chars.shape[1]), WpT, dp_t[bb], dh_t[bb], dt(1.0))

    return window_fwd, window_bwd


@lru_cache(maxsize=None)
def _bn_kernels(dtype, t):
    """BN_t of the x side at one step s: batchnorm_cuda's kernels take their step from the grid (all T at
    once), but here X_t holds w_{t-1}, so the x side is normalized inside the time loop. Blocks of
    t x t threads: t features (threadIdx.x) x t batch lanes (threadIdx.y), as batchnorm_cuda."""
    dt = nbtype(dtype)

    @cuda.jit
    def x_fwd(xw_s, lengths, s, gx, b, training, update, run, momentum, eps, xn, stats):
        """xw_s (B,G) = X_s Wx -> xn (B,G) = BN_s(xw_s; gx, 0) + b; stats = (mean_x_s, rstd_x_s) (G,);
        run = (rmx_r, rvx_r) (G,): the running-statistics row of step s (updated when training and update)."""
        sh = cuda.shared.array((3, t, t), dt)
        tot = cuda.shared.array((3, t), dt)
        rm_r, rv_r = run
        mean_s, rstd_s = stats
        k = cuda.blockIdx.x * t + cuda.threadIdx.x
        valid = k < xw_s.shape[1]
        one = dt(1.0)
        m, rs = col_stats(sh, tot, xw_s, lengths, s, k, valid, training, update, rm_r, rv_r, (one, dt(momentum), dt(eps)))
        if valid:
            if cuda.threadIdx.y == 0:
                mean_s[k] = m
                rstd_s[k] = rs
            for r in range(cuda.threadIdx.y, xw_s.shape[0], cuda.blockDim.y):
                xn[r, k] = (xw_s[r, k] - m) * rs * gx[k] + b[k]

    @cuda.jit
    def x_bwd(da_s, xw_s, lengths, s, stats, gx, training, dxw_s, pgx_s):
        """da_s (B,G) = dL/d(BN_s output) -> dxw_s (B,G) (zero on padded rows); pgx_s (G,): this step's
        sum of da * xhat (the gain gradient's part); stats as x_fwd wrote them."""
        sh = cuda.shared.array((3, t, t), dt)
        tot = cuda.shared.array((3, t), dt)
        mean_s, rstd_s = stats
        k = cuda.blockIdx.x * t + cuda.threadIdx.x
        valid = k < xw_s.shape[1]
        one = dt(1.0)
        m, rs, g = one - one, one, one
        if valid:
            m, rs, g = mean_s[k], rstd_s[k], gx[k]
        _, s2 = col_backward(sh, tot, da_s, xw_s, lengths, s, m, rs, g, k, valid, training, dxw_s, one)
        if valid and cuda.threadIdx.y == 0:
            pgx_s[k] = s2

    return x_fwd, x_bwd


# ------------------------------------------------------------------------------------------------
# The synthesis stack's column moves (lnrnn.model.window.WindowStack), on the device: layer k > 1 reads
# [x | h_{k-1} | w], the head reads [h1 | ... | hL], and the backward splits dL/d[x | h | w] back into
# its parts. Grid-stride loops over (T,B,F) arrays of any strides (a slice of the last axis included).
# ------------------------------------------------------------------------------------------------
@cuda.jit
def _put_columns(a, out, c0):
    """out[t, b, c0 + j] = a[t, b, j] for a (T,B,F)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    T, B, F = a.shape
    for q in range(start, T * B * F, stride):
        t = q // (B * F)
        r = q - t * (B * F)
        b = r // F
        j = r - b * F
        out[t, b, c0 + j] = a[t, b, j]


@cuda.jit
def _take_columns(a, c0, add, adding, out):
    """out[t, b, j] = a[t, b, c0 + j] (+ add[t, b, j] when adding) for out (T,B,W)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    T, B, W = out.shape
    for q in range(start, T * B * W, stride):
        t = q // (B * W)
        r = q - t * (B * W)
        b = r // W
        j = r - b * W
        v = a[t, b, c0 + j]
        if adding:
            v += add[t, b, j]
        out[t, b, j] = v



def join_columns(parts):
    """parts: (T,B,F_i) arrays (host or device) -> (T,B,sum F_i) device array, each part's columns after the
    previous one's (the CPU twin's docstring)."""
    parts = [to_device(p) for p in parts]
    T, B = parts[0].shape[0], parts[0].shape[1]
    out = empty((T, B, sum(p.shape[2] for p in parts)), parts[0].dtype)
    c0 = 0
    for p in parts:
        if p.size:
            _put_columns[grid_1d(p.size)](p, out, c0)
        c0 += p.shape[2]
    return out


def take_columns(a, c0, c1, add=None):
    """a (T,B,F) -> a fresh (T,B,c1-c0) device array holding a[:, :, c0:c1], plus add (T,B,c1-c0) when given."""
    a = to_device(a)
    T, B = a.shape[0], a.shape[1]
    out = empty((T, B, c1 - c0), a.dtype)
    if out.size:
        adding = add is not None
        _take_columns[grid_1d(out.size)](a, c0, to_device(add) if adding else out, adding, out)
    return out


# ------------------------------------------------------------------------------------------------
# Host side
# ------------------------------------------------------------------------------------------------
def _check_norm(norm):
    if norm not in (NORM_NONE, NORM_LN, NORM_BN):
        raise ValueError(f"norm must be NORM_NONE, NORM_LN or NORM_BN (0, 1 or 2), got {norm!r}")
    return int(norm)


def _text(chars, ulen, B, C):
    """chars (B,U), ulen (B,) as int64 device arrays, checked as the CPU twin checks them when chars is a host
    array: ValueError when a length lies outside [0, U] or a code before it outside [0, C) (codes past
    ulen[b] are never read). Device arrays are taken as they are."""
    if is_device(chars):
        return chars, to_device(np.asarray(ulen, dtype=np.int64) if not is_device(ulen) else ulen)
    chars = np.ascontiguousarray(chars, dtype=np.int64)
    ulen_h = ulen.copy_to_host() if is_device(ulen) else np.ascontiguousarray(ulen, dtype=np.int64)
    if chars.ndim != 2 or chars.shape[0] != B or ulen_h.shape != (B,):
        raise ValueError(f"chars must be (B,U) and ulen (B,) with B = {B}, got {chars.shape} and {ulen_h.shape}")
    U = chars.shape[1]
    if B and (ulen_h.min() < 0 or ulen_h.max() > U):
        raise ValueError(f"ulen must lie in [0, U] = [0, {U}], got {ulen_h.min()}..{ulen_h.max()}")
    used = chars[np.arange(U)[None, :] < ulen_h[:, None]]
    if used.size and (used.min() < 0 or used.max() >= C):
        raise ValueError(f"character codes must lie in [0, C) = [0, {C}), got {used.min()}..{used.max()}")
    return to_device(chars), ulen if is_device(ulen) else to_device(ulen_h)


def window_path(norm, T=None):
    """The time loop window_lstm_forward and window_lstm_backward run for T steps (None: a long sequence):
    "graph" (a plan's captured loop, replayed) where graphs_cuda.loop_path gives it, else "step" (launches from
    the host loop; the window has no sequence kernels). Every norm alike (norm: for the callers' symmetry)."""
    return loop_path(False, T)


def _views(prov, a, names):
    """A plan's product operands: the provider's views of a's arrays named (made before a capture begins; the
    per-launch path's matmul takes the arrays themselves). Zero-size arrays (no input columns) are taken as they
    are: no product reads them."""
    return SimpleNamespace(**{n: prov.view(getattr(a, n)) if getattr(a, n).size else getattr(a, n) for n in names})


# ------------------------------------------------------------------------------------------------
# The NORM_NONE/NORM_LN time loops over arrays given: a call's own (the per-launch path, step by step from the
# host) or a plan's (the graph path: captured once, replayed). Each step is written once, below, so both paths
# run the same launches in the same order. ``a`` holds the arrays (kernels take them), ``v`` the products'
# operands: a itself for matmul, or a provider's views of the same memory for a plan's gemm.
# ------------------------------------------------------------------------------------------------
_FWD_PRODUCTS = ("x2", "WxI", "xw2", "w0", "w", "WxC", "xw", "h0", "y", "Wh", "hw")


def _forward_arrays(a, T, S, ln):
    """Adds the forward's arrays to a, which holds the inputs x (T,B,I), Wx (I+C,G), h0, c0 (B,H), kappa0 (B,K),
    w0 (B,C), chars (B,U), ulen (B,), Wh (H,G), p = (b, gx, bx, gh, bh) (G,) each then (gc, bc) (H,) each,
    Wp (H,3K), bp (3K,):
        x2 (T*B,I), WxI (I,G), WxC (C,G)   views of x and of Wx's rows that read x_t and w_{t-1}
        xw (T,B,G), xw2 (T*B,G)            X_t Wx (x_t WxI before the loop, w_{t-1} WxC added at step t);
                                           LN: normalized in place by the step (xhat_x)
        hw (B,G)                           h_{t-1} Wh of the current step
        y (T,B,H), w (T,B,C), phi (T,B,U)  every step's
        gates (S,B,G), c, tc (S,B,H), abk (S,B,3K), kappa (S,B,K)   S slots, step t in slot t % S
        hhat (S,B,G), chat (S,B,H), rstd (3,S,B)   LN; else (S,B,0), (S,B,0), (3,0,0)."""
    T, B, I = a.x.shape
    H, K, C, U = a.h0.shape[1], a.kappa0.shape[1], a.w0.shape[1], a.chars.shape[1]
    G = 4 * H
    dt = a.x.dtype
    a.x2, a.WxI, a.WxC = a.x.reshape(T * B, I), a.Wx[:I], a.Wx[I:]
    a.xw = empty((T, B, G), dt)
    a.xw2 = a.xw.reshape(T * B, G)
    a.hw = empty((B, G), dt)
    a.y, a.w, a.phi = empty((T, B, H), dt), empty((T, B, C), dt), empty((T, B, U), dt)
    a.gates = empty((S, B, G), dt)
    a.c, a.tc = empty((S, B, H), dt), empty((S, B, H), dt)
    a.abk, a.kappa = empty((S, B, 3 * K), dt), empty((S, B, K), dt)  # abk: [alpha | beta | exp(k_hat)]
    a.hhat = empty((S, B, G if ln else 0), dt)
    a.chat = empty((S, B, H if ln else 0), dt)
    a.rstd = empty((3, S, B), dt) if ln else empty((3, 0, 0), dt)
    return a


def _forward_before(gemm, v, stream):
    """xw = x WxI over all rows (one GEMM); without input columns the steps' products write xw whole."""
    if v.x2.shape[1]:
        gemm(v.x2, v.WxI, v.xw2)


def _forward_step(gemm, v, a, kern, ln, eps):
    """step(t, stream): step t of the forward (module docstring): xw_t += w_{t-1} WxC, hw = h_{t-1} Wh, then
    cell_fwd (kern = (cell_fwd, its threads per block)) on row-blocks. Arrays as _forward_arrays."""
    cell_fwd, tpb = kern
    B, S, I = a.h0.shape[0], a.c.shape[0], a.x.shape[2]
    d1 = empty(0, a.x.dtype)

    def step(t, stream):
        k, j = t % S, (t - 1) % S  # slots of step t and t-1
        gemm(v.w0 if t == 0 else v.w[t - 1], v.WxC, v.xw[t], accumulate=I > 0)
        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hw)
        out = (a.gates[k], a.c[k], a.tc[k], a.y[t], a.hhat[k], a.chat[k])
        rs = (a.rstd[0, k], a.rstd[1, k], a.rstd[2, k]) if ln else (d1, d1, d1)
        cell_fwd[B, tpb, stream](a.hw, a.xw[t], a.c0 if t == 0 else a.c[j], a.p, ln, eps, out, rs,
                                 (a.Wp, a.bp, a.kappa0 if t == 0 else a.kappa[j], a.chars, a.ulen),
                                 (a.abk[k], a.kappa[k], a.phi[t], a.w[t]))
    return step


_BN_FWD_PRODUCTS = _FWD_PRODUCTS + ("hws",)


def _bn_forward_arrays(a, S):
    """Adds NORM_BN's own forward arrays to a (after _forward_arrays; a also holds lengths (B,) int64 and the running
    rows run = (rmx, rvx, rmh, rvh (Tsx or Tsh, G), rmc, rvc (Tsc,H)), read and, training, folded in place):
        hws (S,B,G)    h_{t-1} Wh of every slot (saved: BN_t's backward reads it)
        stats          (mean_x, rstd_x, mean_h, rstd_h (S,G), mean_c, rstd_c (S,H)): the BN_t statistics used
        xn (B,G)       BN_t(xw_t; gx, 0) + b of the current step."""
    B, G = a.hw.shape
    H = G // 4
    dt = a.hw.dtype
    a.hws = empty((S, B, G), dt)
    a.stats = tuple(empty((S, F), dt) for F in (G, G, G, G, H, H))
    a.xn = empty((B, G), dt)
    return a


def _bn_kerns(dt, B, tpb):
    """The NORM_BN step's kernels for B batch rows: (x side's BN_t, bn_lstm_cuda's step kernel, its tile edge, the
    window alone, the window kernel's threads a block), forward and backward."""
    x_fwd, x_bwd = _bn_kernels(np.dtype(dt), tile())
    (lstm_fwd, lstm_bwd), tl = bn_lstm_cuda.kernels(dt, B)
    window_fwd, window_bwd = _window_kernels(np.dtype(dt), tpb)
    return (x_fwd, lstm_fwd, tl, window_fwd, tpb), (x_bwd, lstm_bwd, tl, window_bwd, tpb)


def _bn_forward_step(gemm, v, a, kern, training, momentum, eps):
    """step(t, stream): step t of the NORM_BN forward (module docstring): xw_t += w_{t-1} WxC, hw_t = h_{t-1} Wh,
    BN_t of the x side (x_fwd), bn_lstm_cuda's step kernel (the h side, the gates, BN_t of c_t, h_t), then the
    window (window_fwd); kern as _bn_kerns's forward. Step t reads and folds running row min(t, Ts-1), folding
    only where t < Ts (and a row is active). Arrays as _forward_arrays and _bn_forward_arrays."""
    x_fwd, lstm_fwd, tl, window_fwd, tpb = kern
    B, G = a.xn.shape
    H = G // 4
    S, I = a.c.shape[0], a.x.shape[2]
    b, gx, _, gh, _, gc, bc = a.p
    rmx, rvx, rmh, rvh, rmc, rvc = a.run
    Tsx, Tsh, Tsc = rmx.shape[0], rmh.shape[0], rmc.shape[0]
    mean_x, rstd_x, mean_h, rstd_h, mean_c, rstd_c = a.stats
    momentum, eps = float(momentum), float(eps)

    def step(t, stream):
        k, j = t % S, (t - 1) % S  # slots of step t and t-1
        gemm(v.w0 if t == 0 else v.w[t - 1], v.WxC, v.xw[t], accumulate=I > 0)
        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hws[k])
        rx, rh, rc = min(t, Tsx - 1), min(t, Tsh - 1), min(t, Tsc - 1)
        x_fwd[((G + tl - 1) // tl, 1), (tl, tl), stream](a.xw[t], a.lengths, t, gx, b, training, t < Tsx,
                                                         (rmx[rx], rvx[rx]), momentum, eps, a.xn,
                                                         (mean_x[k], rstd_x[k]))
        lstm_fwd[((H + tl - 1) // tl, 1), (tl, tl), stream](
            a.hws[k], a.xn, a.c0 if t == 0 else a.c[j], a.lengths, t, (gh, gc, bc), training, t < Tsh, t < Tsc,
            (rmh[rh], rvh[rh], rmc[rc], rvc[rc]), momentum, eps, (a.gates[k], a.c[k], a.tc[k], a.y[t]),
            (mean_h[k], rstd_h[k], mean_c[k], rstd_c[k]))
        window_fwd[B, tpb, stream](a.y[t], (a.Wp, a.bp, a.kappa0 if t == 0 else a.kappa[j], a.chars, a.ulen),
                                   (a.abk[k], a.kappa[k], a.phi[t], a.w[t]))
    return step


_BWD_PRODUCTS = ("x2", "WxI", "dx2", "dWxI", "dXW", "dXW2", "dHW", "dHW2", "h0", "y2", "dWh", "w0", "w2", "dWxC",
                 "WhT", "WxCT", "dh_next", "dw_next", "DP2", "dWp")


def _backward_arrays(a, T, norm):
    """Adds the backward's arrays to a, which holds dy (T,B,H), dw (T,B,C), the saved xw, gates (T,B,G), c, tc
    (T,B,H), hhat (T,B,G), chat (T,B,H) (LN; else (T,B,0)), rstd (3,T,B) ((3,0,0) without LN), abk (T,B,3K),
    kappa (T,B,K), y (T,B,H), w (T,B,C), lengths (B,) and the inputs x (T,B,I), h0, c0 (B,H), w0 (B,C), chars
    (B,U), ulen (B,), Wx (I+C,G), Wh (H,G), p = (gx, gh, gc), Wp (H,3K):
        x2 (T*B,I), WxI (I,G), WxC (C,G), y2 (T*B,H), w2 (T*B,C)   views
        WpT (3K,H), WhT (G,H), WxCT (G,C)    transposed weights: the loop's products are plain ones
        DA (T,B,G)                           dL/d(gate preactivations), clipped
        DCN (T,B,H)                          dL/d(gc * chat + bc) (LN; else a (1,B,H) scratch)
        dHW, dXW (T,B,G)                     dL/d(h_{t-1} Wh), dL/d(X_t Wx) (DA itself without a norm)
        DP (T,B,3K)                          dL/dp_t of the window
        dh_t (B,H)                           dL/dh_t from above and through the window, of the current step
        dh_next, dc_next (B,H), dkappa (B,K), dw_next (B,C)   carried from step t+1 (zeroed by the caller);
                                             they end as dh0, dc0, dkappa0, dw0
        dx (T,B,I), dWx (I+C,G) (rows dWxI, dWxC), dWh (H,G), dWp (H,3K)   the products after the loop
        db, dgx, dgh (1,G), dgc, dbc (1,H), dbp (1,3K)   the column sums after it (dgx..dbc: LN; else (1,0))
        parts: colsum_launch's scratch for sums of G, H and 3K columns (None: one part)."""
    T, B, I = a.x.shape
    H, K, C = a.h0.shape[1], a.kappa.shape[2], a.w0.shape[1]
    G, N = 4 * H, T * B
    dt = a.dy.dtype
    ln = norm == NORM_LN
    a.x2, a.WxI, a.WxC, a.y2, a.w2 = a.x.reshape(N, I), a.Wx[:I], a.Wx[I:], rows2d(a.y), rows2d(a.w)
    a.WpT, a.WhT, a.WxCT = empty((3 * K, H), dt), empty((G, H), dt), empty((G, C), dt)
    a.DA = empty((T, B, G), dt)
    a.DCN = empty((T, B, H), dt) if ln else empty((1, B, H), dt)
    own = norm != NORM_NONE  # without a norm both products see dL/da
    a.dHW = empty((T, B, G), dt) if own else a.DA
    a.dXW = empty((T, B, G), dt) if own else a.DA
    a.DP = empty((T, B, 3 * K), dt)
    a.DA2, a.DCN2, a.dHW2, a.dXW2, a.DP2 = (rows2d(m) for m in (a.DA, a.DCN, a.dHW, a.dXW, a.DP))
    a.dh_t, a.dh_next, a.dc_next = empty((B, H), dt), empty((B, H), dt), empty((B, H), dt)
    a.dkappa, a.dw_next = empty((B, K), dt), empty((B, C), dt)
    a.dx = empty((T, B, I), dt)
    a.dx2 = a.dx.reshape(N, I)
    a.dWx = empty((I + C, G), dt)
    a.dWxI, a.dWxC = a.dWx[:I], a.dWx[I:]
    a.dWh, a.dWp = empty((H, G), dt), empty((H, 3 * K), dt)
    a.db, a.dbp = empty((1, G), dt), empty((1, 3 * K), dt)
    a.dgx, a.dgh = empty((1, G if ln else 0), dt), empty((1, G if ln else 0), dt)
    a.dgc, a.dbc = empty((1, H if ln else 0), dt), empty((1, H if ln else 0), dt)
    P = colsum_parts(N)
    a.parts = tuple(empty((P, M), dt) if P > 1 else None for M in (G, H, 3 * K))
    return a


def _backward_before(a, stream):
    """The transposed weights the loop's products and window kernels read."""
    transpose_into(a.Wp, a.WpT, stream)
    transpose_into(a.Wh, a.WhT, stream)
    transpose_into(a.WxC, a.WxCT, stream)


def _carry(gemm, v, t):
    """After step t's cell backward: dh_next = dL/d(h_{t-1} Wh) Wh^T, dw_next = dL/d(X_t Wx) WxC^T."""
    gemm(v.dHW[t], v.WhT, v.dh_next)
    gemm(v.dXW[t], v.WxCT, v.dw_next)


def _backward_step(gemm, v, a, kern, ln, clip):
    """step(t, stream): step t of the NORM_NONE/NORM_LN BPTT (module docstring): cell_bwd (kern = (cell_bwd, its
    threads per block)), the window's and the cell's backward of every row, then _carry. Arrays as
    _backward_arrays."""
    cell_bwd, tpb = kern
    B = a.h0.shape[0]
    d1 = empty(0, a.dy.dtype)

    def step(t, stream):
        sv = (a.gates[t], a.xw[t], a.hhat[t], a.c0 if t == 0 else a.c[t - 1], a.tc[t], a.chat[t])
        rs = (a.rstd[0, t], a.rstd[1, t], a.rstd[2, t]) if ln else (d1, d1, d1)
        cell_bwd[B, tpb, stream]((a.dy[t], a.dw[t], a.dw_next), a.lengths, t,
                                 (a.dkappa, a.abk[t], a.kappa[t], a.chars, a.ulen, a.WpT), a.dh_t, a.DP[t],
                                 (a.dh_next, a.dc_next), sv, rs, a.p, ln, clip,
                                 (a.DA[t], a.DCN[t if ln else 0], a.dHW[t], a.dXW[t]))
        _carry(gemm, v, t)
    return step


def _prev_tn(gemm, first, seq, D, out):
    """out (F,G) = first^T D_0 + sum_{t>=1} seq_{t-1}^T D_t: the gradient of a weight that step t applies to step
    t-1's output (first at t = 0). first (B,F); seq (N,F), D (N,G): the rows of every step, N = T*B."""
    B, N = first.shape[0], D.shape[0]
    gemm(first, D[:B], out, trans_a=True)
    if N > B:
        gemm(seq[:N - B], D[B:], out, trans_a=True, accumulate=True)


def _backward_after(gemm, v, a, ln, stream):
    """Over all T*B rows, after the loop: dx = dXW WxI^T, dWx = X^T dXW (X_t's last C columns are w_{t-1}),
    dWh = Hprev^T dHW, dWp = Y^T DP (the window reads h_t itself), and the column sums db, dbp and with LN dgx =
    sum DA*xhat_x, dgh = sum DA*hhat, dgc = sum DCN*chat, dbc = sum DCN."""
    projection_into(gemm, v.x2, v.dXW2, v.dHW2, v.h0, v.y2, v.WxI, v.dx2, v.dWxI, v.dWh)
    _prev_tn(gemm, v.w0, v.w2, v.dXW2, v.dWxC)
    gemm(v.y2, v.DP2, v.dWp, trans_a=True)
    d1 = empty(0, a.dy.dtype)
    pg, ph, pk = a.parts
    colsum_launch(a.DA2, a.DA2, d1, d1, SUM, a.db, pg, stream)
    colsum_launch(a.DP2, a.DP2, d1, d1, SUM, a.dbp, pk, stream)
    if ln:
        colsum_launch(a.DA2, rows2d(a.xw), d1, d1, SUM_PROD, a.dgx, pg, stream)
        colsum_launch(a.DA2, rows2d(a.hhat), d1, d1, SUM_PROD, a.dgh, pg, stream)
        colsum_launch(a.DCN2, rows2d(a.chat), d1, d1, SUM_PROD, a.dgc, ph, stream)
        colsum_launch(a.DCN2, a.DCN2, d1, d1, SUM, a.dbc, ph, stream)


def _bn_backward_arrays(a, T):
    """Adds NORM_BN's own backward arrays to a (after _backward_arrays; a also holds the saved hws (T,B,G) and
    stats (mean_x, rstd_x, mean_h, rstd_h (T,G), mean_c, rstd_c (T,H))):
        pg       per-step sums (pgx, pgh (T,G), pgc, pbc (T,H)) of dgx, dgh, dgc, dbc
        bsums    dgx, dgh (1,G), dgc, dbc (1,H): the column sums of pg after the loop
        pparts   colsum_launch's scratch for sums over T rows of G and H columns (None: one part)."""
    B, G = a.DA.shape[1], a.DA.shape[2]
    H = G // 4
    dt = a.DA.dtype
    a.pg = (empty((T, G), dt), empty((T, G), dt), empty((T, H), dt), empty((T, H), dt))
    a.bsums = (empty((1, G), dt), empty((1, G), dt), empty((1, H), dt), empty((1, H), dt))
    P = colsum_parts(T)
    a.pparts = tuple(empty((P, M), dt) if P > 1 else None for M in (G, H))
    return a


def _bn_backward_step(gemm, v, a, kern, training, clip):
    """step(t, stream): step t of the NORM_BN BPTT (module docstring): the window's backward (window_bwd), then
    bn_lstm_cuda's step kernel, then BN_t's backward of the x side (the next products need dL/d(xw_t) now), then
    _carry; kern as _bn_kerns's backward. Arrays as _backward_arrays and _bn_backward_arrays."""
    x_bwd, lstm_bwd, tl, window_bwd, tpb = kern
    B, G = a.DA.shape[1], a.DA.shape[2]
    H = G // 4
    gx, gh, gc = a.p
    mean_x, rstd_x, mean_h, rstd_h, mean_c, rstd_c = a.stats
    pgx, pgh, pgc, pbc = a.pg

    def step(t, stream):
        window_bwd[B, tpb, stream]((a.dy[t], a.dw[t], a.dw_next), a.lengths, t,
                                   (a.dkappa, a.abk[t], a.kappa[t], a.chars, a.ulen, a.WpT), a.dh_t, a.DP[t])
        sv = (a.gates[t], a.hws[t], a.c[t], a.c0 if t == 0 else a.c[t - 1], a.tc[t])
        lstm_bwd[((H + tl - 1) // tl, 1), (tl, tl), stream](
            a.dh_t, a.dh_next, a.dc_next, a.lengths, t, sv, (mean_h[t], rstd_h[t], mean_c[t], rstd_c[t]), (gh, gc),
            training, clip, a.DA[t], a.dHW[t], (pgh[t], pgc[t], pbc[t]))
        x_bwd[((G + tl - 1) // tl, 1), (tl, tl), stream](a.DA[t], a.xw[t], a.lengths, t, (mean_x[t], rstd_x[t]), gx,
                                                         training, a.dXW[t], pgx[t])
        _carry(gemm, v, t)
    return step


def _bn_backward_after(gemm, v, a, stream):
    """_backward_after's products and sums, then the BN gains' and c bias's gradients: the column sums of the
    per-step sums pg into bsums."""
    _backward_after(gemm, v, a, False, stream)
    d1 = empty(0, a.dy.dtype)
    pG, pH = a.pparts
    for src, out, part in zip(a.pg, a.bsums, (pG, pG, pH, pH)):
        colsum_launch(src, src, d1, d1, SUM, out, part, stream)


def _bn_norm_grads(a, take):
    """NORM_BN's six norm gradients from a's bsums: dgx, dbx (zeros: BN_t has no bias of its own on the x side),
    dgh, dbh (zeros), dgc, dbc."""
    G, H = a.bsums[0].shape[1], a.bsums[2].shape[1]
    dgx, dgh, dgc, dbc = (take(m).reshape(m.shape[1]) for m in a.bsums)
    return dgx, zeros(G, dgx.dtype), dgh, zeros(G, dgx.dtype), dgc, dbc


def _gradients(a, T, take, norm_grads=None):
    """window_lstm_backward's results from a's arrays, each through take (the arrays themselves, or copies out of a
    plan): dx (T,B,I), dh0, dc0 (B,H), dkappa0 (B,K), dw0 (B,C), dWx (I+C,G), dWh (H,G), db (G,), the six norm
    gradients dgx, dbx, dgh, dbh (G,), dgc, dbc (H,) (given, or from a's sums: with LN dbx = dbh = db, each a
    fresh copy; without a norm zeros), dWp (H,3K), dbp (3K,)."""
    G, H, K3 = a.db.shape[1], a.h0.shape[1], a.dbp.shape[1]
    dt = a.db.dtype
    db = take(a.db).reshape(G)
    if norm_grads is None and a.dgx.size:
        norm_grads = (take(a.dgx).reshape(G), copy(db), take(a.dgh).reshape(G), copy(db), take(a.dgc).reshape(H),
                      take(a.dbc).reshape(H))
    elif norm_grads is None:
        norm_grads = (zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(H, dt), zeros(H, dt))
    dx = take(a.dx) if a.dx.shape[0] == T else head(a.dx, T)  # a plan's dx (S,B,I): its first T steps
    return ((dx,) + tuple(take(m) for m in (a.dh_next, a.dc_next, a.dkappa, a.dw_next, a.dWx, a.dWh)) + (db,)
            + norm_grads + (take(a.dWp), take(a.dbp).reshape(K3)))


class _ForwardPlan:
    """window_lstm_forward over S steps for one (B, H, I, K, C, U, dtype, norm, eps, and for NORM_BN the running rows'
    Ts, training, momentum), captured over arrays of its own (``a``: the inputs' buffers and _forward_arrays's, and
    _bn_forward_arrays's with NORM_BN; zeros at first), so that a call is copies in, one replay, copies out. A call
    of T <= S steps fills steps 0..T-1 of x and reads back the same: the steps after T run on what their rows hold,
    and no step before them reads them; with NORM_BN its lengths (at most T: batchnorm_cuda.load_lengths) leave no
    row active there, so those steps fold nothing into the running rows. Every step keeps its state (S slots,
    where inference's per-launch loop keeps two): a step after T would overwrite the slot of T-1, and one plan
    then serves keep=True and keep=False. Blocks of lstm_cuda.step_threads(H) threads."""

    def __init__(self, prov, S, B, H, I, K, C, U, dt, norm, eps, bn):
        G = 4 * H
        ln = norm == NORM_LN
        a = SimpleNamespace(x=empty((S, B, I), dt), Wx=empty((I + C, G), dt), h0=empty((B, H), dt),
                            c0=empty((B, H), dt), kappa0=empty((B, K), dt), w0=empty((B, C), dt),
                            chars=empty((B, U), np.int64), ulen=empty(B, np.int64), Wh=empty((H, G), dt),
                            p=tuple(empty(G, dt) for _ in range(5)) + (empty(H, dt), empty(H, dt)),
                            Wp=empty((H, 3 * K), dt), bp=empty(3 * K, dt), lengths=empty(B, np.int64))
        self.inputs = (a.x, a.Wx, a.h0, a.c0, a.kappa0, a.w0, a.chars, a.ulen, a.Wh) + a.p + (a.Wp, a.bp)
        fill_zeros(*self.inputs, a.lengths)
        _forward_arrays(a, S, S, ln)
        tpb = step_threads(H)
        gemm = product(prov)
        if norm == NORM_BN:
            Ts, training, momentum = bn
            a.run = tuple(empty((n, F), dt) for n, F in zip((Ts[0], Ts[0], Ts[1], Ts[1], Ts[2], Ts[2]),
                                                           (G, G, G, G, H, H)))
            fill_zeros(*a.run)
            _bn_forward_arrays(a, S)
            v = _views(prov, a, _BN_FWD_PRODUCTS)
            step = _bn_forward_step(gemm, v, a, _bn_kerns(dt, B, tpb)[0], training, momentum, eps)
        else:
            v = _views(prov, a, _FWD_PRODUCTS)
            step = _forward_step(gemm, v, a, (_cell_kernels(dt, H, tpb)[0], tpb), ln, eps)
        self.a = a
        self.replay = capture_loop(prov, step, range(S), partial(_forward_before, gemm, v))


class _BackwardPlan:
    """window_lstm_backward over S steps for one (B, H, I, K, C, U, dtype, norm, clip, and for NORM_BN training),
    captured over arrays of its own (``a``: the buffers of what the BPTT reads, and _backward_arrays's, with NORM_BN
    _bn_backward_arrays's; zeros at first): the transposes before the loop, the S steps from S-1 down, and the
    products and column sums after it, so that a call is copies in, one replay, copies out. A call of T <= S steps
    fills steps 0..T-1 of every per-step array the loop reads and zeros the rest (``stepped``); the carried dh, dc,
    dkappa, dw are zeroed too. The first S - T steps (t = S-1 .. T) then have no active row (lengths <= T) and zero
    saved values, and leave every carried gradient exactly zero (a NaN an earlier call left there would not); steps
    T-1 .. 0 see what T steps would, and the padded rows add nothing to the products and sums after the loop."""

    def __init__(self, prov, S, B, H, I, K, C, U, dt, norm, clip, training):
        G = 4 * H
        ln, bn = norm == NORM_LN, norm == NORM_BN
        n = {"xw": G, "hhat": G, "chat": H}
        a = SimpleNamespace(dy=empty((S, B, H), dt), dw=empty((S, B, C), dt), gates=empty((S, B, G), dt),
                            c=empty((S, B, H), dt), tc=empty((S, B, H), dt), abk=empty((S, B, 3 * K), dt),
                            kappa=empty((S, B, K), dt), y=empty((S, B, H), dt), w=empty((S, B, C), dt),
                            x=empty((S, B, I), dt), **{k: empty((S, B, m if ln or (bn and k == "xw") else 0), dt)
                                                       for k, m in n.items()},
                            rstd=empty((3, S, B), dt) if ln else empty((3, 0, 0), dt), lengths=empty(B, np.int64),
                            h0=empty((B, H), dt), c0=empty((B, H), dt), w0=empty((B, C), dt),
                            chars=empty((B, U), np.int64), ulen=empty(B, np.int64), Wx=empty((I + C, G), dt),
                            Wh=empty((H, G), dt), p=(empty(G, dt), empty(G, dt), empty(H, dt)),
                            Wp=empty((H, 3 * K), dt))
        bn_saved = ()
        if bn:  # h_{t-1} Wh and the BN_t statistics of every step
            a.hws = empty((S, B, G), dt)
            a.stats = tuple(empty((S, F), dt) for F in (G, G, G, G, H, H))
            bn_saved = (a.hws,) + a.stats
        self.stepped = (a.dy, a.dw, a.gates, a.c, a.tc, a.abk, a.kappa, a.y, a.w, a.x, a.xw, a.hhat, a.chat) + bn_saved
        fill_zeros(*self.stepped, a.rstd, a.lengths, a.h0, a.c0, a.w0, a.chars, a.ulen, a.Wx, a.Wh, *a.p, a.Wp)
        _backward_arrays(a, S, norm)
        tpb = step_threads(H)
        gemm = product(prov)
        v = _views(prov, a, _BWD_PRODUCTS)
        if bn:
            _bn_backward_arrays(a, S)
            step = _bn_backward_step(gemm, v, a, _bn_kerns(dt, B, tpb)[1], training, clip)
            after = partial(_bn_backward_after, gemm, v, a)
        else:
            step = _backward_step(gemm, v, a, (_cell_kernels(dt, H, tpb)[1], tpb), ln, clip)
            after = partial(_backward_after, gemm, v, a, ln)
        self.a = a
        self.replay = capture_loop(prov, step, range(S - 1, -1, -1), partial(_backward_before, a), after)


def window_lstm_forward(x, h0, c0, kappa0, w0, chars, ulen, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp,
                        rmx, rvx, rmh, rvh, rmc, rvc, norm, training, momentum, eps, lengths, keep):
    """x (T,B,I), h0/c0 (B,H), kappa0 (B,K), w0 (B,C), chars (B,U), ulen (B,), Wx (I+C,G), Wh (H,G),
    b/gx/bx/gh/bh (G,), gc/bc (H,), Wp (H,3K), bp (3K,); rmx/rvx/rmh/rvh (Ts,G), rmc/rvc (Ts,H) (NORM_BN:
    read, and updated in place when training; may be (0,0) otherwise); norm: a kernels.codes NORM_*;
    lengths (B,) int64; keep: save for the backward (False: inference, saved is None)
    -> y (T,B,H), w (T,B,C), hT, cT (B,H), kappaT (B,K), wT (B,C), phi (T,B,U), saved   (device arrays)."""
    norm = _check_norm(norm)
    T, B, I = x.shape
    if T == 0:
        raise ValueError("window_lstm_forward needs at least one time step (x has T = 0)")
    C = w0.shape[1]
    chars, ulen = _text(chars, ulen, B, C)
    x, h0, c0, kappa0, w0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp = (
        to_device(a) for a in (x, h0, c0, kappa0, w0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp))
    H, K, U = h0.shape[1], kappa0.shape[1], chars.shape[1]
    G = 4 * H
    dt = x.dtype
    lengths = device_lengths(lengths, T, B)
    training, keep, eps = bool(training), bool(keep), float(eps)
    ln = norm == NORM_LN
    p = (b, gx, bx, gh, bh, gc, bc)
    none3, none2 = empty((0, 0, 0), dt), empty((0, 0), dt)

    bn = norm == NORM_BN
    runs = [running_on_device(r) for r in (rmx, rvx, rmh, rvh, rmc, rvc)] if bn else []
    run = tuple(dev for dev, _ in runs)

    def saved_of(a, take, rstd, y, w):
        """The saved tuple (module docstring) from a's arrays, each through take (rstd, y and w as given)."""
        if bn:
            norm_part = (take(a.xw), empty((3, 0, 0), dt), take(a.hws)) + tuple(take(m) for m in a.stats)
        else:
            norm_part = (take(a.xw), rstd, none3) + (none2,) * 6
        return (norm_part + (take(a.gates), take(a.c), take(a.tc))
                + ((take(a.hhat), take(a.chat)) if ln else (none3, none3))
                + (take(a.abk), take(a.kappa), y, w, lengths, training))

    if window_path(norm, T) == "graph":  # the whole forward in one replay: copies in, the replay, copies out
        extra = ((rmx.shape[0], rmh.shape[0], rmc.shape[0]), training, float(momentum)) if bn else None
        plan = plan_for("window forward", T, (B, H, I, K, C, U, np.dtype(dt).str, norm, eps, extra),
                        lambda prov, S: _ForwardPlan(prov, S, B, H, I, K, C, U, dt, norm, eps, extra))
        a = plan.a
        load(zip(plan.inputs, (x, Wx, h0, c0, kappa0, w0, chars, ulen, Wh) + p + (Wp, bp)))
        if bn:
            load(zip(a.run, run))
            load_lengths(a.lengths, lengths, T)
        plan.replay()
        if bn and training:  # the folded running rows back where they live
            for dst, src in zip(run, a.run):
                copy_bytes(dst, src, src.nbytes)
            write_back(runs)
        y, w = head(a.y, T), head(a.w, T)
        outs = (y, w, take_row(a.y, T - 1), take_row(a.c, T - 1), take_row(a.kappa, T - 1), take_row(a.w, T - 1),
                head(a.phi, T))
        if not keep:
            return outs + (None,)
        return outs + (saved_of(a, lambda m: head(m, T), _rstd_head(a.rstd, T), y, w),)

    # the per-launch loop over the call's own arrays: the plan's steps, launched one by one
    S = T if keep else min(T, 2)  # slots of per-step state: every step's, or (inference) the last two
    tpb = threads_per_block()
    a = _forward_arrays(SimpleNamespace(x=x, Wx=Wx, h0=h0, c0=c0, kappa0=kappa0, w0=w0, chars=chars, ulen=ulen, Wh=Wh,
                                        p=p, Wp=Wp, bp=bp, lengths=lengths, run=run), T, S, ln)
    if bn:
        _bn_forward_arrays(a, S)
        step = _bn_forward_step(matmul, a, a, _bn_kerns(dt, B, tpb)[0], training, momentum, eps)
    else:
        step = _forward_step(matmul, a, a, (_cell_kernels(dt, H, tpb)[0], tpb), ln, eps)
    _forward_before(matmul, a, 0)
    for t in range(T):
        step(t, 0)
    if bn and training:
        write_back(runs)
    last = (T - 1) % S
    saved = saved_of(a, lambda m: m, a.rstd, a.y, a.w) if keep else None
    return a.y, a.w, copy(a.y[T - 1]), copy(a.c[last]), copy(a.kappa[last]), copy(a.w[T - 1]), a.phi, saved


def window_sequences(saved):
    """The per-step state a keep=True forward saved: c (T,B,H) and kappa (T,B,K) (device arrays), row t
    holding c_t and kappa_t, as the CPU twin's ``window_sequences`` (the saved tuples themselves differ)."""
    return saved[10], saved[15]


def window_lstm_backward(dy, dw, saved, x, h0, c0, kappa0, w0, chars, ulen, Wx, Wh, gx, gh, gc, Wp, norm, clip):
    """dy (T,B,H) = dL/dh_t, dw (T,B,C) = dL/dw_t from the layers above (both ignored at padded steps);
    saved from window_lstm_forward(keep=True); the forward's inputs
    -> dx (T,B,I), dh0, dc0 (B,H), dkappa0 (B,K), dw0 (B,C), dWx (I+C,G), dWh (H,G), db, dgx, dbx, dgh,
       dbh (G,), dgc, dbc (H,), dWp (H,3K), dbp (3K,)   (device arrays; dbx, dbh are zeros for NORM_BN, every
       norm gradient is zeros for NORM_NONE). clip: Graves's bound on dL/d(gate preactivations); 0 or inf: off.
    kappa0 is taken for parity with the CPU twin and not read (every kappa_t is saved)."""
    norm = _check_norm(norm)
    if saved is None:
        raise ValueError("window_lstm_backward needs the saved tuple of a forward run with keep=True")
    T, B, I = x.shape
    C = w0.shape[1]
    chars, ulen = _text(chars, ulen, B, C)
    dy, dw, x, h0, c0, w0, Wx, Wh, gx, gh, gc, Wp = (to_device(a) for a in (dy, dw, x, h0, c0, w0, Wx, Wh, gx, gh,
                                                                             gc, Wp))
    (xw, rstd, hw, mean_x, rstd_x, mean_h, rstd_h, mean_c, rstd_c, gates, c, tc, hhat, chat, abk, kappa, y, w,
     lengths, training) = saved
    H, K, U = h0.shape[1], kappa.shape[2], chars.shape[1]
    G = 4 * H
    dt = dy.dtype
    ln = norm == NORM_LN
    clip = clip_bound(clip)  # 0: off

    bn = norm == NORM_BN
    training = bool(training)

    if window_path(norm, T) == "graph":  # the whole backward in one replay: copies in, the replay, copies out
        plan = plan_for("window backward", T, (B, H, I, K, C, U, np.dtype(dt).str, norm, clip, bn and training),
                        lambda prov, S: _BackwardPlan(prov, S, B, H, I, K, C, U, dt, norm, clip, training))
        a = plan.a
        S = a.dy.shape[0]
        pairs = [(a.dy, dy), (a.dw, dw), (a.gates, gates), (a.c, c), (a.tc, tc), (a.abk, abk), (a.kappa, kappa),
                 (a.y, y), (a.w, w), (a.x, x), (a.h0, h0), (a.c0, c0), (a.w0, w0), (a.chars, chars), (a.ulen, ulen),
                 (a.Wx, Wx), (a.Wh, Wh), (a.Wp, Wp)]
        if ln:
            pairs += [(a.xw, xw), (a.hhat, hhat), (a.chat, chat), (a.p[0], gx), (a.p[1], gh), (a.p[2], gc)]
            _rstd_load(a.rstd, rstd)
        if bn:
            pairs += [(a.xw, xw), (a.hws, hw), (a.p[0], gx), (a.p[1], gh), (a.p[2], gc)]
            pairs += list(zip(a.stats, (mean_x, rstd_x, mean_h, rstd_h, mean_c, rstd_c)))
        load(pairs)
        load_lengths(a.lengths, lengths, T)
        if S > T:  # the extra steps on zeros (an earlier call's rows there may not be finite)
            fill_zeros(*(m[T:] for m in plan.stepped), *(a.rstd[r, T:] for r in range(3) if ln))
        fill_zeros(a.dh_next, a.dc_next, a.dkappa, a.dw_next)
        plan.replay()
        return _gradients(a, T, copy, _bn_norm_grads(a, copy) if bn else None)

    # the per-launch loop over the call's own arrays: the plan's steps, launched one by one
    tpb = threads_per_block()
    a = _backward_arrays(SimpleNamespace(dy=dy, dw=dw, xw=xw if ln or bn else empty((T, B, 0), dt), rstd=rstd,
                                         gates=gates, c=c, tc=tc, hhat=hhat if ln else empty((T, B, 0), dt),
                                         chat=chat if ln else empty((T, B, 0), dt), abk=abk, kappa=kappa, y=y, w=w,
                                         lengths=lengths, x=x, h0=h0, c0=c0, w0=w0, chars=chars, ulen=ulen, Wx=Wx,
                                         Wh=Wh, p=(gx, gh, gc), Wp=Wp, hws=hw,
                                         stats=(mean_x, rstd_x, mean_h, rstd_h, mean_c, rstd_c)), T, norm)
    fill_zeros(a.dh_next, a.dc_next, a.dkappa, a.dw_next)
    _backward_before(a, 0)
    if bn:
        _bn_backward_arrays(a, T)
        step = _bn_backward_step(matmul, a, a, _bn_kerns(dt, B, tpb)[1], training, clip)
    else:
        step = _backward_step(matmul, a, a, (_cell_kernels(dt, H, tpb)[1], tpb), ln, clip)
    for t in range(T - 1, -1, -1):
        step(t, 0)
    if bn:
        _bn_backward_after(matmul, a, a, 0)
    else:
        _backward_after(matmul, a, a, ln, 0)
    own = (lambda m: m)
    return _gradients(a, T, own, _bn_norm_grads(a, own) if bn else None)
