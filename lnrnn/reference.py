"""Plain NumPy forward and backward of every op: the readable specification.

Nothing here is fast. Every compiled kernel (CPU and CUDA) is tested against these functions, and
these functions are themselves gradient-checked by finite differences. Shape letters and gate order
are defined once in ``lnrnn.kernels``. Each backward takes the upstream gradient first and returns
the gradients in the order of the forward's inputs.
"""
import numpy as np

from lnrnn.config import EPS


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


# ----------------------------------------------------------------------------------------------
# LayerNorm over the last axis
# ----------------------------------------------------------------------------------------------
def layernorm_forward(x, gain, bias, eps=EPS):
    """x (..., F) -> y (..., F), mean (...), rstd (...)."""
    mean = x.mean(axis=-1)
    var = ((x - mean[..., None]) ** 2).mean(axis=-1)  # biased
    rstd = 1.0 / np.sqrt(var + eps)
    xhat = (x - mean[..., None]) * rstd[..., None]
    return xhat * gain + bias, mean, rstd


def layernorm_backward(dy, x, mean, rstd, gain):
    """-> dx (..., F), dgain (F,), dbias (F,)."""
    xhat = (x - mean[..., None]) * rstd[..., None]
    dxhat = dy * gain
    dx = rstd[..., None] * (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    red = tuple(range(dy.ndim - 1))
    return dx, (dy * xhat).sum(axis=red), dy.sum(axis=red)
