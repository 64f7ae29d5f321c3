"""Mixture density output: CUDA twin of mdn.py (same names, arguments, outputs and saved tuple).

Rows are independent, so one thread owns one row (a grid-stride loop over the N rows); per row it
makes the same passes as the CPU twin: log-softmax of the weights, each component's log-density
into gamma, the log-sum-exp over components (its maximum taken over the stored values), then the
responsibilities; the backward writes the row's K derivatives from the saved gamma, z1, z2, e and pi.
Arguments: host or device arrays; results: device arrays (see arrays_cuda).
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.kernels.cuda.arrays_cuda import empty, nbtype, threads_per_block, to_device
from lnrnn.kernels.codes import MDN_RHO as RHO, MDN_SMAX as SMAX


@lru_cache(maxsize=None)
def _kernels(dtype):
    dt = nbtype(dtype)
    one, half, two, zero = dt(1.0), dt(0.5), dt(2.0), dt(0.0)
    smax, rmax, log2pi, ninf = dt(SMAX), dt(RHO), dt(np.log(2 * np.pi)), dt(-np.inf)

    @cuda.jit
    def fwd(yhat, target, valid, M, nll, gamma, z1, z2, e, pi):
        start = cuda.grid(1)
        for n in range(start, yhat.shape[0], cuda.gridsize(1)):
            if valid[n] == zero:  # zero of the dtype: a literal 0 compares in float64
                continue
            yh, tg = yhat[n], target[n]
            e[n] = one / (one + math.exp(-yh[0]))
            pmax = yh[1]
            for k in range(1, M):
                pmax = max(pmax, yh[1 + k])
            psum = zero
            for k in range(M):
                psum += math.exp(yh[1 + k] - pmax)
            lse_pi = pmax + math.log(psum)
            for k in range(M):
                pi[n, k] = math.exp(yh[1 + k] - lse_pi)
            lmax = ninf
            for k in range(M):
                ls1 = min(max(yh[1 + 3 * M + k], -smax), smax)
                ls2 = min(max(yh[1 + 4 * M + k], -smax), smax)
                rho = rmax * math.tanh(yh[1 + 5 * M + k])
                a = (tg[0] - yh[1 + M + k]) * math.exp(-ls1)
                b = (tg[1] - yh[1 + 2 * M + k]) * math.exp(-ls2)
                z1[n, k] = a
                z2[n, k] = b
                omr = one - rho * rho
                Z = a * a + b * b - two * rho * a * b
                gamma[n, k] = (yh[1 + k] - lse_pi) - log2pi - ls1 - ls2 - half * math.log(omr) - half * Z / omr
                lmax = max(lmax, gamma[n, k])
            s = zero
            for k in range(M):
                s += math.exp(gamma[n, k] - lmax)
            lse = lmax + math.log(s)
            for k in range(M):
                gamma[n, k] = math.exp(gamma[n, k] - lse)
            eh = yh[0]
            sp_pos = max(eh, zero) + math.log1p(math.exp(-abs(eh)))
            sp_neg = sp_pos - eh
            nll[n] = -lse + tg[2] * sp_neg + (one - tg[2]) * sp_pos

    @cuda.jit
    def bwd(dnll, gamma, z1, z2, e, pi, valid, yhat, target, M, d):
        start = cuda.grid(1)
        for n in range(start, yhat.shape[0], cuda.gridsize(1)):
            if valid[n] == zero:  # zero of the dtype: a literal 0 compares in float64
                continue
            yh, tg, g = yhat[n], target[n], dnll[n]
            d[n, 0] = g * (e[n] - tg[2])
            for k in range(M):
                pik = pi[n, k]
                gk, a, b = gamma[n, k], z1[n, k], z2[n, k]
                sh1, sh2 = yh[1 + 3 * M + k], yh[1 + 4 * M + k]
                th = math.tanh(yh[1 + 5 * M + k])
                rho = rmax * th
                C = one / (one - rho * rho)
                Z = a * a + b * b - two * rho * a * b
                d[n, 1 + k] = g * (pik - gk)
                d[n, 1 + M + k] = -g * gk * C * (a - rho * b) * math.exp(-min(max(sh1, -smax), smax))
                d[n, 1 + 2 * M + k] = -g * gk * C * (b - rho * a) * math.exp(-min(max(sh2, -smax), smax))
                d[n, 1 + 3 * M + k] = -g * gk * (C * a * (a - rho * b) - one) if -smax < sh1 < smax else zero
                d[n, 1 + 4 * M + k] = -g * gk * (C * b * (b - rho * a) - one) if -smax < sh2 < smax else zero
                d[n, 1 + 5 * M + k] = -g * gk * (rho * C + C * a * b - C * C * rho * Z) * rmax * (one - th * th)

    return fwd, bwd


def _grid(N):
    tpb = threads_per_block()
    return max(1, min(-(-N // tpb), 1024)), tpb


def _zeros(shape, dtype):
    a = empty(shape, dtype)
    if a.size:
        a.copy_to_device(np.zeros(shape, dtype))
    return a


def mdn_forward(yhat, target, valid, M):
    """yhat (N,K), target (N,3), valid (N,) -> nll (N,) (0 where not valid), saved (device arrays)."""
    yhat, target, valid = to_device(yhat), to_device(target), to_device(valid)
    N, dtype = yhat.shape[0], yhat.dtype
    nll, e = _zeros((N,), dtype), _zeros((N,), dtype)
    gamma, z1, z2, pi = (_zeros((N, M), dtype) for _ in range(4))
    fwd, _ = _kernels(dtype)
    blocks, tpb = _grid(N)
    fwd[blocks, tpb](yhat, target, valid, M, nll, gamma, z1, z2, e, pi)
    return nll, (gamma, z1, z2, e, pi, valid)


def mdn_backward(dnll, saved, yhat, target, M):
    """dnll (N,) = dL/dnll, saved from mdn_forward -> dyhat (N,K) (0 on rows that are not valid)."""
    gamma, z1, z2, e, pi, valid = saved
    dnll, yhat, target = to_device(dnll), to_device(yhat), to_device(target)
    d = _zeros(yhat.shape, yhat.dtype)
    _, bwd = _kernels(yhat.dtype)
    blocks, tpb = _grid(yhat.shape[0])
    bwd[blocks, tpb](dnll, gamma, z1, z2, e, pi, valid, yhat, target, M, d)
    return d
