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
    1. x Wx[:I] over all T*B rows: one GEMM before the loop (xin (T,B,G)).
    2. One compiled time loop over the whole batch (BN couples the rows of a step; a single thread:
       the layers above are threaded). Per step: X_t Wx = xin_t + w_{t-1} Wx[I:] (one B x C x G GEMM),
       h_{t-1} Wh (one GEMM, Wh packed once: blas.rec_mul, as in lstm.py), both norms (LN per row;
       BN_t per column over the active rows, the running row updated as reference._bn_stats does),
       gates and cell, the cell's norm, tanh and h_t; then p_t = h_t Wp (one B x H x 3K GEMM) + bp, and
       per row alpha, beta, kappa_t, phi over u < ulen[b] and w_t as a scatter-add of phi into the C
       columns by chars.
    3. Backward in reverse time with the carries dL/dh_t, dL/dc_t, dL/dkappa_t and dw_next = dL/dw_t
       from step t+1's input. Per step the window first: dL/dw_t = dw[t] (active rows) + dw_next,
       dphi_u = dL/dw_t[b, chars[b,u]], dL/dp_t (B,3K) (stored), and dL/dp_t Wp^T (one GEMM) joins
       dL/dh_t; then the cell, the norms' backward, dXW_t = dL/d(X_t Wx) and dHW_t = dL/d(h_{t-1} Wh)
       (both stored, (T,B,G)), dw_next = dXW_t Wx[I:]^T and dL/dh_{t-1} = dHW_t Wh^T (two GEMMs, Wh^T
       packed once).
       After the loop, one GEMM each over all T*B rows: dWx[:I] = x^T dXW, dWx[I:] = W_prev^T dXW
       (W_prev = [w_0 .. w_{T-1}], rows 0..T-1 of saved ws), dWh = H_prev^T dHW, dx = dXW Wx[:I]^T,
       dWp = H^T dP; dbp is the column sum of dP. The exp(-beta (kappa - u)^2) terms are recomputed
       in the backward (the same expression on the same saved values: the forward's numbers), not
       stored ((T,B,K,U)).

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
from numba import njit

from lnrnn.config import JIT, ROWS
from lnrnn.kernels.blas import gemm, rec_mul, rec_pack
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE, clip_bound
from lnrnn.kernels.masks import as_lengths


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
    xin = np.empty((T, B, G), dt)  # x_t Wx[:I] over all T*B rows
    gemm(x.reshape(T * B, I), np.ascontiguousarray(Wx[:I]), xin.reshape(T * B, G), False)
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
    work = (np.empty((B, G), dt),      # X_t Wx
            np.empty((B, G), dt),      # h_{t-1} Wh
            np.empty((B, 3 * K), dt),  # h_t Wp
            np.empty((1, G), dt))      # BN_t's mean of one side
    _forward_steps(xin, (np.ascontiguousarray(c0, dtype=dt), np.ascontiguousarray(kappa0, dtype=dt)), chars, ulen,
                   lengths, (np.ascontiguousarray(Wx[I:]), np.ascontiguousarray(Wh), np.ascontiguousarray(Wp)),
                   (b, gx, bx, gh, bh, gc, bc, bp), (rmx, rvx, rmh, rvh, rmc, rvc), norm, training,
                   dt.type(momentum), dt.type(eps), saved, phi, work)
    c, kappa = saved[1], saved[10]
    out = (hs[1:], ws[1:], hs[T].copy(), c[(T - 1) % S2].copy(), kappa[(T - 1) % S2].copy(), ws[T].copy(), phi)
    return out + ((saved + (lengths, bool(training))) if keep else None,)


def window_sequences(saved):
    """The per-step state a keep=True forward saved: c (T,B,H) and kappa (T,B,K), c_t and kappa_t at row t
    (for a caller's masked final state: row b's after its step lengths[b] - 1)."""
    return saved[1], saved[10]


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


@njit(**JIT)
def _ln_rows(v, eps, vhat, rs):
    """LayerNorm of every row of v (B,F) over its F features (two passes: the mean, the variance about
    it) -> vhat (B,F) = (v - mean) rstd, rs (B,) = rstd = 1/sqrt(var + eps)."""
    B, F = v.shape
    zero = v.dtype.type(0.0)
    one = v.dtype.type(1.0)
    invF = one / v.dtype.type(F)  # means as products: a float32 divided by an int is a float64
    for r in range(B):
        vr = v[r]
        m = zero
        for j in range(F):
            m += vr[j]
        m *= invF
        s = zero
        for j in range(F):
            d = vr[j] - m
            s += d * d
        rstd = one / np.sqrt(s * invF + eps)
        rs[r] = rstd
        hr = vhat[r]
        for j in range(F):
            hr[j] = (vr[j] - m) * rstd


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
def _forward_steps(xin, state, chars, ulen, lengths, w, p, run, norm, training, momentum, eps, saved, phi, work):
    """The forward time loop over the whole batch. xin (T,B,G) = x_t Wx[:I]; state = (c0 (B,H),
    kappa0 (B,K)); chars (B,U), ulen, lengths (B,) int64; w = (Wx[I:] (C,G), Wh (H,G), Wp (H,3K));
    p = (b, gx, bx, gh, bh) (G,), (gc, bc) (H,), bp (3K,); run = (rmx, rvx, rmh, rvh (Ts,G),
    rmc, rvc (Ts,H)) (NORM_BN); saved: the arrays of the module docstring's tuple (hs[0], ws[0] hold h0,
    w0), written; phi (T,B,U) written; work = (X_t Wx, h_{t-1} Wh (B,G), h_t Wp (B,3K), mean (1,G))."""
    gates, c, tc, hs, ws = saved[0], saved[1], saved[2], saved[3], saved[4]
    xhat, hhat, chat, rstd, win, kappa = saved[5], saved[6], saved[7], saved[8], saved[9], saved[10]
    c0, kappa0 = state
    Wxw, Wh, Wp = w
    b, gx, bx, gh, bh, gc, bc, bp = p
    rmx, rvx, rmh, rvh, rmc, rvc = run
    xw, hw, pw, mean = work[0], work[1], work[2], work[3][0]
    T, B, G = xin.shape
    H = G // 4
    K = Wp.shape[1] // 3
    C = Wxw.shape[0]
    U = chars.shape[1]
    zero = xin.dtype.type(0.0)
    one = xin.dtype.type(1.0)
    S, S2 = gates.shape[0], c.shape[0]
    P = rec_pack(Wh, B)  # Wh in the BLAS's own layout (MKL), once per sequence
    for t in range(T):
        ts = t % S          # row of the per-step saved arrays: t, or 0 without keep
        tn = t % S2         # row of c_t and kappa_t
        tp = (t - 1) % S2   # row of c_{t-1} and kappa_{t-1} (t > 0)
        gemm(ws[t], Wxw, xw, False)  # w_{t-1} Wx[I:]
        for r in range(B):
            xr, ir = xw[r], xin[t, r]
            for j in range(G):
                xr[j] += ir[j]
        rec_mul(hs[t], Wh, P, hw)    # h_{t-1} Wh
        if norm == NORM_LN:
            _ln_rows(xw, eps, xhat[ts], rstd[0, ts])
            _ln_rows(hw, eps, hhat[ts], rstd[1, ts])
        elif norm == NORM_BN:
            _bn_cols(xw, lengths, t, rmx, rvx, training, momentum, eps, mean, xhat[ts], rstd[0, ts])
            _bn_cols(hw, lengths, t, rmh, rvh, training, momentum, eps, mean, hhat[ts], rstd[1, ts])
        for r in range(B):
            a = gates[ts, r]
            if norm == NORM_LN:
                xh, hh = xhat[ts, r], hhat[ts, r]
                for j in range(G):
                    a[j] = (xh[j] * gx[j] + bx[j]) + (hh[j] * gh[j] + bh[j]) + b[j]
            elif norm == NORM_BN:
                xh, hh = xhat[ts, r], hhat[ts, r]
                for j in range(G):
                    a[j] = gx[j] * xh[j] + gh[j] * hh[j] + b[j]
            else:
                xr, hr = xw[r], hw[r]
                for j in range(G):
                    a[j] = xr[j] + hr[j] + b[j]
            for j in range(2 * H):  # i, f
                a[j] = one / (one + np.exp(-a[j]))
            for j in range(2 * H, 3 * H):  # g
                a[j] = np.tanh(a[j])
            for j in range(3 * H, G):  # o
                a[j] = one / (one + np.exp(-a[j]))
            cp = c0[r] if t == 0 else c[tp, r]
            ct = c[tn, r]
            for k in range(H):
                ct[k] = a[H + k] * cp[k] + a[k] * a[2 * H + k]
        if norm == NORM_LN:
            _ln_rows(c[tn], eps, chat[ts], rstd[2, ts])
        elif norm == NORM_BN:
            _bn_cols(c[tn], lengths, t, rmc, rvc, training, momentum, eps, mean, chat[ts], rstd[2, ts])
        for r in range(B):
            a, tr, yr = gates[ts, r], tc[ts, r], hs[t + 1, r]
            if norm == NORM_NONE:
                ct = c[tn, r]
                for k in range(H):
                    tr[k] = np.tanh(ct[k])
            else:
                ch = chat[ts, r]
                for k in range(H):
                    tr[k] = np.tanh(gc[k] * ch[k] + bc[k])
            for k in range(H):
                yr[k] = a[3 * H + k] * tr[k]
        # the window, moved by h_t
        gemm(hs[t + 1], Wp, pw, False)
        for r in range(B):
            wn, pr = win[ts, r], pw[r]
            for j in range(3 * K):
                wn[j] = np.exp(pr[j] + bp[j])
            kp = kappa0[r] if t == 0 else kappa[tp, r]
            kn = kappa[tn, r]
            for k in range(K):
                kn[k] = kp[k] + wn[2 * K + k]
            wr, fr, cr = ws[t + 1, r], phi[t, r], chars[r]
            for j in range(C):
                wr[j] = zero
            for u in range(U):
                fr[u] = zero
            for u in range(ulen[r]):
                pos = xin.dtype.type(u + 1)  # 1-based position of character u
                s = zero
                for k in range(K):
                    d = kn[k] - pos
                    s += wn[k] * np.exp(-wn[K + k] * d * d)
                fr[u] = s
                wr[cr[u]] += s


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
    dXW = np.empty((T, B, G), dt)                              # dL/d(X_t Wx)
    dHW = dXW if norm == NORM_NONE else np.empty((T, B, G), dt)  # dL/d(h_{t-1} Wh) (the same without a norm)
    dP = np.empty((T, B, 3 * K), dt)                           # dL/dp_t
    pg = np.zeros((5, G), dt)                                  # db, dgx, dbx, dgh, dbh
    pc = np.zeros((2, H), dt)                                  # dgc, dbc
    carry = (np.zeros((B, H), dt), np.zeros((B, H), dt),      # dL/dh_t, dL/dc_t from step t+1
             np.zeros((B, K), dt), np.zeros((B, C), dt))      # dL/dkappa_t, dL/dw_t from step t+1
    work = (np.empty((B, C), dt),       # dL/dw_t of the step
            np.empty((B, H), dt),       # dL/dp_t Wp^T
            np.empty((B, G), dt),       # dL/da
            np.empty((B, H), dt),       # dL/d(cell output before tanh)
            np.empty((B, H), dt),       # dL/dc_t through the cell's norm
            np.empty((2, G), dt))       # BN backward's column sums
    wT = (np.ascontiguousarray(Wx[I:].T), np.ascontiguousarray(Wh.T), np.ascontiguousarray(Wp.T))  # (G,C) (G,H) (3K,H)
    _backward_steps(np.ascontiguousarray(dy), np.ascontiguousarray(dw), saved[:11], np.ascontiguousarray(c0, dtype=dt),
                    chars, ulen, lengths, wT, (gx, gh, gc), norm, training, dt.type(clip_bound(clip)),
                    (dXW, dHW, dP), (pg, pc), carry, work)
    # weight gradients and dx: one GEMM each over all T*B rows
    dXW2, dHW2, dP2 = dXW.reshape(T * B, G), dHW.reshape(T * B, G), dP.reshape(T * B, 3 * K)
    dWx = np.empty((I + C, G), dt)
    gemm(np.ascontiguousarray(x).reshape(T * B, I), dXW2, dWx[:I], True)
    gemm(ws[:T].reshape(T * B, C), dXW2, dWx[I:], True)
    dWh = np.empty((H, G), dt)
    gemm(hs[:T].reshape(T * B, H), dHW2, dWh, True)
    dWp = np.empty((H, 3 * K), dt)
    gemm(hs[1:].reshape(T * B, H), dP2, dWp, True)
    dx = np.empty((T, B, I), dt)
    gemm(dXW2, np.ascontiguousarray(Wx[:I].T), dx.reshape(T * B, I), False)
    dbp = dP2.sum(axis=0)
    db, dgx, dbx, dgh, dbh = pg
    dgc, dbc = pc
    if norm == NORM_NONE:
        dgx, dbx, dgh, dbh, dgc, dbc = (np.zeros_like(v) for v in (dgx, dbx, dgh, dbh, dgc, dbc))
    elif norm == NORM_BN:
        dbx, dbh = np.zeros(G, dt), np.zeros(G, dt)
    dh0, dc0, dkappa0, dw0 = carry
    return (dx, dh0, dc0, dkappa0, dw0, dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc, dWp, dbp)


@njit(**ROWS)
def _backward_steps(dy, dw, saved, c0, chars, ulen, lengths, wT, p, norm, training, clip, out, part, carry, work):
    """BPTT over the whole batch in reverse time. dy (T,B,H), dw (T,B,C); saved: the first 11 arrays of
    the saved tuple; c0 (B,H); chars (B,U), ulen, lengths (B,) int64; wT = (Wx[I:]^T (G,C), Wh^T (G,H),
    Wp^T (3K,H)); p = (gx, gh (G,), gc (H,)); clip > 0: Graves's bound (0: off); out = (dXW, dHW (T,B,G),
    dP (T,B,3K)), written (dHW may be dXW itself: NORM_NONE); part = (pg (5,G): db, dgx, dbx, dgh, dbh;
    pc (2,H): dgc, dbc), added to; carry = (dh, dc (B,H), dkappa (B,K), dw_next (B,C)): zeros in, the
    gradients of h0, c0, kappa0, w0 out; work: scratch (window_lstm_backward)."""
    gates, c, tc = saved[0], saved[1], saved[2]
    xhat, hhat, chat, rstd, win, kappa = saved[5], saved[6], saved[7], saved[8], saved[9], saved[10]
    WxwT, WhT, WpT = wT
    gx, gh, gc = p
    dXW, dHW, dP = out
    pg, pc = part
    dhn, dcarry, dkap, dwn = carry
    dwt, dhp, da, dcn, dcc, s = work
    T, B, H = dy.shape
    G = 4 * H
    K = win.shape[2] // 3
    C = dw.shape[2]
    zero = dy.dtype.type(0.0)
    one = dy.dtype.type(1.0)
    two = dy.dtype.type(2.0)
    PT = rec_pack(WhT, B)  # Wh^T packed once (MKL)
    for t in range(T - 1, -1, -1):
        # the window: dL/dw_t, dL/dp_t, dL/dkappa_{t-1}
        for r in range(B):
            on = t < lengths[r]
            dwr, dnr = dwt[r], dwn[r]
            for j in range(C):
                dwr[j] = (dw[t, r, j] if on else zero) + dnr[j]
            wn, kn, dk, dpr, cr = win[t, r], kappa[t, r], dkap[r], dP[t, r], chars[r]
            nu = ulen[r]
            for k in range(K):
                al, be, ka = wn[k], wn[K + k], kn[k]
                sa = zero  # sum_u e dphi
                sb = zero  # sum_u e dphi d^2
                sk = zero  # sum_u e dphi d
                for u in range(nu):
                    d = ka - dy.dtype.type(u + 1)
                    g = np.exp(-be * d * d) * dwr[cr[u]]
                    sa += g
                    sb += g * d * d
                    sk += g * d
                dpr[k] = sa * al
                dpr[K + k] = -(al * sb) * be
                dk[k] = dk[k] - two * be * (al * sk)
                dpr[2 * K + k] = dk[k] * wn[2 * K + k]
        gemm(dP[t], WpT, dhp, False)  # the window's share of dL/dh_t
        # the cell: dL/d(o), dL/d(cell output), its norm's backward, dL/dc_t and the i, f, g gates
        for r in range(B):
            on = t < lengths[r]
            a, tr, dar, dnr, dyr, dpr = gates[t, r], tc[t, r], da[r], dcn[r], dy[t, r], dhp[r]
            hn = dhn[r]
            for k in range(H):
                dh = (dyr[k] if on else zero) + hn[k] + dpr[k]
                o = a[3 * H + k]
                tk = tr[k]
                dar[3 * H + k] = dh * tk * o * (one - o)
                dnr[k] = dh * o * (one - tk * tk)
        if norm == NORM_LN:
            _ln_rows_backward(dcn, chat[t], rstd[2, t], gc, pc[0], pc[1], dcc)
        elif norm == NORM_BN:
            _bn_cols_backward(dcn, chat[t], rstd[2, t], gc, lengths, t, training, pc[0], pc[1], s, dcc)
        for r in range(B):
            a, dar, dcr = gates[t, r], da[r], dcarry[r]
            cp = c0[r] if t == 0 else c[t - 1, r]
            src = dcn[r] if norm == NORM_NONE else dcc[r]
            for k in range(H):
                dc = src[k] + dcr[k]
                i = a[k]
                f = a[H + k]
                g = a[2 * H + k]
                dar[k] = dc * g * i * (one - i)
                dar[H + k] = dc * cp[k] * f * (one - f)
                dar[2 * H + k] = dc * i * (one - g * g)
                dcr[k] = dc * f
            if clip > zero:  # Graves: dL/da clipped before anything reads it (the carried dL/dc is not)
                for j in range(G):
                    dar[j] = min(max(dar[j], -clip), clip)
            for j in range(G):
                pg[0, j] += dar[j]
        # the norms of X_t Wx and h_{t-1} Wh, backward
        if norm == NORM_LN:
            _ln_rows_backward(da, xhat[t], rstd[0, t], gx, pg[1], pg[2], dXW[t])
            _ln_rows_backward(da, hhat[t], rstd[1, t], gh, pg[3], pg[4], dHW[t])
        elif norm == NORM_BN:
            _bn_cols_backward(da, xhat[t], rstd[0, t], gx, lengths, t, training, pg[1], pg[2], s, dXW[t])
            _bn_cols_backward(da, hhat[t], rstd[1, t], gh, lengths, t, training, pg[3], pg[4], s, dHW[t])
        else:
            for r in range(B):
                dar, dxr = da[r], dXW[t, r]
                for j in range(G):
                    dxr[j] = dar[j]
        gemm(dXW[t], WxwT, dwn, False)  # dL/dw_{t-1}, from step t's input
        rec_mul(dHW[t], WhT, PT, dhn)   # dL/dh_{t-1}
