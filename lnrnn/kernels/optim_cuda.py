"""Optimizer update rules and gradient clipping: CUDA twin of optim.py (same names, arguments and
arithmetic; the CPU twin's NumPy expressions are the spec, rounded operation by operation in the same
order, so the simulator reproduces them and a GPU agrees to its fused multiply-adds).

Update rules: one elementwise kernel per rule, a grid-stride loop over the P parameters; each thread
reads its parameter, gradient and slots once and writes them once. Hyper-parameters arrive as scalars
of the array's dtype, made on the host from Python floats (the update count k is the host's: Adam's
bias corrections cost no transfer).

Clipping, with nothing copied to the host: ``norm_partials`` adds g^2 (float64) over a grid-stride
slice per thread and reduces each block's threads through shared memory to one partial per block;
``norm_finish`` (one block) adds the partials, writes the norm and the scale (1 where nothing is
clipped) to device memory; ``scale_kernel`` multiplies g by it. The norm stays on the device until the
trainer fetches it with the update's metrics.
Arguments: device arrays (host arrays are copied in once, see arrays_cuda); nothing is returned.
"""
import math
from functools import lru_cache

import numpy as np

from lnrnn.kernels.cuda.arrays_cuda import empty, grid_1d, nbtype, to_device
from lnrnn.kernels.cuda.cuda_env import numpy_compat
from lnrnn.kernels.cuda.rows_cuda import block_sum
from lnrnn.kernels.optim import CLIP_EPS, adam_step_size

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)
from numba import cuda, float64  # noqa: E402


@lru_cache(maxsize=None)
def _rules(dtype):
    dt = nbtype(dtype)

    @cuda.jit
    def sgd(p, v, g, lr, momentum, use_momentum):
        for i in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            gi = g[i]
            if use_momentum:
                vi = v[i] * momentum
                vi = vi + gi
                v[i] = vi
                gi = vi
            p[i] = p[i] - lr * gi

    @cuda.jit
    def rmsprop(p, sq, g, lr, alpha, one_m_alpha, eps):
        for i in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            gi = g[i]
            s = sq[i] * alpha
            s = s + one_m_alpha * gi * gi
            sq[i] = s
            p[i] = p[i] - lr * gi / (math.sqrt(s) + eps)

    @cuda.jit
    def rmsprop_momentum(p, sq, avg, v, g, lr, alpha, one_m_alpha, momentum, eps, centred):
        for i in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            gi = g[i]
            s = sq[i] * alpha
            s = s + one_m_alpha * gi * gi
            sq[i] = s
            denom = s + eps
            if centred:
                a = avg[i] * alpha
                a = a + one_m_alpha * gi
                avg[i] = a
                denom = denom - a * a
            vi = v[i] * momentum
            vi = vi - lr * gi / math.sqrt(denom)
            v[i] = vi
            p[i] = p[i] + vi

    @cuda.jit
    def adam(p, m, v, g, beta1, one_m_beta1, beta2, one_m_beta2, step, eps_hat):
        for i in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            gi = g[i]
            mi = m[i] * beta1
            mi = mi + one_m_beta1 * gi
            m[i] = mi
            vi = v[i] * beta2
            vi = vi + one_m_beta2 * gi * gi
            v[i] = vi
            p[i] = p[i] - step * mi / (math.sqrt(vi) + eps_hat)

    @cuda.jit
    def scale_kernel(g, scale):
        """g (P,) *= scale[0] (in g's dtype, as the CPU twin casts it); nothing to do when it is 1."""
        s = dt(scale[0])
        if s != dt(1.0):
            for i in range(cuda.grid(1), g.shape[0], cuda.gridsize(1)):
                g[i] = g[i] * s

    return dt, sgd, rmsprop, rmsprop_momentum, adam, scale_kernel


@lru_cache(maxsize=None)
def _norm_kernels(tpb):
    @cuda.jit
    def norm_partials(g, part):
        """part (blocks,) float64 <- each block's sum of g^2 over its threads' grid-stride slices."""
        sh = cuda.shared.array(tpb, float64)
        tid = cuda.threadIdx.x
        s = 0.0
        for i in range(cuda.grid(1), g.shape[0], cuda.gridsize(1)):
            gi = float64(g[i])
            s += gi * gi
        s = block_sum(sh, s)
        if tid == 0:
            part[cuda.blockIdx.x] = s

    @cuda.jit
    def norm_finish(part, max_norm, norm, scale):
        """One block: norm[0] <- sqrt(sum of part); scale[0] <- the clipping factor, or 1."""
        sh = cuda.shared.array(tpb, float64)
        tid = cuda.threadIdx.x
        s = 0.0
        for j in range(tid, part.shape[0], tpb):
            s += part[j]
        s = block_sum(sh, s)
        if tid == 0:
            n = math.sqrt(s)
            norm[0] = n
            scale[0] = 1.0
            if max_norm > 0 and not math.isinf(n) and not math.isnan(n) and n > max_norm:
                scale[0] = max_norm / (n + CLIP_EPS)

    return norm_partials, norm_finish


def sgd_update(p, v, g, lr, momentum):
    dt, sgd, *_ = _rules(p.dtype)
    use = bool(momentum)
    blocks, tpb = grid_1d(p.shape[0])
    sgd[blocks, tpb](p, v if use else p, to_device(g), dt(lr), dt(momentum), use)


def rmsprop_update(p, sq, g, lr, alpha, eps):
    dt, _, rmsprop, *_ = _rules(p.dtype)
    blocks, tpb = grid_1d(p.shape[0])
    rmsprop[blocks, tpb](p, sq, to_device(g), dt(lr), dt(alpha), dt(1 - alpha), dt(eps))


def rmsprop_momentum_update(p, sq, avg, v, g, lr, alpha, momentum, eps):
    dt, _, _, rule, *_ = _rules(p.dtype)
    centred = avg is not None
    blocks, tpb = grid_1d(p.shape[0])
    rule[blocks, tpb](p, sq, avg if centred else sq, v, to_device(g), dt(lr), dt(alpha), dt(1 - alpha),
                      dt(momentum), dt(eps), centred)


def adam_update(p, m, v, g, lr, beta1, beta2, eps, k):
    dt, _, _, _, adam, _ = _rules(p.dtype)
    step, eps_hat = adam_step_size(lr, beta1, beta2, eps, k)
    blocks, tpb = grid_1d(p.shape[0])
    adam[blocks, tpb](p, m, v, to_device(g), dt(beta1), dt(1 - beta1), dt(beta2), dt(1 - beta2), dt(step),
                      dt(eps_hat))


def clip_grad_norm(g, max_norm, norm):
    """g (P,) scaled in place (see optim.py); norm (1,) float64 device array <- the norm before clipping."""
    blocks, tpb = grid_1d(g.shape[0])
    partials, finish = _norm_kernels(tpb)
    part = empty((blocks,), np.float64)                                    # (blocks,) one partial per block
    scale = empty((1,), np.float64)                                        # (1,) the factor, or 1
    partials[blocks, tpb](g, part)
    finish[1, tpb](part, float(max_norm or 0.0), norm, scale)
    *_, scale_kernel = _rules(g.dtype)
    scale_kernel[blocks, tpb](g, scale)
