"""BN_t over a step's batch rows held by several threads (the BN cells' time loops, split by batch rows:
bn_lstm.py, bn_rnn.py; CPU). Each part computes its rows' moments (``rows_moments``) or backward sums
(``rows_bwd_sums``), leaves them in an exchange buffer and waits at a barrier (threads.barrier); then every
part combines all of them in the same order (``parts_stats``: Chan et al.'s pairwise rule; ``sum_parts``),
so all hold bitwise the same statistics, and finishes its own rows (``rows_bwd_dx``). The BN op itself, its
statistics rules and masks: batchnorm.py.
"""
import numpy as np
from numba import njit

from lnrnn.config import JIT
from lnrnn.kernels.batchnorm import active_run
from lnrnn.kernels.cpu.blas import rec_mul, rec_pack
from lnrnn.kernels.cpu.threads import chunk_bounds


# ---------------------------------------------------------------------------------------------
# A time loop split by batch rows (the BN cells, bn_lstm.py and bn_rnn.py)
# ---------------------------------------------------------------------------------------------
# Each part owns the rows [r0, r1) of the batch for the whole sequence, as the plain and LN cells' chunks
# do, and meets the others only where BN_t couples the batch: a part writes its rows' moments (forward)
# or sums (backward) into its row of an exchange buffer, waits at a barrier, and combines every part's
# row in the same order, so all parts hold bitwise the same statistics. Forward moments are two-pass
# within a part and combined by Chan, Golub & LeVeque's pairwise rule (M2 = sum M2_p + n_p (m_p - m)^2),
# as accurate as a two-pass variance over the whole batch; backward sums simply add.
# The exchange holds one row per block of the batch (threads.batch_blocks: fixed by B), not per part: a part
# owns whole blocks, writes each block's moments or sums, and every part combines the blocks' rows in block
# order, and each block's recurrent product is one BLAS call of its own rows. So the statistics and
# gradients are the same bits however many parts (threads) share the blocks.
@njit(**JIT)
def part_rows(B, nblk, n, q):
    """Part q of n: its blocks [k0, k1) of the batch's nblk and their rows [r0, r1) -> (k0, k1, r0, r1)."""
    k0, k1 = chunk_bounds(nblk, n, q)
    return k0, k1, chunk_bounds(B, nblk, k0)[0], chunk_bounds(B, nblk, k1 - 1)[1]


@njit(**JIT)
def block_packs(W, B, nblk):
    """W (K,N) packed (blas.rec_pack) for the products of the blocks' rows: a block has B // nblk rows or
    one more -> (pack for the smaller, pack for the larger)."""
    return rec_pack(W, B // nblk), rec_pack(W, -(-B // nblk))


@njit(**JIT)
def blocks_mul(A, W, packs, out, B, nblk, k0, k1):
    """out[r] = A[r] @ W (A (B,K), out (B,N)) for the rows of blocks [k0, k1): one product per block."""
    for k in range(k0, k1):
        b0, b1 = chunk_bounds(B, nblk, k)
        rec_mul(A[b0:b1], W, packs[0] if b1 - b0 == B // nblk else packs[1], out[b0:b1])


@njit(**JIT)
def blocks_moments(x2, lengths, t, nblk, k0, k1, ex):
    """Each block k of [k0, k1)'s moments of x2 (B,F) at step t into its exchange row ex[k] (rows_moments)."""
    B = x2.shape[0]
    for k in range(k0, k1):
        b0, b1 = chunk_bounds(B, nblk, k)
        rows_moments(x2, lengths, t, b0, b1, ex[k])


@njit(**JIT)
def blocks_bwd_sums(dy2, x2, lengths, t, mean, rstd, nblk, k0, k1, ex):
    """Each block k of [k0, k1)'s two BN backward sums at step t into ex[k][:F] and ex[k][F:2F]
    (rows_bwd_sums; x2 (B,F))."""
    B, F = x2.shape
    for k in range(k0, k1):
        b0, b1 = chunk_bounds(B, nblk, k)
        e = ex[k]
        rows_bwd_sums(dy2, x2, lengths, t, b0, b1, mean, rstd, e[:F], e[F:2 * F])


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
