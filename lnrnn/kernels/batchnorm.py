"""BatchNorm with separate statistics for every time step (Cooijmans et al. 2016), CPU twin.

x (T,B,F): at each step t, each feature f is normalized over the batch B:
    mean[t,f] = mean_b x[t,b,f]       var[t,f] = mean_b (x[t,b,f] - mean[t,f])**2   (biased)
    rstd[t,f] = 1 / sqrt(var[t,f] + eps)
    y[t,b,f]  = (x[t,b,f] - mean[t,f]) * rstd[t,f] * gain[f] + bias[f]
T = 1 is ordinary BatchNorm of a (B,F) batch.

Masks (sequences of different lengths, right-padded: ``lnrnn.kernels.masks``)
    lengths (B,) int64: row b is active at step t iff t < lengths[b]; the public ops take
    ``lengths=None`` (every row active). In training the statistics of step t are the mean and biased
    variance of its n_t active rows only; n_t = 0 gives mean 0 and variance 0 (finite outputs) and
    leaves the step's running row alone. Padded rows are normalized with the active rows' statistics.
    In the backward a padded (row, step) is outside the loss: its dy is ignored, its dx is exactly
    zero, and it adds nothing to dgain or dbias. Inference statistics do not depend on lengths.
    Internally lengths is always an array (None -> T for every row): then n_t = B and every loop does
    the arithmetic it did before masks existed, bit for bit.

Running (population) statistics
    running_mean, running_var: (Ts,F), one row per training step t < Ts.
    Training updates row t in place for every t < Ts, PyTorch style, with the unbiased batch variance:
        running_mean[t] = (1-m) * running_mean[t] + m * mean[t]
        running_var[t]  = (1-m) * running_var[t]  + m * var[t] * n / (n-1)      (n = 1: the biased var)
    where n = n_t is the number of rows active at step t (B without masks; n_t = 0: no update).
    Steps t >= Ts are NOT recorded: the Python layer grows the arrays (Ts) before it feeds a training
    sequence longer than any seen so far. Inference at step t uses row min(t, Ts-1), so the last step's
    statistics serve every step beyond the longest training length (Cooijmans et al., section 3).
    Ts >= 1 is assumed.

Threading
    Statistics couple the batch but not the steps, and every step has its own running-statistics row,
    so ``bn_forward``/``bn_backward`` prange over config.BN_TIME_CHUNKS chunks of steps and work on
    whole (B,F) slabs, rows contiguous. (Chunks of 16 feature columns, as before, walked the array with
    a stride of one row per cache line: S2 x-side forward 15 ms.) The gain and bias gradients sum over
    steps, so each chunk adds into its own partial row.

Column helpers
    ``bn_col_stats`` and ``bn_col_backward`` work on one step's (B,F) slab and a column range [k0, k1).
    The recurrent-BN cells (``bn_lstm.py``, ``bn_rnn.py``) split their time loop by batch rows instead:
    ``rows_moments``/``parts_stats`` (forward) and ``rows_bwd_sums``/``sum_parts``/``rows_bwd_dx``
    (backward) are BN_t over a step's rows held by several threads (section at the end), and
    ``fold_stats``, ``fold_step_stats``, ``fold_rows_forward``, ``fold_rows_sums``, ``fold_step_backward``
    and ``fold_rows_dx`` the same for BN_t(x_t W) of a narrow input x_t (B,I) without forming x_t W (the
    cells' fold path; derivation above fold_stats).
    ``cell_x_forward`` and ``cell_x_backward`` are a BN cell's x side before and after its time loop,
    on either path.
"""
import numba
import numpy as np
from numba import njit, prange

from lnrnn.config import BN_TIME_CHUNKS as TIME_CHUNKS
from lnrnn.config import JIT, PJIT
from lnrnn.kernels.common import chunk_bounds, matmul, projection_grads, recurrent_weight_grad, sum_rows
from lnrnn.kernels.masks import as_lengths


@njit(**JIT)
def active_rows(lengths, t):
    """How many rows are active at step t: lengths (B,) with t < lengths[b]."""
    n = 0
    for b in range(lengths.shape[0]):
        if t < lengths[b]:
            n += 1
    return n


@njit(**JIT)
def active_run(lengths, t, b):
    """[r0, r1): the first run of consecutive rows active at step t at or after row b (B, B: none).

    The column sums below walk such runs, each with the plain loop over its rows: without masks the
    one run is (0, B), the loops of the unmasked kernel. (A test of every row inside the loop over
    rows cost 1.5-2x on the column sums: LLVM no longer interleaved the rows.)"""
    B = lengths.shape[0]
    while b < B and t >= lengths[b]:
        b += 1
    e = b
    while e < B and t < lengths[e]:
        e += 1
    return b, e


@njit(**JIT)
def bn_col_stats(x2, lengths, t, k0, k1, training, update, rm_row, rv_row, momentum, eps, mean, rstd):
    """Statistics of columns [k0, k1) of step t.

    x2 (B,F) input of this step; lengths (B,): the rows with t < lengths[b] count (masks, see the module
    docstring); rm_row, rv_row (F,) the running-statistics row for this step;
    writes mean[k], rstd[k] (F,) for k in [k0, k1).
    training: batch statistics of the active rows (and, if ``update`` and a row is active, fold them
    into rm_row/rv_row in place); otherwise: the running statistics.

    The loops run over 0-based indices into slices of the column range: indexing the (B,F) slab and
    the accumulators as x2[b, k], mean[k] with k in range(k0, k1) ran 9x slower (56 vs 6.4 us for the
    four 64x128 blocks of an S1 BN-LSTM step), as LLVM's vector path did not run.
    When every row is active at step t (always so without masks), the sums loop over range(B) with no
    run search (active_run): 1.1-1.5x faster per call than the run loops (/tmp A/B, float32, one
    thread, min of 9: B64 F512 w128 2.43 -> 1.60 us, B128 F1024 w256 11.4 -> 9.6 us, B32 F1600 w400
    3.9 -> 2.7 us). bn_col_backward keeps one path: the same change measured no gain there.
    """
    dt = x2.dtype.type
    one = dt(1)
    eps_ = dt(eps)
    w = k1 - k0
    m_ = mean[k0:k1]
    r_ = rstd[k0:k1]   # holds the sum of squared deviations until the last loop
    rm = rm_row[k0:k1]
    rv = rv_row[k0:k1]
    if not training:
        for k in range(w):
            m_[k] = rm[k]
            r_[k] = one / np.sqrt(rv[k] + eps_)
        return
    B = x2.shape[0]
    n = active_rows(lengths, t)
    if n == 0:  # no row runs at this step: mean 0, variance 0, running statistics untouched
        for k in range(w):
            m_[k] = dt(0)
            r_[k] = one / np.sqrt(eps_)
        return
    inv_n = one / dt(n)
    mom = dt(momentum)
    unbias = dt(n) / dt(max(n - 1, 1))
    for k in range(w):
        m_[k] = dt(0)
        r_[k] = dt(0)
    if n == B:  # every row active (always, without masks): the unmasked loops, no run search
        for b in range(B):  # b outer, k inner: rows of x2 are contiguous
            xr = x2[b, k0:k1]
            for k in range(w):
                m_[k] += xr[k]
        for k in range(w):
            m_[k] *= inv_n
        for b in range(B):  # two-pass variance: no cancellation
            xr = x2[b, k0:k1]
            for k in range(w):
                d = xr[k] - m_[k]
                r_[k] += d * d
    else:
        r1 = 0
        while r1 < B:  # runs of active rows (active_run)
            r0, r1 = active_run(lengths, t, r1)
            for b in range(r0, r1):
                xr = x2[b, k0:k1]
                for k in range(w):
                    m_[k] += xr[k]
        for k in range(w):
            m_[k] *= inv_n
        r1 = 0
        while r1 < B:
            r0, r1 = active_run(lengths, t, r1)
            for b in range(r0, r1):
                xr = x2[b, k0:k1]
                for k in range(w):
                    d = xr[k] - m_[k]
                    r_[k] += d * d
    for k in range(w):
        var = r_[k] * inv_n
        if update:
            rm[k] = (one - mom) * rm[k] + mom * m_[k]
            rv[k] = (one - mom) * rv[k] + mom * var * unbias
        r_[k] = one / np.sqrt(var + eps_)


@njit(**JIT)
def bn_col_backward(dy2, x2, lengths, t, mean, rstd, gain, k0, k1, training, dx2, dgain, dbias, s1, s2):
    """Backward of columns [k0, k1) of step t.

    dy2 (B,F) gradient w.r.t. the BN output; x2 (B,F) the BN input; lengths (B,) (masks: a row with
    t >= lengths[b] is padded: its dy2 is ignored and its dx2 is zero); mean, rstd, gain (F,).
    Assigns dx2[:, k0:k1] (B,F); accumulates dgain[k] += sum_b dy*xhat and dbias[k] += sum_b dy over
    the active rows; s1, s2 (F,) are scratch (per-step sums of dy and dy*xhat).
    training:  dx = rstd * (dxhat - mean_b(dxhat) - xhat * mean_b(dxhat * xhat)),  dxhat = dy * gain,
               means over the n active rows
    inference: dx = rstd * dxhat   (the statistics are constants)
    0-based loops over slices of the column range, as in bn_col_stats.
    """
    dt = x2.dtype.type
    B = x2.shape[0]
    w = k1 - k0
    inv_n = dt(1) / dt(max(active_rows(lengths, t), 1))
    m_, r_, g_ = mean[k0:k1], rstd[k0:k1], gain[k0:k1]
    s1_, s2_, dg, db = s1[k0:k1], s2[k0:k1], dgain[k0:k1], dbias[k0:k1]
    for k in range(w):
        s1_[k] = dt(0)
        s2_[k] = dt(0)
    r1 = 0
    while r1 < B:  # runs of active rows (active_run)
        r0, r1 = active_run(lengths, t, r1)
        for b in range(r0, r1):
            xr = x2[b, k0:k1]
            dr = dy2[b, k0:k1]
            for k in range(w):
                xhat = (xr[k] - m_[k]) * r_[k]
                s1_[k] += dr[k]
                s2_[k] += dr[k] * xhat
    for k in range(w):
        db[k] += s1_[k]
        dg[k] += s2_[k]
    r1 = 0
    while r1 < B:  # each run of active rows, and the padded rows before it (dx = 0)
        gap = r1
        r0, r1 = active_run(lengths, t, r1)
        for b in range(gap, r0):
            out = dx2[b, k0:k1]
            for k in range(w):
                out[k] = dt(0)
        if training:
            for b in range(r0, r1):
                xr, dr, out = x2[b, k0:k1], dy2[b, k0:k1], dx2[b, k0:k1]
                for k in range(w):
                    xhat = (xr[k] - m_[k]) * r_[k]
                    # mean_b(dxhat) = gain*s1/n, mean_b(dxhat*xhat) = gain*s2/n
                    out[k] = g_[k] * r_[k] * (dr[k] - (s1_[k] + xhat * s2_[k]) * inv_n)
        else:
            for b in range(r0, r1):
                dr, out = dy2[b, k0:k1], dx2[b, k0:k1]
                for k in range(w):
                    out[k] = g_[k] * r_[k] * dr[k]


@njit(**JIT)
def _bn_forward_steps(x, lengths, gain, bias, running_mean, running_var, training, momentum, eps, t0, t1,
                      y, mean, rstd):
    """bn_forward restricted to the steps [t0, t1), every feature."""
    T, B, F = x.shape
    Ts = running_mean.shape[0]
    for t in range(t0, t1):
        row = min(t, Ts - 1)
        bn_col_stats(x[t], lengths, t, 0, F, training, t < Ts, running_mean[row], running_var[row],
                     momentum, eps, mean[t], rstd[t])
        m_, r_ = mean[t], rstd[t]
        for b in range(B):
            xr, yr = x[t, b], y[t, b]
            for k in range(F):
                yr[k] = (xr[k] - m_[k]) * r_[k] * gain[k] + bias[k]


@njit(**PJIT)
def _bn_forward(x, lengths, gain, bias, running_mean, running_var, training, momentum, eps):
    """bn_forward with lengths (B,) int64 always given."""
    T, B, F = x.shape
    y = np.empty_like(x)
    mean = np.empty((T, F), dtype=x.dtype)
    rstd = np.empty((T, F), dtype=x.dtype)
    nch = min(T, TIME_CHUNKS)
    if nch == 1:
        _bn_forward_steps(x, lengths, gain, bias, running_mean, running_var, training, momentum, eps, 0, T,
                          y, mean, rstd)
    else:
        for c in prange(nch):
            t0, t1 = chunk_bounds(T, nch, c)
            _bn_forward_steps(x, lengths, gain, bias, running_mean, running_var, training, momentum, eps, t0, t1,
                              y, mean, rstd)
    return y, mean, rstd


def bn_forward(x, gain, bias, running_mean, running_var, training, momentum, eps, lengths=None):
    """Training or inference forward. x (T,B,F) -> y (T,B,F), mean (T,F), rstd (T,F);
    lengths (B,) or None (masks, module docstring).

    In inference mode mean/rstd are the running statistics actually used (row min(t, Ts-1)),
    so ``bn_backward(..., training=False)`` can replay them. One chunk of steps (T = 1) runs on the
    calling thread without entering the thread pool.
    """
    T, B, _ = x.shape
    return _bn_forward(x, as_lengths(lengths, T, B), gain, bias, running_mean, running_var, training,
                       momentum, eps)


@njit(**JIT)
def _bn_backward_steps(dy, x, lengths, mean, rstd, gain, training, t0, t1, dx, dgain, dbias):
    """bn_backward of the steps [t0, t1): assigns their dx, adds their share into dgain, dbias (F,)."""
    F = x.shape[2]
    s1 = np.empty(F, dtype=x.dtype)
    s2 = np.empty(F, dtype=x.dtype)
    for t in range(t0, t1):
        bn_col_backward(dy[t], x[t], lengths, t, mean[t], rstd[t], gain, 0, F, training, dx[t], dgain, dbias,
                        s1, s2)


@njit(**PJIT)
def _bn_backward(dy, x, lengths, mean, rstd, gain, training):
    """bn_backward with lengths (B,) int64 always given."""
    T, B, F = x.shape
    dx = np.empty_like(x)
    nch = min(T, TIME_CHUNKS)
    pg = np.zeros((nch, F), dtype=x.dtype)  # per-chunk partials of dgain, dbias
    pb = np.zeros((nch, F), dtype=x.dtype)
    if nch == 1:
        _bn_backward_steps(dy, x, lengths, mean, rstd, gain, training, 0, T, dx, pg[0], pb[0])
    else:
        for c in prange(nch):
            t0, t1 = chunk_bounds(T, nch, c)
            _bn_backward_steps(dy, x, lengths, mean, rstd, gain, training, t0, t1, dx, pg[c], pb[c])
    return dx, sum_rows(pg), sum_rows(pb)


def bn_backward(dy, x, mean, rstd, gain, training, lengths=None):
    """dy, x (T,B,F); mean, rstd (T,F); gain (F,); lengths (B,) or None -> dx (T,B,F), dgain (F,),
    dbias (F,). A padded (row, step) gets dx = 0 and adds nothing (its dy is ignored)."""
    T, B, _ = x.shape
    return _bn_backward(dy, x, as_lengths(lengths, T, B), mean, rstd, gain, training)


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------
def batchnorm_forward_train(x, gain, bias, running_mean, running_var, momentum, eps, lengths=None):
    """x (T,B,F), gain/bias (F,), running_mean/var (Ts,F) updated in place for t < Ts; lengths (B,)
    int64 or None (every row active at every step; see the module docstring).

    -> y (T,B,F), mean (T,F), rstd (T,F)   (batch statistics of the active rows; rstd = 1/sqrt(var + eps)).
    """
    return bn_forward(x, gain, bias, running_mean, running_var, True, momentum, eps, lengths)


def batchnorm_forward_infer(x, gain, bias, running_mean, running_var, eps):
    """x (T,B,F) -> y (T,B,F) normalized with running row min(t, Ts-1); running stats untouched."""
    y, _, _ = bn_forward(x, gain, bias, running_mean, running_var, False, 0.0, eps)
    return y


def batchnorm_backward(dy, x, mean, rstd, gain, lengths=None):
    """Training-mode backward. dy, x (T,B,F); mean, rstd (T,F) from the forward; gain (F,); lengths
    as given to the forward.

    -> dx (T,B,F), dgain (F,), dbias (F,)   (all freshly allocated; zero dx at padded steps).
    """
    return bn_backward(dy, x, mean, rstd, gain, True, lengths)


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
        fold_stats(x, lengths, training, xs)
        return xs, np.empty((1, B, F), dt), np.empty((T, F), dt), np.empty((T, F), dt), xs
    xw = matmul(x.reshape(T * B, I), Wx, numba.get_num_threads()).reshape(T, B, F)
    xn, mean_x, rstd_x = bn_forward(xw, gain, bias, rm, rv, training, momentum, eps, lengths)
    return np.empty((T, 0)), xn, mean_x, rstd_x, xw


def cell_x_backward(fold, loop_grads, da, xw, mean_x, rstd_x, gain, training, lengths, dhw, x, h0, y, Wx):
    """After the BPTT loop -> dx (T,B,I), dWx (I,F), dWh (H,F), db, dgain (F,).
    fold: the parts ran the x side's backward in the loop: loop_grads = (dx, dWx, dgain, db). Otherwise:
    BN_t backward of the x side over all T from da (T,B,F) = dL/d BN_t(xw) and xw (T,B,F), then dx, dWx
    and dWh as GEMMs over all T*B rows. dhw (T,B,F) = dL/d(h_{t-1} Wh), h0 (B,H), y (T,B,H) for dWh."""
    nch = numba.get_num_threads()
    if fold:
        dx, dWx, dgain, db = loop_grads
        return dx, dWx, recurrent_weight_grad(dhw, h0, y, nch), db, dgain
    dxw, dgain, db = bn_backward(da, xw, mean_x, rstd_x, gain, training, lengths)
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nch)
    return dx, dWx, dWh, db, dgain


# ---------------------------------------------------------------------------------------------
# A time loop split by batch rows (the BN cells, bn_lstm.py and bn_rnn.py)
# ---------------------------------------------------------------------------------------------
# Each part owns the rows [r0, r1) of the batch for the whole sequence, as the plain and LN cells' chunks
# do, and meets the others only where BN_t couples the batch: a part writes its rows' moments (forward)
# or sums (backward) into its row of an exchange buffer, waits at a barrier, and combines every part's
# row in the same order, so all parts hold bitwise the same statistics. Forward moments are two-pass
# within a part and combined by Chan, Golub & LeVeque's pairwise rule (M2 = sum M2_p + n_p (m_p - m)^2),
# as accurate as a two-pass variance over the whole batch; backward sums simply add.
@njit(**JIT)
def active_rows_in(lengths, t, r0, r1):
    """How many of the rows [r0, r1) are active at step t."""
    n = 0
    for b in range(r0, r1):
        if t < lengths[b]:
            n += 1
    return n


@njit(**JIT)
def run_in(lengths, t, b, r1):
    """[lo, hi): the first run of rows active at step t at or after row b, cut at r1 (r1, r1: none)."""
    lo, hi = active_run(lengths, t, b)
    return min(lo, r1), min(hi, r1)


@njit(**JIT)
def rows_moments(x2, lengths, t, r0, r1, out):
    """out (2F+1,) = [n | mean (F) | M2 (F)]: the count, mean and sum of squared deviations of the rows in
    [r0, r1) active at step t (two passes; n = 0: zeros). x2 (B,F)."""
    F = x2.shape[1]
    dt = out.dtype.type
    m_, s_ = out[1:F + 1], out[F + 1:2 * F + 1]
    for k in range(F):
        m_[k] = dt(0)
        s_[k] = dt(0)
    n = active_rows_in(lengths, t, r0, r1)
    out[0] = dt(n)
    if n == 0:
        return
    inv_n = dt(1) / dt(n)
    if n == r1 - r0:  # every row active (always, without masks): no run search (see bn_col_stats)
        for b in range(r0, r1):
            xr = x2[b]
            for k in range(F):
                m_[k] += xr[k]
        for k in range(F):
            m_[k] *= inv_n
        for b in range(r0, r1):
            xr = x2[b]
            for k in range(F):
                d = xr[k] - m_[k]
                s_[k] += d * d
        return
    e = r0
    while e < r1:
        lo, e = run_in(lengths, t, e, r1)
        for b in range(lo, e):
            xr = x2[b]
            for k in range(F):
                m_[k] += xr[k]
    for k in range(F):
        m_[k] *= inv_n
    e = r0
    while e < r1:
        lo, e = run_in(lengths, t, e, r1)
        for b in range(lo, e):
            xr = x2[b]
            for k in range(F):
                d = xr[k] - m_[k]
                s_[k] += d * d


@njit(**JIT)
def parts_stats(parts, training, update, rm_row, rv_row, momentum, eps, mean, rstd):
    """A step's statistics of every column F from the parts' moments parts (n_parts, >= 2F+1) (rows_moments):
    writes mean, rstd (F,); with update and an active row folds them into rm_row, rv_row (F,) in place
    (bn_col_stats' rules; one part updates). Inference (not training): the running rows; parts unread."""
    F = mean.shape[0]
    dt = mean.dtype.type
    one = dt(1)
    eps_ = dt(eps)
    if not training:
        for k in range(F):
            mean[k] = rm_row[k]
            rstd[k] = one / np.sqrt(rv_row[k] + eps_)
        return
    n = dt(0)
    for p in range(parts.shape[0]):
        n += parts[p, 0]
    if n == dt(0):  # no row runs at this step: mean 0, variance 0, running statistics untouched
        for k in range(F):
            mean[k] = dt(0)
            rstd[k] = one / np.sqrt(eps_)
        return
    inv_n = one / n
    for k in range(F):
        mean[k] = dt(0)
        rstd[k] = dt(0)  # M2 until the last loop
    for p in range(parts.shape[0]):
        w = parts[p, 0] * inv_n
        mp = parts[p, 1:F + 1]
        for k in range(F):
            mean[k] += w * mp[k]
    for p in range(parts.shape[0]):
        np_ = parts[p, 0]
        if np_ == dt(0):
            continue
        mp, sp = parts[p, 1:F + 1], parts[p, F + 1:2 * F + 1]
        for k in range(F):
            d = mp[k] - mean[k]
            rstd[k] += sp[k] + np_ * d * d
    mom = dt(momentum)
    unbias = n / max(n - one, one)
    for k in range(F):
        var = rstd[k] * inv_n
        if update:
            rm_row[k] = (one - mom) * rm_row[k] + mom * mean[k]
            rv_row[k] = (one - mom) * rv_row[k] + mom * var * unbias
        rstd[k] = one / np.sqrt(var + eps_)


@njit(**JIT)
def rows_bwd_sums(dy2, x2, lengths, t, r0, r1, mean, rstd, s1, s2):
    """s1, s2 (F,) = sum dy, sum dy * xhat over the rows of [r0, r1) active at step t (the two batch sums
    of the BN backward, this part's share). dy2, x2 (B,F); mean, rstd (F,)."""
    F = x2.shape[1]
    dt = s1.dtype.type
    for k in range(F):
        s1[k] = dt(0)
        s2[k] = dt(0)
    e = r0
    while e < r1:
        lo, e = run_in(lengths, t, e, r1)
        for b in range(lo, e):
            xr, dr = x2[b], dy2[b]
            for k in range(F):
                s1[k] += dr[k]
                s2[k] += dr[k] * (xr[k] - mean[k]) * rstd[k]


@njit(**JIT)
def sum_parts(parts, k0, k1, out):
    """out (k1-k0,) = sum over parts (n_parts, >= k1) of their columns [k0, k1), in part order."""
    w = k1 - k0
    for k in range(w):
        out[k] = parts[0, k0 + k]
    for p in range(1, parts.shape[0]):
        pr = parts[p, k0:k1]
        for k in range(w):
            out[k] += pr[k]


@njit(**JIT)
def rows_bwd_dx(dy2, x2, lengths, t, r0, r1, mean, rstd, gain, s1, s2, n, training, dx2):
    """Rows [r0, r1) of the BN backward (bn_col_backward's formulas) from the batch sums s1, s2 (F,) over
    the n rows active at step t: dx2 (B,F) = gain rstd (dy - (s1 + xhat s2) / n) (training) or
    gain rstd dy (inference) for active rows, 0 for padded ones."""
    F = x2.shape[1]
    dt = x2.dtype.type
    inv_n = dt(1) / dt(max(n, 1))
    e = r0
    while e < r1:
        gap = e
        lo, e = run_in(lengths, t, e, r1)
        for b in range(gap, lo):
            out = dx2[b]
            for k in range(F):
                out[k] = dt(0)
        if training:
            for b in range(lo, e):
                xr, dr, out = x2[b], dy2[b], dx2[b]
                for k in range(F):
                    xhat = (xr[k] - mean[k]) * rstd[k]
                    out[k] = gain[k] * rstd[k] * (dr[k] - (s1[k] + xhat * s2[k]) * inv_n)
        else:
            for b in range(lo, e):
                dr, out = dy2[b], dx2[b]
                for k in range(F):
                    out[k] = gain[k] * rstd[k] * dr[k]


@njit(**JIT)
def add_cols(acc, v, k0, k1):
    """acc[k0:k1] += v[k0:k1]: a part's columns of a gradient summed over steps (no two parts share one)."""
    a, b = acc[k0:k1], v[k0:k1]
    for k in range(k1 - k0):
        a[k] += b[k]


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
