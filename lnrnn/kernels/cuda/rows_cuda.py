"""Device functions a block of threads runs on one row (the CUDA twin of rows.py): block-wide sums,
a row's dot products with a weight column split over lanes, how a matrix-vector product is split over a
block, and the sigmoid.
"""
import math

from lnrnn.kernels.cuda.cuda_env import numpy_compat

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)
from numba import cuda, float32  # noqa: E402


# ------------------------------------------------------------------------------------------------
# Block-wide reduction (rows: one block per row)
# ------------------------------------------------------------------------------------------------
@cuda.jit(device=True)
def tree_sums(sh, m):
    """Block-wide sums of m values a thread, one barrier a tree level for all m: thread tid has written its
    values to sh[r * w + tid] (r < m, w = blockDim.x); afterwards sh[r * w] holds the block's sum of value r.
    Every thread of the block must call it (it synchronizes, first of all); a caller reads sh[r * w] and
    synchronizes before sh is written again (block_sum, block_sum2, block_sum4 do both). sh: shared scratch of at
    least m * blockDim.x elements.
    Pairwise tree that works for any block size, not only powers of two; each value's sum is added in the
    same order whatever m is."""
    tid = cuda.threadIdx.x
    w = cuda.blockDim.x
    n = w
    cuda.syncthreads()
    while n > 1:
        half = (n + 1) // 2
        if tid < n - half:
            for r in range(m):
                sh[r * w + tid] += sh[r * w + tid + half]
        cuda.syncthreads()
        n = half


@cuda.jit(device=True)
def block_sum(sh, v):
    """Sum of v over the threads of a 1-D block, returned to every thread (tree_sums of one value). Every
    thread of the block must call it (it synchronizes); sh: shared scratch of at least blockDim.x elements."""
    sh[cuda.threadIdx.x] = v
    tree_sums(sh, 1)
    s = sh[0]
    cuda.syncthreads()  # nobody overwrites sh[0] before everyone has read it
    return s


@cuda.jit(device=True)
def block_sum2(sh, a, b):
    """block_sum of two values in one tree: (sum of a, sum of b) to every thread; sh: shared scratch of at least
    2 * blockDim.x elements. Each sum equals block_sum's of the same values."""
    tid = cuda.threadIdx.x
    w = cuda.blockDim.x
    sh[tid] = a
    sh[w + tid] = b
    tree_sums(sh, 2)
    a, b = sh[0], sh[w]
    cuda.syncthreads()  # nobody overwrites the sums before everyone has read them
    return a, b


@cuda.jit(device=True)
def block_sum4(sh, a, b, c, d):
    """block_sum of four values in one tree, as block_sum2; sh: at least 4 * blockDim.x elements."""
    tid = cuda.threadIdx.x
    w = cuda.blockDim.x
    sh[tid] = a
    sh[w + tid] = b
    sh[2 * w + tid] = c
    sh[3 * w + tid] = d
    tree_sums(sh, 4)
    a, b, c, d = sh[0], sh[w], sh[2 * w], sh[3 * w]
    cuda.syncthreads()
    return a, b, c, d


@cuda.jit(device=True)
def local_stats(sh, vals, per, s, H, inv, e, one):
    """LayerNorm statistics of a row whose values the block's threads hold in local arrays (the row functions
    of lstm_cuda and rnn_cuda): thread tid holds ``per`` values for each of its units k = tid + u * blockDim.x
    < H, at vals[per * u : per * (u + 1)]; s: its sum of them (taken where they were loaded); inv: 1 / the
    row's length; e: eps. Returns (mean, 1/sqrt(biased variance + e)): the variance a second pass about the
    mean, as the CPU twin. Every thread of the block must call it (it synchronizes)."""
    tid = cuda.threadIdx.x
    n = cuda.blockDim.x
    m = block_sum(sh, s) * inv
    s = one - one
    for u in range(vals.shape[0] // per):
        if tid + u * n < H:
            for q in range(per):
                d = vals[per * u + q] - m
                s += d * d
    return m, one / math.sqrt(block_sum(sh, s) * inv + e)


@cuda.jit(device=True)
def dot_col(v, W, col, start, stop, step, zero):
    """sum of v[i] * W[i, col] for i = start, start+step, ... < stop (v: e.g. a shared row, W: global).
    Eight independent accumulators, so a thread has eight loads of W in flight instead of waiting out
    each one's latency: the recurrent matrix-vector products of the sequence kernels are bound by
    that latency, not by bandwidth (W is read from L2)."""
    s0 = zero
    s1 = zero
    s2 = zero
    s3 = zero
    s4 = zero
    s5 = zero
    s6 = zero
    s7 = zero
    i = start
    while i + 7 * step < stop:
        s0 += v[i] * W[i, col]
        s1 += v[i + step] * W[i + step, col]
        s2 += v[i + 2 * step] * W[i + 2 * step, col]
        s3 += v[i + 3 * step] * W[i + 3 * step, col]
        s4 += v[i + 4 * step] * W[i + 4 * step, col]
        s5 += v[i + 5 * step] * W[i + 5 * step, col]
        s6 += v[i + 6 * step] * W[i + 6 * step, col]
        s7 += v[i + 7 * step] * W[i + 7 * step, col]
        i += 8 * step
    while i < stop:
        s0 += v[i] * W[i, col]
        i += step
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))


def split_matvec(H, N, tpb):
    """Device function matvec(v, W, out, red, tid, n, zero): out[k] = sum_{j<N} v[j] W[j, k] for k < H,
    every thread of a block of tpb threads taking part (it synchronizes). v, out: shared rows; W (N,H)
    global, read along rows so that consecutive threads read consecutive addresses; red: a shared
    scratch of split_groups(H, tpb) * H elements. With H <= tpb, P = tpb // H thread groups each sum
    j = q, q+P, ... for every k and red adds the groups; with H > tpb each thread sums whole columns."""
    P = split_groups(H, tpb)
    wide = H > tpb

    @cuda.jit(device=True)
    def matvec(v, W, out, red, tid, n, zero):
        if wide:
            for k in range(tid, H, n):
                red[k] = dot_col(v, W, k, 0, N, 1, zero)
        else:
            q = tid // H
            k = tid - q * H
            if q < P:
                red[q * H + k] = dot_col(v, W, k, q, N, P, zero)
        cuda.syncthreads()
        for k in range(tid, H, n):
            s = zero
            for q in range(1 if wide else P):
                s += red[q * H + k]
            out[k] = s

    return matvec


def units(H, threads):
    """Hidden units a thread owns when a block of ``threads`` threads strides over H of them (k = tid,
    tid + threads, ...): the size of its local arrays in the row functions (lstm_cuda, rnn_cuda); at least 1."""
    return max(1, -(-int(H) // int(threads)))


def split_groups(H, tpb):
    """Thread groups of split_matvec: how many copies of H units a block of tpb threads holds (>= 1)."""
    return max(1, tpb // H)


@cuda.jit(device=True)
def sigmoid(z, one):
    """one: 1 in the working dtype (float32 code stays float32). exp's argument stops at 80, where the
    result is 1.8e-35 (or 0 before): a GPU's exp returns inf past the range, but the simulator's math.exp
    raises OverflowError (BatchNorm of a step with one or two active rows normalizes padded rows far out)."""
    return one / (one + math.exp(min(-z, one * float32(80.0))))
