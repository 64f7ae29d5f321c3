"""``lnrnn.torch``: lnrnn's cells as ``torch.nn.LSTM`` / ``torch.nn.RNN``-shaped PyTorch modules.

    import lnrnn.torch
    m = lnrnn.torch.LSTM(28, 128, num_layers=2, norm="ln", batch_first=True)    # was: nn.LSTM(28, 128, ...)
    out, (h_n, c_n) = m(x)                       # x (B,T,I) -> out (B,T,H); h_n, c_n (num_layers,B,H)
    out, (h_n, c_n) = m(x, (h0, c0), lengths=lengths)    # right-padded rows: h_n at each row's last step
    out, h_n = lnrnn.torch.RNN(28, 128, norm="bn")(x)
    bi = lnrnn.torch.LSTM(28, 128, num_layers=2, bidirectional=True)  # out (T,B,2H); h_n (2*num_layers,B,H)
    h, c = lnrnn.torch.LSTMCell(28, 128, norm="ln")(x_t, (h, c))    # one step: x_t (B,I) -> h, c (B,H)
    stack, head = lnrnn.torch.from_run("runs/x")           # a trained run folder: the stack and its nn.Linear

Design. One recurrent layer over the whole sequence is one custom operator (``lnrnn::layer_forward``,
defined with ``torch.library``: ``_op``) whose implementation is ``lnrnn.model.functional.layer_forward``
(the layer function every lnrnn layer runs); its backward is a second custom op (``lnrnn::layer_backward``,
``functional.layer_backward``: the hand-written BPTT kernels) called from the formula given to
``register_autograd``. Both ops have fake implementations
(shapes only: the residuals' layout is ``functional.residual_layout``), so ``torch.compile`` and
``torch.library.opcheck`` see through them. The ops work in lnrnn's layout (Wx (I,G), Wh (H,G), one b);
the modules keep PyTorch's (``weight_ih_l{k}`` (G,I) = Wx.T, ``weight_hh_l{k}`` = Wh.T, and the two
biases ``bias_ih_l{k} + bias_hh_l{k}`` = b) and map between them with ordinary torch ops, which autograd
and the compiler follow. Parameter and buffer names are those of ``lnrnn export`` (``lnrnn/interop/export.py``)
without its ``rnn.`` prefix, so a plain ``LSTM(norm=None)`` loads a ``torch.nn.LSTM``'s state_dict as it is.

Shapes (time-major unless batch_first): x (T,B,I), out (T,B,D*H) (T,B,L*D*H with skip connections), hx and
h_n, c_n (L*D,B,H), D = 2 when bidirectional (else 1); the layer ops take x (T,B,I), state [h0 (B,H)] or [h0, c0], params in the cell's
order (``cells.Cell.param_shapes``), BN buffers [rm*, rv* (Ts,width)] (``cells.Cell.buffers``).

Lengths. ``lengths`` (B,) (or a PackedSequence input) marks right padding: each row's final state is
its state after its own last step (h0 where its length is 0), padded steps of ``out`` are zeros and
take no gradient, and BN's batch statistics count the running rows only.

BatchNorm. ``train()``: batch statistics per step, and the running statistics (buffers
``norm_*_running_mean/var_l{k}``, one row per step) are updated; a training sequence longer than the
buffers first grows them (new rows repeat the last). ``eval()``: the running statistics (steps past the
buffers' rows reuse the last row). ``register_autograd`` takes only functional ops, so the forward op
returns the updated statistics as new tensors and the module copies them into its buffers (``copy_``,
which ``torch.compile`` sees as a buffer mutation) instead of declaring them as mutated arguments.

Bidirectional (``bidirectional=True``, as nn.LSTM's). Every layer has a backward direction with its own
parameters (``weight_ih_l{k}_reverse``, ...: nn.LSTM's names, so its state_dict loads as it is), run by the
same op over each row's valid steps reversed (``_reverse_valid``, torch's twin of
``functional.reverse_valid``: the backward direction starts at each row's last valid step); its output is
reversed back and out is [forward | backward] (2H); layer k > 0 reads both (2H inputs; I + 2H with skip).
h_n, c_n and hx are (num_layers*2, B, H), layer-major and direction-minor (row 2k + d), as nn.LSTM's; the
backward direction's final state is its state after the row's first step. BN: statistics per direction
(``..._l{k}_reverse`` buffers), indexed by the direction's own time, as ``RecurrentStack``'s.

One step. ``LSTMCell`` / ``RNNCell`` (nn.LSTMCell's arguments and names, without ``_l0``) run the same op
over one step (x (1,B,I)); both h' and c' take gradients. norm='bn' is refused: its statistics are per
time step, and a step does not know its time.

Limits. The final cell state c_n takes a gradient where the kernels take its seed (the plain and LN
LSTM, no lengths: ``functional.takes_dc_n``); elsewhere (BN, ragged rows) a backward with a non-zero
dL/dc_n raises NotImplementedError (use ``out`` or h_n in the loss, or detach c_n). h_n and ``out``
are fully differentiable, as are h0 and c0. No double backward, no projections (``proj_size``).
float32 and float64 only.

Memory and threads. Contiguous CPU tensors reach the kernels as NumPy views (``Tensor.numpy()``) and
the results come back as ``torch.from_numpy`` wrappers: nothing is copied but the small transposed
weights. Each call runs inside ``lnrnn.threadscope.kernel_threads`` (single-threaded BLAS under the
kernels' own threads) and leaves ``torch.get_num_threads()`` as it was. CUDA tensors: see ``_Cuda``.
"""
import contextlib
import functools
import sys
from typing import Optional

import numpy as np
import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import PackedSequence, pad_packed_sequence

from lnrnn.interop.export import PARAM_NAMES, exported_config, read_safetensors
from lnrnn.model import cells
from lnrnn.model import functional
from lnrnn.model.layers import check_sizes

__all__ = ["LSTM", "RNN", "LSTMCell", "RNNCell", "from_run", "load_exported", "layer_forward", "layer_backward"]

DTYPES = (torch.float32, torch.float64)
_NORMS = {None: "none", "none": "none", "ln": "ln", "bn": "bn"}


# ---- tensors <-> the kernels' arrays ----

class _Host:
    """CPU: contiguous tensors as NumPy views, NumPy results as tensors sharing their memory."""

    device = "cpu"

    @staticmethod
    def array(t):
        return t.detach().contiguous().numpy()

    @staticmethod
    def tensor(a, like):
        return torch.from_numpy(a)

    @staticmethod
    def running(like):
        return contextlib.nullcontext()


class _Cuda:
    """CUDA: tensors reach lnrnn's ``numba.cuda`` twins as device-array views (``as_cuda_array(t,
    sync=False)``), results come back through ``__cuda_array_interface__`` (``torch.as_tensor``): no
    copy through the host. The twins launch on Numba's default stream, not on a stream handed to them:
    on PyTorch's default stream (the usual case) the legacy default stream orders them with torch's own
    work; on another current stream (``numba.cuda.external_stream`` of it) the call waits for that stream
    before the kernels and for the kernels before it returns. Untested here without a GPU."""

    device = "cuda"

    @staticmethod
    def array(t):
        from numba import cuda
        return cuda.as_cuda_array(t.detach().contiguous(), sync=False)

    @staticmethod
    def tensor(a, like):
        return torch.as_tensor(a, device=like.device)

    @staticmethod
    @contextlib.contextmanager
    def running(like):
        from numba import cuda
        current = torch.cuda.current_stream(like.device)
        side = current.cuda_stream != torch.cuda.default_stream(like.device).cuda_stream
        if side:
            cuda.external_stream(current.cuda_stream).synchronize()  # its writes of our inputs are done
        try:
            yield
        finally:
            if side:
                cuda.default_stream().synchronize()                     # our results are done before it reads


def _convert(t):
    return _Cuda if t.device.type == "cuda" else _Host


def _span(a):
    """(first byte, one past the last) an array's elements may touch (host or CUDA array interface)."""
    info = getattr(a, "__cuda_array_interface__", None) or a.__array_interface__
    ptr, item = info["data"][0], np.dtype(info["typestr"]).itemsize
    strides = info.get("strides") or [None] * len(info["shape"])
    lo = hi = ptr
    step = item
    for n, s in reversed(list(zip(info["shape"], strides))):
        s = step if s is None else s
        lo, hi = lo + min(0, s * (n - 1)), hi + max(0, s * (n - 1))
        step *= n
    return lo, hi + item


def _fresh(arrays, taken):
    """Copy any array that overlaps one in ``taken`` (inputs, earlier outputs): an op's outputs must
    alias neither its inputs nor each other. Rare (a kernel's final state may be a view of y)."""
    out = []
    for a in arrays:
        if a.size:
            lo, hi = _span(a)
            if any(lo < e and b < hi for b, e in taken):
                a = a.copy() if isinstance(a, np.ndarray) else _device_copy(a)
                lo, hi = _span(a)
            taken.append((lo, hi))
        out.append(a)
    return out


def _device_copy(a):
    from lnrnn.kernels.cuda.arrays_cuda import copy
    return copy(a)


def check_tensors(where, **tensors):
    """One sentence for what the kernels cannot take: other dtypes, mixed dtypes, CPU/CUDA mixes."""
    named = [(n, t) for n, t in tensors.items() if t is not None]
    for n, t in named:
        if t.dtype not in DTYPES:
            raise TypeError(f"{where}: {n} is {t.dtype}, but lnrnn's kernels run float32 or float64 only: "
                            f"pass {n}.float() (and a float32 module) or .double().")
    dtypes = {t.dtype for _, t in named}
    if len(dtypes) > 1:
        listed = ", ".join(f"{n} {t.dtype}" for n, t in named)
        raise TypeError(f"{where}: mixed dtypes ({listed}): pass every tensor in the module's dtype "
                        "(x.to(m.weight_ih_l0.dtype)).")
    devices = {t.device for _, t in named}   # cuda:0 and cuda:1 are two
    if len(devices) > 1 or not {d.type for d in devices} <= {"cpu", "cuda"}:
        listed = ", ".join(f"{n} on {t.device}" for n, t in named)
        raise RuntimeError(f"{where}: tensors on {listed}: lnrnn runs on the CPU or on one CUDA device; move "
                           "the input and states to the module's device (x.to(m.weight_ih_l0.device)).")


def _host_lengths(lengths):
    return None if lengths is None else lengths.detach().cpu().numpy()


# ---- the two ops ----

def _untraced(impl):
    """impl as an op's implementation that torch.compile does not trace into, as ``torch.library.custom_op``
    makes it (with ``torch._dynamo.disable``), but without importing torch._dynamo for it: until something
    imports it (torch.compile does) nothing can be tracing, and importing it is most of a first call's cost
    (``import torch._dynamo``: about 2 CPU seconds, docs/bindings.md)."""
    disabled = []

    @functools.wraps(impl)
    def run(*args):
        dynamo = sys.modules.get("torch._dynamo")
        if dynamo is None:
            return impl(*args)
        if not disabled:
            disabled.append(dynamo.disable(impl))
        return disabled[0](*args)
    return run


def _op(name, impl, fake):
    """Define the functional op ``lnrnn::<name>`` (no argument mutated) with impl's annotated signature,
    impl (``_untraced``) for every device and ``fake`` (shapes only) for torch.compile and opcheck
    -> the op, ``torch.ops.lnrnn.<name>``."""
    qualname = f"lnrnn::{name}"
    torch.library.define(qualname, torch.library.infer_schema(impl, mutates_args=()))
    torch.library.impl(qualname, "default", _untraced(impl))
    torch.library.register_fake(qualname, fake)
    return getattr(torch.ops.lnrnn, name)


def _layer_forward(x: Tensor, state: list[Tensor], params: list[Tensor], buffers: list[Tensor],
                  lengths: Optional[Tensor], cell: str, training: bool, keep: bool
                  ) -> tuple[Tensor, list[Tensor], list[Tensor], list[Tensor]]:
    """One layer over the whole sequence: x (T,B,I), state [h0 (B,H)(, c0)], params in the cell's order,
    BN buffers [rm, rv, ...] (Ts >= T when training), lengths (B,) int64 on the CPU or None
    -> y (T,B,H), final state list, residuals (``functional.residual_layout``; [] when keep=False),
    the updated BN buffers (training; [] otherwise)."""
    spec = cells.get(cell)
    check_tensors(f"lnrnn {cell} layer", x=x, **{f"state[{i}]": s for i, s in enumerate(state)},
                  **dict(zip(spec.param_names, params)), **dict(zip(spec.buffer_names, buffers)))
    conv = _convert(x)
    new_buffers = [b.clone() for b in buffers] if training else []    # the kernels update these in place
    arr = conv.array
    xs, st, ps = arr(x), [arr(s) for s in state], [arr(p) for p in params]
    bufs = [arr(b) for b in (new_buffers if training else buffers)]
    with conv.running(x):
        y, final, res = functional.layer_forward(cell, xs, tuple(st), dict(zip(spec.param_names, ps)),
                                                 lengths=_host_lengths(lengths), training=training,
                                                 buffers=dict(zip(spec.buffer_names, bufs)),
                                                 device=conv.device, keep=keep)
        # _fresh may copy on the device: inside, so that a side stream waits for the copies too
        y, *rest = _fresh([y, *final, *res], [_span(a) for a in (xs, *st, *ps, *bufs) if a.size])
    final, res = rest[:len(final)], rest[len(final):]
    return (conv.tensor(y, x), [conv.tensor(a, x) for a in final], [conv.tensor(a, x) for a in res],
            new_buffers)


def _layer_forward_fake(x, state, params, buffers, lengths, cell, training, keep):
    T, B, I = x.shape
    H = state[0].shape[1]
    res = []
    if keep:
        device = "cuda" if x.device.type == "cuda" else "cpu"
        for shape, dt in functional.residual_layout(cell, T, B, I, H, _numpy_dtype(x.dtype), device):
            res.append(x.new_empty(shape, dtype=_torch_dtype(dt)))
    return (x.new_empty((T, B, H)), [s.new_empty(s.shape) for s in state], res,
            [b.new_empty(b.shape) for b in buffers] if training else [])


layer_forward = _op("layer_forward", _layer_forward, _layer_forward_fake)


def _layer_backward(res: list[Tensor], x: Tensor, state: list[Tensor], params: list[Tensor], y: Tensor, dy: Tensor,
                   dfinal: list[Tensor], lengths: Optional[Tensor], cell: str, training: bool
                   ) -> tuple[Tensor, list[Tensor], list[Tensor]]:
    """The hand-written BPTT of ``layer_forward``: its residuals, inputs and y, dy (T,B,H) = dL/dy,
    dfinal = [dL/dh_n (B,H)(, dL/dc_n (B,H): plain and LN LSTM, rows of full length)] -> dx, [dh0(, dc0)],
    parameter gradients in order."""
    spec = cells.get(cell)
    conv = _convert(x)
    ins = [conv.array(t) for t in (*res, x, *state, *params, y, dy, *dfinal)]
    r, n_s, n_p = len(res), len(state), len(params)
    st, ps = ins[r + 1:r + 1 + n_s], ins[r + 1 + n_s:r + 1 + n_s + n_p]
    y_a, dy_a, df = ins[r + 1 + n_s + n_p], ins[r + 2 + n_s + n_p], ins[r + 3 + n_s + n_p:]
    with conv.running(x):
        dx, d0, grads = functional.layer_backward(cell, ins[:r], ins[r], tuple(st), dict(zip(spec.param_names, ps)),
                                                  y_a, dy_a, dfinal=tuple(df), lengths=_host_lengths(lengths),
                                                  training=training, device=conv.device)
        outs = _fresh([dx, *d0, *(grads[n] for n in spec.param_names)], [_span(a) for a in ins if a.size])
    outs = [conv.tensor(a, x) for a in outs]
    return outs[0], outs[1:1 + n_s], outs[1 + n_s:]


def _layer_backward_fake(res, x, state, params, y, dy, dfinal, lengths, cell, training):
    return x.new_empty(x.shape), [s.new_empty(s.shape) for s in state], [p.new_empty(p.shape) for p in params]


layer_backward = _op("layer_backward", _layer_backward, _layer_backward_fake)


def _setup_context(ctx, inputs, output):
    x, state, params, buffers, lengths, cell, training, keep = inputs
    y, final, res, _ = output
    ctx.cell, ctx.training, ctx.has_lengths = cell, training, lengths is not None
    ctx.sizes = (len(state), len(params), len(res), len(buffers))
    ctx.save_for_backward(x, y, *state, *params, *res, *([lengths] if lengths is not None else []))
    # c_n takes a gradient where the kernels take its seed (functional.takes_dc_n: plain and LN LSTM, every
    # row running all T steps); elsewhere _cell_state_guard refuses one. Residuals are the backward's, not results.
    ctx.seeds_c = len(final) > 1 and lengths is None and functional.takes_dc_n(cells.get(cell))
    ctx.mark_non_differentiable(*res, *([] if ctx.seeds_c else final[1:]))
    ctx.set_materialize_grads(False)  # no zero-filled (T,B,G) gradients for the residuals: None instead


def _backward(ctx, dy, dfinal, dres, dbuffers):
    n_s, n_p, n_r, n_b = ctx.sizes
    x, y, *rest = ctx.saved_tensors
    state, params, res = rest[:n_s], rest[n_s:n_s + n_p], rest[n_s + n_p:n_s + n_p + n_r]
    lengths = rest[-1] if ctx.has_lengths else None
    if n_r == 0:
        raise RuntimeError("this lnrnn layer ran with keep=False (no backward was expected): run it with "
                           "gradients enabled.")
    dy = torch.zeros_like(y) if dy is None else dy.contiguous()
    seeds = [torch.zeros_like(state[0]) if d is None else d.contiguous()
             for d in dfinal[:2 if ctx.seeds_c else 1]]                    # [dh_n(, dc_n)] (B,H)
    dx, dstate, dparams = layer_backward(list(res), x, list(state), list(params), y, dy, seeds, lengths,
                                         ctx.cell, ctx.training)
    return dx, dstate, dparams, [None] * n_b, None, None, None, None


torch.library.register_autograd("lnrnn::layer_forward", _backward, setup_context=_setup_context)


# ---- c_n where the kernels take no gradient for it ----
# The BN-LSTM's kernels take no seed for dL/dc_n, nor does any kernel for a row that ends inside the sequence,
# and torch.library.opcheck seeds every differentiable output of an op, so there c_n leaves layer_forward
# non-differentiable and gets its refusal here: c_n + guard(h_n), where the guard is zeros (B,H) whose
# backward raises for a non-zero gradient (inside an op: the check reads data).

def _zeros_like(h_n: Tensor) -> Tensor:
    return torch.zeros_like(h_n)


def _refuse_nonzero(grad: Tensor) -> Tensor:
    if bool(torch.any(grad != 0)):
        raise NotImplementedError("lnrnn's LSTM kernels take no gradient for the final cell state c_n: use the "
                                  "output sequence or h_n in the loss, or detach c_n.")
    return torch.zeros_like(grad)


_cell_state_guard = _op("cell_state_guard", _zeros_like, lambda h_n: torch.empty_like(h_n))
_cell_state_guard_backward = _op("cell_state_guard_backward", _refuse_nonzero, lambda grad: torch.empty_like(grad))
torch.library.register_autograd("lnrnn::cell_state_guard", lambda ctx, grad: _cell_state_guard_backward(grad))


def _numpy_dtype(dt):
    return {torch.float32: np.float32, torch.float64: np.float64}[dt]


def _torch_dtype(dt):
    return {np.dtype(np.float32): torch.float32, np.dtype(np.float64): torch.float64,
            np.dtype(np.int64): torch.int64}[np.dtype(dt)]


# ---- the modules ----

def _add_layer(m, spec, rng, I, H, forget_bias, dtype, device, sfx):
    """Register one layer's parameters (PyTorch's layout, names ``{stem}{sfx}``: export's stems,
    ``PARAM_NAMES``) and BN buffers on module m, with lnrnn's initial values (``cells.Cell.init_params``)."""
    np_dtype = _numpy_dtype(dtype)
    p = spec.init_params(rng, I, H, np_dtype, forget_bias)
    for name, _ in spec.param_shapes(I, H):
        stem, transpose = PARAM_NAMES[name]
        value = torch.from_numpy(np.ascontiguousarray(p[name].T if transpose else p[name]))
        m.register_parameter(f"{stem}{sfx}", nn.Parameter(value.to(device=device)))
        if name == "b":  # PyTorch's second bias: the two sum to lnrnn's b
            m.register_parameter(f"bias_hh{sfx}", nn.Parameter(torch.zeros(spec.blocks * H, dtype=dtype,
                                                                            device=device)))
    for name, v in spec.init_buffers(H, 1, np_dtype).items():
        m.register_buffer(f"{PARAM_NAMES[name][0]}{sfx}", torch.from_numpy(v).to(device=device))


def _layer_params(m, spec, sfx):
    """The parameters ``_add_layer`` registered, in lnrnn's layout and order (Wx (I,G), Wh (H,G), b (G,),
    norm params): torch ops, so autograd carries the gradients back to the PyTorch-layout parameters."""
    out = []
    for name in spec.param_names:
        stem, transpose = PARAM_NAMES[name]
        p = getattr(m, f"{stem}{sfx}")
        if transpose:
            p = p.t().contiguous()
        elif name == "b":
            p = p + getattr(m, f"bias_hh{sfx}")
        out.append(p)
    return out


class _Recurrent(nn.Module):
    """A stack of lnrnn layers of one cell; ``LSTM`` and ``RNN`` fix the cell (module docstring)."""

    _kind = None  # 'lstm' | 'rnn'

    def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", batch_first=False, forget_bias=1.0,
                 bias=True, dropout=0.0, bidirectional=False, skip=False, device=None, dtype=None):
        super().__init__()
        what = type(self).__name__
        if norm not in _NORMS:
            raise ValueError(f"{what}: norm must be 'ln', 'bn' or None, not {norm!r}.")
        input_size, hidden_size, num_layers = check_sizes(what, input_size=input_size, hidden_size=hidden_size,
                                                          num_layers=num_layers).values()
        if not bias:
            raise ValueError(f"{what}: lnrnn's cells always have a bias: pass bias=True.")
        if not 0.0 <= float(dropout) < 1.0:
            raise ValueError(f"{what}: dropout must lie in [0, 1), not {dropout!r}.")
        dtype = torch.get_default_dtype() if dtype is None else dtype
        if dtype not in DTYPES:
            raise TypeError(f"{what}: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 "
                            f"or torch.float64, not {dtype}.")
        self.spec = cells.lookup(self._kind, _NORMS[norm])
        self.input_size, self.hidden_size, self.num_layers = int(input_size), int(hidden_size), int(num_layers)
        self.norm, self.batch_first, self.skip = None if _NORMS[norm] == "none" else norm, bool(batch_first), bool(skip)
        self.dropout, self.forget_bias = float(dropout), float(forget_bias)
        self.bidirectional = bool(bidirectional)
        self.directions = 2 if self.bidirectional else 1
        # initial values from lnrnn's own initializer (cells.Cell.init_params), drawn from torch's RNG
        rng = np.random.default_rng(int(torch.randint(0, 2 ** 62, (1,)).item()))
        H = self.hidden_size
        for k in range(self.num_layers):
            I_k = self.layer_input_size(k)
            for d in range(self.directions):
                _add_layer(self, self.spec, rng, I_k, H, forget_bias, dtype, device, "_" + _suffix(k, d))

    @property
    def cell(self):
        """The registry name of the cell: 'ln-lstm', 'rnn', ..."""
        return self.spec.name

    @property
    def output_size(self):
        """D*H per layer's output (D = 2 when bidirectional: [forward | backward]), times L with skip."""
        return self.directions * self.hidden_size * (self.num_layers if self.skip else 1)

    def layer_input_size(self, k):
        """I for layer 0; D*H above (I + D*H with skip connections: layer k reads [x | h_{k-1}])."""
        if k == 0:
            return self.input_size
        W = self.directions * self.hidden_size
        return self.input_size + W if self.skip else W

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}, num_layers={self.num_layers}, norm={self.norm!r}"
        if self.batch_first:
            s += ", batch_first=True"
        if self.skip:
            s += ", skip=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        return s

    def layer_params(self, k, d=0):
        """Layer k's parameters (direction d: 0 forward, 1 backward) in lnrnn's layout and order (Wx (I,G),
        Wh (H,G), b (G,), norm params): torch ops, so autograd carries the gradients back to the
        PyTorch-layout parameters."""
        return _layer_params(self, self.spec, "_" + _suffix(k, d))

    def layer_buffers(self, k, d=0):
        return [getattr(self, f"{PARAM_NAMES[n][0]}_{_suffix(k, d)}") for n in self.spec.buffer_names]

    def _grow_buffers(self, k, T, d=0):
        """Training on a sequence longer than the BN statistics: add rows repeating the last one
        (``functional.grown``)."""
        for n in self.spec.buffer_names:
            name = f"{PARAM_NAMES[n][0]}_{_suffix(k, d)}"
            b = getattr(self, name)
            if b.shape[0] < T:
                with torch.no_grad():
                    setattr(self, name, functional.grown(b, T))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # BN statistics hold as many steps as the run trained on: take the stored row count
        for name, buf in self._buffers.items():
            v = state_dict.get(prefix + name)
            if buf is not None and v is not None and v.dim() == 2 and v.shape[1] == buf.shape[1]:
                self._buffers[name] = buf.new_empty(v.shape)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def _states(self, hx, B, like):
        """hx -> the initial states, each (L*D, B, H): nn.LSTM's layout, row k*D + d for layer k's direction d."""
        L, H, what = self.num_layers * self.directions, self.hidden_size, type(self).__name__
        dims = "num_layers * 2, batch, hidden_size" if self.bidirectional else "num_layers, batch, hidden_size"
        n = self.spec.nstate
        if hx is None:
            z = like.new_zeros((L, B, H))
            return (z,) * n
        hx = (hx,) if isinstance(hx, Tensor) else tuple(hx)
        if len(hx) != n:
            raise ValueError(f"{what}: hx must be {'(h0, c0)' if n == 2 else 'h0'}, each ({L}, {B}, {H}).")
        for s in hx:
            if s.shape != (L, B, H):
                raise ValueError(f"{what}: hx holds a {tuple(s.shape)} state where ({L}, {B}, {H}) was expected "
                                 f"({dims}).")
        return hx

    def forward(self, x, hx=None, lengths=None):
        what = type(self).__name__
        packed = x if isinstance(x, PackedSequence) else None
        if packed is not None:
            if lengths is not None:
                raise ValueError(f"{what}: a PackedSequence carries its own lengths: pass lengths=None.")
            x, lengths = pad_packed_sequence(packed)                       # (T,B,I), original row order
        given = tuple(x.shape)                                             # as passed: refusals name it
        if packed is None and self.batch_first and x.dim() == 3:
            x = x.transpose(0, 1)
        unbatched = x.dim() == 2
        if unbatched:                                                      # (T,I), as nn.LSTM takes it
            x = x.unsqueeze(1)
            hx = None if hx is None else tuple(s.unsqueeze(1) for s in ((hx,) if isinstance(hx, Tensor) else hx))
        if x.dim() != 3 or x.shape[2] != self.input_size:
            raise ValueError(f"{what}: x must be (T, B, {self.input_size}) ((B, T, {self.input_size}) with "
                             f"batch_first=True), not {given}.")
        T, B = x.shape[0], x.shape[1]
        if T < 1 or B < 1:
            raise ValueError(f"{what}: x must hold at least one time step and one sequence, not shape "
                             f"{given}.")
        state = self._states(hx, B, x)
        w = self.weight_ih_l0
        check_tensors(what, x=x, **{f"hx[{i}]": s for i, s in enumerate(state)}, weights=w)
        if lengths is not None:
            lengths = torch.as_tensor(lengths, device="cpu")
            if lengths.is_floating_point() or lengths.is_complex() or lengths.dtype == torch.bool:
                raise TypeError(f"{what}: lengths must be whole numbers (an integer tensor or a list of ints), not "
                                f"{lengths.dtype}: a length of 1.5 steps means nothing.")
            lengths = lengths.to(torch.int64)
            if lengths.shape != (B,):
                raise ValueError(f"{what}: lengths must hold one length per sequence ({B}), not shape "
                                 f"{tuple(lengths.shape)}.")
            mask = (torch.arange(T)[:, None] < lengths[None, :]).to(device=x.device, dtype=x.dtype)[:, :, None]
        x = x.contiguous()
        ys, finals, inp = [], [], x
        for k in range(self.num_layers):
            y_dirs = []
            for d in range(self.directions):
                # the backward direction runs over each row's valid steps reversed; its y is reversed back
                # and its final state is its state after the row's first step (as nn.LSTM's)
                y, final = self._direction(k, d, _reverse_valid(inp, lengths) if d else inp,
                                           [s[k * self.directions + d] for s in state], lengths, T)
                y_dirs.append(_reverse_valid(y, lengths) if d else y)
                finals.append(final)
            y = torch.cat(y_dirs, dim=2) if self.bidirectional else y_dirs[0]    # (T,B,D*H)
            if lengths is not None:
                y = y * mask                                               # padded steps: zeros, no gradient
            ys.append(y)
            if k + 1 < self.num_layers:
                inp = nn.functional.dropout(y, self.dropout, self.training) if self.dropout else y
                if self.skip:
                    inp = torch.cat([x, inp], dim=2)
        out = torch.cat(ys, dim=2) if self.skip else ys[-1]
        if self.spec.nstate == 2:
            # a c_n the op left without a gradient (BN, ragged rows) gets the guard's refusal
            finals = [(h, c + _cell_state_guard(h) if h.requires_grad and not c.requires_grad else c)
                      for h, c in finals]
        final = tuple(torch.stack([f[i] for f in finals]) for i in range(self.spec.nstate))
        if packed is not None:
            out = _repack(out, packed)
        elif unbatched:
            out, final = out.squeeze(1), tuple(f.squeeze(1) for f in final)
        elif self.batch_first:
            out = out.transpose(0, 1)
        return out, (final if self.spec.nstate == 2 else final[0])

    def _direction(self, k, d, inp, st, lengths, T):
        """Layer k's direction d over inp (T,B,I_k) (already reversed for d = 1) from states st [(B,H)]
        -> y (T,B,H), final state list; BN training updates the direction's statistics."""
        params = self.layer_params(k, d)
        keep = torch.is_grad_enabled() and any(t.requires_grad for t in (inp, *st, *params))
        bn_training = self.training and self.spec.norm == "bn"
        if bn_training:
            self._grow_buffers(k, T, d)
        bufs = self.layer_buffers(k, d)
        y, final, _, new_bufs = layer_forward(inp, st, params, bufs, lengths, self.cell, self.training, keep)
        if bn_training:
            with torch.no_grad():
                for b, nb in zip(bufs, new_bufs):
                    b.copy_(nb)
        return y, final


def _suffix(k, d):
    """The name suffix of layer k's direction d: l{k} (forward) or l{k}_reverse, as nn.LSTM's."""
    return f"l{k}_reverse" if d else f"l{k}"


def _reverse_valid(a, lengths):
    """a (T,B,...) with each row's first lengths[b] steps in reverse order, padded steps kept
    (``functional.reverse_valid`` as torch ops, so autograd and the compiler follow it); its own inverse."""
    if lengths is None:
        return a.flip(0)
    T, B = a.shape[0], a.shape[1]
    t = torch.arange(T)[:, None]                                        # (T,1)
    L = lengths[None, :]                                                # (1,B)
    idx = torch.where(t < L, L - 1 - t, t).to(a.device)                 # (T,B) the step each entry reads
    return a[idx, torch.arange(B, device=a.device)[None, :]]


def _repack(y, packed):
    """y (T,B,F) in the rows' original order -> a PackedSequence with the input's batch_sizes and order."""
    T, B = y.shape[0], y.shape[1]
    order = packed.sorted_indices if packed.sorted_indices is not None else torch.arange(B)
    running = torch.arange(B)[None, :] < packed.batch_sizes[:T, None]   # (T,B) in sorted order
    data = y[:, order.to(y.device)][running.to(y.device)]
    return PackedSequence(data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)


class LSTM(_Recurrent):
    """``torch.nn.LSTM``-shaped stack of lnrnn's LSTM cells: ``out, (h_n, c_n) = m(x, hx=None, lengths=None)``.

    norm: 'ln' (layer-normalized, Ba et al. 2016), 'bn' (recurrent batch normalization, Cooijmans et al.
    2016) or None (the plain LSTM: loads ``torch.nn.LSTM``'s state_dict). forget_bias: the initial
    bias of the forget gate. skip: Graves's skip connections (every layer reads [x | h_{k-1}], out is
    [h_0 | ... | h_{L-1}]). dropout: on the outputs of every layer but the last, as nn.LSTM. Gate order
    [i | f | g | o] as PyTorch. c_n takes no gradient (module docstring)."""

    _kind = "lstm"

    def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", proj_size=0, **kw):
        if proj_size:
            raise ValueError(f"LSTM: lnrnn's LSTM cells have no projection of h: pass proj_size=0 (or put an "
                             f"nn.Linear on the output), not {proj_size!r}.")
        super().__init__(input_size, hidden_size, num_layers, norm, **kw)


class RNN(_Recurrent):
    """``torch.nn.RNN``-shaped (tanh) stack of lnrnn's RNN cells: ``out, h_n = m(x, hx=None, lengths=None)``;
    the arguments of ``LSTM`` (forget_bias is unused: the RNN has no gates)."""

    _kind = "rnn"

    def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", nonlinearity="tanh", **kw):
        if nonlinearity != "tanh":
            raise ValueError(f"RNN: lnrnn's RNN cells use tanh: pass nonlinearity='tanh', not {nonlinearity!r}.")
        super().__init__(input_size, hidden_size, num_layers, norm, **kw)


# ---- one step ----

class _Cell(nn.Module):
    """One step of an lnrnn cell; ``LSTMCell`` and ``RNNCell`` fix the cell (their docstrings)."""

    _kind = None  # 'lstm' | 'rnn'

    def __init__(self, input_size, hidden_size, bias=True, norm="ln", forget_bias=1.0, device=None, dtype=None):
        super().__init__()
        what = type(self).__name__
        if norm not in _NORMS:
            raise ValueError(f"{what}: norm must be 'ln' or None, not {norm!r}.")
        if _NORMS[norm] == "bn":
            raise ValueError(f"{what}: norm='bn' keeps batch statistics for every time step, and one step "
                             "does not know its time: use norm='ln' or None, or a whole sequence "
                             f"({what[:-4]}(norm='bn')).")
        input_size, hidden_size = check_sizes(what, input_size=input_size, hidden_size=hidden_size).values()
        if not bias:
            raise ValueError(f"{what}: lnrnn's cells always have a bias: pass bias=True.")
        dtype = torch.get_default_dtype() if dtype is None else dtype
        if dtype not in DTYPES:
            raise TypeError(f"{what}: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 "
                            f"or torch.float64, not {dtype}.")
        self.spec = cells.lookup(self._kind, _NORMS[norm])
        self.input_size, self.hidden_size = int(input_size), int(hidden_size)
        self.norm, self.forget_bias = None if _NORMS[norm] == "none" else norm, float(forget_bias)
        rng = np.random.default_rng(int(torch.randint(0, 2 ** 62, (1,)).item()))
        _add_layer(self, self.spec, rng, self.input_size, self.hidden_size, forget_bias, dtype, device, "")

    @property
    def cell(self):
        return self.spec.name

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}, norm={self.norm!r}"

    def forward(self, input, hx=None):
        what, I, H = type(self).__name__, self.input_size, self.hidden_size
        n = self.spec.nstate
        unbatched = input.dim() == 1
        x = input.unsqueeze(0) if unbatched else input                     # (B,I)
        if x.dim() != 2 or x.shape[1] != I or x.shape[0] < 1:
            raise ValueError(f"{what}: input must be (B, {I}) with B >= 1 (or ({I},)), not {tuple(input.shape)}.")
        B = x.shape[0]
        names = ("h", "c")[:n]
        if hx is None:
            state = [x.new_zeros((B, H)) for _ in range(n)]
        else:
            hx = (hx,) if isinstance(hx, Tensor) else tuple(hx)
            want = (H,) if unbatched else (B, H)
            if len(hx) != n or any(s.shape != want for s in hx):
                got = ", ".join(str(tuple(s.shape)) for s in hx)
                raise ValueError(f"{what}: hx must be {'(h, c)' if n == 2 else 'h'}, each {want}, not {got}.")
            state = [s.unsqueeze(0) if unbatched else s for s in hx]
        check_tensors(what, input=x, **dict(zip(names, state)), weights=self.weight_ih)
        params = _layer_params(self, self.spec, "")
        keep = torch.is_grad_enabled() and any(t.requires_grad for t in (x, *state, *params))
        _, final, _, _ = layer_forward(x.unsqueeze(0).contiguous(), [s.contiguous() for s in state], params, [],
                                       None, self.cell, self.training, keep)   # one step: x (1,B,I)
        if unbatched:
            final = [f.squeeze(0) for f in final]
        return tuple(final) if n == 2 else final[0]


class LSTMCell(_Cell):
    """``torch.nn.LSTMCell``-shaped step of lnrnn's LSTM cell: ``h', c' = m(input, (h, c))``, input (B,I)
    (or (I,)), h, c (B,H) (zeros when hx is None). norm: 'ln' or None (the plain LSTM: loads
    ``torch.nn.LSTMCell``'s state_dict); 'bn' is refused (its statistics are per time step). Both h' and
    c' take gradients (the kernels' dL/dc seed)."""

    _kind = "lstm"


class RNNCell(_Cell):
    """``torch.nn.RNNCell``-shaped (tanh) step of lnrnn's RNN cell: ``h' = m(input, h)``; the arguments of
    ``LSTMCell`` (forget_bias is unused)."""

    _kind = "rnn"

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", norm="ln", **kw):
        if nonlinearity != "tanh":
            raise ValueError(f"RNNCell: lnrnn's RNN cells use tanh: pass nonlinearity='tanh', not {nonlinearity!r}.")
        super().__init__(input_size, hidden_size, bias, norm, **kw)


# ---- trained weights ----

def _from_tensors(config, tensors, device=None, path=None):
    """(stack, head) from a model config (``SequenceModel.config``) and exported tensors {name: array}; path:
    the file they were read from (``exported_config`` has checked the config's fields and sizes), named by a
    refusal of tensors that do not fit the stack the config describes."""
    if config.get("window"):
        raise ValueError("this run is a synthesis network (it reads a text through an attention window), which "
                         "lnrnn.torch has no module for; lnrnn export gives its weights (lnrnn/interop/export.py)")
    cls = LSTM if config["cell"] == "lstm" else RNN
    dtype = _torch_dtype(config["dtype"])
    kw = dict(forget_bias=config["forget_bias"]) if cls is LSTM else {}
    stack = cls(config["input_size"], config["hidden_size"], config["num_layers"], norm=config["norm"],
                skip=bool(config.get("skip", False)), bidirectional=bool(config.get("bidirectional", False)),
                dtype=dtype, **kw)
    given = {k[len("rnn."):]: v for k, v in tensors.items() if k.startswith("rnn.")}
    wanted = {k: tuple(v.shape) for k, v in stack.state_dict().items()}

    def fits(k):  # BN statistics hold as many steps as the run trained on (_load_from_state_dict): any rows
        a, w = given[k].shape, wanted[k]
        return a == w or ("_running_" in k and len(a) == 2 and a[0] >= 1 and a[1:] == w[1:])
    wrong = sorted(set(given) ^ set(wanted)) or sorted(k for k in given if not fits(k))
    if wrong:
        said = f"{path} is damaged: its tensors" if path else "the tensors"
        raise ValueError(f"{said} do not fit the {stack.cell} stack {'its' if path else 'the'} model config "
                         f"describes (rnn.{', rnn.'.join(wrong[:3])}{' ...' if len(wrong) > 3 else ''} missing, "
                         f"unexpected or of another shape){'; export the run again' if path else ''}.")
    stack.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in given.items()}, strict=True)
    head = None
    if "head.weight" in tensors:
        W = torch.from_numpy(np.ascontiguousarray(tensors["head.weight"]))                 # (O, H_out)
        head = nn.Linear(W.shape[1], W.shape[0], dtype=dtype)
        head.load_state_dict({"weight": W, "bias": torch.from_numpy(np.ascontiguousarray(tensors["head.bias"]))})
    stack.eval()
    if head is not None:
        head.eval()
    if device is not None:
        stack.to(device)
        head = None if head is None else head.to(device)
    return stack, head


def load_exported(path, device=None):
    """An ``lnrnn export`` safetensors file -> (stack, head): the matching ``LSTM``/``RNN`` (in eval mode:
    call ``.train()`` to fine-tune) and the head as an ``nn.Linear`` (None where the file has none)."""
    tensors, meta = read_safetensors(path)
    config = exported_config(path, meta, tensors)
    if config is None:
        raise ValueError(f"{path} carries no lnrnn model config: load it with lnrnn.torch.LSTM(...)"
                         ".load_state_dict instead.")
    return _from_tensors(config, tensors, device, path)


def from_run(path, device=None):
    """A run folder (``lnrnn train --out DIR``) or its checkpoint -> (stack, head) as ``load_exported``:
    the trained stack as an ``LSTM``/``RNN`` (skip-connection stacks too) and its head's linear map as an
    ``nn.Linear`` (a classifier's logits, a regression's outputs, a mixture density head's raw 6M+1
    outputs in ``lnrnn.kernels.mdn``'s layout: the mixture's transforms are not included)."""
    from lnrnn.interop.export import exported_tensors
    from lnrnn.training.evaluation import model_from_run

    model = model_from_run(path)[1]
    return _from_tensors(model.config, exported_tensors(model), device)
