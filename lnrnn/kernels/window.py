"""Graves's synthesis layer: an LSTM (norm none, LN or BN) reading [x_t | w_{t-1}] together with the soft
attention window it steers, one recurrence, forward and backpropagation through time (CPU twin; the
NumPy spec is reference.window_lstm_forward/window_lstm_backward, Graves 2013 sec. 5.1).

Equations (shape letters and gate order: ``lnrnn.kernels``; K window components, C character codes,
U characters per text; ``norm`` a code of ``lnrnn.kernels.codes``)
    X_t = [x_t | w_{t-1}] (B,I+C); rows [:I] of Wx (I+C,G) read x_t, rows [I:] read the window
    a_t = X_t Wx + h_{t-1} Wh + b                              NORM_NONE
        = LN(X_t Wx; gx, bx) + LN(h_{t-1} Wh; gh, bh) + b      NORM_LN
        = BN_t(X_t Wx; gx, 0) + BN_t(h_{t-1} Wh; gh, 0) + b    NORM_BN
    gates [i|f|g|o], c_t = f c_{t-1} + i g, h_t = o tanh(c_t | LN(c_t; gc, bc) | BN_t(c_t; gc, bc))
    p_t = h_t Wp + bp = [a_hat | b_hat | k_hat]                  Wp (H,3K), bp (3K,)
    alpha = exp(a_hat), beta = exp(b_hat), kappa_t = kappa_{t-1} + exp(k_hat)      (B,K) each
    phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2)  for the 1-based u = 1..ulen[b], 0 past ulen
    w_t[b, c] = sum of phi(t,u) over the u with chars[b, u-1] == c                (B,C)
Text: chars (B,U) int64 codes, those before ulen[b] in [0, C); ulen (B,) int64 in [0, U]. Codes at
u >= ulen[b] are never read (garbage allowed): they add nothing to phi, w or any gradient.

Layout of the work
    1. The batch is split into chunks of rows that run the whole time loop each (``_chunks``): with
       NORM_NONE and NORM_LN the rows of a step never meet, so the chunks run on threads
       (``threads.run_chunks``, one nogil compiled function, as lstm.py); BN_t couples the rows of a
       step, so NORM_BN runs the whole batch as one chunk on one thread. Per step and chunk:
       X_t Wx and h_{t-1} Wh (two GEMMs on the chunk's rows, X_t gathered from x_t and w_{t-1}; Wx and
       Wh packed once per chunk: blas.rec_mul), both norms (LN per row, a two-pass mean and variance;
       BN_t per column over the active rows, the running row updated as reference._bn_stats does),
       then per row one pass for the activated gates, the cell, the cell's norm, tanh and h_t; then
       p_t = h_t Wp (one Bc x H x 3K GEMM) + bp, and per row alpha, beta, kappa_t, phi over
       u < ulen[b] (one pass over u per component k, which LLVM vectorises) and w_t as a scatter-add
       of phi into the C columns by chars.
    2. Backward in reverse time over the same chunks, with the carries dL/dh_t, dL/dc_t, dL/dkappa_t
       and dw_next = dL/dw_t from step t+1's input. Per step the window first: dL/dw_t = dw[t] (active
       rows) + dw_next, dphi_u = dL/dw_t[b, chars[b,u]] (gathered into one row), dL/dp_t (B,3K)
       (stored), and dL/dp_t Wp^T (one GEMM) joins dL/dh_t; then the cell, the norms' backward,
       dXW_t = dL/d(X_t Wx) and dHW_t = dL/d(h_{t-1} Wh) (both stored, (T,B,G)), dw_next =
       dXW_t Wx[I:]^T and dL/dh_{t-1} = dHW_t Wh^T (two GEMMs, Wh^T packed once per chunk). The parameter
       gradients of the norms and biases go to the chunk's own partials. The exp(-beta (kappa - u)^2)
       terms are recomputed (the same expression on the same saved values: the forward's numbers),
       not stored ((T,B,K,U)).
    3. After the loop the weight gradients over all T*B rows, split into parts of consecutive steps
       that run on threads, each part a GEMM per gradient into its own partial: dWx[:I] = x^T dXW,
       dWx[I:] = W_prev^T dXW (W_prev = [w_0 .. w_{T-1}], rows 0..T-1 of saved ws), dWh = H_prev^T dHW,
       dWp = H^T dP, dbp the column sums of dP; and dx = dXW Wx[:I]^T, each part its own rows.
Gate nonlinearities: lstm.py's ``_sigmoid`` (float32: a polynomial exp that LLVM vectorises, where
libm's expf and tanhf run one element at a time: a fifth of the layer's CPU time, perf), and tanh(z) =
2 sigmoid(2z) - 1; the window's exp(-beta (kappa - u)^2) likewise (``_exp``); alpha, beta and
exp(k_hat) (3K per row and step) use libm's exp.

Threads and results: how the rows and steps are chunked depends on B and T alone (``_chunks``), never
on the thread count; each chunk's parameter gradients go to its own partial, and the partials are
added in chunk order after the threads have joined. So every output and gradient is the same bit for
bit whatever numba.get_num_threads() is (a thread that gets several chunks runs them one after the
other).

Masks: lengths (B,) int64 (all T when every row runs): row b is active at step t iff t < lengths[b].
Padded steps run on (finite values; the final state returned is step T-1's for every row: a caller
that needs each row's own last step reads c and kappa of saved through ``window_sequences``).
BN_t's statistics count the active rows only (none active: mean 0, variance 0, the running row
untouched; the running variance takes n/(n-1)); inference (training=False) reads running row
min(t, Ts-1). The backward ignores dy and dw at a padded (row, step), and BN's backward gives a padded
row zero dL/d(input) and leaves it out of its sums (reference._bn_step_backward).

Graves's gate clip (``clip``, as reference.clip_gate_grads and lstm.py): dL/da (B,G) clipped
element-wise to [-clip, clip] at every step before anything reads it; the carried dL/dc is not
clipped; 0 or inf: off.

Inference (keep=False): the per-step arrays of saved get one step's rows (two for c and kappa, whose
previous step each step reads) that every step overwrites; y, w, phi and the final state are bit for
bit keep=True's (the same compiled loop; no sum runs in a loop that also stores, lstm.py says why).

saved (the tuple window_lstm_forward returns with keep=True and window_lstm_backward takes back; the
forward with keep=False runs on buffers of S = 1 step (2 for c and kappa) and returns None):
    gates   (T,B,G)    activated gates [i|f|g|o]
    c       (T,B,H)    cell state c_t (the carried, unnormalized one)
    tc      (T,B,H)    tanh of the cell output
    hs      (T+1,B,H)  h_0, then h_t at row t+1 (the y returned is hs[1:])
    ws      (T+1,B,C)  w_0, then w_t at row t+1 (the w returned is ws[1:])
    xhat    (T,B,G)    normalized X_t Wx      (LN, BN; (0,0,0) for NORM_NONE)
    hhat    (T,B,G)    normalized h_{t-1} Wh  (LN, BN; (0,0,0) for NORM_NONE)
    chat    (T,B,H)    normalized c_t         (LN, BN; (0,0,0) for NORM_NONE)
    rstd    (3,T,N)    1/sqrt(var + eps) of the x, h and c sides: LN per row (N = B); BN per feature
                       (N = G, the cell's in the first H columns); (3,0,0) for NORM_NONE
    win     (T,B,3K)   [alpha | beta | exp(k_hat)]
    kappa   (T,B,K)    kappa_t
    lengths (B,)       int64, the masks
    training (bool)    where BN's statistics came from (the batch, or the running rows)
"""
import numpy as np
from numba import njit, types
from numba.extending import overload

from lnrnn.config import CHUNK_GAP as GAP, FASTMATH, JIT, ROWS
from lnrnn.kernels.cpu.blas import gemm, grad_blocks, rec_mul, rec_pack
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE, clip_bound
from lnrnn.kernels.cpu.gemm import transposed, weight_grad
from lnrnn.kernels.lstm import _f32_bits, _sigmoid
from lnrnn.kernels.masks import as_lengths
from lnrnn.kernels.cpu.rows import _E2, _E3, _E4, _E5, _E6, _E7, _EXP_MAX, _EXP_MIN, _LN2_HI, _LN2_LO, _LOG2E
from lnrnn.kernels.cpu.threads import batch_blocks, chunk_bounds, readonly, run_chunks, unowned

def window_lstm_forward(x, h0, c0, kappa0, w0, chars, ulen, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp,
                        rmx, rvx, rmh, rvh, rmc, rvc, norm, training, momentum, eps, lengths, keep):
    """x (T,B,I), h0/c0 (B,H), kappa0 (B,K), w0 (B,C), chars (B,U), ulen (B,), Wx (I+C,G), Wh (H,G),
    b/gx/bx/gh/bh (G,), gc/bc (H,), Wp (H,3K), bp (3K,); rmx/rvx/rmh/rvh (Ts,G), rmc/rvc (Ts,H) with
    Ts >= T for NORM_BN (updated in place when training; (0,0) arrays do for the other norms);
    lengths (B,); keep: save what the backward needs (False: inference, saved is None)
    -> y (T,B,H), w (T,B,C), hT (B,H), cT (B,H), kappaT (B,K), wT (B,C), phi (T,B,U), saved."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    K = Wp.shape[1] // 3
    C = w0.shape[1]
    dt = x.dtype
    if T == 0:
        raise ValueError("window_lstm_forward needs at least one time step (x has T = 0)")
    chars, ulen = _text(chars, ulen, B, C)
    U = chars.shape[1]
    lengths = as_lengths(lengths, T, B)
    x = np.ascontiguousarray(x)
    if norm != NORM_BN:  # not read: one array type for every norm
        rmx = rvx = rmh = rvh = rmc = rvc = np.empty((0, 0), dt)
    S = T if keep else 1           # rows of the per-step saved arrays
    S2 = T if keep else min(T, 2)  # ... of c and kappa (without keep: step t and t-1 in turns)
    normed = norm == NORM_LN or norm == NORM_BN
    N = B if norm == NORM_LN else G
    hs = np.empty((T + 1, B, H), dt)
    hs[0] = h0
    ws = np.empty((T + 1, B, C), dt)
    ws[0] = w0
    saved = (np.empty((S, B, G), dt),                                    # gates
             np.empty((S2, B, H), dt),                                   # c
             np.empty((S, B, H), dt),                                    # tc
             hs, ws,
             np.empty((S, B, G) if normed else (0, 0, 0), dt),          # xhat
             np.empty((S, B, G) if normed else (0, 0, 0), dt),          # hhat
             np.empty((S, B, H) if normed else (0, 0, 0), dt),          # chat
             np.empty((3, S, N) if normed else (3, 0, 0), dt),          # rstd
             np.empty((S, B, 3 * K), dt),                                # win
             np.empty((S2, B, K), dt))                                   # kappa
    phi = np.empty((T, B, U), dt)
    nch = _chunks(B, norm)
    m = -(-B // nch) + 1  # rows of the largest chunk, and one between two chunks' parts (no shared cache line)
    work = (np.empty((nch, m, I + C), dt),      # X_t = [x_t | w_{t-1}] of the chunk's rows
            np.empty((nch, m, G), dt),          # X_t Wx
            np.empty((nch, m, G), dt),          # h_{t-1} Wh
            np.empty((nch, m, 3 * K), dt),      # h_t Wp
            np.empty((nch, 3, G + GAP), dt))    # gm, gd (gate = sigmoid(gm z) gm - gd); BN_t's mean of a side
    run_chunks(_forward_chunk, B, nch,
               *readonly(x, (np.ascontiguousarray(c0, dtype=dt), np.ascontiguousarray(kappa0, dtype=dt)), chars,
                         ulen, lengths, (np.ascontiguousarray(Wx), np.ascontiguousarray(Wh), np.ascontiguousarray(Wp)),
                         (b, gx, bx, gh, bh, gc, bc, bp)), (rmx, rvx, rmh, rvh, rmc, rvc), norm, training,
               dt.type(momentum), dt.type(eps), saved, phi, work)
    c, kappa = saved[1], saved[10]
    out = (hs[1:], ws[1:], hs[T].copy(), c[(T - 1) % S2].copy(), kappa[(T - 1) % S2].copy(), ws[T].copy(), phi)
    return out + ((saved + (lengths, bool(training))) if keep else None,)


def window_sequences(saved):
    """The per-step state a keep=True forward saved: c (T,B,H) and kappa (T,B,K), c_t and kappa_t at row t
    (for a caller's masked final state: row b's after its step lengths[b] - 1)."""
    return saved[1], saved[10]


def join_columns(parts):
    """parts: (T,B,F_i) arrays -> (T,B,sum F_i), each part's columns after the previous one's: the
    synthesis stack's layer inputs [x | h_{k-1} | w] and its output [h1 | ... | hL]
    (``lnrnn.model.window.WindowStack``). A new array."""
    return np.concatenate(parts, axis=2)


def take_columns(a, c0, c1, add=None):
    """a (T,B,F) -> a[:, :, c0:c1] (T,B,c1-c0) C-contiguous, plus add (T,B,c1-c0) when given (a new array
    then): the stack's backward splits dL/d[x | h | w] into its parts, each added to what it meets."""
    out = np.ascontiguousarray(a[:, :, c0:c1])
    return out if add is None else out + add


def _chunks(B, norm):
    """Chunks of rows the batch is split into: one for NORM_BN (its steps couple the rows), else the
    batch's fixed blocks (threads.batch_blocks). Depends on B alone (module docstring)."""
    if norm == NORM_BN:
        return 1
    return batch_blocks(B)


def _text(chars, ulen, B, C):
    """chars (B,U), ulen (B,) as C-contiguous int64, checked: ValueError when a length lies outside
    [0, U] or a code before it outside [0, C) (codes past ulen[b] are never read)."""
    chars = np.ascontiguousarray(chars, dtype=np.int64)
    ulen = np.ascontiguousarray(ulen, dtype=np.int64)
    if chars.ndim != 2 or chars.shape[0] != B or ulen.shape != (B,):
        raise ValueError(f"chars must be (B,U) and ulen (B,) with B = {B}, got {chars.shape} and {ulen.shape}")
    U = chars.shape[1]
    if B and (ulen.min() < 0 or ulen.max() > U):
        raise ValueError(f"ulen must lie in [0, U] = [0, {U}], got {ulen.min()}..{ulen.max()}")
    used = chars[np.arange(U)[None, :] < ulen[:, None]]
    if used.size and (used.min() < 0 or used.max() >= C):
        raise ValueError(f"character codes must lie in [0, C) = [0, {C}), got {used.min()}..{used.max()}")
    return chars, ulen


def _exp(z):
    """exp of one number, for the window's passes over the characters (compiled: the overload below)."""
    return np.exp(z)


@overload(_exp, jit_options=dict(fastmath=FASTMATH, error_model="numpy"))
def _exp_impl(z):
    """float32: lstm._sigmoid's exp (rows.sigmoid_row's arithmetic: Cody-Waite reduction, degree-7
    polynomial, 2^k from its IEEE bits) as one expression that LLVM vectorises inside the loop over
    the characters (relative error below 4e-7: tests/kernels/test_window.py); exactly 0 below -87 (where libm's expf
    gives subnormals, whose arithmetic can take the CPU's slow path, then 0: the window's far
    characters), NaN for NaN, and exp(87) above 87 (the window's arguments are never positive).
    float64: libm's exp."""
    if isinstance(z, types.Float) and z.bitwidth == 32:
        def impl32(z):
            one = np.float32(1.0)
            v = min(max(z, _EXP_MIN), _EXP_MAX)
            k = np.floor(v * _LOG2E + np.float32(0.5))
            r = v - k * _LN2_HI - k * _LN2_LO
            e = one + r * (one + r * (_E2 + r * (_E3 + r * (_E4 + r * (_E5 + r * (_E6 + r * _E7))))))
            p = e * _f32_bits((np.int32(k) + np.int32(127)) << np.int32(23))
            return p if z >= _EXP_MIN else (np.float32(0.0) if z < _EXP_MIN else z)
        return impl32

    def impl(z):
        return np.exp(z)
    return impl


@njit(**JIT)
def _ln_rows_backward(dv, vhat, rs, gain, dgain, dbias, dx):
    """LayerNorm backward of every row: dv (B,F) = dL/d(output), vhat (B,F), rs (B,), gain (F,)
    -> dx (B,F) = dL/d(input); dgain, dbias (F,) += their sums over the rows."""
    B, F = dv.shape
    zero = dv.dtype.type(0.0)
    invF = dv.dtype.type(1.0) / dv.dtype.type(F)
    for r in range(B):
        dr, hr, xr = dv[r], vhat[r], dx[r]
        for j in range(F):
            dgain[j] += dr[j] * hr[j]
            dbias[j] += dr[j]
        s1 = zero
        s2 = zero
        for j in range(F):
            u = dr[j] * gain[j]
            s1 += u
            s2 += u * hr[j]
        s1 *= invF
        s2 *= invF
        rstd = rs[r]
        for j in range(F):
            xr[j] = rstd * (dr[j] * gain[j] - s1 - hr[j] * s2)


@njit(**JIT)
def _bn_cols(v, lengths, t, rm, rv, training, momentum, eps, mean, vhat, rs):
    """BN_t of v (B,F) at step t, each feature over the rows active at t (training: their mean and biased
    variance; running row t updated when t < Ts and a row is active, with the unbiased variance n/(n-1))
    or from running row min(t, Ts-1) (inference) -> vhat (B,F) = (v - mean) rstd for every row (padded
    ones too), rs[:F] = rstd; mean (>=F,) scratch. rm, rv (Ts,F)."""
    B, F = v.shape
    zero = v.dtype.type(0.0)
    one = v.dtype.type(1.0)
    Ts = rm.shape[0]
    if training:
        n = 0
        for r in range(B):
            if t < lengths[r]:
                n += 1
        for j in range(F):
            mean[j] = zero
            rs[j] = zero
        for r in range(B):
            if t < lengths[r]:
                vr = v[r]
                for j in range(F):
                    mean[j] += vr[j]
        inv = one / v.dtype.type(max(n, 1))
        for j in range(F):
            mean[j] *= inv
        for r in range(B):
            if t < lengths[r]:
                vr = v[r]
                for j in range(F):
                    d = vr[j] - mean[j]
                    rs[j] += d * d
        unbiased = v.dtype.type(n) / v.dtype.type(max(n - 1, 1))
        for j in range(F):
            var = rs[j] * inv
            if n > 0 and t < Ts:
                rm[t, j] = (one - momentum) * rm[t, j] + momentum * mean[j]
                rv[t, j] = (one - momentum) * rv[t, j] + momentum * var * unbiased
            rs[j] = one / np.sqrt(var + eps)
    else:
        row = min(t, Ts - 1)
        for j in range(F):
            mean[j] = rm[row, j]
            rs[j] = one / np.sqrt(rv[row, j] + eps)
    for r in range(B):
        vr, hr = v[r], vhat[r]
        for j in range(F):
            hr[j] = (vr[j] - mean[j]) * rs[j]


@njit(**JIT)
def _bn_cols_backward(dv, vhat, rs, gain, lengths, t, training, dgain, dbias, s, dx):
    """BN_t backward at step t: dv (B,F) = dL/d(output), vhat (B,F), rs (>=F,), gain (F,) -> dx (B,F)
    (zero for rows padded at t, whose dv is ignored); dgain, dbias (F,) += their sums over the active
    rows; s (2,>=F) scratch."""
    B, F = dv.shape
    zero = dv.dtype.type(0.0)
    s1, s2 = s[0], s[1]
    n = 0
    for j in range(F):
        s1[j] = zero
        s2[j] = zero
    for r in range(B):
        if t < lengths[r]:
            n += 1
            dr, hr = dv[r], vhat[r]
            for j in range(F):
                u = dr[j] * gain[j]
                s1[j] += u
                s2[j] += u * hr[j]
                dgain[j] += dr[j] * hr[j]
                dbias[j] += dr[j]
    inv = dv.dtype.type(1.0) / dv.dtype.type(max(n, 1))
    for r in range(B):
        dr, hr, xr = dv[r], vhat[r], dx[r]
        if t >= lengths[r]:
            for j in range(F):
                xr[j] = zero
        elif training:
            for j in range(F):
                xr[j] = rs[j] * (dr[j] * gain[j] - s1[j] * inv - hr[j] * (s2[j] * inv))
        else:
            for j in range(F):
                xr[j] = rs[j] * (dr[j] * gain[j])


@njit(**ROWS)
def _forward_chunk(k, r0, r1, x, state, chars, ulen, lengths, w, p, run, norm, training, momentum, eps, saved, phi,
                   work):
    """The forward time loop of batch rows [r0, r1) (chunk k). x (T,B,I); state = (c0 (B,H), kappa0 (B,K));
    chars (B,U), ulen, lengths (B,) int64; w = (Wx (I+C,G), Wh (H,G), Wp (H,3K));
    p = (b, gx, bx, gh, bh) (G,), (gc, bc) (H,), bp (3K,); run = (rmx, rvx, rmh, rvh (Ts,G), rmc, rvc (Ts,H))
    (NORM_BN); saved: the arrays of the module docstring's tuple (hs[0], ws[0] hold h0, w0), their rows
    written; phi (T,B,U), its rows written; work: the chunks' scratch (window_lstm_forward), row k of each."""
    # every array here as an unowned view (threads.unowned): no shared reference counts between threads
    gates, c, tc, hs, ws = unowned(saved[0]), unowned(saved[1]), unowned(saved[2]), unowned(saved[3]), \
        unowned(saved[4])
    xhat, hhat, chat, rstd = unowned(saved[5]), unowned(saved[6]), unowned(saved[7]), unowned(saved[8])
    win, kappa = unowned(saved[9]), unowned(saved[10])
    c0, kappa0 = unowned(state[0]), unowned(state[1])
    Wx, Wh, Wp = unowned(w[0]), unowned(w[1]), unowned(w[2])
    b, gx, bx, gh, bh = unowned(p[0]), unowned(p[1]), unowned(p[2]), unowned(p[3]), unowned(p[4])
    gc, bc, bp = unowned(p[5]), unowned(p[6]), unowned(p[7])
    rmx, rvx, rmh, rvh, rmc, rvc = unowned(run[0]), unowned(run[1]), unowned(run[2]), unowned(run[3]), \
        unowned(run[4]), unowned(run[5])
    x, chars, ulen, lengths, phi = unowned(x), unowned(chars), unowned(ulen), unowned(lengths), unowned(phi)
    Bc = r1 - r0
    T, _, I = x.shape
    G = Wh.shape[1]
    H = G // 4
    K = Wp.shape[1] // 3
    C = ws.shape[2]
    U = chars.shape[1]
    X = unowned(work[0])[k, :Bc]     # (Bc,I+C) X_t = [x_t | w_{t-1}]
    xw = unowned(work[1])[k, :Bc]    # (Bc,G) X_t Wx
    hw = unowned(work[2])[k, :Bc]    # (Bc,G) h_{t-1} Wh
    pw = unowned(work[3])[k, :Bc]    # (Bc,3K) h_t Wp
    gm = unowned(work[4])[k, 0, :G]  # (G,) 2 on the g block, else 1: gate = sigmoid(gm z) gm - gd
    gd = unowned(work[4])[k, 1, :G]  # (G,) 1 on the g block, else 0 (tanh(z) = 2 sigmoid(2z) - 1)
    mean = unowned(work[4])[k, 2]    # (>=G,) BN_t's mean of one side
    on = lengths[r0:r1]
    dt = x.dtype
    zero = dt.type(0.0)
    one = dt.type(1.0)
    two = dt.type(2.0)
    invG = one / dt.type(G)  # means as products: a float32 divided by an int is a float64
    invH = one / dt.type(H)
    S, S2 = gates.shape[0], c.shape[0]
    for j in range(G):
        gm[j] = two if 2 * H <= j < 3 * H else one
        gd[j] = one if 2 * H <= j < 3 * H else zero
    P = rec_pack(Wh, Bc)   # Wh and Wx in the BLAS's own layout (MKL), once per sequence and chunk
    Px = rec_pack(Wx, Bc)
    for t in range(T):
        ts = t % S          # row of the per-step saved arrays: t, or 0 without keep
        tn = t % S2         # row of c_t and kappa_t
        tp = (t - 1) % S2   # row of c_{t-1} and kappa_{t-1} (t > 0)
        for r in range(Bc):
            Xr, xt, wt = X[r], x[t, r0 + r], ws[t, r0 + r]
            for i in range(I):
                Xr[i] = xt[i]
            for i in range(C):
                Xr[I + i] = wt[i]
        rec_mul(X, Wx, Px, xw)             # X_t Wx
        rec_mul(hs[t, r0:r1], Wh, P, hw)   # h_{t-1} Wh
        if norm == NORM_BN:
            _bn_cols(xw, on, t, rmx, rvx, training, momentum, eps, mean, xhat[ts, r0:r1], rstd[0, ts])
            _bn_cols(hw, on, t, rmh, rvh, training, momentum, eps, mean, hhat[ts, r0:r1], rstd[1, ts])
        for r in range(Bc):
            bb = r0 + r
            a = gates[ts, bb]
            xr, hr = xw[r], hw[r]
            # one pass over the row for the preactivation and its gate (the g block's tanh through gm, gd)
            if norm == NORM_LN:  # with the two LayerNorms: mean and variance passes of each side first
                mx = zero
                for j in range(G):
                    mx += xr[j]
                mx *= invG
                mh = zero
                for j in range(G):
                    mh += hr[j]
                mh *= invG
                vx = zero
                for j in range(G):
                    d = xr[j] - mx
                    vx += d * d
                vh = zero
                for j in range(G):
                    d = hr[j] - mh
                    vh += d * d
                rx = one / np.sqrt(vx * invG + eps)
                rh = one / np.sqrt(vh * invG + eps)
                rstd[0, ts, bb] = rx
                rstd[1, ts, bb] = rh
                xh, hh = xhat[ts, bb], hhat[ts, bb]
                for j in range(G):
                    u = (xr[j] - mx) * rx
                    v = (hr[j] - mh) * rh
                    xh[j] = u
                    hh[j] = v
                    a[j] = _sigmoid(((u * gx[j] + bx[j]) + (v * gh[j] + bh[j]) + b[j]) * gm[j]) * gm[j] - gd[j]
            elif norm == NORM_BN:
                xh, hh = xhat[ts, bb], hhat[ts, bb]
                for j in range(G):
                    a[j] = _sigmoid((gx[j] * xh[j] + gh[j] * hh[j] + b[j]) * gm[j]) * gm[j] - gd[j]
            else:
                for j in range(G):
                    a[j] = _sigmoid((xr[j] + hr[j] + b[j]) * gm[j]) * gm[j] - gd[j]
            ai, af, ag, ao = a[:H], a[H:2 * H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks
            cp = c0[bb] if t == 0 else c[tp, bb]
            ct, tr, yr = c[tn, bb], tc[ts, bb], hs[t + 1, bb]
            for j in range(H):
                ct[j] = af[j] * cp[j] + ai[j] * ag[j]
            if norm == NORM_LN:  # LayerNorm of the cell (two passes: the mean, the variance about it), tanh, h_t
                mc = zero
                for j in range(H):
                    mc += ct[j]
                mc *= invH
                vc = zero
                for j in range(H):
                    d = ct[j] - mc
                    vc += d * d
                sc = one / np.sqrt(vc * invH + eps)
                rstd[2, ts, bb] = sc
                ch = chat[ts, bb]
                for j in range(H):
                    u = (ct[j] - mc) * sc
                    ch[j] = u
                    v = two * _sigmoid(two * (gc[j] * u + bc[j])) - one
                    tr[j] = v
                    yr[j] = ao[j] * v
            elif norm == NORM_NONE:
                for j in range(H):
                    v = two * _sigmoid(two * ct[j]) - one
                    tr[j] = v
                    yr[j] = ao[j] * v
        if norm == NORM_BN:  # BN_t of the cell needs every row's c_t first
            _bn_cols(c[tn, r0:r1], on, t, rmc, rvc, training, momentum, eps, mean, chat[ts, r0:r1], rstd[2, ts])
            for r in range(Bc):
                bb = r0 + r
                ao, ch, tr, yr = gates[ts, bb, 3 * H:], chat[ts, bb], tc[ts, bb], hs[t + 1, bb]
                for j in range(H):
                    v = two * _sigmoid(two * (gc[j] * ch[j] + bc[j])) - one
                    tr[j] = v
                    yr[j] = ao[j] * v
        # the window, moved by h_t
        gemm(hs[t + 1, r0:r1], Wp, pw, False)
        for r in range(Bc):
            bb = r0 + r
            wn, pr = win[ts, bb], pw[r]
            for j in range(3 * K):
                wn[j] = np.exp(pr[j] + bp[j])
            kp = kappa0[bb] if t == 0 else kappa[tp, bb]
            kn = kappa[tn, bb]
            for j in range(K):
                kn[j] = kp[j] + wn[2 * K + j]
            wr, fr, cr = ws[t + 1, bb], phi[t, bb], chars[bb]
            nu = ulen[bb]  # phi and w read the first ulen[b] characters
            for u in range(U):
                fr[u] = zero
            for j in range(K):  # phi(t,u) summed over k in order, one pass over u per k
                al, be, ka = wn[j], wn[K + j], kn[j]
                for u in range(nu):
                    d = ka - dt.type(u + 1)  # u + 1: the 1-based position of character u
                    fr[u] += al * _exp(-be * d * d)
            for j in range(C):
                wr[j] = zero
            for u in range(nu):
                wr[cr[u]] += fr[u]


def window_lstm_backward(dy, dw, saved, x, h0, c0, kappa0, w0, chars, ulen, Wx, Wh, gx, gh, gc, Wp, norm, clip):
    """dy (T,B,H) = dL/dh_t and dw (T,B,C) = dL/dw_t from the layers above (both ignored at padded
    steps), saved (from window_lstm_forward with keep=True), the forward's inputs and parameters
    -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dkappa0 (B,K), dw0 (B,C), dWx (I+C,G), dWh (H,G), db, dgx, dbx,
    dgh, dbh (G,), dgc, dbc (H,), dWp (H,3K), dbp (3K,). Gradients of parameters the norm does not use
    are zeros (dbx, dbh for NORM_BN; every norm parameter for NORM_NONE). clip: Graves's bound on
    dL/d(gate preactivations) (0 or inf: off). h0, kappa0 and w0 are in saved (hs[0], ws[0]; kappa_t's
    derivative does not read kappa_{t-1}): taken for the argument order of the reference."""
    if saved is None:
        raise ValueError("window_lstm_backward needs the saved tuple of a forward run with keep=True")
    gates, c, tc, hs, ws, xhat, hhat, chat, rstd, win, kappa, lengths, training = saved
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    K = Wp.shape[1] // 3
    C = ws.shape[2]
    dt = dy.dtype
    chars, ulen = _text(chars, ulen, B, C)
    U = chars.shape[1]
    dXW = np.empty((T, B, G), dt)                              # dL/d(X_t Wx)
    dHW = dXW if norm == NORM_NONE else np.empty((T, B, G), dt)  # dL/d(h_{t-1} Wh) (the same without a norm)
    dP = np.empty((T, B, 3 * K), dt)                           # dL/dp_t
    nch = _chunks(B, norm)
    m = -(-B // nch) + 1  # rows of the largest chunk, and one between two chunks' parts (no shared cache line)
    pg = np.zeros((nch, 5, G + GAP), dt)  # each chunk's db, dgx, dbx, dgh, dbh
    pc = np.zeros((nch, 2, H + GAP), dt)  # ... dgc, dbc
    carry = (np.zeros((nch, 2, m, H), dt),  # dL/dh_t, dL/dc_t from step t+1 (zeros at first; dh0, dc0 last)
             np.zeros((nch, m, K), dt),     # dL/dkappa_t from step t+1
             np.zeros((nch, m, C), dt))     # dL/dw_t from step t+1's input
    work = (np.empty((nch, m, C), dt),      # dL/dw_t of the step
            np.empty((nch, m, H), dt),      # dL/dp_t Wp^T
            np.empty((nch, m, G), dt),      # dL/da
            np.empty((nch, 2, m, H), dt),   # dL/d(cell output before tanh), dL/dc_t through the cell's norm
            np.empty((nch, 2, G + GAP), dt),  # BN backward's column sums
            np.empty((nch, U + GAP), dt))   # dL/dphi(t,u) of one row
    wT = (transposed(Wx[I:]), transposed(Wh), transposed(Wp))  # (G,C) (G,H) (3K,H)
    run_chunks(_backward_chunk, B, nch,
               *readonly(np.ascontiguousarray(dy), np.ascontiguousarray(dw), saved[:11],
                         np.ascontiguousarray(c0, dtype=dt), chars, ulen, lengths, wT, (gx, gh, gc)), norm, training,
               dt.type(clip_bound(clip)), (dXW, dHW, dP), (pg, pc), carry, work)
    state0 = (np.empty((B, H), dt), np.empty((B, H), dt), np.empty((B, K), dt), np.empty((B, C), dt))
    for k in range(nch):  # each chunk's final carries are the gradients of its rows' initial state
        r0, r1 = chunk_bounds(B, nch, k)
        for s, v in zip(state0, (carry[0][k, 0], carry[0][k, 1], carry[1][k], carry[2][k])):
            s[r0:r1] = v[:r1 - r0]
    # the weight gradients and dx over all T*B rows: parts of consecutive steps on threads
    npart = min(T, max(2, _chunks(B, NORM_NONE)))
    nrows, tw = grad_blocks(H, G, dt.itemsize)  # dWh in blocks of rows on rgemm, into dWh^T partials (tw)
    pW = (np.empty((npart, I + C, G), dt), np.empty((npart, G, H) if tw else (npart, H, G), dt),
          np.empty((npart, H, 3 * K), dt), np.zeros((npart, 3 * K + GAP), dt))  # each part's dWx, dWh, dWp, dbp
    dx = np.empty((T, B, I), dt)
    rows = (np.ascontiguousarray(x).reshape(T * B, I), ws[:T].reshape(T * B, C), hs[:T].reshape(T * B, H),
            hs[1:].reshape(T * B, H))
    grads = (dXW.reshape(T * B, G), dHW.reshape(T * B, G), dP.reshape(T * B, 3 * K))
    run_chunks(_weight_part, T, npart, T, *readonly(rows, grads, transposed(Wx[:I])), dx.reshape(T * B, I), pW,
               nrows, tw)
    dWx, dWh, dWp = pW[0].sum(axis=0), pW[1].sum(axis=0), pW[2].sum(axis=0)
    if tw:
        dWh = transposed(dWh)
    dbp = pW[3][:, :3 * K].sum(axis=0)
    db, dgx, dbx, dgh, dbh = pg[:, :, :G].sum(axis=0)
    dgc, dbc = pc[:, :, :H].sum(axis=0)
    if norm == NORM_NONE:
        dgx, dbx, dgh, dbh, dgc, dbc = (np.zeros_like(v) for v in (dgx, dbx, dgh, dbh, dgc, dbc))
    elif norm == NORM_BN:
        dbx, dbh = np.zeros(G, dt), np.zeros(G, dt)
    dh0, dc0, dkappa0, dw0 = state0
    return (dx, dh0, dc0, dkappa0, dw0, dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc, dWp, dbp)


@njit(**ROWS)
def _backward_chunk(k, r0, r1, dy, dw, saved, c0, chars, ulen, lengths, wT, p, norm, training, clip, out, part, carry,
                    work):
    """BPTT of batch rows [r0, r1) (chunk k) in reverse time. dy (T,B,H), dw (T,B,C); saved: the first 11
    arrays of the saved tuple; c0 (B,H); chars (B,U), ulen, lengths (B,) int64; wT = (Wx[I:]^T (G,C),
    Wh^T (G,H), Wp^T (3K,H)); p = (gx, gh (G,), gc (H,)); clip > 0: Graves's bound (0: off); out = (dXW,
    dHW (T,B,G), dP (T,B,3K)), their rows written (dHW may be dXW itself: NORM_NONE); part = (pg: db, dgx,
    dbx, dgh, dbh; pc: dgc, dbc), chunk k's partials added to; carry = (dh, dc; dkappa; dw_next), chunk k's
    rows: zeros in, the gradients of h0, c0, kappa0, w0 out; work: scratch (window_lstm_backward), row k."""
    # every array here as an unowned view (threads.unowned): no shared reference counts between threads
    gates, c, tc = unowned(saved[0]), unowned(saved[1]), unowned(saved[2])
    xhat, hhat, chat, rstd = unowned(saved[5]), unowned(saved[6]), unowned(saved[7]), unowned(saved[8])
    win, kappa = unowned(saved[9]), unowned(saved[10])
    WxwT, WhT, WpT = unowned(wT[0]), unowned(wT[1]), unowned(wT[2])
    gx, gh, gc = unowned(p[0]), unowned(p[1]), unowned(p[2])
    dXW, dHW, dP = unowned(out[0]), unowned(out[1]), unowned(out[2])
    dy, dw, c0, chars, ulen, lengths = unowned(dy), unowned(dw), unowned(c0), unowned(chars), unowned(ulen), \
        unowned(lengths)
    Bc = r1 - r0
    pg = unowned(part[0])[k]            # (5,>=G) db, dgx, dbx, dgh, dbh
    pc = unowned(part[1])[k]            # (2,>=H) dgc, dbc
    dhn = unowned(carry[0])[k, 0, :Bc]  # (Bc,H) dL/dh_t from step t+1
    dcr = unowned(carry[0])[k, 1, :Bc]  # (Bc,H) dL/dc_t from step t+1
    dkap = unowned(carry[1])[k, :Bc]    # (Bc,K) dL/dkappa_t from step t+1
    dwn = unowned(carry[2])[k, :Bc]     # (Bc,C) dL/dw_t from step t+1's input
    dwt = unowned(work[0])[k, :Bc]      # (Bc,C) dL/dw_t of the step
    dhp = unowned(work[1])[k, :Bc]      # (Bc,H) dL/dp_t Wp^T
    da = unowned(work[2])[k, :Bc]       # (Bc,G) dL/da
    dcn = unowned(work[3])[k, 0, :Bc]   # (Bc,H) dL/d(cell output before tanh)
    dcc = unowned(work[3])[k, 1, :Bc]   # (Bc,H) dL/dc_t through the cell's norm
    s = unowned(work[4])[k]             # (2,>=G) BN backward's column sums
    dph = unowned(work[5])[k]           # (>=U,) dL/dphi(t,u) of one row
    on = lengths[r0:r1]
    T = dy.shape[0]
    H = dy.shape[2]
    G = 4 * H
    K = win.shape[2] // 3
    C = dw.shape[2]
    dt = dy.dtype
    zero = dt.type(0.0)
    one = dt.type(1.0)
    two = dt.type(2.0)
    PT = rec_pack(WhT, Bc)  # Wh^T packed once (MKL)
    for t in range(T - 1, -1, -1):
        # the window: dL/dw_t, dL/dp_t, dL/dkappa_{t-1}
        for r in range(Bc):
            bb = r0 + r
            active = t < lengths[bb]
            dwr, dnr = dwt[r], dwn[r]
            for j in range(C):
                dwr[j] = (dw[t, bb, j] if active else zero) + dnr[j]
            wn, kn, dk, dpr, cr = win[t, bb], kappa[t, bb], dkap[r], dP[t, bb], chars[bb]
            nu = ulen[bb]  # the characters whose phi the forward computed
            for u in range(nu):
                dph[u] = dwr[cr[u]]  # dL/dphi(t,u): phi(t,u) went to w_t's column of character u
            for j in range(K):
                al, be, ka = wn[j], wn[K + j], kn[j]
                sa = zero  # sum_u e dphi
                sb = zero  # sum_u e dphi d^2
                sk = zero  # sum_u e dphi d
                for u in range(nu):
                    d = ka - dt.type(u + 1)
                    g = _exp(-be * d * d) * dph[u]
                    sa += g
                    sb += g * d * d
                    sk += g * d
                dpr[j] = sa * al
                dpr[K + j] = -(al * sb) * be
                dk[j] = dk[j] - two * be * (al * sk)
                dpr[2 * K + j] = dk[j] * wn[2 * K + j]
        gemm(dP[t, r0:r1], WpT, dhp, False)  # the window's share of dL/dh_t
        # the cell: dL/d(o), dL/d(cell output), its norm's backward, dL/dc_t and the i, f, g gates
        for r in range(Bc):
            bb = r0 + r
            active = t < lengths[bb]
            a, tr, dyr, dpr, hn, dnr = gates[t, bb], tc[t, bb], dy[t, bb], dhp[r], dhn[r], dcn[r]
            ao, dao = a[3 * H:], da[r, 3 * H:]
            for j in range(H):
                dh = (dyr[j] if active else zero) + hn[j] + dpr[j]
                o = ao[j]
                tk = tr[j]
                dao[j] = dh * tk * o * (one - o)
                dnr[j] = dh * o * (one - tk * tk)
        if norm == NORM_LN:
            _ln_rows_backward(dcn, chat[t, r0:r1], rstd[2, t, r0:r1], gc, pc[0], pc[1], dcc)
        elif norm == NORM_BN:
            _bn_cols_backward(dcn, chat[t, r0:r1], rstd[2, t], gc, on, t, training, pc[0], pc[1], s, dcc)
        for r in range(Bc):
            bb = r0 + r
            a, dar, dcr_r = gates[t, bb], da[r], dcr[r]
            ai, af, ag = a[:H], a[H:2 * H], a[2 * H:3 * H]
            dai, daf, dag = dar[:H], dar[H:2 * H], dar[2 * H:3 * H]
            cp = c0[bb] if t == 0 else c[t - 1, bb]
            src = dcn[r] if norm == NORM_NONE else dcc[r]
            for j in range(H):
                dc = src[j] + dcr_r[j]
                i = ai[j]
                f = af[j]
                g = ag[j]
                dai[j] = dc * g * i * (one - i)
                daf[j] = dc * cp[j] * f * (one - f)
                dag[j] = dc * i * (one - g * g)
                dcr_r[j] = dc * f
            if clip > zero:  # Graves: dL/da clipped before anything reads it (the carried dL/dc is not)
                for j in range(G):
                    dar[j] = min(max(dar[j], -clip), clip)
            pdb = pg[0]
            for j in range(G):
                pdb[j] += dar[j]
        # the norms of X_t Wx and h_{t-1} Wh, backward
        if norm == NORM_LN:
            _ln_rows_backward(da, xhat[t, r0:r1], rstd[0, t, r0:r1], gx, pg[1], pg[2], dXW[t, r0:r1])
            _ln_rows_backward(da, hhat[t, r0:r1], rstd[1, t, r0:r1], gh, pg[3], pg[4], dHW[t, r0:r1])
        elif norm == NORM_BN:
            _bn_cols_backward(da, xhat[t, r0:r1], rstd[0, t], gx, on, t, training, pg[1], pg[2], s, dXW[t, r0:r1])
            _bn_cols_backward(da, hhat[t, r0:r1], rstd[1, t], gh, on, t, training, pg[3], pg[4], s, dHW[t, r0:r1])
        else:
            for r in range(Bc):
                dar, dxr = da[r], dXW[t, r0 + r]
                for j in range(G):
                    dxr[j] = dar[j]
        gemm(dXW[t, r0:r1], WxwT, dwn, False)  # dL/dw_{t-1}, from step t's input
        rec_mul(dHW[t, r0:r1], WhT, PT, dhn)   # dL/dh_{t-1}


@njit(**ROWS)
def _weight_part(k, t0, t1, T, rows, grads, WxIT, dx, part, nrows, tw):
    """Part k of the weight gradients over all T*B rows, the steps [t0, t1) (threads.run_chunks over T
    steps): rows = (x (T*B,I), W_prev (T*B,C), H_prev (T*B,H), H (T*B,H)), grads = (dXW, dHW (T*B,G),
    dP (T*B,3K)), WxIT = Wx[:I]^T (G,I) -> dx (T*B,I), the part's rows written; part = (dWx (npart,I+C,G),
    dWh (npart,H,G), or with tw its transpose (npart,G,H), dWp (npart,H,3K): row k written; dbp
    (npart,>=3K): row k added to). tw: dWh^T by blocks of nrows rows on rgemm's transposed product
    (blas.grad_blocks, the LSTM backward's rule; gemm.weight_grad), else one GEMM."""
    X, Wprev, Hprev, Hcur = unowned(rows[0]), unowned(rows[1]), unowned(rows[2]), unowned(rows[3])
    dXW, dHW, dP = unowned(grads[0]), unowned(grads[1]), unowned(grads[2])
    WxIT, dx = unowned(WxIT), unowned(dx)
    pWx, pWh, pWp, pbp = unowned(part[0]), unowned(part[1]), unowned(part[2]), unowned(part[3])
    B = X.shape[0] // T
    I = X.shape[1]
    a, e = t0 * B, t1 * B
    gemm(X[a:e], dXW[a:e], pWx[k, :I], True)      # x^T dXW
    gemm(Wprev[a:e], dXW[a:e], pWx[k, I:], True)  # W_prev^T dXW
    weight_grad(Hprev[a:e], dHW[a:e], pWh[k], nrows, tw)  # H_prev^T dHW (transposed: tw)
    gemm(Hcur[a:e], dP[a:e], pWp[k], True)        # H^T dP
    gemm(dXW[a:e], WxIT, dx[a:e], False)          # dx = dXW Wx[:I]^T
    sb = pbp[k]
    for i in range(a, e):
        dpi = dP[i]
        for j in range(dP.shape[1]):
            sb[j] += dpi[j]
