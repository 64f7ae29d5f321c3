"""A BN cell's x side (bn_lstm.py, bn_rnn.py; CPU): BN_t(x Wx) before the time loop and its backward after
it (``cell_x_forward``, ``cell_x_backward``), and, for a narrow input x_t (B,I) with I <= config.FOLD_MAX_I,
BN_t(x_t W) without ever forming x_t W (the fold path): from the batch mean and covariance of x_t
(``fold_stats``), whole-batch statistics per step (``fold_step_stats``) and the rows a thread owns
(``fold_rows_forward``, ``fold_rows_sums``, ``fold_step_backward``, ``fold_rows_dx``). The BN op itself, its
statistics rules and masks: batchnorm.py.
"""
import numpy as np
from numba import njit

from lnrnn.config import JIT
from lnrnn.kernels.batchnorm import active_rows, bn_backward, bn_forward
from lnrnn.kernels.bn_parts import run_in
from lnrnn.kernels.cpu.gemm import matmul, projection_grads, recurrent_weight_grad
from lnrnn.kernels.cpu.threads import batch_blocks, readonly


# ---------------------------------------------------------------------------------------------
# BN_t of a narrow input's projection x_t W, never formed (the cells' fold path)
# ---------------------------------------------------------------------------------------------
# For x_t (B,I) with I <= config.FOLD_MAX_I and z = x_t W (W (I,F)), the batch statistics of column k of
# z follow from the active rows' input mean mu (I,) and biased covariance C (I,I):
#     mean_k = mu . W[:, k],   var_k = W[:, k]^T C W[:, k]
# (O(B I^2 + F I^2) per step instead of O(B F I) for z and O(B F) for each pass over it), and
#     BN_t(z; g, b)[r, k] = (x_r - s) . W[:, k] * rstd_k * g_k + b_k - o_k * rstd_k * g_k
# with s = mu, o = 0 in training and s = 0, o = running mean in inference. Its backward needs, per step
# and column, only sums over the batch of dy (s1) and of (x_r - s) dy (P (I,F)):
#     s2_k = sum_r dy[r,k] xhat[r,k] = rstd_k (W[:, k] . P[:, k] - o_k s1_k)
#     dW[:, k] += g_k rstd_k (P[:, k] - [training] s2_k rstd_k C W[:, k])
#     dx_r = sum_k V[:, k] dy[r,k] - [training] (V s1 + M (x_r - s)) / n,
#            V[:, k] = g_k rstd_k W[:, k],  M = sum_k s2_k rstd_k V[:, k] W[:, k]^T
# the plain BN backward (bn_col_backward) multiplied out through z = x W: the (T,B,F) arrays of z, of
# BN_t(z) and of dL/dz are never stored, and no GEMM over T*B rows is left for the x side.
@njit(**JIT)
def fold_stats(x, lengths, training, xs):
    """xs (T,I+I*I) float64 = per step [mu | C (I,I) row-major]: the mean and biased covariance of x[t]
    (T,B,I) over the rows active at step t (two passes); zeros in inference (the running statistics are
    used) and at a step with no active row. Kept in float64 whatever x's type: var_k = W_k^T C W_k
    cancels when a column's variance is small against |W_k|^2 |C|, and float32 entries of C would carry
    their rounding into it."""
    T, B, I = x.shape
    m = np.empty(I, dtype=np.float64)
    C = np.empty((I, I), dtype=np.float64)
    for t in range(T):
        for i in range(xs.shape[1]):
            xs[t, i] = 0.0
        n = active_rows(lengths, t) if training else 0
        if n == 0:
            continue
        m[:] = 0.0
        C[:, :] = 0.0
        for b in range(B):
            if t < lengths[b]:
                for i in range(I):
                    m[i] += x[t, b, i]
        for i in range(I):  # a loop: an array's in-place division compiles NumPy's ufunc machinery
            m[i] /= n
        for b in range(B):
            if t < lengths[b]:
                for i in range(I):
                    d = x[t, b, i] - m[i]
                    for k in range(I):
                        C[i, k] += d * (x[t, b, k] - m[k])
        for i in range(I):
            xs[t, i] = m[i]
            for k in range(I):
                xs[t, I + i * I + k] = C[i, k] / n


@njit(**JIT)
def cov_times_w(xs_t, W, i, k0, k1, cw):
    """cw (k1-k0,) = (C W)[i, k0:k1], in cw's dtype: row i of the step's input covariance C (I,I), held in
    xs_t (fold_stats), times the columns [k0, k1) of W (I,F). A loop over the columns innermost (vectorised)."""
    I = W.shape[0]
    dt = cw.dtype.type
    w = k1 - k0
    for k in range(w):
        cw[k] = dt(0)
    for j in range(I):
        Wj = W[j, k0:k1]
        cij = dt(xs_t[I + i * I + j])
        for k in range(w):
            cw[k] += cij * Wj[k]


# ---------------------------------------------------------------------------------------------
# A BN cell's x side around its time loop (bn_lstm.py, bn_rnn.py)
# ---------------------------------------------------------------------------------------------
def cell_x_forward(x, Wx, gain, bias, rm, rv, training, momentum, eps, lengths, fold):
    """Before the time loop: x (T,B,I), Wx (I,F), gain/bias (F,), rm/rv (Ts,F), lengths (B,) int64
    -> xs, xn, mean_x, rstd_x, saved0.
    fold (a narrow input): xs (T,I+I*I) float64 (fold_stats) from which the parts normalize their columns
    inside the loop (fold_step_stats, fold_rows_forward), into the one-step buffer xn (1,B,F) and mean_x, rstd_x (T,F);
    saved0 = xs. Otherwise: xw = x Wx over all T*B rows, xn (T,B,F) = BN_t(xw; gain, bias) with its
    statistics, xs (T,0) unused; saved0 = xw."""
    T, B, I = x.shape
    F = Wx.shape[1]
    dt = x.dtype
    if fold:
        xs = np.empty((T, I + I * I))  # float64
        fold_stats(*readonly(x, lengths), training, xs)
        return xs, np.empty((1, B, F), dt), np.empty((T, F), dt), np.empty((T, F), dt), xs
    xw = matmul(x.reshape(T * B, I), Wx, batch_blocks(B)).reshape(T, B, F)
    xn, mean_x, rstd_x = bn_forward(xw, gain, bias, rm, rv, training, momentum, eps, lengths)
    return np.empty((T, 0)), xn, mean_x, rstd_x, xw


def cell_x_backward(fold, loop_grads, da, xw, mean_x, rstd_x, gain, training, lengths, dhw, x, h0, y, Wx):
    """After the BPTT loop -> dx (T,B,I), dWx (I,F), dWh (H,F), db, dgain (F,).
    fold: the parts ran the x side's backward in the loop: loop_grads = (dx, dWx, dgain, db). Otherwise:
    BN_t backward of the x side over all T from da (T,B,F) = dL/d BN_t(xw) and xw (T,B,F), then dx, dWx
    and dWh as GEMMs over all T*B rows. dhw (T,B,F) = dL/d(h_{t-1} Wh), h0 (B,H), y (T,B,H) for dWh."""
    nch = batch_blocks(x.shape[1])
    if fold:
        dx, dWx, dgain, db = loop_grads
        return dx, dWx, recurrent_weight_grad(dhw, h0, y, nch), db, dgain
    dxw, dgain, db = bn_backward(da, xw, mean_x, rstd_x, gain, training, lengths)
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nch)
    return dx, dWx, dWh, db, dgain


# The fold path split by rows: the statistics of BN_t(x_t W) come from fold_stats' xs_t (the whole batch),
# so every part computes them for every column (O(F I^2)) with no exchange; backward exchanges the sums
# s1 (with the h side's) and P, and each part adds its column chunk of dW, dgain, dbias.
@njit(**JIT)
def fold_step_stats(xs_t, W, n, training, update, rm_row, rv_row, momentum, eps, mean, rstd):
    """mean, rstd (F,) of BN_t(x_t W) for every column from xs_t (fold_stats) and n active rows; training
    and update: folded into rm_row, rv_row (F,) when n > 0 (one part updates); inference: running rows."""
    F = mean.shape[0]
    I = W.shape[0]
    dt = mean.dtype.type
    one = dt(1)
    if not training:
        for k in range(F):
            mean[k] = rm_row[k]
            rstd[k] = one / np.sqrt(rv_row[k] + dt(eps))
        return
    mom = dt(momentum)
    unbias = dt(n) / dt(max(n - 1, 1))
    # mean_k = mu . W_k, var_k = W_k^T C W_k in float64 (the quadratic form), loops over k innermost
    # (vectorised: k outermost with the I x I form inside ran scalar, 3x the time at I=3)
    mk = np.zeros(F)
    vk = np.zeros(F)
    cw = np.empty(F)
    for i in range(I):
        Wi = W[i]
        mi = xs_t[i]
        for k in range(F):
            mk[k] += mi * Wi[k]
        cov_times_w(xs_t, W, i, 0, F, cw)
        for k in range(F):
            vk[k] += Wi[k] * cw[k]
    for k in range(F):
        var = dt(max(vk[k], 0.0))
        mean[k] = dt(mk[k])
        if update and n > 0:
            rm_row[k] = (one - mom) * rm_row[k] + mom * mean[k]
            rv_row[k] = (one - mom) * rv_row[k] + mom * var * unbias
        rstd[k] = one / np.sqrt(var + dt(eps))


@njit(**JIT)
def fold_rows_forward(x_t, xs_t, W, gain, bias, mean, rstd, training, r0, r1, out):
    """Rows [r0, r1) of BN_t(x_t W; gain, bias) into out (B,F) without x_t W: x_t (B,I), xs_t from
    fold_stats, W (I,F), mean, rstd (F,) from fold_step_stats (padded rows too, with those statistics)."""
    B, I = x_t.shape
    F = W.shape[1]
    A = np.empty((I, F), dtype=x_t.dtype)  # W[:, k] rstd_k gain_k
    c = np.empty(F, dtype=x_t.dtype)       # bias_k - o_k rstd_k gain_k (o: the running mean in inference)
    for i in range(I):
        Wi, Ai = W[i], A[i]
        for k in range(F):
            Ai[k] = Wi[k] * rstd[k] * gain[k]
    for k in range(F):
        c[k] = bias[k] - mean[k] * rstd[k] * gain[k] if not training else bias[k]
    xc = np.empty(I, dtype=x_t.dtype)
    for b in range(r0, r1):
        for i in range(I):
            xc[i] = x_t[b, i] - xs_t[i]  # xs_t is 0 in inference
        o = out[b]
        for k in range(F):
            o[k] = c[k]
        for i in range(I):
            Ai = A[i]
            xi = xc[i]
            for k in range(F):
                o[k] += xi * Ai[k]


@njit(**JIT)
def fold_v(W, gain, rstd, V):
    """V (I,F) = W[:, k] gain_k rstd_k: dL/dx_r's direct part is V dy_r."""
    for i in range(W.shape[0]):
        Wi, Vi = W[i], V[i]
        for k in range(W.shape[1]):
            Vi[k] = Wi[k] * gain[k] * rstd[k]


@njit(**JIT)
def fold_rows_sums(dy2, x_t, xs_t, lengths, t, r0, r1, V, P, dx_t):
    """This part's P (I,F) = sum_r (x_r - s) dy[r] over its rows [r0, r1) active at step t, and their
    direct part of dL/dx: dx_t[r] (B,I) = V dy_r (assigned; padded rows: 0)."""
    B, I = x_t.shape
    F = V.shape[1]
    dt = x_t.dtype.type
    for i in range(I):
        Pi = P[i]
        for k in range(F):
            Pi[k] = dt(0)
    for b in range(r0, r1):
        for i in range(I):
            dx_t[b, i] = dt(0)
    e = r0
    while e < r1:
        lo, e = run_in(lengths, t, e, r1)
        for b in range(lo, e):
            dr = dy2[b]
            for i in range(I):
                xi = dt(x_t[b, i] - xs_t[i])
                Pi, Vi = P[i], V[i]
                acc = dt(0)
                for k in range(F):
                    Pi[k] += xi * dr[k]
                    acc += Vi[k] * dr[k]
                dx_t[b, i] = acc


@njit(**JIT)
def fold_step_backward(s1, P, xs_t, W, V, mean, rstd, gain, k0, k1, training, dW, dgain, dbias, M, cv):
    """The fold backward's per-column work from the batch sums s1 (F,) and P (I,F) (fold_rows_sums summed
    over parts): adds columns [k0, k1) (this part's) of dW (I,F), dgain, dbias (F,); in training writes
    M (I,I) = sum_k s2_k rstd_k V[:, k] W[:, k]^T and cv (I,) = V s1, the batch part of dL/dx (fold_rows_dx)."""
    I, F = W.shape
    dt = V.dtype.type
    s2 = np.zeros(F, dtype=V.dtype)  # W_k . P_k, then rstd_k (W_k . P_k - o_k s1_k)
    for i in range(I):
        Wi, Pi = W[i], P[i]
        for k in range(F):
            s2[k] += Wi[k] * Pi[k]
    for k in range(F):
        o = dt(0) if training else mean[k]
        s2[k] = rstd[k] * (s2[k] - o * s1[k])
    w = k1 - k0
    s1_, s2_, r_, g_ = s1[k0:k1], s2[k0:k1], rstd[k0:k1], gain[k0:k1]
    dg, db = dgain[k0:k1], dbias[k0:k1]
    for k in range(w):
        dg[k] += s2_[k]
        db[k] += s1_[k]
    cw = np.empty(w, dtype=V.dtype)  # (C W)[i, k0:k1] (training)
    for i in range(I):  # dW[i, k] += g_k rstd_k (P[i, k] - [training] s2_k rstd_k (C W)[i, k])
        dWi, Pi = dW[i, k0:k1], P[i, k0:k1]
        if training:
            cov_times_w(xs_t, W, i, k0, k1, cw)
            for k in range(w):
                dWi[k] += g_[k] * r_[k] * (Pi[k] - s2_[k] * r_[k] * cw[k])
        else:
            for k in range(w):
                dWi[k] += g_[k] * r_[k] * Pi[k]
    if not training:
        return
    for k in range(F):
        s2[k] *= rstd[k]  # s2_k rstd_k
    for i in range(I):
        Vi = V[i]
        a = dt(0)
        for k in range(F):
            a += Vi[k] * s1[k]
        cv[i] = a
        for j in range(I):
            Wj = W[j]
            a = dt(0)
            for k in range(F):
                a += Vi[k] * Wj[k] * s2[k]
            M[i, j] = a


@njit(**JIT)
def fold_rows_dx(x_t, xs_t, lengths, t, r0, r1, M, cv, n, dx_t):
    """dx_t[r] -= (cv + M (x_r - s)) / n for the rows of [r0, r1) active at step t (training only)."""
    I = x_t.shape[1]
    dt = x_t.dtype.type
    inv_n = dt(1) / dt(max(n, 1))
    e = r0
    while e < r1:
        lo, e = run_in(lengths, t, e, r1)
        for b in range(lo, e):
            for i in range(I):
                s = cv[i]
                for j in range(I):
                    s += M[i, j] * (x_t[b, j] - xs_t[j])
                dx_t[b, i] -= s * inv_n
