"""BatchNorm with separate statistics for every time step: CUDA twin of batchnorm.py.

    x (T,B,F): at each step t each feature k is normalized over the batch B; mean, rstd: (T,F).
Same names, arguments, outputs and running-statistics rules as the CPU twin (see batchnorm.py):
training uses batch statistics and folds them into row t of running_mean/running_var (Ts,F) for
t < Ts (unbiased variance); inference uses row min(t, Ts-1). Masks as there: lengths (B,) (None: T
for every row, as a device array); at step t only rows with t < lengths[b] count, the lanes count
them (n_t) as they sum, and a padded row's dy is ignored and its dx set to zero.

Launch geometry: a block of TILE x TILE threads covers TILE features (threadIdx.x, so reads along a
row are coalesced) of one step t (blockIdx.y); its TILE lanes (threadIdx.y) stride over the batch and
are summed through shared memory (``lane_sums``: several values a thread in one exchange). dgain/dbias: per-step partial sums (T,F) written by
the blocks, then one column reduction: no atomics, deterministic.

Host or device arrays in, device arrays out (arrays_cuda). Running statistics are updated where
they live: a device array in place; a host array through a device copy that is written back
before returning, so callers see the CPU twin's in-place semantics either way.
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda.arrays_cuda import empty, grid_1d, is_device, nbtype, to_device
from lnrnn.kernels.cuda.gemm_cuda import colsum, tile
from lnrnn.kernels.masks import as_lengths


@cuda.jit(device=True)
def lane_sums(sh, tot, m):
    """Sums over the threadIdx.y lanes of each threadIdx.x column, m values a thread in one exchange: thread
    (threadIdx.y, threadIdx.x) has written its value r to sh[r, threadIdx.y, threadIdx.x] (r < m); afterwards
    tot[r, threadIdx.x] holds that column's sum of value r, for every thread of the column to read, added in lane
    order (fixed: the same in every thread).
    Lane y adds the values r = y, y + blockDim.y, ...: two barriers for any m. Every thread of the block must call
    it (it synchronizes, first of all, so a call may follow another directly: its first barrier orders the readers
    of tot before the next writers). sh (>= m, blockDim.y, blockDim.x), tot (>= m, blockDim.x): shared scratch."""
    tx = cuda.threadIdx.x
    cuda.syncthreads()
    for r in range(cuda.threadIdx.y, m, cuda.blockDim.y):
        s = sh[r, 0, tx]
        for q in range(1, cuda.blockDim.y):
            s += sh[r, q, tx]
        tot[r, tx] = s
    cuda.syncthreads()


@cuda.jit(device=True)
def fold_running(rm_row, rv_row, k, m, var, n, momentum, one):
    """Fold a column's batch mean m and biased variance var over n > 0 active rows into the running rows
    rm_row[k], rv_row[k] (the variance unbiased by n / (n - 1)), as the CPU twin does."""
    unbias = n / max(n - one, one)
    rm_row[k] = (one - momentum) * rm_row[k] + momentum * m
    rv_row[k] = (one - momentum) * rv_row[k] + momentum * var * unbias


@cuda.jit(device=True)
def local_rstd(sh, tot, vals, act, m, n, inv, fold, rm_row, rv_row, k, c):
    """1/std of a column whose rows the lanes hold in local arrays (the BN cells' step kernels): vals (R,) a
    lane's values, act (R,) 1 where the row is active, m the batch mean over the n active rows, inv = 1/max(n, 1).
    The squared deviations go through one lane_sums exchange (sh, tot: its scratch, row 0); the variance is the
    biased one, as col_stats'. Lane 0 folds (m, var) into rm_row[k], rv_row[k] where fold and n > 0. Every
    thread of the block must call it. c = (1, momentum, eps) in the working dtype."""
    one, momentum, eps = c
    zero = one - one
    d2 = zero
    for r in range(act.shape[0]):
        if act[r] > zero:
            d = vals[r] - m
            d2 += d * d
    sh[0, cuda.threadIdx.y, cuda.threadIdx.x] = d2
    lane_sums(sh, tot, 1)
    var = tot[0, cuda.threadIdx.x] * inv
    if fold and n > zero and cuda.threadIdx.y == 0:
        fold_running(rm_row, rv_row, k, m, var, n, momentum, one)
    return one / math.sqrt(var + eps)


@cuda.jit(device=True)
def col_stats(sh, tot, x2, lengths, t, k, valid, training, update, rm_row, rv_row, c):
    """Statistics of column k of step t's slab x2 (B,F) -> (mean, rstd), every thread of the block
    taking part (valid: k < F). training: batch statistics of the rows with t < lengths[b], folded
    into rm_row/rv_row (F,) by lane 0 when update and a row is active; otherwise the running
    statistics of that row. c = (1, momentum, eps) in the working dtype. sh (2, blockDim.y, blockDim.x),
    tot (2, blockDim.x): lane_sums' scratch (two exchanges: the sum with the count, then the squares)."""
    one, momentum, eps = c
    zero = one - one
    if not training:
        if valid:
            return rm_row[k], one / math.sqrt(rv_row[k] + eps)
        return zero, one
    B = x2.shape[0]
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    s = zero
    cnt = zero
    if valid:
        for b in range(ty, B, cuda.blockDim.y):
            if t < lengths[b]:
                s += x2[b, k]
                cnt += one
    sh[0, ty, tx] = s
    sh[1, ty, tx] = cnt
    lane_sums(sh, tot, 2)
    n = tot[1, tx]  # active rows, exact in floating point (B < 2^24)
    inv_n = one / max(n, one)
    m = tot[0, tx] * inv_n
    s = zero
    if valid:
        for b in range(ty, B, cuda.blockDim.y):
            if t < lengths[b]:
                d = x2[b, k] - m
                s += d * d
    sh[0, ty, tx] = s
    lane_sums(sh, tot, 1)
    var = tot[0, tx] * inv_n
    if update and valid and n > zero and ty == 0:
        fold_running(rm_row, rv_row, k, m, var, n, momentum, one)
    return m, one / math.sqrt(var + eps)


@cuda.jit(device=True)
def col_backward(sh, tot, dy2, x2, lengths, t, m, rs, g, k, valid, training, dx2, one):
    """Backward of column k of step t: dy2, x2 (B,F) -> dx2[:, k]; returns (sum_b dy, sum_b dy*xhat)
    over the active rows (the bias and gain gradients of this step); a padded row (t >= lengths[b])
    gets dx2 = 0. Every thread of the block takes part. sh (3, blockDim.y, blockDim.x), tot (3, blockDim.x):
    lane_sums' scratch (one exchange of the two sums and the count)."""
    B = x2.shape[0]
    zero = one - one
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    s1 = zero
    s2 = zero
    cnt = zero
    if valid:
        for b in range(ty, B, cuda.blockDim.y):
            if t < lengths[b]:
                s1 += dy2[b, k]
                s2 += dy2[b, k] * (x2[b, k] - m) * rs
                cnt += one
    sh[0, ty, tx] = s1
    sh[1, ty, tx] = s2
    sh[2, ty, tx] = cnt
    lane_sums(sh, tot, 3)
    s1, s2 = tot[0, tx], tot[1, tx]
    inv_n = one / max(tot[2, tx], one)
    if valid:
        for b in range(ty, B, cuda.blockDim.y):
            if t >= lengths[b]:
                dx2[b, k] = zero
            elif training:
                dx2[b, k] = g * rs * (dy2[b, k] - (s1 + (x2[b, k] - m) * rs * s2) * inv_n)
            else:
                dx2[b, k] = g * rs * dy2[b, k]
    return s1, s2


@lru_cache(maxsize=None)
def _kernels(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def fwd(x, lengths, gain, bias, rm, rv, training, momentum, eps, y, mean, rstd):
        """Block (feature tile, step t): x (T,B,F), lengths (B,) -> y (T,B,F), mean/rstd (T,F); rm, rv (Ts,F)."""
        sh = cuda.shared.array((3, t, t), dt)
        tot = cuda.shared.array((3, t), dt)
        k = cuda.blockIdx.x * t + cuda.threadIdx.x
        st = cuda.blockIdx.y
        F = x.shape[2]
        valid = k < F
        one = dt(1.0)
        Ts = rm.shape[0]
        row = min(st, Ts - 1)
        c = (one, dt(momentum), dt(eps))
        m, rs = col_stats(sh, tot, x[st], lengths, st, k, valid, training, st < Ts, rm[row], rv[row], c)
        if valid:
            if cuda.threadIdx.y == 0:
                mean[st, k] = m
                rstd[st, k] = rs
            for b in range(cuda.threadIdx.y, x.shape[1], cuda.blockDim.y):
                y[st, b, k] = (x[st, b, k] - m) * rs * gain[k] + bias[k]

    @cuda.jit
    def bwd(dy, x, lengths, mean, rstd, gain, training, dx, pgain, pbias):
        """Block (feature tile, step t): dy, x (T,B,F), lengths (B,) -> dx (T,B,F); pgain, pbias (T,F)
        per-step sums."""
        sh = cuda.shared.array((3, t, t), dt)
        tot = cuda.shared.array((3, t), dt)
        k = cuda.blockIdx.x * t + cuda.threadIdx.x
        st = cuda.blockIdx.y
        valid = k < x.shape[2]
        one = dt(1.0)
        m, rs, g = one - one, one, one
        if valid:
            m, rs, g = mean[st, k], rstd[st, k], gain[k]
        s1, s2 = col_backward(sh, tot, dy[st], x[st], lengths, st, m, rs, g, k, valid, training, dx[st], one)
        if valid and cuda.threadIdx.y == 0:
            pbias[st, k] = s1
            pgain[st, k] = s2

    return fwd, bwd


def kernels(dtype):
    t = tile()
    return _kernels(np.dtype(dtype), t), t


def running_on_device(a):
    """(device array, host array to write back into or None) for a running-statistics argument."""
    return (a, None) if is_device(a) else (to_device(a), a)


def write_back(pairs):
    """Copy each (device array, host array or None) pair of running_on_device back to its host array."""
    for dev, hst in pairs:
        if hst is not None:
            dev.copy_to_host(hst)


def device_lengths(lengths, T, B):
    """lengths (B,) int64 on the device: a device array as it is, host ones checked (masks.as_lengths)."""
    if is_device(lengths):
        if lengths.shape != (B,) or lengths.dtype != np.int64:
            raise ValueError(f"lengths must be (B,) = ({B},) int64, got {lengths.shape} of {lengths.dtype}")
        return lengths
    return to_device(as_lengths(lengths, T, B))


@cuda.jit
def _clamped(lengths, T, out):
    """out[b] = min(lengths[b], T); grid-stride loop over b."""
    for b in range(cuda.grid(1), lengths.shape[0], cuda.gridsize(1)):
        out[b] = min(lengths[b], T)


def load_lengths(dst, lengths, T):
    """A call's lengths (B,) int64 device array into a plan's dst (B,), each at most T: device lengths are not
    checked on the host (that would wait for the device), and a plan of more than T steps counts a row as active
    at every step below its length, so one longer than T would reach the plan's extra steps, their statistics and
    the running rows (the per-step path of T steps sees the same as with T)."""
    if lengths.shape != dst.shape:
        raise ValueError(f"load_lengths: lengths {lengths.shape} into a plan's {dst.shape}")
    if dst.size:
        blocks, tpb = grid_1d(dst.size)
        _clamped[blocks, tpb](lengths, T, dst)


def bn_forward(x, gain, bias, running_mean, running_var, training, momentum, eps, lengths=None):
    """Training or inference forward. x (T,B,F), lengths (B,) or None -> y (T,B,F), mean (T,F),
    rstd (T,F)  (device arrays). In inference mode mean/rstd are the running statistics actually used
    (row min(t, Ts-1))."""
    x, gain, bias = to_device(x), to_device(gain), to_device(bias)
    rm, rm_host = running_on_device(running_mean)
    rv, rv_host = running_on_device(running_var)
    T, B, F = x.shape
    lengths = device_lengths(lengths, T, B)
    y = empty((T, B, F), x.dtype)
    mean = empty((T, F), x.dtype)
    rstd = empty((T, F), x.dtype)
    bn_forward_launch(x, lengths, gain, bias, rm, rv, training, momentum, eps, y, mean, rstd)
    if training:
        write_back(((rm, rm_host), (rv, rv_host)))
    return y, mean, rstd


def bn_backward(dy, x, mean, rstd, gain, training, lengths=None):
    """dy, x (T,B,F); mean, rstd (T,F); gain (F,); lengths (B,) or None -> dx (T,B,F), dgain (F,),
    dbias (F,)  (device arrays; dx = 0 at padded steps, whose dy is ignored)."""
    dy, x, mean, rstd, gain = (to_device(a) for a in (dy, x, mean, rstd, gain))
    T, B, F = x.shape
    lengths = device_lengths(lengths, T, B)
    dx = empty((T, B, F), x.dtype)
    pgain = empty((T, F), x.dtype)
    pbias = empty((T, F), x.dtype)
    bn_backward_launch(dy, x, lengths, mean, rstd, gain, training, dx, pgain, pbias)
    return dx, colsum(pgain), colsum(pbias)


def bn_forward_launch(x, lengths, gain, bias, rm, rv, training, momentum, eps, y, mean, rstd, stream=0):
    """bn_forward's launch into device arrays given (no allocation, no copies: a captured loop's ``before``
    runs it inside a graph, bn_lstm_cuda's and bn_rnn_cuda's plans): x (T,B,F), lengths (B,), gain, bias (F,),
    rm, rv (Ts,F) -> y (T,B,F), mean, rstd (T,F)."""
    T, _, F = x.shape
    (fwd, _), t = kernels(x.dtype)
    if T and F:
        fwd[((F + t - 1) // t, T), (t, t), stream](x, lengths, gain, bias, rm, rv, bool(training), float(momentum),
                                                   float(eps), y, mean, rstd)


def bn_backward_launch(dy, x, lengths, mean, rstd, gain, training, dx, pgain, pbias, stream=0):
    """bn_backward's launch into device arrays given (as bn_forward_launch): dy, x (T,B,F), lengths (B,), mean,
    rstd (T,F), gain (F,) -> dx (T,B,F) and the per-step sums pgain, pbias (T,F) (their column sums are dgain,
    dbias)."""
    T, _, F = x.shape
    (_, bwd), t = kernels(x.dtype)
    if T and F:
        bwd[((F + t - 1) // t, T), (t, t), stream](dy, x, lengths, mean, rstd, gain, bool(training), dx, pgain,
                                                   pbias)


def batchnorm_forward_train(x, gain, bias, running_mean, running_var, momentum, eps, lengths=None):
    """x (T,B,F), gain/bias (F,), running_mean/var (Ts,F) updated in place for t < Ts; lengths (B,)
    or None. -> y (T,B,F), mean (T,F), rstd (T,F)   (batch statistics of the active rows; device arrays)."""
    return bn_forward(x, gain, bias, running_mean, running_var, True, momentum, eps, lengths)


def batchnorm_forward_infer(x, gain, bias, running_mean, running_var, eps):
    """x (T,B,F) -> y (T,B,F) normalized with running row min(t, Ts-1); running stats untouched."""
    return bn_forward(x, gain, bias, running_mean, running_var, False, 0.0, eps)[0]


def batchnorm_backward(dy, x, mean, rstd, gain, lengths=None):
    """Training-mode backward. dy, x (T,B,F); mean, rstd (T,F); gain (F,); lengths as given to the
    forward -> dx (T,B,F), dgain (F,), dbias (F,)   (device arrays)."""
    return bn_backward(dy, x, mean, rstd, gain, True, lengths)
