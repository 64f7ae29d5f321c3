"""Layers that own their parameters, validate input at the boundary, and call the kernels.

    layer = RecurrentLayer("lstm", "ln", input_size=I, hidden_size=H, seed=0)
    y, state = layer.forward(x)            # x (T,B,I) -> y (T,B,H); state = (hT,) or (hT, cT)
    dx, dstate0 = layer.backward(dy)       # dy (T,B,H); parameter gradients accumulate into layer.grads

    stack = RecurrentStack("lstm", "ln", input_size=I, hidden_size=H, num_layers=2)
    y, states = stack.forward(x);  dx = stack.backward(dy)
    y_t, states = stack.step(x_t, states, t)          # one step from a given state (sampling)
    bi = RecurrentStack("lstm", "ln", I, H, num_layers=2, bidirectional=True)   # y (T,B,2H): [forward | backward]
    y, state = layer.forward(x, keep=False)   # inference: saves nothing, and backward then raises

Which cells exist, their parameters, initialization and kernels: the registry, ``lnrnn.model.cells``. A
layer looks its row up and never branches on the cell or the norm; it runs the row through the layer
function, ``lnrnn.model.functional`` (``forward``/``backward``), which the bindings run too.

Parameter names (symbols of the equations in ``lnrnn.kernels``):
    every cell      Wx (I,G), Wh (H,G), b (G,)
    lstm, ln        gx, bx, gh, bh (G,), gc, bc (H,)
    lstm, bn        gx, gh (G,), gc, bc (H,)        buffers rmx, rvx, rmh, rvh (Ts,G), rmc, rvc (Ts,H)
    rnn, ln         g (H,)  (b is the LayerNorm bias of eq. 4)
    rnn, bn         gx, gh (H,)                      buffers rmx, rvx, rmh, rvh (Ts,H)
Buffers are BatchNorm population statistics, one row per time step (Ts rows, grown on demand when a
longer training sequence arrives; inference beyond Ts reuses the last row).

Parameters and gradients are views into one contiguous buffer each (``lnrnn.model.flat``): ``layer.flat``
while a layer stands alone, the stack's (or model's) once it is packed into one.

keep: a forward keeps what its backward reads (x, the state, the kernels' saved tuple) unless
    keep=False, for forwards that no backward follows (evaluation, prediction, sampling). Then the
    plain and LN cells run their infer kernel (lstm_infer, rnn_infer: one step's buffers in place of
    the saved (T,B,*) arrays; y and the final state bit for bit the forward's), the BN cells their
    forward; either way nothing is kept, and backward raises. A masked LSTM forward (lengths given)
    runs the full forward even then: its final state reads c_t at each row's last step, which the
    infer kernel does not keep (``cells.Cell.infer_seqs``). Independent of ``training``, which is
    BatchNorm's choice of statistics (the BN gradient checks run training=False forwards backward).

Masks, chunks and steps
    lengths (B,) int: row b runs for steps t < lengths[b] (right padding). The final state of a row is
        its state after its last step (its initial state when lengths[b] = 0); dL/dy at padded steps is
        ignored (treated as zero), so padded steps add nothing to any gradient; BatchNorm statistics
        at a step count only the rows running there (the BN kernels take lengths).
    t0: the absolute time of x[0] when a sequence runs in chunks from a carried state: BatchNorm uses
        (and, training, updates) its per-step statistics t0 .. t0+T-1. Truncated BPTT is a chunk run
        after a chunk: backward stops at the chunk's initial state (dstate0 is returned, not carried).
"""
import numpy as np

from lnrnn.config import BN_MOMENTUM, EPS
from lnrnn.model import cells, functional
from lnrnn.model.flat import repack
from lnrnn.model.functional import check_lengths, gate_clip, grown, reverse_valid, stat_rows
from lnrnn.threadscope import scoped

# What the trainer may hook into every layer (None: nothing). ``lnrnn.training.prewarm.armed`` installs both for
# the first update: a training forward starts compiling its backward's time loop in another process,
# and the backward waits for it before calling its kernels (then Numba loads the loop from the cache).
HOOKS = {"training_forward": None,   # f(layer), on forwards that keep what a backward needs
         "before_backward": None}    # f(), before the backward kernels run


def _check_array(name, a, ndim, dtype, shape=None, device_ok=False):
    """Validate a at the boundary and return it C-contiguous. With device_ok, a CUDA device array (an
    activation passed between layers of a stack on 'cuda') is checked for shape and dtype only: its
    values never left the device, and checking them would copy them to the host."""
    if device_ok and not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host"):
        if a.ndim != ndim or (shape is not None and any(s is not None and s != d for s, d in zip(shape, a.shape))):
            raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
        if a.dtype != dtype:
            raise TypeError(f"{name} must be {np.dtype(dtype).name} like the layer's parameters, got {a.dtype}")
        return a
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, got {type(a).__name__}")
    if a.ndim != ndim or (shape is not None and any(s is not None and s != d for s, d in zip(shape, a.shape))):
        want = "(" + ",".join("?" if s is None else str(s) for s in shape) + ")" if shape else f"{ndim}-D"
        raise ValueError(f"{name} must have shape {want}, got {a.shape}")
    if a.dtype != dtype:
        raise TypeError(f"{name} must be {np.dtype(dtype).name} like the layer's parameters, got {a.dtype}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return np.ascontiguousarray(a)


def check_sizes(what, **sizes):
    """{name: value} of the sizes a layer (or a binding's constructor) takes -> {name: int}; ValueError naming
    ``what`` unless each is a whole number of at least 1 (an int, a NumPy integer or an integral float; not a
    bool, which would build a model of size 1, and not a string or None)."""
    out = {}
    for name, v in sizes.items():
        try:
            ok = not isinstance(v, (bool, str, bytes)) and int(v) == v and v >= 1
        except (TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            raise ValueError(f"{what}: {name} must be a positive integer, not {v!r}.")
        out[name] = int(v)
    return out


class RecurrentLayer:
    """One recurrent layer (a row of ``lnrnn.model.cells``) over whole sequences or chunks of them.
    clip_gates > 0 (LSTM cells): backward clips dL/d(gate preactivations) to +-clip_gates at every
    step (Graves 2013; ``gate_clip``)."""

    # (params, grads[, buffers]): dicts of device arrays, views of the model's device buffers, that a forward
    # reads and a backward adds into in place of the host dicts (and BN statistics a training forward of whole
    # sequences updates there); set by SequenceModel while a training update runs on the device
    # (lnrnn.training.train), else None
    device_views = None

    def __init__(self, cell, norm, input_size, hidden_size, dtype=np.float32, seed=0, forget_bias=1.0,
                 max_steps=1, eps=EPS, momentum=BN_MOMENTUM, rng=None, device="cpu", recurrent_init="orthogonal",
                 clip_gates=0.0):
        self.spec = cells.lookup(cell, norm)
        self.clip_gates = gate_clip(clip_gates, self.spec)
        self.I, self.H, max_steps = check_sizes(type(self).__name__, input_size=input_size, hidden_size=hidden_size,
                                                max_steps=max_steps).values()
        self.cell, self.norm = cell, norm
        self.dtype = np.dtype(dtype).type
        if self.dtype not in (np.float32, np.float64):
            raise TypeError(f"dtype must be float32 or float64, got {np.dtype(dtype).name}")
        self.eps, self.momentum = float(eps), float(momentum)
        self.forget_bias = float(forget_bias)
        if not np.isfinite(self.forget_bias):   # a NaN bias would train NaN and be written into an export's config
            raise ValueError(f"forget_bias must be a finite number, got {forget_bias}")
        rng = np.random.default_rng(seed) if rng is None else rng
        self.params = self.spec.init_params(rng, self.I, self.H, self.dtype, self.forget_bias, recurrent_init)
        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.flat = (repack([("", self.params)]), repack([("", self.grads)]))  # (params, grads) FlatArrays
        self.buffers = self.spec.init_buffers(self.H, max_steps, self.dtype)
        self._saved = None
        # The layer's setup (``functional.Setup``: its row's kernels on the device, the device's array moves,
        # the settings the row's adapters read): ValueError for an unknown device, CudaUnavailable (one
        # sentence) where CUDA cannot run. Parameters and gradients are NumPy arrays (the optimizer runs on
        # the host). On 'cuda' a forward uploads the parameters once and backward reuses those copies;
        # activations and saved state stay on the device, and with on_device=True so do y and dx (a stack
        # passes them between its layers without a host round trip).
        self.device = device
        self._reduce = None
        self._bind()

    def _bind(self):
        self.setup = functional.setup(self.spec, self.H, self.dtype, self.device, self.eps, self.momentum,
                                    self.clip_gates, self._reduce)
        self._k = self.setup.k

    @property
    def consts(self):
        """The unit gains and zero biases that stand in for the LN parameters of the kernels' plain variant."""
        return self.setup.facts.consts

    @property
    def nstate(self):
        return self.spec.nstate

    def zero_grad(self):
        for g in self.grads.values():
            g.fill(0)

    def set_batch_reduce(self, reduce):
        """Make BatchNorm statistics span a data-parallel group (``lnrnn.training.distributed``): reduce(buf)
        sums a 1-D buffer in place over the group, and the BN cells then run ``kernels.bn_sync``, whose
        per-step statistics and backward sums go through it. None: this process's batch alone (the
        fused kernels). LN and plain cells never mix rows and ignore it; CPU only."""
        if reduce is not None and self.norm == "bn":
            if self.device != "cpu":
                raise ValueError("synchronized BatchNorm across processes runs on the CPU only")
        else:
            reduce = None
        self._reduce = reduce
        self._bind()

    def zero_state(self, B):
        return tuple(np.zeros((B, self.H), self.dtype) for _ in range(self.nstate))

    def _grow_buffers(self, T):
        """Extend BN population statistics to T steps by repeating the last step's row (``functional.grown``)."""
        for k, v in self.buffers.items():
            self.buffers[k] = grown(v, T)

    def _buffer_rows(self, t0, T, training):
        """The BN statistics of steps t0 .. t0+T-1 as the kernels index them (row 0 = step t0): views
        that training updates in place, or, for inference, the rows min(t, Ts-1) gathered."""
        if not self.buffers:
            return {}
        if training:
            self._grow_buffers(t0 + T)
            if t0 == 0:
                return self.buffers
            return {k: v[t0:t0 + T] for k, v in self.buffers.items()}
        Ts = next(iter(self.buffers.values())).shape[0]
        if t0 == 0 and T <= Ts:
            return self.buffers
        rows = stat_rows(Ts, t0, T)
        return {k: np.ascontiguousarray(v[rows]) for k, v in self.buffers.items()}

    @scoped  # single-threaded BLAS inside the kernels' own threads (lnrnn.threadscope)
    def forward(self, x, state=None, training=True, on_device=False, lengths=None, t0=0, keep=True):
        """x (T,B,I) -> y (T,B,H), final state tuple. state: None (zeros) or (h0,) / (h0, c0), each (B,H).
        lengths, t0, keep: see the module docstring. On 'cuda', x may be a device array, and
        on_device=True returns y and the state as device arrays."""
        x = _check_array("x", x, 3, self.dtype, (None, None, self.I), device_ok=True)
        T, B, _ = x.shape
        if T < 1 or B < 1:
            raise ValueError(f"x must hold at least one step and one sequence, got shape {x.shape}")
        if int(t0) != t0 or t0 < 0:
            raise ValueError(f"t0 must be a non-negative integer, got {t0}")
        lengths = check_lengths(lengths, T, B)
        if state is None:
            state = self.zero_state(B)
        if len(state) != self.nstate:
            raise ValueError(f"a {self.cell} layer's state is a tuple of {self.nstate} "
                             f"array{'s' * (self.nstate != 1)}, got {len(state)}")
        # a device state: the previous chunk's final one, carried on the device (truncated BPTT on the device)
        state = tuple(_check_array(n, s, 2, self.dtype, (B, self.H), device_ok=True)
                      for n, s in zip(self.spec.state_names, state))
        if self.device_views and training and len(self.device_views) > 2:
            # BN statistics kept on the device (grown to the batch's T): steps t0.. updated in place there
            bufs = self.device_views[2] if t0 == 0 else {n: v[t0:t0 + T] for n, v in self.device_views[2].items()}
        else:
            bufs = self._buffer_rows(int(t0), T, training)
        # Drop the previous step's activations before this step allocates its own: the allocator then
        # reuses their pages (S1: 0.4 GB that were otherwise faulted in afresh) and the peak stays one step's.
        self._saved = None
        k = self._k
        x = k.to_device(x)
        state = tuple(k.to_device(s) for s in state)
        # uploaded once per step on 'cuda', unless the update runs on the device (``device_views``)
        p = self.device_views[0] if self.device_views else {n: k.to_device(v) for n, v in self.params.items()}
        if keep and training and HOOKS["training_forward"] is not None:
            HOOKS["training_forward"](self)  # the trainer's cold first update (HOOKS)
        y, out_state, saved = functional.forward(self.setup, x, state, p, bufs, training, lengths, keep)
        fetch = (lambda a: a) if on_device else k.to_host
        y, out_state = fetch(y), tuple(fetch(s) for s in out_state)
        self._saved = (x, state, saved, p, lengths) if keep else None
        return y, out_state

    @scoped
    def backward(self, dy, on_device=False):
        """dy (T,B,H) = dL/dy -> dx (T,B,I), dstate0 (dh0,) or (dh0, dc0). Adds into self.grads.
        On 'cuda', dy may be a device array, and on_device=True returns dx as one (dstate0 and the
        parameter gradients always come back to the host)."""
        if self._saved is None:
            raise RuntimeError("backward called before forward, or after an inference forward (keep=False), "
                               "which keeps nothing for it")
        x, state, saved, p, lengths = self._saved
        T, B, _ = x.shape
        dy = _check_array("dy", dy, 3, self.dtype, (T, B, self.H), device_ok=True)
        if HOOKS["before_backward"] is not None:
            HOOKS["before_backward"]()  # e.g. another process compiling this backward's loop (HOOKS)
        g, k = self.grads, self._k
        dx, dstate, dp = functional.backward(self.setup, dy, saved, x, state, p, lengths)  # padded steps add nothing
        if self.device_views:  # the update runs on the device: gradients and dstate0 stay there
            from lnrnn.kernels.cuda.arrays_cuda import add_into
            for n, d in zip(self.spec.grads, dp):
                add_into(self.device_views[1][n], d)
            return (dx if on_device else k.to_host(dx)), tuple(dstate)
        # the parameter gradients go to the host optimizer; dx stays on the device when asked (a stack on
        # 'cuda' passes it to the layer below): to_host is the identity on the CPU
        dstate, dp = k.to_host(tuple(dstate)), k.to_host(tuple(dp))
        for n, d in zip(self.spec.grads, dp):
            g[n] += d
        return (dx if on_device else k.to_host(dx)), tuple(dstate)


class RecurrentStack:
    """num_layers RecurrentLayers, each feeding its output sequence to the next.

    skip=True is Graves's (2013) stack: the input feeds every layer (layer k > 0 reads [x | h_{k-1}],
    I + H wide) and every layer feeds the output, y = [h_0 | ... | h_{L-1}] (T,B,L*H): gradients
    reach the lower layers and the input through one step of depth.

    bidirectional=True: every layer has a forward and a backward direction, each a RecurrentLayer with
    its own parameters (``layers`` holds them layer by layer, forward first: [l0, l0 backward, l1, ...];
    states and ``dstate0`` follow that order; parameter names l{k}.* and l{k}_reverse.*). The backward
    direction runs the same kernels over each row's own valid steps reversed (``functional.reverse_valid``:
    step t of the reversed row is step L_b-1-t of the input; padding stays padding), and its output
    and gradients go back through the same reversal. A layer's output per step is [forward | backward]
    (2H wide), the next layer's input (with skip, [x | h_{k-1}], I + 2H wide; y = [h_0 | ... ], L*2H).
    The backward direction's final state is its state after the row's first step. BatchNorm: each
    direction keeps its own per-step statistics, indexed by its own time: BN_t of the backward
    direction is over the rows active at reversed step t (those with L_b > t, as for the forward
    direction's step t). A bidirectional stack reads whole sequences: no chunks from a carried state
    (t0 > 0, truncated BPTT) and no ``step``."""

    def __init__(self, cell, norm, input_size, hidden_size, num_layers=1, dtype=np.float32, seed=0,
                 forget_bias=1.0, max_steps=1, eps=EPS, momentum=BN_MOMENTUM, device="cpu", skip=False,
                 recurrent_init="orthogonal", clip_gates=0.0, bidirectional=False):
        if int(num_layers) != num_layers or num_layers < 1:
            raise ValueError(f"num_layers must be a positive integer, got {num_layers}")
        rng = np.random.default_rng(seed)
        self.skip = bool(skip)
        self.bidirectional = bool(bidirectional)
        self.directions = D = 2 if self.bidirectional else 1
        I, H = int(input_size), int(hidden_size)
        W = D * H                                                   # one layer's output width
        self.layers = self._make_layers(cell, norm, I, H, int(num_layers), rng, dict(
            dtype=dtype, forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum, device=device,
            recurrent_init=recurrent_init, clip_gates=clip_gates))
        self.config = dict(cell=cell, norm=norm, input_size=I, hidden_size=H,
                           num_layers=int(num_layers), dtype=np.dtype(dtype).name, forget_bias=float(forget_bias))
        if self.skip:
            self.config["skip"] = True
        if self.bidirectional:
            self.config["bidirectional"] = True
        self.output_size = W * int(num_layers) if self.skip else W
        # (output_size,) True where a column of y comes from a backward direction ([fwd | bwd] per layer)
        self.reverse_columns = np.tile(np.arange(W) >= H, int(num_layers) if self.skip else 1)
        self.dstate0 = None
        self.flat = (repack(self.param_leaves()), repack(self.grad_leaves()))
        for layer in self.layers:
            layer.flat = None  # their arrays are views of the stack's buffers now

    def _make_layers(self, cell, norm, I, H, num_layers, rng, kw):
        """The stack's layers, bottom up (each layer's directions forward first), drawing their initial
        parameters from rng in that order; kw: RecurrentLayer's keyword arguments. A stack of other layers
        (``lnrnn.model.window.WindowStack``) overrides this and shares the rest of __init__."""
        W = self.directions * H
        return [RecurrentLayer(cell, norm, I if k == 0 else (I + W if self.skip else W), H, rng=rng, **kw)
                for k in range(num_layers) for _ in range(self.directions)]

    def _name(self, j):
        """The name prefix of self.layers[j]: l{k}. (forward) or l{k}_reverse. (backward direction)."""
        k, rev = divmod(j, self.directions)
        return f"l{k}_reverse." if rev else f"l{k}."

    def param_leaves(self, prefix=""):
        """[(prefix, dict)] of every parameter dict (lnrnn.model.flat.repack)."""
        return [(prefix + self._name(j), layer.params) for j, layer in enumerate(self.layers)]

    def grad_leaves(self, prefix=""):
        return [(prefix + self._name(j), layer.grads) for j, layer in enumerate(self.layers)]

    def _merged(self, attr):
        return {self._name(j) + n: v for j, layer in enumerate(self.layers) for n, v in getattr(layer, attr).items()}

    @property
    def params(self):
        return self._merged("params")

    @property
    def grads(self):
        return self._merged("grads")

    @property
    def buffers(self):
        return self._merged("buffers")

    def load_buffers(self, buffers):
        """Set BN statistics from a {name: array} dict as ``buffers`` returns (shapes may differ in Ts)."""
        for j, layer in enumerate(self.layers):
            for n in layer.buffers:
                layer.buffers[n] = np.ascontiguousarray(buffers[self._name(j) + n], dtype=layer.dtype)

    def zero_grad(self):
        for layer in self.layers:
            layer.zero_grad()

    def set_batch_reduce(self, reduce):
        """Every layer's ``RecurrentLayer.set_batch_reduce``."""
        for layer in self.layers:
            layer.set_batch_reduce(reduce)

    def zero_state(self, B):
        """Zero initial states: one tuple per layer (per direction: ``self.layers``)."""
        return [layer.zero_state(B) for layer in self.layers]

    @property
    def device(self):
        return self.layers[0].device

    def forward(self, x, state=None, training=True, on_device=False, lengths=None, t0=0, keep=True):
        """x (T,B,I) -> y (T,B,H) of the top layer, list of final state tuples (one per layer). On
        'cuda' the sequence passes between layers on the device; on_device=True leaves y and every
        layer's states there too (the host gets nothing until the caller asks), on_device=False hands
        them all back as NumPy arrays. lengths, t0, keep (False: inference, no backward follows): see
        the module docstring."""
        if state is not None and len(state) != len(self.layers):
            raise ValueError(f"state must hold one entry per layer ({len(self.layers)}), got {len(state)}")
        if self.bidirectional:
            return self._forward_bidirectional(x, state, training, lengths, t0, keep, on_device)
        if self.skip:
            return self._forward_skip(x, state, training, lengths, t0, keep, on_device)
        states = []
        last = len(self.layers) - 1
        for k, layer in enumerate(self.layers):
            x, s = layer.forward(x, None if state is None else state[k], training, on_device or k < last,
                                 lengths=lengths, t0=t0, keep=keep)
            states.append(s)
        if self.device == "cuda" and not on_device:  # the layers below the top kept theirs on the device
            states = self.layers[0]._k.to_host(states)
        return x, states

    def backward(self, dy, on_device=False):
        """dy (T,B,H) -> dx (T,B,I); self.dstate0 holds each layer's initial-state gradient. On 'cuda'
        dy may be a device array; dx passes between layers on the device (to the host at the bottom
        unless on_device)."""
        if self.bidirectional:
            return self._backward_bidirectional(dy, on_device)
        if self.skip:
            return self._backward_skip(dy, on_device)
        dstate = []
        for k, layer in reversed(list(enumerate(self.layers))):
            dy, ds = layer.backward(dy, on_device or k > 0)
            dstate.append(ds)
        self.dstate0 = dstate[::-1]
        return dy

    def _forward_skip(self, x, state, training, lengths, t0, keep, on_device=False):
        """Graves's stack: layer k reads [x | h_{k-1}]; y = [h_0 | ... | h_{L-1}]. On 'cuda' the columns are
        joined on the device (the backend's ``join_columns``, the synthesis stack's) and y stays there with
        on_device=True; on the CPU, NumPy's concatenate."""
        dev = self.device == "cuda"
        kn = self.layers[0]._k
        x = _check_array("x", x, 3, self.layers[0].dtype, (None, None, self.layers[0].I), device_ok=dev)
        if dev:
            x = kn.to_device(x)
        join = kn.join_columns if dev else (lambda parts: np.concatenate(parts, axis=2))
        ys, states, inp = [], [], x
        for k, layer in enumerate(self.layers):
            h, s = layer.forward(inp, None if state is None else state[k], training, on_device=dev, lengths=lengths,
                                 t0=t0, keep=keep)
            ys.append(h)
            states.append(s)
            if k + 1 < len(self.layers):
                inp = join([x, h])                                         # (T,B,I+H)
        y = join(ys)                                                       # (T,B,L*H)
        if dev and not on_device:
            return kn.to_host(y), kn.to_host(states)
        return y, states

    def _backward_skip(self, dy, on_device=False):
        """dy (T,B,L*H) -> dx (T,B,I): each layer's share of dy plus what the layer above sent back
        through its h input; every layer's x input adds into dx. On 'cuda' the columns are split and added on
        the device (the backend's ``take_columns``), and dx stays there with on_device=True."""
        H, I = self.layers[0].H, self.layers[0].I
        dev = self.device == "cuda"
        kn = self.layers[0]._k
        dy = _check_array("dy", dy, 3, self.layers[0].dtype, (None, None, self.output_size), device_ok=dev)
        if dev:
            dy = kn.to_device(dy)  # once: every layer takes its columns from it
        dx, dh_above, dstate = None, None, []
        for k in reversed(range(len(self.layers))):
            if dev:
                d_in, ds = self.layers[k].backward(kn.take_columns(dy, k * H, (k + 1) * H, dh_above), on_device=True)
                dstate.append(ds)
                dx = kn.take_columns(d_in, 0, I, dx)
                dh_above = kn.take_columns(d_in, I, I + H) if k > 0 else None
                continue
            dyk = np.ascontiguousarray(dy[:, :, k * H:(k + 1) * H])
            if dh_above is not None:
                dyk = dyk + dh_above
            d_in, ds = self.layers[k].backward(dyk)
            dstate.append(ds)
            dx = d_in[:, :, :I] if dx is None else dx + d_in[:, :, :I]
            dh_above = np.ascontiguousarray(d_in[:, :, I:]) if k > 0 else None
        self.dstate0 = dstate[::-1]
        if dev:
            return dx if on_device else kn.to_host(dx)
        return np.ascontiguousarray(dx)

    def _reversal(self, T, B, lengths):
        """The reversal of a bidirectional stack's sequences (``functional.reverse_valid``) for this batch: on
        'cuda' its device twin (``arrays_cuda.reverse_valid``; the lengths uploaded once, for the forward and
        the backward), on the CPU NumPy's."""
        if self.device != "cuda":
            return lambda a: reverse_valid(a, lengths)
        from lnrnn.kernels.cuda import arrays_cuda
        L = arrays_cuda.to_device(np.full(B, T, np.int64) if lengths is None else np.asarray(lengths, np.int64))
        return lambda a: arrays_cuda.reverse_valid(a, L)

    def _forward_bidirectional(self, x, state, training, lengths, t0, keep, on_device=False):
        """Both directions of every layer (the class docstring): layer k's y is [forward | backward reversed
        back] (T,B,2H); with skip, y = [y_0 | ... | y_{L-1}]. On 'cuda' the reversals and joins run on the
        device (the backend's ``join_columns``) and y stays there with on_device=True."""
        if t0 != 0:
            raise ValueError("a bidirectional stack reads whole sequences; it cannot run a chunk from a carried "
                             f"state (t0={t0})")
        dev = self.device == "cuda"
        kn = self.layers[0]._k
        x = _check_array("x", x, 3, self.layers[0].dtype, (None, None, self.layers[0].I), device_ok=dev)
        lengths = check_lengths(lengths, x.shape[0], x.shape[1])
        self._reverse = rev = self._reversal(x.shape[0], x.shape[1], lengths)
        x = kn.to_device(x)
        ys, states, inp = [], [], x
        for j in range(0, len(self.layers), 2):
            fwd, bwd = self.layers[j], self.layers[j + 1]
            st = (None, None) if state is None else (state[j], state[j + 1])
            hf, sf = fwd.forward(inp, st[0], training, on_device=dev, lengths=lengths, keep=keep)
            hb, sb = bwd.forward(rev(inp), st[1], training, on_device=dev, lengths=lengths, keep=keep)
            h = kn.join_columns([hf, rev(hb)])                                 # (T,B,2H)
            ys.append(h)
            states += [sf, sb]
            inp = kn.join_columns([x, h]) if self.skip else h                   # the next layer's input
        y = kn.join_columns(ys) if self.skip else ys[-1]
        if dev and not on_device:
            return kn.to_host(y), kn.to_host(states)
        return y, states

    def _backward_bidirectional(self, dy, on_device=False):
        """dy (T,B,output_size) -> dx (T,B,I): each direction's share of a layer's dL/dy (the backward
        direction's through the reversal), plus, from the layer above, dL/d(its input); with skip,
        every layer's x input adds into dx. On 'cuda' the columns are split, reversed and added on the
        device, and dx stays there with on_device=True."""
        rev, H, I = self._reverse, self.layers[0].H, self.layers[0].I
        W, L = 2 * H, len(self.layers) // 2
        dev = self.device == "cuda"
        kn = self.layers[0]._k
        dy = kn.to_device(_check_array("dy", dy, 3, self.layers[0].dtype, (None, None, self.output_size),
                                       device_ok=dev))
        dx, d_above, dstate = None, None, []
        for k in reversed(range(L)):
            if self.skip:
                dyk = kn.take_columns(dy, k * W, (k + 1) * W, d_above)
            else:
                dyk = dy if k == L - 1 else d_above
            fwd, bwd = self.layers[2 * k], self.layers[2 * k + 1]
            df, dsf = fwd.backward(kn.take_columns(dyk, 0, H), on_device=dev)
            db, dsb = bwd.backward(rev(kn.take_columns(dyk, H, W)), on_device=dev)
            d_in = _add(df, rev(db), dev)                                       # dL/d(layer k's input)
            dstate += [dsb, dsf]
            if self.skip:
                dx = kn.take_columns(d_in, 0, I, dx)
                d_above = kn.take_columns(d_in, I, I + W) if k > 0 else None
            elif k > 0:
                d_above = d_in
            else:
                dx = d_in
        self.dstate0 = dstate[::-1]
        if dev:
            return dx if on_device else kn.to_host(dx)
        return np.ascontiguousarray(dx)

    def step(self, x_t, state=None, t=0, training=False):
        """One inference step from a given state: x_t (B,I) -> y_t (B,H), new states (one tuple per
        layer). The same kernels as whole sequences (a chunk of one step at time t, for BN's
        statistics), with keep=False: no backward follows a step."""
        if self.bidirectional:
            raise ValueError("a bidirectional stack reads whole sequences; it has no step (no sampling)")
        if not isinstance(x_t, np.ndarray) or x_t.ndim != 2:
            raise ValueError(f"x_t must be a (B,I) array, got {getattr(x_t, 'shape', type(x_t).__name__)}")
        y, states = self.forward(x_t[None], state, training=training, t0=t, keep=False)
        return y[0], states


def _add(a, b, dev):
    """a + b: on the device into a (``arrays_cuda.add_into``), on the CPU a new array."""
    if dev:
        from lnrnn.kernels.cuda.arrays_cuda import add_into
        return add_into(a, b)
    return a + b
