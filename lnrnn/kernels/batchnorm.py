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

The BN cells' own pieces live beside this op: ``bn_cell_x.py`` (a cell's x side around its time loop,
and BN_t(x_t W) of a narrow input without forming x_t W: the fold path) and ``bn_parts.py`` (BN_t over a
step's rows held by several threads, the cells' time loops split by batch rows).
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import BN_TIME_CHUNKS as TIME_CHUNKS
from lnrnn.config import JIT, PJIT
from lnrnn.kernels.cpu.gemm import sum_rows
from lnrnn.kernels.masks import as_lengths
from lnrnn.kernels.cpu.threads import chunk_bounds


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
