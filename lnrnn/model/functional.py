"""One recurrent layer as pure functions over arrays: the one implementation every caller runs.

    s = setup(cells.get("ln-lstm"), H, np.float32)                     # row, kernels, device, settings
    y, final, saved = forward(s, x, state, params, bufs)               # x (T,B,I) -> y (T,B,H)
    dx, dstate0, grads = backward(s, dy, saved, x, state, params)      # grads: spec.grads order

    y, final, res = layer_forward("ln-lstm", x, state, params)         # the bindings' pair: arrays in,
    dx, dstate0, grads = layer_backward("ln-lstm", res, x, state, params, y, dy, dfinal)   # residuals out

``forward``/``backward`` run one layer from a ``Setup`` (a declared record: the registry row of the
cell, ``lnrnn.model.cells``; the row's kernels on the device, ``Cell.kernels``; the device's array moves,
``lnrnn.backend.kernels``; the settings the row's adapters read, ``cells.Facts``). The callers keep
what they own and hand it in: ``RecurrentLayer`` (``lnrnn.model.layers``) its parameters, BatchNorm
buffers and saved tuple, and its checks at the boundary; ``WindowLayer``'s upper layers are
RecurrentLayers; ``lnrnn.torch`` and ``lnrnn.jax`` hold their tensors and call ``layer_forward`` /
``layer_backward``, which add the residuals and the gradient of the final state. A bidirectional layer
is ``forward`` over each row's valid steps reversed, its y reversed back and concatenated: nothing here
depends on the direction of time.

The facts a layer's callers share live here once: the lengths check and the per-step mask
(``check_lengths``, ``running_mask``), each row's final state under a mask (``final_state``), the keep
rule (``keeps``), the unit gains that stand in for LayerNorm parameters a row does not have
(``unit_gains``), the rows of BatchNorm statistics a step reads and their growth (``stat_rows``,
``grown``), Graves's gate clip as the kernels take it (``gate_clip``), each row's valid steps reversed
(``reverse_valid``, a bidirectional stack's backward direction).

keep: False for a forward that no backward follows (evaluation, prediction, sampling): a row with an
    infer kernel runs it (no (T,B,*) saved arrays; y and the final state bit for bit the forward's) and
    nothing is kept. A masked forward of a row whose infer kernel keeps no state sequences
    (``cells.Cell.infer_seqs``: the LSTM's) runs the full forward even then, and drops its saved tuple.

residuals (the bindings)
    The kernel's saved tuple as a list of arrays, without ``y`` (an output already: a framework op
    must not return two aliases of one buffer) and without the BN kernels' mode flag (an input:
    ``training``). ``residual_layout`` gives their shapes and dtypes from the sizes alone, before any
    kernel runs: torch's fake tensors and ``jax.pure_callback``'s result shapes need them. The layout
    is each kernel module's ``saved`` docstring; ``tests/model/test_functional.py`` checks it against
    what the kernels return, on the CPU and the CUDA twin.

final states and their gradients
    With ``lengths`` (B,) (right padding) each row's final state is its state after its own last step
    (its initial state where lengths[b] = 0). h_n of a row is y at that step, so dL/dh_n adds into dy
    there (into dh0 where lengths[b] = 0): ``dfinal`` = (dh_n,) or (dh_n, dc_n). dL/dc_n seeds the
    plain and LN LSTM kernels' carried dL/dc at the last step (their ``dcT``; into dc0 where
    lengths[b] = 0), so it is taken for rows that run all T steps (or none). The kernels carry no seed
    into the middle of a sequence, and the BN-LSTM's take none: a non-zero dc_n of a row that ends
    before step T-1, or of a BN cell, is refused (``NotImplementedError``, one sentence) rather than
    dropped (``takes_dc_n``).

BatchNorm buffers
    ``buffers`` (rm*, rv* (Ts, width) per ``cells.Cell.buffers``): training updates rows 0..T-1 in place
    and needs Ts >= T (``grown``); inference reads row min(t, Ts-1) (``stat_rows``).

Arrays are NumPy on 'cpu' and Numba device arrays on 'cuda' (``lnrnn.backend``); the caller converts.
"""
from functools import lru_cache
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np

from lnrnn import backend
from lnrnn.config import BN_MOMENTUM, EPS, FOLD_MAX_I
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.cpu.threads import batch_blocks
from lnrnn.model import cells
from lnrnn.threadscope import kernel_threads


# ---- the facts every caller shares ----

def check_lengths(lengths, T, B):
    """lengths as a (B,) int64 array with 0 <= lengths[b] <= T (ValueError otherwise), or None when
    every row runs all T steps (given None or all T: the unmasked path, bit for bit)."""
    if lengths is None:
        return None
    a = np.asarray(lengths)
    if a.shape != (B,) or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"lengths must be {B} integers (one per sequence), got {a.dtype} {a.shape}")
    if a.size and (a.min() < 0 or a.max() > T):
        raise ValueError(f"lengths must lie in [0, {T}], got {a.min()}..{a.max()}")
    if np.all(a == T):
        return None
    return np.ascontiguousarray(a, dtype=np.int64)


def running_mask(lengths, T, dtype=np.float32):
    """(T,B) 1 where row b runs at step t (t < lengths[b]), else 0. Unchecked: lengths may lie outside
    [0, T] (a chunk's lengths shifted by its start). ``lnrnn.kernels.masks.step_mask`` is the kernels'
    checked boolean mask."""
    return (np.arange(T)[:, None] < np.asarray(lengths)[None, :]).astype(dtype)


def reverse_valid(a, lengths):
    """a (T,B,...) with each row's first lengths[b] steps in reverse order: out[t, b] = a[L_b-1-t, b] for
    t < L_b, and a[t, b] at padded steps (padding stays padding); lengths None: every row runs all T
    steps. Its own inverse: a bidirectional stack's backward direction reads its input, and returns
    its output and its gradients, through it (``lnrnn.model.layers.RecurrentStack``). A new array;
    NumPy arrays (a device array comes to the host)."""
    a = np.asarray(a) if isinstance(a, np.ndarray) or not hasattr(a, "copy_to_host") else a.copy_to_host()
    T, B = a.shape[0], a.shape[1]
    if lengths is None:
        return np.ascontiguousarray(a[::-1])
    t = np.arange(T)[:, None]                                            # (T,1)
    L = np.asarray(lengths)[None, :]                                     # (1,B)
    idx = np.where(t < L, L - 1 - t, t)                                  # (T,B) the step each entry reads
    return np.ascontiguousarray(a[idx, np.arange(B)[None, :]])


def gate_clip(clip, spec):
    """Graves's bound on dL/d(gate preactivations) as the backward kernels take it: 0.0 for off (0 or
    inf), else the positive bound; ValueError for a negative or NaN one, or for a cell without gates
    (the RNN cells' kernels take no clip). A training setting, not part of the model: a clipped
    gradient is not the gradient of the loss (see reference.clip_gate_grads)."""
    clip = float(clip)
    if not clip >= 0.0:
        raise ValueError(f"clip_gates must be 0 (off) or positive, got {clip}")
    bound = clip_bound(clip)  # inf: off
    if bound and not spec.gate_clip:
        raise ValueError(f"clip_gates clips the LSTM gates' derivatives; the {spec.name} cell has no gates")
    return bound


def keeps(spec, keep, lengths):
    """Whether the kernels run the full forward (and return a saved tuple): when a backward follows
    (keep), or for a masked final state that the row's infer kernel cannot give (module docstring)."""
    return keep or (lengths is not None and not spec.infer_seqs)


@lru_cache(maxsize=64)
def unit_gains(G, H, dtype, device="cpu"):
    """The unit gains and zero biases that stand in for the LayerNorm parameters of the kernels' plain
    variant: {'1G', '0G': (G,), '1H', '0H': (H,)} on the device (shared, never written)."""
    k = backend.kernels(device)
    dt = np.dtype(dtype)
    return {n: k.to_device(a) for n, a in (("1G", np.ones(G, dt)), ("0G", np.zeros(G, dt)),
                                           ("1H", np.ones(H, dt)), ("0H", np.zeros(H, dt)))}


def stat_rows(Ts, t0, T):
    """The rows of BatchNorm statistics (Ts rows) that steps t0 .. t0+T-1 read: row min(t, Ts-1) (steps
    past the last row reuse it)."""
    return np.minimum(np.arange(t0, t0 + T), Ts - 1)


def grown(v, T):
    """v (Ts, width) with at least T rows, the new ones repeating the last (v itself when Ts >= T). Any
    array that takes an index array (NumPy, torch, JAX): every caller grows statistics with this."""
    return v if v.shape[0] >= T else v[stat_rows(v.shape[0], 0, T)]


def grow_buffers(buffers, T):
    """BN buffers with at least T rows, longer ones repeating their last row (new arrays where grown)."""
    return {n: grown(v, T) for n, v in buffers.items()}


def final_state(k, out_state, seqs, state, lengths):
    """Each row's state after its own last step: seq[lengths[b]-1, b], or its initial state where
    lengths[b] = 0. k: the kernel namespace of the arrays' device; seqs: the per-step state sequences
    (T,B,H) the forward kept (y, and c for the LSTM); out_state, state: the kernel's final and the initial
    state tuples."""
    if k.device == "cuda":  # on the device, nothing copied to the host
        from lnrnn.kernels.cuda.arrays_cuda import final_rows
        L = k.to_device(np.asarray(lengths, np.int64))
        return tuple(final_rows(k.to_device(s_T), seq, k.to_device(s0), L)
                     for s_T, seq, s0 in zip(out_state, seqs, state))
    rows = np.nonzero(lengths < seqs[0].shape[0])[0]
    res = []
    for s_T, seq, s0 in zip(out_state, seqs, state):
        s_T, seq, s0 = k.to_host(s_T), k.to_host(seq), k.to_host(s0)
        out = np.array(s_T, copy=True)
        L = lengths[rows]
        out[rows] = np.where((L > 0)[:, None], seq[np.maximum(L - 1, 0), rows], s0[rows])
        res.append(k.to_device(out))
    return tuple(res)


# ---- one layer ----

class Setup(NamedTuple):
    """What the layer functions need besides the arrays (module docstring)."""

    spec: cells.Cell            # the registry row
    kern: cells.Kernels         # the row's kernels on the device (``Cell.kernels``)
    k: SimpleNamespace          # the device's array moves: to_host, to_device (``lnrnn.backend.kernels``)
    facts: cells.Facts          # what the row's adapters read: norm, eps, momentum, clip_gates, unit gains


def setup(spec, H, dtype, device="cpu", eps=EPS, momentum=BN_MOMENTUM, clip_gates=0.0, reduce=None):
    """The ``Setup`` of a layer of row ``spec``, hidden size H and dtype on the device; clip_gates as
    ``gate_clip`` takes it; reduce: BatchNorm statistics over a data-parallel group (``Cell.kernels``)."""
    k = backend.kernels(device)
    facts = cells.Facts(spec.norm, float(eps), float(momentum), gate_clip(clip_gates, spec),
                        unit_gains(spec.blocks * H, H, np.dtype(dtype).str, k.device))
    return Setup(spec, spec.kernels(k.device, reduce), k, facts)


def forward(s, x, state, params, bufs, training=True, lengths=None, keep=True):
    """x (T,B,I), state ((h0,) or (h0, c0), each (B,H)), params {name: array}, bufs {rm*, rv*: rows of
    steps 0..T-1}, lengths (``check_lengths``'s: None or (B,) int64), all on s's device
    -> y (T,B,H), the final state tuple (each row's own last step with lengths), the kernel's saved
    tuple (None when keep=False)."""
    spec = s.spec
    y, final, saved, seqs = spec.forward(s.kern, s.facts, x, tuple(state), params, bufs, bool(training),
                                         batch_blocks(x.shape[1]), lengths if spec.masked_kernel else None,
                                         keeps(spec, keep, lengths))
    if lengths is not None:
        final = final_state(s.k, final, seqs, state, lengths)
    return y, tuple(final), (saved if keep else None)


def takes_dc_n(spec):
    """Whether the row's backward takes a seed for dL/d(c_n) (the plain and LN LSTM kernels' ``dcT``)."""
    return spec.cell == "lstm" and spec.norm != "bn"


def backward(s, dy, saved, x, state, params, lengths=None, dh_n=None, dc_n=None):
    """dy (T,B,H) = dL/dy and what ``forward`` took and kept; dh_n, dc_n (B,H) host arrays = dL/d(h_n),
    dL/d(c_n) or None -> dx (T,B,I), dstate0 tuple, parameter gradients (a list in ``spec.grads``
    order, fresh arrays). Padded steps add nothing: their dL/dy is dropped here (masked kernels ignore
    it themselves). dc_n: see the module docstring (final states and their gradients)."""
    spec, k = s.spec, s.k
    T, B = x.shape[0], x.shape[1]
    seed = {}
    if dc_n is not None:
        if not takes_dc_n(spec):
            raise NotImplementedError(f"lnrnn's {spec.name} kernels take no gradient for the final cell state "
                                      "c_n: use the output sequence or h_n in the loss, or detach c_n.")
        last = np.full(B, T, np.int64) if lengths is None else lengths
        inner = (last > 0) & (last < T) & np.any(dc_n != 0, axis=1)
        if np.any(inner):
            raise NotImplementedError("lnrnn's LSTM kernels take a gradient for the final cell state c_n only for "
                                      "rows that run all T steps: pass full-length rows, or detach c_n.")
        seed["dc_n"] = k.to_device(np.ascontiguousarray(np.where((last == T)[:, None], dc_n, 0).astype(x.dtype)))
    masked = lengths is not None and not spec.masked_kernel
    if (masked or dh_n is not None) and k.device == "cuda":  # the mask and dL/dh_n applied on the device
        dy = _device_dy(k, dy, lengths, masked, dh_n, T, B)
    elif masked or dh_n is not None:
        dy = np.array(k.to_host(dy), copy=True)
        if masked:
            dy *= running_mask(lengths, T, dy.dtype)[:, :, None]
        if dh_n is not None:  # h_n of a row is y at its last step: its gradient adds into dy there
            last = np.full(B, T, np.int64) if lengths is None else lengths
            run = np.nonzero(last > 0)[0]
            dy[last[run] - 1, run] += dh_n[run]
    dx, dstate, dp = spec.backward(s.kern, s.facts, k.to_device(dy), saved, x, tuple(state), params,
                                   batch_blocks(B), **seed)
    dstate = list(dstate)
    if dc_n is not None and lengths is not None and np.any(lengths == 0):  # c_n is c0 there
        z = np.nonzero(lengths == 0)[0]
        dc0 = np.array(k.to_host(dstate[1]), copy=True)
        dc0[z] += dc_n[z]
        dstate[1] = k.to_device(dc0)
    if dh_n is not None and lengths is not None and np.any(lengths == 0):  # h_n is h0 there
        z = np.nonzero(lengths == 0)[0]
        dh0 = np.array(k.to_host(dstate[0]), copy=True)
        dh0[z] += dh_n[z]
        dstate[0] = k.to_device(dh0)
    return dx, tuple(dstate), dp


def _device_dy(k, dy, lengths, masked, dh_n, T, B):
    """``backward``'s dL/dy on the device, nothing of (T,B,H) through the host: a fresh copy of dy, times the running
    mask of lengths (B,) where masked, plus dh_n (B,H) (host; None: none) at each row's last step (rows of length
    0 take none here: their h_n is h0)."""
    from lnrnn.kernels.cuda.arrays_cuda import add_into, copy, mask_steps, put_steps
    dy = k.to_device(dy)
    dy = mask_steps(dy, k.to_device(np.asarray(lengths, np.int64))) if masked else copy(dy)
    if dh_n is not None:
        last = np.full(B, T, np.int64) if lengths is None else np.asarray(lengths, np.int64)
        rows = np.where((last > 0)[:, None], dh_n, 0).astype(dy.dtype)
        add_into(dy, put_steps(k.to_device(np.ascontiguousarray(rows)), k.to_device(np.maximum(last - 1, 0)), T))
    return dy


# ---- the bindings' pair: residuals in place of the saved tuple ----

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


def _to_residuals(spec, saved):
    items = list(saved[:-1]) if spec.saved_flag else list(saved)  # BN: drop the mode flag
    del items[spec.saved_y]
    return items


def _from_residuals(spec, res, y, training):
    items = list(res)
    items.insert(spec.saved_y, y)
    if spec.saved_flag:
        items.append(bool(training))
    return tuple(items)


def _buffer_rows(buffers, T, training, k):
    if not buffers:
        return {}
    Ts = next(iter(buffers.values())).shape[0]
    if training:
        if Ts < T:
            raise ValueError(f"BatchNorm statistics hold {Ts} step{'s' * (Ts != 1)}, fewer than the sequence's {T}: "
                             "grow them first (lnrnn.model.functional.grow_buffers)")
        return buffers
    if T <= Ts:
        return buffers
    rows = stat_rows(Ts, 0, T)
    return {n: k.to_device(np.ascontiguousarray(k.to_host(v)[rows])) for n, v in buffers.items()}


def layer_forward(cell, x, state, params, lengths=None, training=True, buffers=None, eps=EPS,
                  momentum=BN_MOMENTUM, device="cpu", keep=True):
    """x (T,B,I), state ((h0,) or (h0, c0), each (B,H)), params {lnrnn name: array} (``cells.Cell.param_shapes``)
    -> y (T,B,H), final state tuple (each row's own last step with lengths), residuals (a list; [] when
    keep=False: no backward follows). training: BatchNorm's batch statistics (and buffer updates)."""
    spec = cells.get(cell)
    T, B, _ = x.shape
    s = setup(spec, state[0].shape[1], x.dtype, device, eps, momentum)
    lengths = check_lengths(lengths, T, B)
    bufs = _buffer_rows(buffers or {}, T, training, s.k)
    with kernel_threads():
        y, final, saved = forward(s, x, state, params, bufs, training, lengths, keep)
    return y, final, (_to_residuals(spec, saved) if keep else [])


def layer_backward(cell, res, x, state, params, y, dy, dfinal=None, lengths=None, training=True,
                   clip_gates=0.0, device="cpu"):
    """The residuals and inputs of ``layer_forward`` with its output y, and dy (T,B,H) = dL/dy (None: zeros),
    dfinal = dL/d(final state) ((dh_n,) or (dh_n, dc_n), entries None for zero)
    -> dx (T,B,I), dstate0 tuple, {parameter name: gradient} (fresh arrays)."""
    spec = cells.get(cell)
    T, B, _ = x.shape
    H = state[0].shape[1]
    s = setup(spec, H, x.dtype, device, clip_gates=clip_gates)
    k = s.k
    lengths = check_lengths(lengths, T, B)
    dt = np.dtype(x.dtype)
    dfinal = tuple(dfinal or ()) + (None,) * (spec.nstate - len(dfinal or ()))
    dc_n = None
    if len(dfinal) > 1 and dfinal[1] is not None:
        dc_n = k.to_host(dfinal[1])
        dc_n = dc_n if np.any(dc_n) else None          # a zero dc_n is no gradient at all
    if dy is None:
        dy = np.zeros((T, B, H), dt)
    elif not (k.device == "cuda" and np.dtype(dy.dtype) == dt):  # on the device it stays there (backward copies it)
        dy = np.array(k.to_host(dy), dtype=dt, copy=True)
    dh_n = None if dfinal[0] is None else k.to_host(dfinal[0])
    saved = _from_residuals(spec, res, y, training)
    with kernel_threads():
        dx, dstate, dp = backward(s, dy, saved, x, state, params, lengths, dh_n, dc_n)
    return dx, dstate, dict(zip(spec.grads, dp))
