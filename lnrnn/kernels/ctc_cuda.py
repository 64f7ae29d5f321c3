"""Connectionist temporal classification: CUDA twin of ctc.py (same names, arguments and outputs; shapes,
recursion and the rule for impossible rows are documented there).

Algorithm: log space throughout (alpha and beta in logs, two-term log-sum-exps), where the CPU twin runs
Graves's rescaled recursion in float64 and falls back to log space only for rows it cannot carry exactly.
Loss and gradient agree to rounding (tests/kernels/test_ctc_cuda.py: 1e-12 in float64), but the saved
tuple differs past logp: here (logp (T,B,C), alpha (B,T,S) log alpha in the logits' dtype, logz (B,)),
there (logp, grad, logz, logspace): the CPU forward takes each row's gradient and its backward scales it by
dloss. logp and logz sit at 0 and 2 in both. Each backward takes only its own forward's saved.

Layout: one block per row (a grid-stride loop over the B rows), its threads over the S_b positions
of the extended label, a ``syncthreads`` after every time step: alpha[t] reads alpha[t-1] at s, s-1
and s-2, which other threads wrote (global memory, visible to the block after the barrier). The
log-softmax and the gradient split the row's steps over the threads instead (each thread owns whole
steps: its own C classes, and the S_b positions of its step, so no two threads write one element).
beta lives in a scratch array (B,T,S) of the backward. No shared arrays. Arguments: host or device
arrays; results: device arrays (see arrays_cuda).
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda.arrays_cuda import empty, fill, is_device, nbtype, threads_per_block, to_device
from lnrnn.kernels.codes import CTC_BLANK


@lru_cache(maxsize=None)
def _kernels(dtype):
    dt = nbtype(dtype)
    zero, ninf = dt(0.0), dt(-np.inf)

    @cuda.jit(device=True)
    def lse(a, b):
        if a == ninf:
            return b
        if b == ninf:
            return a
        if a > b:
            return a + math.log1p(math.exp(b - a))
        return b + math.log1p(math.exp(a - b))

    @cuda.jit(device=True)
    def ext(labels, b, s):
        return CTC_BLANK if s % 2 == 0 else labels[b, s // 2]

    @cuda.jit(device=True)
    def skip(labels, b, s):
        return s % 2 == 1 and s >= 3 and labels[b, s // 2] != labels[b, s // 2 - 1]

    @cuda.jit
    def fwd(logits, labels, input_lengths, label_lengths, logp, alpha, logz, loss):
        """Block b: logp[:, b] (t < Tb), alpha[b] (T,S), logz[b], loss[b]."""
        tid, nt = cuda.threadIdx.x, cuda.blockDim.x
        C = logits.shape[2]
        for b in range(cuda.blockIdx.x, logits.shape[1], cuda.gridDim.x):
            Tb, Sb = input_lengths[b], 2 * label_lengths[b] + 1
            for t in range(tid, Tb, nt):
                m = logits[t, b, 0]
                for c in range(1, C):
                    m = max(m, logits[t, b, c])
                z = zero
                for c in range(C):
                    z += math.exp(logits[t, b, c] - m)
                lz = m + math.log(z)
                for c in range(C):
                    logp[t, b, c] = logits[t, b, c] - lz
            cuda.syncthreads()
            if Tb > 0:
                for s in range(tid, Sb, nt):
                    alpha[b, 0, s] = logp[0, b, ext(labels, b, s)] if s < 2 else ninf
                cuda.syncthreads()
            for t in range(1, Tb):
                for s in range(tid, Sb, nt):
                    a = alpha[b, t - 1, s]
                    if s >= 1:
                        a = lse(a, alpha[b, t - 1, s - 1])
                    if skip(labels, b, s):
                        a = lse(a, alpha[b, t - 1, s - 2])
                    alpha[b, t, s] = a + logp[t, b, ext(labels, b, s)]
                cuda.syncthreads()
            if tid == 0:
                if Tb == 0:
                    lp = zero if Sb == 1 else ninf
                else:
                    lp = alpha[b, Tb - 1, Sb - 1]
                    if Sb > 1:
                        lp = lse(lp, alpha[b, Tb - 1, Sb - 2])
                logz[b] = lp
                loss[b] = -lp if lp != ninf else zero
            cuda.syncthreads()

    @cuda.jit
    def bwd(dloss, logp, alpha, logz, labels, input_lengths, label_lengths, beta, d):
        """Block b: beta[b] (T,S) scratch, then d[:, b] (T,C) = dloss[b] * (softmax - posterior), t < Tb."""
        tid, nt = cuda.threadIdx.x, cuda.blockDim.x
        C = logp.shape[2]
        for b in range(cuda.blockIdx.x, logp.shape[1], cuda.gridDim.x):
            Tb, Sb, lz, g = input_lengths[b], 2 * label_lengths[b] + 1, logz[b], dloss[b]
            if Tb == 0 or lz == ninf:       # the same for every thread of the block: no barrier is skipped by some
                continue
            for s in range(tid, Sb, nt):
                beta[b, Tb - 1, s] = zero if s >= Sb - 2 else ninf
            cuda.syncthreads()
            for t in range(Tb - 2, -1, -1):
                for s in range(tid, Sb, nt):
                    a = beta[b, t + 1, s] + logp[t + 1, b, ext(labels, b, s)]
                    if s + 1 < Sb:
                        a = lse(a, beta[b, t + 1, s + 1] + logp[t + 1, b, ext(labels, b, s + 1)])
                    if s + 2 < Sb and skip(labels, b, s + 2):
                        a = lse(a, beta[b, t + 1, s + 2] + logp[t + 1, b, ext(labels, b, s + 2)])
                    beta[b, t, s] = a
                cuda.syncthreads()
            for t in range(tid, Tb, nt):
                for c in range(C):
                    d[t, b, c] = g * math.exp(logp[t, b, c])
                for s in range(Sb):
                    q = alpha[b, t, s] + beta[b, t, s]
                    if q != ninf:
                        k = ext(labels, b, s)
                        d[t, b, k] = d[t, b, k] - g * math.exp(q - lz)
            cuda.syncthreads()

    return fwd, bwd


def _ints(a):
    """An int64 device array of labels or lengths (a device array passes as it is)."""
    return a if is_device(a) else to_device(np.asarray(a, np.int64))


def _grid(B):
    return max(1, min(B, 1024)), threads_per_block()


def ctc_forward(logits, labels, input_lengths, label_lengths):
    """logits (T,B,C), labels (B,Lmax), input_lengths (B,), label_lengths (B,) -> loss (B,) (-log p; 0 where
    p = 0), saved = (logp (T,B,C), alpha (B,T,S), logz (B,)) (device arrays)."""
    logits = to_device(logits)
    labels, input_lengths, label_lengths = _ints(labels), _ints(input_lengths), _ints(label_lengths)
    T, B, _ = logits.shape
    S = 2 * labels.shape[1] + 1
    dtype = logits.dtype
    logp = fill(empty(logits.shape, dtype), 0)
    alpha = fill(empty((B, T, S), dtype), -np.inf)
    logz, loss = empty((B,), dtype), empty((B,), dtype)
    fwd, _ = _kernels(dtype)
    blocks, tpb = _grid(B)
    fwd[blocks, tpb](logits, labels, input_lengths, label_lengths, logp, alpha, logz, loss)
    return loss, (logp, alpha, logz)


def ctc_backward(dloss, saved, labels, input_lengths, label_lengths):
    """dloss (B,) = dL/dloss, saved from ctc_forward -> dlogits (T,B,C) (0 past input_lengths[b] and on rows
    with p = 0)."""
    logp, alpha, logz = saved
    dloss = to_device(dloss)
    labels, input_lengths, label_lengths = _ints(labels), _ints(input_lengths), _ints(label_lengths)
    d = fill(empty(logp.shape, logp.dtype), 0)
    beta = empty(alpha.shape, alpha.dtype)
    _, bwd = _kernels(logp.dtype)
    blocks, tpb = _grid(logp.shape[1])
    bwd[blocks, tpb](dloss, logp, alpha, logz, labels, input_lengths, label_lengths, beta, d)
    return d
