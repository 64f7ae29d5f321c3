"""Optimizer update rules and gradient clipping over one flat array (CPU twin; ``optim_cuda.py`` is the
CUDA twin: same names, arguments and arithmetic). ``lnrnn.training.optim`` holds the optimizers' state
and calls these; the NumPy expressions here are the spec the CUDA kernels follow operation by operation.

Shapes: P parameters. p, g and every slot are (P,) arrays of one dtype (or any one shape: the CPU
twin is elementwise NumPy, so the optimizers' dict form runs through it too). Every function updates
its first arguments in place and returns nothing; hyper-parameters are Python floats, cast to the
array's dtype before use (float32 arithmetic stays float32).

    sgd_update(p, v, g, lr, momentum)                         v = momentum v + g;  p -= lr v   (v None: momentum 0)
    rmsprop_update(p, sq, g, lr, alpha, eps)                  sq = alpha sq + (1-alpha) g^2;  p -= lr g / (sqrt(sq) + eps)
    rmsprop_momentum_update(p, sq, avg, v, g, lr, alpha, momentum, eps)
                                                              Graves's form, eps under the root; avg None: not centred
    adam_update(p, m, v, g, lr, beta1, beta2, eps, k)         k: this update's number (1 for the first)
    clip_grad_norm(g, max_norm, norm)                         norm (1,) float64 <- ||g|| before clipping

Clipping: g is scaled by max_norm / (||g|| + CLIP_EPS) when ||g|| > max_norm > 0 and ||g|| is finite; the
norm is summed in float64 whatever g's dtype.
"""
import math

import numpy as np

CLIP_EPS = 1e-6  # added to the norm in the clipping scale, so a norm at the limit never divides by zero


def clip_scale(norm, max_norm):
    """The factor clipping multiplies the gradients by, or None where they stay as they are."""
    if max_norm and max_norm > 0 and math.isfinite(norm) and norm > max_norm:
        return max_norm / (norm + CLIP_EPS)
    return None


def sgd_update(p, v, g, lr, momentum):
    t = p.dtype.type
    if momentum:
        v *= t(momentum)
        v += g
        g = v
    p -= t(lr) * g


def rmsprop_update(p, sq, g, lr, alpha, eps):
    t = p.dtype.type
    sq *= t(alpha)
    sq += t(1 - alpha) * g * g
    p -= t(lr) * g / (np.sqrt(sq) + t(eps))


def rmsprop_momentum_update(p, sq, avg, v, g, lr, alpha, momentum, eps):
    t = p.dtype.type
    sq *= t(alpha)
    sq += t(1 - alpha) * g * g
    denom = sq + t(eps)
    if avg is not None:  # centred: the running mean's square comes off the second moment
        avg *= t(alpha)
        avg += t(1 - alpha) * g
        denom = denom - avg * avg
    v *= t(momentum)
    v -= t(lr) * g / np.sqrt(denom)
    p += v


def adam_step_size(lr, beta1, beta2, eps, k):
    """(step, eps_hat) of update k: Adam's bias corrections folded into the step size, and eps applied
    to the bias-corrected v as in the paper."""
    step = lr * math.sqrt(1 - beta2 ** k) / (1 - beta1 ** k)
    eps_hat = eps * math.sqrt(1 - beta2 ** k)
    return step, eps_hat


def adam_update(p, m, v, g, lr, beta1, beta2, eps, k):
    t = p.dtype.type
    m *= t(beta1)
    m += t(1 - beta1) * g
    v *= t(beta2)
    v += t(1 - beta2) * g * g
    step, eps_hat = adam_step_size(lr, beta1, beta2, eps, k)
    p -= t(step) * m / (np.sqrt(v) + t(eps_hat))


def clip_grad_norm(g, max_norm, norm):
    """g (P,) scaled in place (see the module docstring); norm (1,) float64 <- the norm before clipping."""
    flat = g.reshape(-1).astype(np.float64)
    norm[0] = math.sqrt(0.0 + float(np.dot(flat, flat)))
    scale = clip_scale(float(norm[0]), max_norm)
    if scale is not None:
        g *= g.dtype.type(scale)
