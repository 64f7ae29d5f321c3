"""One recurrent layer as two pure functions over arrays: what a framework binding calls.

    y, final, res = layer_forward("ln-lstm", x, state, params)            # x (T,B,I) -> y (T,B,H)
    dx, dstate0, grads = layer_backward("ln-lstm", res, x, state, params, dy, dfinal)

``RecurrentLayer`` (``lnrnn.model.layers``) keeps its parameters, BatchNorm buffers and saved tuple on itself;
a framework owns those instead and hands them in at every call, so a binding (``lnrnn.torch``,
``lnrnn.jax``) needs the same kernels as functions of their inputs alone. The cell's row of the
registry (``lnrnn.model.cells``) does the kernel call, exactly as for a layer; this module adds:

residuals
    The kernel's saved tuple as a list of arrays, without ``y`` (an output already: a framework op
    must not return two aliases of one buffer) and without the BN kernels' mode flag (an input:
    ``training``). ``residual_layout`` gives their shapes and dtypes from the sizes alone, before any
    kernel runs: torch's fake tensors and ``jax.pure_callback``'s result shapes need them. The layout
    is each kernel module's ``saved`` docstring; ``tests/test_interop_functional.py`` checks it against
    what the kernels return, on the CPU and the CUDA twin.

final states and their gradients
    With ``lengths`` (B,) (right padding) each row's final state is its state after its own last step
    (its initial state where lengths[b] = 0), as ``RecurrentLayer.forward`` gives. h_n of a row is y at
    that step, so dL/dh_n adds into dy there (into dh0 where lengths[b] = 0): ``dfinal`` = (dh_n,) or
    (dh_n, dc_n). The kernels take no seed for dL/dc_n, so a non-zero dc_n is refused
    (``NotImplementedError``, one sentence) rather than dropped.

BatchNorm buffers
    ``buffers`` (rm*, rv* (Ts, width) per ``cells.Cell.buffers``): training updates rows 0..T-1 in place
    and needs Ts >= T (``grow_buffers``); inference reads row min(t, Ts-1), as a layer does.

Arrays are NumPy on 'cpu' and Numba device arrays on 'cuda' (``lnrnn.backend``); the caller converts.
"""
from functools import lru_cache

import numpy as np

from lnrnn import backend

from lnrnn.model import cells
from lnrnn.config import BN_MOMENTUM, EPS, FOLD_MAX_I
from lnrnn.model.layers import check_lengths, final_state, gate_clip, step_mask
from lnrnn.kernels.threads import batch_blocks
from lnrnn.threadscope import kernel_threads


class _Facts:
    """What a registry row's adapters read off a layer (``cells._lstm_forward`` and friends)."""

    def __init__(self, spec, H, dtype, eps, momentum, clip_gates, k):
        self.norm, self.eps, self.momentum = spec.norm, float(eps), float(momentum)
        self.clip_gates = gate_clip(clip_gates, spec)
        self.consts = _consts(spec.blocks * H, H, np.dtype(dtype).str, k.device)


@lru_cache(maxsize=64)
def _consts(G, H, dtype, device):
    k = backend.kernels(device)
    dt = np.dtype(dtype)
    return {n: k.to_device(a) for n, a in (("1G", np.ones(G, dt)), ("0G", np.zeros(G, dt)),
                                           ("1H", np.ones(H, dt)), ("0H", np.zeros(H, dt)))}


def residual_layout(cell, T, B, I, H, dtype, device="cpu"):
    """[(shape, dtype), ...] of the residuals ``layer_forward`` returns for these sizes (module docstring;
    T and B may be symbolic sizes, they are only placed in tuples)."""
    spec = cells.get(cell)
    dt = np.dtype(dtype)
    G = spec.blocks * H
    fold = 0 < I <= FOLD_MAX_I
    ln = spec.norm == "ln"
    if spec.norm == "bn":
        # (xw or the fold's xs, mean_x, rstd_x, hw, mean_h, rstd_h, [gates, c, mean_c, rstd_c, tc,] lengths)
        x_side = ((T, I + I * I), np.dtype(np.float64)) if fold and device == "cpu" else ((T, B, G), dt)
        out = [x_side, ((T, G), dt), ((T, G), dt), ((T, B, G), dt), ((T, G), dt), ((T, G), dt)]
        if spec.cell == "lstm":
            out += [((T, B, G), dt), ((T, B, H), dt), ((T, H), dt), ((T, H), dt), ((T, B, H), dt)]
        return out + [((B,), np.dtype(np.int64))]
    if spec.cell == "lstm":  # (gates, c, tc, xp, hhat, chat, rstd): lstm.py's saved without y
        return [((T, B, G), dt), ((T, B, H), dt), ((T, B, H), dt),
                ((T, B, G) if ln and not fold else (0, 0, 0), dt),
                ((T, B, G) if ln else (0, 0, 0), dt), ((T, B, H) if ln else (0, 0, 0), dt),
                ((3, T, B) if ln else (3, 0, 0), dt)]
    return [((T, B, H) if ln else (0, 0, 0), dt), ((T, B) if ln else (0, 0), dt)]  # rnn.py: (ahat, rstd)


def _y_index(spec):
    """Where y sits in the kernel's saved tuple (it is left out of the residuals)."""
    if spec.norm == "bn":
        return 11 if spec.cell == "lstm" else 6
    return 3 if spec.cell == "lstm" else 0


def _to_residuals(spec, saved):
    items = list(saved[:-1]) if spec.norm == "bn" else list(saved)  # BN: drop the mode flag
    del items[_y_index(spec)]
    return items


def _from_residuals(spec, res, y, training):
    items = list(res)
    items.insert(_y_index(spec), y)
    if spec.norm == "bn":
        items.append(bool(training))
    return tuple(items)


def grow_buffers(buffers, T):
    """BN buffers with at least T rows, longer ones repeating their last row (new arrays where grown)."""
    return {n: v if v.shape[0] >= T else np.concatenate([v, np.repeat(v[-1:], T - v.shape[0], axis=0)])
            for n, v in buffers.items()}


def _buffer_rows(buffers, T, training, k):
    if not buffers:
        return {}
    Ts = next(iter(buffers.values())).shape[0]
    if training:
        if Ts < T:
            raise ValueError(f"BatchNorm statistics hold {Ts} steps, fewer than the sequence's {T}: grow them "
                             "first (lnrnn.interop.functional.grow_buffers)")
        return buffers
    if T <= Ts:
        return buffers
    rows = np.minimum(np.arange(T), Ts - 1)
    return {n: k.to_device(np.ascontiguousarray(k.to_host(v)[rows])) for n, v in buffers.items()}


def layer_forward(cell, x, state, params, lengths=None, training=True, buffers=None, eps=EPS,
                  momentum=BN_MOMENTUM, device="cpu", keep=True):
    """x (T,B,I), state ((h0,) or (h0, c0), each (B,H)), params {lnrnn name: array} (``cells.Cell.param_shapes``)
    -> y (T,B,H), final state tuple (each row's own last step with lengths), residuals (a list; [] when
    keep=False: no backward follows). training: BatchNorm's batch statistics (and buffer updates)."""
    spec = cells.get(cell)
    k = backend.kernels(device)
    T, B, _ = x.shape
    H = state[0].shape[1]
    L = _Facts(spec, H, x.dtype, eps, momentum, 0.0, k)
    lengths = check_lengths(lengths, T, B)
    bufs = _buffer_rows(buffers or {}, T, training, k)
    run_keep = keep or (lengths is not None and not spec.infer_seqs)
    with kernel_threads():
        y, final, saved, seqs = spec.forward(k, L, x, tuple(state), params, bufs, bool(training),
                                             batch_blocks(B), lengths if spec.masked_kernel else None,
                                             run_keep)
    if lengths is not None:
        final = final_state(k, final, seqs, state, lengths)
    return y, tuple(final), (_to_residuals(spec, saved) if keep else [])


def layer_backward(cell, res, x, state, params, y, dy, dfinal=None, lengths=None, training=True,
                   clip_gates=0.0, device="cpu"):
    """The residuals and inputs of ``layer_forward`` with its output y, and dy (T,B,H) = dL/dy (None: zeros),
    dfinal = dL/d(final state) ((dh_n,) or (dh_n, dc_n), entries None for zero)
    -> dx (T,B,I), dstate0 tuple, {parameter name: gradient} (fresh arrays)."""
    spec = cells.get(cell)
    k = backend.kernels(device)
    T, B, _ = x.shape
    H = state[0].shape[1]
    lengths = check_lengths(lengths, T, B)
    L = _Facts(spec, H, x.dtype, EPS, BN_MOMENTUM, clip_gates, k)
    dt = np.dtype(x.dtype)
    dfinal = tuple(dfinal or ()) + (None,) * (spec.nstate - len(dfinal or ()))
    if len(dfinal) > 1 and dfinal[1] is not None and np.any(k.to_host(dfinal[1])):
        raise NotImplementedError("lnrnn's LSTM kernels take no gradient for the final cell state c_n: use the "
                                  "output sequence or h_n in the loss, or detach c_n.")
    dy = np.zeros((T, B, H), dt) if dy is None else np.array(k.to_host(dy), dtype=dt, copy=True)
    if lengths is not None and not spec.masked_kernel:
        dy *= step_mask(lengths, T, dt)[:, :, None]  # padded steps add nothing (masked kernels drop it themselves)
    dh_n = None if dfinal[0] is None else k.to_host(dfinal[0])
    if dh_n is not None:  # h_n of a row is y at its last step: its gradient adds into dy there
        last = np.full(B, T, np.int64) if lengths is None else lengths
        run = np.nonzero(last > 0)[0]
        dy[last[run] - 1, run] += dh_n[run]
    saved = _from_residuals(spec, res, y, training)
    with kernel_threads():
        dx, dstate, dp = spec.backward(k, L, k.to_device(dy), saved, x, tuple(state), params,
                                       batch_blocks(B))
    dstate = list(dstate)
    if dh_n is not None and lengths is not None and np.any(lengths == 0):  # h_n is h0 there
        z = np.nonzero(lengths == 0)[0]
        dh0 = np.array(k.to_host(dstate[0]), copy=True)
        dh0[z] += dh_n[z]
        dstate[0] = k.to_device(dh0)
    return dx, tuple(dstate), dict(zip(spec.grads, dp))
