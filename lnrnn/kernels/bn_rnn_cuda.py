"""BN-RNN (Cooijmans et al. 2016), forward and BPTT: CUDA twin of bn_rnn.py (same names, arguments,
outputs, ``saved`` layout and running-statistics rules; the NumPy spec is reference.bn_rnn_forward).

Design note: the BN-RNN's CUDA module, named after its functions; bn_lstm_cuda.py is its LSTM sibling
and explains the layout (per step a GEMM for h_{t-1} Wh, then one fused kernel whose blocks own TILE
hidden units and stride over the batch; backward the same in reverse, then the x side and the weight
GEMMs). The BN column machinery is batchnorm_cuda's, the GEMMs gemm_cuda's. Host or device arrays in,
device arrays out; ``par_min`` is accepted and ignored; masks (``lengths``) as in the CPU twin.

saved (device arrays, plus the mode):
    (xw (T,B,H), mean_x (T,H), rstd_x (T,H), hw (T,B,H), mean_h (T,H), rstd_h (T,H), y (T,B,H), lengths (B,),
     training)
"""
import math
from functools import lru_cache

import numpy as np
from numba import cuda

from lnrnn.config import BN_PAR_MIN_WORK as PAR_MIN_WORK  # the CPU twin's default, for signature parity (unused)
from lnrnn.kernels.batchnorm_cuda import (bn_backward, bn_forward, col_backward, col_stats, device_lengths,
                                          running_on_device, write_back)
from lnrnn.kernels.cuda.arrays_cuda import copy, empty, nbtype, to_device, zeros
from lnrnn.kernels.cuda.gemm_cuda import colsum, matmul, projection_grads, tile


@lru_cache(maxsize=None)
def _kernels(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def fwd(hw_t, xn_t, lengths, s, gh, training, update, rmh_r, rvh_r, momentum, eps, mean_h_t, rstd_h_t, y_t):
        """BN-RNN step s: y_t = tanh(BN(hw_t; gh, 0) + xn_t); hw_t, xn_t, y_t (B,H); lengths (B,); stats (H,)."""
        sh = cuda.shared.array((t, t), dt)
        B, H = hw_t.shape
        j = cuda.blockIdx.x * t + cuda.threadIdx.x
        valid = j < H
        one = dt(1.0)
        cst = (one, dt(momentum), dt(eps))
        m, r = col_stats(sh, hw_t, lengths, s, j, valid, training, update, rmh_r, rvh_r, cst)
        if valid:
            if cuda.threadIdx.y == 0:
                mean_h_t[j], rstd_h_t[j] = m, r
            for b in range(cuda.threadIdx.y, B, cuda.blockDim.y):
                y_t[b, j] = math.tanh(gh[j] * (hw_t[b, j] - m) * r + xn_t[b, j])

    @cuda.jit
    def bwd(dy_t, dhn, lengths, s, y_t, hw_t, mean_h_t, rstd_h_t, gh, training, da_t, dhw_t, pgh_t):
        """BN-RNN step s backward: da_t = dL/d(tanh argument), dhw_t (B,H); pgh_t (H,) this step's dgh;
        a padded row (s >= lengths[b]) gets zero da_t."""
        sh = cuda.shared.array((t, t), dt)
        B, H = hw_t.shape
        j = cuda.blockIdx.x * t + cuda.threadIdx.x
        valid = j < H
        one = dt(1.0)
        m, r, g = one - one, one, one
        if valid:
            m, r, g = mean_h_t[j], rstd_h_t[j], gh[j]
            for b in range(cuda.threadIdx.y, B, cuda.blockDim.y):
                h = y_t[b, j]
                da_t[b, j] = (dy_t[b, j] + dhn[b, j]) * (one - h * h) if s < lengths[b] else one - one
        s1, s2 = col_backward(sh, da_t, hw_t, lengths, s, m, r, g, j, valid, training, dhw_t, one)
        if valid and cuda.threadIdx.y == 0:
            pgh_t[j] = s2

    return fwd, bwd


def kernels(dtype):
    """((forward step kernel, backward step kernel), tile edge) for a dtype at the current tile size."""
    t = tile()
    return _kernels(np.dtype(dtype), t), t


def bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum, eps, par_min=PAR_MIN_WORK,
                   lengths=None):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b/gx/gh (H,), rm*/rv* (Ts,H) (updated in place
    when training), lengths (B,) or None -> y (T,B,H), hT (B,H), saved   (device arrays)."""
    x, h0, Wx, Wh, b, gx, gh = (to_device(a) for a in (x, h0, Wx, Wh, b, gx, gh))
    runs = [running_on_device(a) for a in (rmh, rvh)]
    (rmh, _), (rvh, _) = runs
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    training = bool(training)
    (fwd, _), t = kernels(dt)
    lengths = device_lengths(lengths, T, B)
    xw = matmul(x.reshape(T * B, I), Wx).reshape(T, B, H)
    xn, mean_x, rstd_x = bn_forward(xw, gx, b, rmx, rvx, training, momentum, eps, lengths)
    hw = empty((T, B, H), dt)
    mean_h = empty((T, H), dt)
    rstd_h = empty((T, H), dt)
    y = empty((T, B, H), dt)
    Ts = rmh.shape[0]
    grid = ((H + t - 1) // t, 1)
    for s in range(T):
        matmul(h0 if s == 0 else y[s - 1], Wh, out=hw[s])
        r = min(s, Ts - 1)
        fwd[grid, (t, t)](hw[s], xn[s], lengths, s, gh, training, s < Ts, rmh[r], rvh[r], float(momentum),
                          float(eps), mean_h[s], rstd_h[s], y[s])
    if training:
        write_back(runs)
    saved = (xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training)
    return y, copy(y[T - 1]), saved


def bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, par_min=PAR_MIN_WORK):
    """dy (T,B,H), saved from bn_rnn_forward -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H),
    db (H,), dgx (H,), dgh (H,)   (device arrays)."""
    dy, x, h0, Wx, Wh, gx, gh = (to_device(a) for a in (dy, x, h0, Wx, Wh, gx, gh))
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training = saved
    T, B, _ = x.shape
    H = h0.shape[1]
    dt = x.dtype
    (_, bwd), t = kernels(dt)
    da = empty((T, B, H), dt)
    dhw = empty((T, B, H), dt)
    dhn = zeros((B, H), dt)
    pgh = empty((T, H), dt)
    grid = ((H + t - 1) // t, 1)
    for s in range(T - 1, -1, -1):
        bwd[grid, (t, t)](dy[s], dhn, lengths, s, y[s], hw[s], mean_h[s], rstd_h[s], gh, bool(training), da[s],
                          dhw[s], pgh[s])
        matmul(dhw[s], Wh, out=dhn, trans_b=True)
    dxw, dgx, db = bn_backward(da, xw, mean_x, rstd_x, gx, training, lengths)  # the x side, all T at once
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx)
    return dx, dhn, dWx, dWh, db, dgx, colsum(pgh)
