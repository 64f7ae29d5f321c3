"""``lnrnn.jax``: lnrnn's recurrent cells as JAX functions (``pip install -e ".[jax]"``).

    import lnrnn.jax
    params = lnrnn.jax.init(jax.random.key(0), "lstm", "ln", input_size=I, hidden_size=H, num_layers=2)
    y, (h_n, c_n) = lnrnn.jax.apply(params, x, cell="lstm", norm="ln")      # x (T,B,I) -> y (T,B,H)
    grads = jax.jit(jax.grad(loss))(params, x)                              # the hand-written BPTT

Parameters
    One flat dict per stack, under ``lnrnn export``'s names without the ``rnn.`` prefix (``lnrnn.interop.export``;
    k = layer): ``weight_ih_l{k}`` (G, I_k), ``weight_hh_l{k}`` (G, H), ``bias_ih_l{k}``, ``bias_hh_l{k}``
    (G,) (the kernels add the two, as torch.nn.LSTM does), then the norm's ``norm_ih_weight_l{k}``, ...
    A plain LSTM's dict is a ``torch.nn.LSTM`` state_dict; an export file loads with ``load_export``.
    BatchNorm population statistics (``norm_ih_running_mean_l{k}``, ... (Ts, width)) are not trained and
    live in a second dict, ``stats`` (``init_stats``), like flax's ``batch_stats`` collection:

        y, state = apply(params, x, stats=stats)                              # training: batch statistics
        (y, state), stats = apply(params, x, stats=stats, mutable=True)       # ... and the updated ones
        y, state = apply(params, x, stats=stats, training=False)              # inference: population ones

    Training reads and updates rows 0..T-1 (``stats`` grows to T rows by repeating its last row);
    inference reads row min(t, Ts-1). Statistics take no gradient.

States and masks
    state: None (zeros), (h0, c0) for the LSTM, h0 for the RNN, each (num_layers, B, H) as in torch.nn.LSTM;
    the same comes back as the final state. lengths (B,) int (right padding): each row's final state is
    taken after its own last step (its initial state for length 0), y is zero at padded steps, and
    nothing at a padded step reaches any gradient. batch_first=True: x (B,T,I) and y (B,T,H).

Bidirectional stacks
    Parameters with ``weight_ih_l0_reverse`` (``init(..., bidirectional=True)``, ``params_from_stack`` of a
    bidirectional RecurrentStack, a bidirectional ``torch.nn.LSTM``'s state_dict) make ``apply`` run every
    layer's backward direction too: the same layer over each row's valid steps reversed (``_reverse_valid``;
    with lengths it starts at each row's last valid step), its y reversed back; y is (T,B,2H) = [forward |
    backward], layers above the first read 2H inputs, and states are (num_layers*2, B, H) in
    torch.nn.LSTM's layout (row 2k + d). BN statistics per direction (``*_l{k}_reverse``).

How it is built
    Each layer is one ``jax.custom_vjp`` function whose forward and backward are ``jax.pure_callback``s
    into ``lnrnn.model.functional`` (the CPU kernels; the backward is lnrnn's hand-written BPTT, and
    the forward saves its residuals as outputs of known shapes, ``functional.residual_layout``). Without
    a gradient the forward runs the inference kernels and saves nothing. With ``remat=True`` the
    differentiated forward saves nothing either and the backward callback reruns the forward (keeping)
    before BPTT: JAX copies a callback's results into its own buffers, and at T784 B64 H128 that copy
    of the residuals (0.28 GB per LN-LSTM layer) costs more than a second forward; memory between
    forward and backward drops to the inputs. The callback's inputs reach the
    kernels as NumPy views of JAX's buffers (``np.asarray``, no copy, read-only: the kernels only read
    them); its outputs are copied into JAX's buffers. An array on a GPU goes through the host both ways:
    there is no C++-free route to XLA's typed FFI, and the callbacks run the CPU kernels.
    dtypes: float32, or float64 with ``jax_enable_x64``, one dtype for x, state and params.

    vmap (``vmap_method="expand_dims"``): the callback gets every argument with the vmapped axes in
    front (size 1 where an argument is not mapped) and handles them on the host. The forward of a plain
    or LN cell whose parameters are not mapped folds the mapped axes into the batch (one kernel call:
    its rows are independent, so each example's result is its own); a BatchNorm cell couples its batch
    at every step, so it runs one kernel call per example, as does any forward with mapped parameters.
    The backward always runs one call per example: the per-example parameter gradients
    (``vmap(grad(...))``) must stay apart.

    The final cell state c_n takes a gradient where the kernels can seed one (``functional``'s "final
    states and their gradients"): plain and LN LSTMs, rows that run all T steps (or none). A non-zero
    cotangent for c_n of a BN-LSTM, or of a row that ends inside the sequence, raises
    NotImplementedError when the backward runs (use y or h_n in the loss, or
    ``jax.lax.stop_gradient(c_n)``). When c_n is unused its cotangent arrives as zeros and is accepted.

    The first call of a cell and dtype compiles its kernels for read-only arrays (cached on disk, as
    the rest of lnrnn's kernels).
"""
from functools import lru_cache, partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from lnrnn.interop.export import PARAM_NAMES, exported_config, read_safetensors
from lnrnn.model import cells
from lnrnn.model import functional as F
from lnrnn.model.layers import RecurrentStack, check_sizes

VMAP_METHOD = "expand_dims"  # module docstring, vmap
DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

__all__ = ["init", "init_stats", "apply", "params_from_stack", "load_export", "VMAP_METHOD"]


# ------------------------------------------------------------------------------------------------
# names: lnrnn's per-layer parameters (Wx, Wh, b, gx, ...) <-> export names with a layer suffix
# ------------------------------------------------------------------------------------------------
def _spec(cell, norm):
    return cells.lookup(cell, "none" if norm is None else norm)


def _suffix(j, D=1):
    """The name suffix of the stack's j-th layer run (layer k = j // D, direction d = j % D, D = 2 when
    bidirectional): l{k}, or l{k}_reverse for a backward direction (torch.nn.LSTM's names)."""
    k, d = divmod(j, D)
    return f"l{k}_reverse" if d else f"l{k}"


def _param_names(spec, j, D=1):
    """[(lnrnn name, exported name, transposed)] of layer run j (``_suffix``) in torch.nn.LSTM's order, with
    bias_hh (lnrnn name None) after bias_ih."""
    sfx = _suffix(j, D)
    out = [(n, f"{PARAM_NAMES[n][0]}_{sfx}", PARAM_NAMES[n][1]) for n in spec.param_names]
    return out[:3] + [(None, f"bias_hh_{sfx}", False)] + out[3:]


def _stat_names(spec, j, D=1):
    """[(lnrnn buffer name, exported name, width kind)] of layer run j's BatchNorm statistics."""
    return [(p + s, f"{PARAM_NAMES[p + s][0]}_{_suffix(j, D)}", w) for s, w in spec.buffers for p in ("rm", "rv")]


def _check_dtype(dtype):
    dt = np.dtype(dtype)
    if dt not in DTYPES:
        raise TypeError(f"lnrnn.jax runs float32 or float64 only, got {dt.name}: cast x, the state and the "
                        "parameters to float32 (or float64).")
    if jax.dtypes.canonicalize_dtype(dt) != dt:
        raise TypeError("float64 needs 64-bit JAX: call jax.config.update('jax_enable_x64', True) first, or "
                        "use float32.")
    if dt.itemsize == 8 and not _x64_everywhere():
        raise TypeError("float64 inside a jax.enable_x64 context does not reach the callbacks, which run on "
                        "another thread: call jax.config.update('jax_enable_x64', True) for the whole process.")
    return dt


def _x64_everywhere():
    """64-bit types on for every thread, not just in a ``jax.enable_x64`` context of this one (JAX converts
    a callback's arguments under its own thread's setting: float64 would arrive as float32)."""
    try:
        from jax._src.config import enable_x64
        return bool(enable_x64.get_global())
    except (ImportError, AttributeError):  # another JAX: trust this thread's setting
        return True


def init(key, cell, norm, input_size, hidden_size, num_layers=1, *, dtype=jnp.float32, forget_bias=1.0,
         bidirectional=False):
    """Parameters of a num_layers stack (module docstring, Parameters) as lnrnn initializes them
    (``cells.Cell.init_params``: Glorot-uniform weight_ih, orthogonal weight_hh blocks, forget bias,
    unit gains), drawn on the host from a NumPy generator seeded by ``key``. Not for use under jit.
    bidirectional: every layer gets a backward direction (``*_l{k}_reverse``), layers above the first
    read 2H inputs (module docstring)."""
    spec = _spec(cell, norm)
    dt = _check_dtype(dtype)
    I, H, L = check_sizes("init", input_size=input_size, hidden_size=hidden_size, num_layers=num_layers).values()
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)).ravel().tolist())
    out = {}
    D = 2 if bidirectional else 1
    for j in range(L * D):
        p = spec.init_params(rng, I if j < D else D * H, H, dt, forget_bias)
        for n, name, transposed in _param_names(spec, j, D):
            a = np.zeros_like(p["b"]) if n is None else p[n]
            out[name] = jnp.asarray(a.T if transposed else a)
    return out


def init_stats(cell, norm, hidden_size, num_layers=1, max_steps=1, *, dtype=jnp.float32, bidirectional=False):
    """BatchNorm population statistics of a stack (means 0, variances 1, max_steps rows; per direction when
    bidirectional); {} for a cell without BatchNorm."""
    spec = _spec(cell, norm)
    dt = _check_dtype(dtype)
    H, T, L = check_sizes("init_stats", hidden_size=hidden_size, max_steps=max_steps, num_layers=num_layers).values()
    bufs = spec.init_buffers(H, T, dt)
    D = 2 if bidirectional else 1
    return {name: jnp.asarray(bufs[n]) for j in range(L * D) for n, name, _ in _stat_names(spec, j, D)}


def params_from_stack(stack):
    """(params, stats) of an lnrnn ``RecurrentStack`` (without skip connections; bidirectional ones too), as
    JAX arrays."""
    if not isinstance(stack, RecurrentStack):
        raise ValueError(f"lnrnn.jax takes the parameters of an lnrnn RecurrentStack, not of a {type(stack).__name__}.")
    if stack.skip:
        raise ValueError("lnrnn.jax runs stacked layers without skip connections; this stack has them.")
    D = stack.directions
    params, stats = {}, {}
    for j, layer in enumerate(stack.layers):  # [l0, l0 backward, l1, ...] as _suffix counts them
        for n, name, transposed in _param_names(layer.spec, j, D):
            a = np.zeros_like(layer.params["b"]) if n is None else layer.params[n]
            params[name] = jnp.asarray(a.T if transposed else a)
        for n, name, _ in _stat_names(layer.spec, j, D):
            stats[name] = jnp.asarray(layer.buffers[n])
    return params, stats


def load_export(path):
    """(params, stats, model config) of an ``lnrnn export`` file (its ``rnn.*`` tensors; the config
    names the cell and norm to pass to ``apply``)."""
    tensors, meta = read_safetensors(path)
    config = exported_config(path, meta, tensors, complete=False) or {}  # checked: ValueError naming the file
    stack = {k[len("rnn."):]: jnp.asarray(v) for k, v in tensors.items() if k.startswith("rnn.")}
    stats = {k: v for k, v in stack.items() if "_running_" in k}
    if config.get("skip"):
        raise ValueError(f"{path} holds a stack with skip connections, which lnrnn.jax does not run.")
    return {k: v for k, v in stack.items() if k not in stats}, stats, config


def _layer_params(params, spec, I):
    """([{lnrnn name: JAX array}] per layer run (Wx (I,G), Wh (H,G), b = bias_ih + bias_hh, extras), in
    ``_suffix``'s order, checked; D: 2 for a bidirectional stack (its params hold weight_ih_l0_reverse))."""
    if not isinstance(params, dict) or "weight_ih_l0" not in params:
        raise ValueError("params must be the dict lnrnn.jax.init returns (it holds weight_ih_l0, ...).")
    L = 0
    while f"weight_ih_l{L}" in params:
        L += 1
    D = 2 if "weight_ih_l0_reverse" in params else 1
    want = {name for j in range(L * D) for _, name, _ in _param_names(spec, j, D)}
    missing, extra = sorted(want - set(params)), sorted(set(params) - want)
    if missing or extra:
        raise ValueError(f"params do not match a {L}-layer {spec.name} stack (missing {missing or 'none'}, "
                         f"unexpected {extra or 'none'}): pass the cell and norm the parameters were made for.")
    H = params["weight_hh_l0"].shape[-1]
    layers = []
    for j in range(L * D):
        Ik = I if j < D else D * H
        shapes = dict(spec.param_shapes(Ik, H))
        p = {}
        for n, name, transposed in _param_names(spec, j, D):
            a = params[name]
            want_shape = shapes["b"] if n is None else (shapes[n][::-1] if transposed else shapes[n])
            if tuple(a.shape) != tuple(want_shape):
                raise ValueError(f"{name} has shape {tuple(a.shape)}, expected {tuple(want_shape)} for input "
                                 f"size {Ik} and hidden size {H}.")
            if n is None:
                p["b"] = p["b"] + a
            else:
                p[n] = a.T if transposed else a
        layers.append(p)
    return layers, D


# ------------------------------------------------------------------------------------------------
# host side: what the callbacks run (NumPy arrays, possibly with vmapped axes in front)
# ------------------------------------------------------------------------------------------------
class _Cfg(NamedTuple):
    cell: str         # registry name: 'ln-lstm'
    training: bool    # BatchNorm's batch statistics (and their update)
    remat: bool       # the backward reruns the forward instead of receiving residuals (apply's remat)


def _read_only(tree):
    """NumPy views of the callback's JAX arrays (no copy), all read-only: JAX arrays are immutable, so no
    step on the host may write into them (the kernels' time loops take their inputs read-only from any
    caller, lnrnn.kernels.cpu.threads.readonly: the flags here change no compiled signature)."""
    def view(a):
        v = np.asarray(a).view()
        v.flags.writeable = False
        return v
    return jax.tree.map(view, tree)


def _x64():
    """64-bit JAX types on, where this is traced (the setting is per thread: read it at trace time and hand
    it to the callback, which runs on another thread)."""
    return jax.dtypes.canonicalize_dtype(np.float64) == np.float64


def _wire(shape, dtype, x64):
    """How a residual travels through JAX: an 8-byte one (BN's float64 fold of x, int64 lengths) as
    twice as many uint32 when 64-bit types are off (JAX would not hold it)."""
    dt = np.dtype(dtype)
    if dt.itemsize == 8 and not x64:
        return tuple(shape[:-1]) + (2 * shape[-1],), np.dtype(np.uint32)
    return tuple(shape), dt


def _to_wire(r, x64):
    r = np.ascontiguousarray(r)
    return r.view(np.uint32) if r.dtype.itemsize == 8 and not x64 else r


def _from_wire(r, dtype):
    return r.view(dtype) if r.dtype != dtype else r


@lru_cache(maxsize=256)
def _batch_axes(cell, I, H, dtype):
    """The batch axis of each residual (None: none, e.g. a zero-size one), read off the layout at two batch
    sizes."""
    a = F.residual_layout(cell, 2, 3, I, H, dtype)
    b = F.residual_layout(cell, 2, 5, I, H, dtype)
    return tuple(next((i for i, (p, q) in enumerate(zip(sa, sb)) if p != q), None) for (sa, _), (sb, _) in zip(a, b))


def _lead(x, args):
    """The vmapped axes: as many in front of every argument as x has beyond (T,B,I) (VMAP_METHOD), each
    as long as in the arguments mapped over it (the others hold it at size 1)."""
    nl = x.ndim - 3
    return tuple(np.broadcast_shapes(*(v.shape[:nl] for v in jax.tree.leaves(args))))


def _per_example(fn, lead, args):
    """fn over every index of the vmapped axes ``lead`` (an argument of size 1 there is shared), stacked."""
    outs = None
    for idx in np.ndindex(*lead):
        one = jax.tree.map(lambda v: v[tuple(i if s != 1 else 0 for i, s in zip(idx, v.shape))], args)
        o = fn(*one)
        if outs is None:
            outs = jax.tree.map(lambda r: np.empty(lead + np.shape(r), np.asarray(r).dtype), o)
        jax.tree.map(lambda dst, r: dst.__setitem__(idx, r), outs, o)
    return outs


def _forward_one(cfg, keep, x, state, p, lengths, bufs):
    """One kernel call: x (T,B,I), state tuple of (B,H), p {lnrnn name: array}, lengths (B,) or None,
    bufs {rm*, rv*: (Ts, width)} -> y (T,B,H), final state tuple, residuals, updated bufs (training)."""
    lengths = None if lengths is None else np.array(lengths, dtype=np.int64)
    bufs = {n: np.array(v) for n, v in bufs.items()}  # training updates them in place
    y, final, res = F.layer_forward(cfg.cell, x, state, p, lengths=lengths, training=cfg.training,
                                    buffers=bufs or None, keep=keep)
    return y, tuple(final), list(res), (bufs if cfg.training else {})


def _forward_folded(cfg, keep, lead, x, state, p, lengths):
    """A plain or LN cell's forward with the vmapped axes ``lead`` folded into the batch: x lead+(T,B,I)
    -> (T, V*B, I) (row v*B + b), one kernel call, and its results unfolded to lead + their shapes."""
    nl, V = len(lead), int(np.prod(lead))
    T, B, I = x.shape[nl:]

    def rows(a):  # lead + tail -> (V,) + tail, the unmapped size-1 axes broadcast
        return np.broadcast_to(a, lead + a.shape[nl:]).reshape((V,) + a.shape[nl:])

    xf = np.ascontiguousarray(np.moveaxis(rows(x), 0, 1)).reshape(T, V * B, I)
    sf = tuple(np.ascontiguousarray(rows(s)).reshape(V * B, -1) for s in state)
    lf = None if lengths is None else rows(lengths).reshape(V * B)
    pf = {n: v.reshape(v.shape[nl:]) for n, v in p.items()}  # unmapped: a view
    y, final, res, _ = _forward_one(cfg, keep, *_read_only((xf, sf, pf)), lf, {})
    H = y.shape[2]
    y = np.moveaxis(y.reshape(T, V, B, H), 1, 0).reshape(lead + (T, B, H))
    final = tuple(f.reshape(lead + (B, H)) for f in final)
    out = []
    for r, a in zip(res, _batch_axes(cfg.cell, I, H, np.dtype(x.dtype).str) if keep else ()):
        if a is None:  # no batch axis (a zero-size placeholder): the same for every example
            out.append(np.broadcast_to(r, lead + r.shape))
            continue
        r = r.reshape(r.shape[:a] + (V, B) + r.shape[a + 1:])          # row v*B + b -> (..., v, b, ...)
        out.append(np.moveaxis(r, a, 0).reshape(lead + r.shape[:a] + r.shape[a + 1:]))
    return y, final, out, {}


def _host_forward(cfg, keep, x64, x, state, p, lengths, bufs):
    x, state, p, lengths, bufs = _read_only((x, state, p, lengths, bufs))
    lead = _lead(x, (x, state, p, lengths, bufs))
    if not lead:
        out = _forward_one(cfg, keep, x, state, p, lengths, bufs)
    elif cells.get(cfg.cell).norm != "bn" and all(v.shape[:len(lead)] == (1,) * len(lead) for v in p.values()):
        out = _forward_folded(cfg, keep, lead, x, state, p, lengths)
    else:  # BatchNorm couples its batch (examples must not mix), or the parameters are mapped
        out = _per_example(lambda *a: _forward_one(cfg, keep, *a), lead, (x, state, p, lengths, bufs))
    y, final, res, new_bufs = out
    return y, final, [_to_wire(r, x64) for r in res], new_bufs


def _backward_one(cfg, res, x, state, p, y, dy, dfinal, lengths, bufs):
    if cfg.remat:  # the forward again, keeping its residuals (its statistics update is dropped)
        y, _, res, _ = _forward_one(cfg, True, x, state, p, lengths, bufs)
    lengths = None if lengths is None else np.array(lengths, dtype=np.int64)
    dx, d0, grads = F.layer_backward(cfg.cell, res, x, state, p, y, dy, dfinal=tuple(dfinal), lengths=lengths,
                                     training=cfg.training)
    dt = x.dtype
    return (np.asarray(dx, dt), tuple(np.asarray(d, dt) for d in d0),
            {n: np.asarray(grads[n], dt) for n in p})


def _host_backward(cfg, res, x, state, p, y, dy, dfinal, lengths, bufs):
    args = _read_only((res, x, state, p, y, dy, dfinal, lengths, bufs))
    res, x, y = args[0], args[1], args[4]
    T, B, I = x.shape[-3:]
    layout = F.residual_layout(cfg.cell, T, B, I, y.shape[-1], x.dtype)
    args = ([_from_wire(r, d) for r, (_, d) in zip(res, layout)],) + args[1:]
    lead = _lead(x, args)
    fn = partial(_backward_one, cfg)
    if not lead:
        return fn(*args)
    return _per_example(fn, lead, args)  # always per example: module docstring, vmap


# ------------------------------------------------------------------------------------------------
# JAX side: one layer as a custom_vjp over the two callbacks
# ------------------------------------------------------------------------------------------------
def _forward_call(cfg, keep, x, state, p, lengths, bufs):
    T, B, I = x.shape
    H = state[0].shape[1]
    sds = jax.ShapeDtypeStruct
    x64 = _x64()
    res = [sds(*_wire(s, d, x64)) for s, d in F.residual_layout(cfg.cell, T, B, I, H, x.dtype)] if keep else []
    shapes = (sds((T, B, H), x.dtype), tuple(sds((B, H), x.dtype) for _ in state), res,
              {n: sds(v.shape, v.dtype) for n, v in bufs.items()} if cfg.training else {})
    return jax.pure_callback(partial(_host_forward, cfg, keep, x64), shapes, x, state, p, lengths, bufs,
                             vmap_method=VMAP_METHOD)


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def _layer(cfg, x, state, p, lengths, bufs):
    """x (T,B,I), state tuple of (B,H), p {lnrnn name: (I,G) ...}, lengths (B,) int or None, bufs (BN)
    -> y (T,B,H), final state tuple, updated bufs (training; {} otherwise)."""
    y, final, _, new_bufs = _forward_call(cfg, False, x, state, p, lengths, bufs)  # no backward follows
    return y, final, new_bufs


def _layer_fwd(cfg, x, state, p, lengths, bufs):
    y, final, res, new_bufs = _forward_call(cfg, not cfg.remat, x, state, p, lengths, bufs)
    return (y, final, new_bufs), (res, x, state, p, y, lengths, bufs if cfg.remat else {})


def _layer_bwd(cfg, saved, cotangents):
    res, x, state, p, y, lengths, bufs = saved
    dy, dfinal, _ = cotangents  # the statistics' cotangent: they take no gradient
    shapes = (jax.ShapeDtypeStruct(x.shape, x.dtype), tuple(jax.ShapeDtypeStruct(s.shape, s.dtype) for s in state),
              {n: jax.ShapeDtypeStruct(v.shape, v.dtype) for n, v in p.items()})
    dx, dstate, grads = jax.pure_callback(partial(_host_backward, cfg), shapes, res, x, state, p, y, dy, dfinal,
                                          lengths, bufs, vmap_method=VMAP_METHOD)
    return dx, dstate, grads, None, None  # lengths and statistics: no gradient


_layer.defvjp(_layer_fwd, _layer_bwd)


# ------------------------------------------------------------------------------------------------
# the public function
# ------------------------------------------------------------------------------------------------
def _reverse_valid(a, lengths):
    """a (T,B,...) with each row's first lengths[b] steps reversed, padded steps kept (``functional.reverse_valid``
    as jnp ops, so grad, jit and vmap follow it); its own inverse."""
    if lengths is None:
        return a[::-1]
    T, B = a.shape[0], a.shape[1]
    t = jnp.arange(T)[:, None]                                          # (T,1)
    L = lengths[None, :]                                                # (1,B)
    idx = jnp.where(t < L, L - 1 - t, t)                                # (T,B) the step each entry reads
    return a[idx, jnp.arange(B)[None, :]]


def _initial_states(state, spec, L, B, H, dt, D=1):
    """[(h0(, c0)) (B,H)] per layer run: state (L*D, B, H) each, row k*D + d (torch.nn.LSTM's layout)."""
    L *= D
    if state is None:
        return [tuple(jnp.zeros((B, H), dt) for _ in range(spec.nstate)) for _ in range(L)]
    parts = tuple(state) if isinstance(state, (tuple, list)) else (state,)
    what = "(h0, c0)" if spec.nstate == 2 else "h0"
    if len(parts) != spec.nstate:
        raise ValueError(f"a {spec.cell} stack's state is {what}, got {len(parts)} array{'s' * (len(parts) != 1)}.")
    parts = tuple(jnp.asarray(s) for s in parts)
    for n, s in zip(("h0", "c0"), parts):
        if tuple(s.shape) != (L, B, H):
            dims = "num_layers * 2, B, H" if D == 2 else "num_layers, B, H"
            raise ValueError(f"{n} must have shape ({dims}) = {(L, B, H)}, got {tuple(s.shape)}.")
        if s.dtype != dt:
            raise TypeError(f"{n} is {s.dtype} but x is {dt}: pass x, the state and the parameters in one dtype.")
    return [tuple(s[k] for s in parts) for k in range(L)]


def _checked_lengths(lengths, T, B):
    if lengths is None:
        return None
    a = jnp.asarray(lengths)
    if a.shape != (B,) or not jnp.issubdtype(a.dtype, jnp.integer):
        raise ValueError(f"lengths must be {B} integers (one per sequence), got {a.dtype} {tuple(a.shape)}.")
    if not isinstance(a, jax.core.Tracer):  # known now: checked here (under jit the kernels check it)
        F.check_lengths(np.asarray(a), T, B)
    return a


def _layer_stats(stats, spec, L, H, dt, T, training, D=1):
    """[{rm*, rv*: (Ts, width)}] per layer run; training grows them to T rows (repeating the last)."""
    if not spec.buffers:
        if stats:
            raise ValueError(f"a {spec.name} stack has no BatchNorm statistics, but stats were given.")
        return [{} for _ in range(L * D)]
    if stats is None:
        if not training:
            raise ValueError("BatchNorm inference (training=False) reads population statistics: pass stats= "
                             "(lnrnn.jax.init_stats, updated by training with mutable=True).")
        stats = init_stats(spec.cell, spec.norm, H, L, T, dtype=dt, bidirectional=D == 2)
    out = []
    for j in range(L * D):
        bufs = {}
        for n, name, w in _stat_names(spec, j, D):
            if name not in stats:
                raise ValueError(f"stats lack {name}: pass the dict lnrnn.jax.init_stats returns for this stack.")
            v = jnp.asarray(stats[name])
            if v.ndim != 2 or v.shape[1] != spec.width(H, w) or v.shape[0] < 1 or v.dtype != dt:
                raise ValueError(f"{name} must be a (steps, {spec.width(H, w)}) {dt} array, got {v.dtype} "
                                 f"{tuple(v.shape)}.")
            if training and v.shape[0] < T:
                v = F.grown(v, T)
            bufs[n] = v
        out.append(bufs)
    return out


def apply(params, x, state=None, lengths=None, cell="lstm", norm="ln", *, stats=None, training=True,
          mutable=False, batch_first=False, remat=False):
    """x (T,B,I) (batch_first: (B,T,I)) -> y (T,B,H), state: (h_n, c_n) for the LSTM, h_n for the RNN,
    each (num_layers, B, H); with mutable=True ((y, state), updated stats). See the module docstring.
    cell 'lstm' | 'rnn'; norm 'ln' | 'bn' | None ('none'); training: BatchNorm's batch statistics;
    remat: keep no residuals between forward and backward (the backward reruns the forward on the host).
    Under jit, make the strings and flags static (``jax.jit(partial(apply, cell=..., norm=...))``)."""
    spec = _spec(cell, norm)
    x = jnp.asarray(x)
    if x.ndim != 3:
        raise ValueError(f"x must be (T, B, I){' with batch_first (B, T, I)' if batch_first else ''}, got shape "
                         f"{tuple(x.shape)}.")
    dt = _check_dtype(x.dtype)
    given = tuple(x.shape)                                       # as passed: the refusal names it
    if batch_first:
        x = jnp.swapaxes(x, 0, 1)
    T, B, I = x.shape
    if T < 1 or B < 1:
        raise ValueError(f"x must hold at least one step and one sequence, got shape {given}.")
    layers, D = _layer_params(params, spec, I)
    for name, v in params.items():
        if jnp.asarray(v).dtype != dt:
            raise TypeError(f"{name} is {jnp.asarray(v).dtype} but x is {dt}: pass x, the state and the parameters "
                            "in one dtype.")
    L, H = len(layers) // D, params["weight_hh_l0"].shape[-1]
    states = _initial_states(state, spec, L, B, H, dt, D)
    lengths = _checked_lengths(lengths, T, B)
    bufs = _layer_stats(stats, spec, L, H, dt, T, bool(training), D)
    cfg = _Cfg(spec.name, bool(training), bool(remat))
    finals, new_stats, inp = [], {}, x
    for k in range(L):
        ys = []
        for d in range(D):
            # a backward direction: the same layer over each row's valid steps reversed, its y reversed back
            j = k * D + d
            y_j, final, nb = _layer(cfg, _reverse_valid(inp, lengths) if d else inp, states[j], layers[j], lengths,
                                    bufs[j])
            ys.append(_reverse_valid(y_j, lengths) if d else y_j)
            finals.append(final)
            for n, name, _ in _stat_names(spec, j, D):
                new_stats[name] = nb[n] if training else bufs[j][n]
        inp = jnp.concatenate(ys, axis=2) if D == 2 else ys[0]              # (T,B,D*H)
    y = inp
    if lengths is not None:  # padded steps read zero (their values take no gradient in the kernels)
        y = jnp.where((jnp.arange(T)[:, None] < lengths[None, :])[:, :, None], y, jnp.zeros((), dt))
    if batch_first:
        y = jnp.swapaxes(y, 0, 1)
    out_state = tuple(jnp.stack([f[i] for f in finals]) for i in range(spec.nstate))
    out = (y, out_state if spec.nstate == 2 else out_state[0])
    if mutable:
        return out, (new_stats if spec.buffers else {})
    return out
