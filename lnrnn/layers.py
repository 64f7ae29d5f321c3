"""Layers that own their parameters, validate input at the boundary, and pick the kernels.

    layer = RecurrentLayer("lstm", "ln", input_size=I, hidden_size=H, seed=0)
    y, state = layer.forward(x)            # x (T,B,I) -> y (T,B,H); state = (hT,) or (hT, cT)
    dx, dstate0 = layer.backward(dy)       # dy (T,B,H); parameter gradients accumulate into layer.grads

    stack = RecurrentStack("lstm", "ln", input_size=I, hidden_size=H, num_layers=2)
    y, states = stack.forward(x);  dx = stack.backward(dy)

Parameter names (symbols of the equations in ``lnrnn.kernels``):
    every cell      Wx (I,G), Wh (H,G), b (G,)
    lstm, ln        gx, bx, gh, bh (G,), gc, bc (H,)
    lstm, bn        gx, gh (G,), gc, bc (H,)        buffers rmx, rvx, rmh, rvh (Ts,G), rmc, rvc (Ts,H)
    rnn, ln         g (H,)  (b is the LayerNorm bias of eq. 4)
    rnn, bn         gx, gh (H,)                      buffers rmx, rvx, rmh, rvh (Ts,H)
Buffers are BatchNorm population statistics, one row per time step (Ts rows, grown on demand when a
longer training sequence arrives; inference beyond Ts reuses the last row).
"""
import numba
import numpy as np

from lnrnn import backend
from lnrnn.config import BN_GAIN_INIT, BN_MOMENTUM, EPS
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE

CELLS = ("rnn", "lstm")
NORMS = ("none", "ln", "bn")
# CLI names -> (cell, norm)
CELL_NAMES = {f"{p}{c}": (c, n) for c in CELLS for n, p in (("none", ""), ("ln", "ln-"), ("bn", "bn-"))}
DTYPES = {"float32": np.float32, "float64": np.float64}


def parse_cell(name):
    """'ln-lstm' -> ('lstm', 'ln'). Raises ValueError naming the valid choices."""
    if name not in CELL_NAMES:
        raise ValueError(f"unknown cell {name!r}; expected one of {', '.join(CELL_NAMES)}")
    return CELL_NAMES[name]


def _orthogonal(rng, n, dtype):
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return (q * np.sign(np.diag(r))).astype(dtype)


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


class RecurrentLayer:
    """One recurrent layer (cell in CELLS, norm in NORMS) over whole sequences."""

    def __init__(self, cell, norm, input_size, hidden_size, dtype=np.float32, seed=0, forget_bias=1.0,
                 max_steps=1, eps=EPS, momentum=BN_MOMENTUM, rng=None, device="cpu"):
        if cell not in CELLS:
            raise ValueError(f"unknown cell {cell!r}; expected one of {', '.join(CELLS)}")
        if norm not in NORMS:
            raise ValueError(f"unknown norm {norm!r}; expected one of {', '.join(NORMS)}")
        for what, v in (("input_size", input_size), ("hidden_size", hidden_size), ("max_steps", max_steps)):
            if int(v) != v or v < 1:
                raise ValueError(f"{what} must be a positive integer, got {v}")
        self.cell, self.norm = cell, norm
        self.I, self.H = int(input_size), int(hidden_size)
        self.dtype = np.dtype(dtype).type
        if self.dtype not in (np.float32, np.float64):
            raise TypeError(f"dtype must be float32 or float64, got {np.dtype(dtype).name}")
        self.eps, self.momentum = float(eps), float(momentum)
        self.forget_bias = float(forget_bias)
        rng = np.random.default_rng(seed) if rng is None else rng
        I, H, dt = self.I, self.H, self.dtype
        nblk = 4 if cell == "lstm" else 1
        G = nblk * H
        # Input weights: Glorot-uniform per gate block; recurrent weights: an orthogonal block per gate.
        lim = np.sqrt(6.0 / (I + H))
        p = {"Wx": rng.uniform(-lim, lim, (I, G)).astype(dt),
             "Wh": np.concatenate([_orthogonal(rng, H, dt) for _ in range(nblk)], axis=1),
             "b": np.zeros(G, dt)}
        if cell == "lstm":
            p["b"][H:2 * H] = forget_bias
        if norm != "none":
            # With a zero input (the blank first pixels of MNIST) a zero state is a fixed point of the
            # normalized cells: every normalized row is all-zero, and each such step multiplies the
            # gradient by 1/sqrt(eps) ~ 316 (float32 overflows within ~15 steps). A small random bias
            # of the cell candidate (LSTM) or of the LN/BN sum (RNN) moves the state off zero at once.
            blk = slice(2 * H, 3 * H) if cell == "lstm" else slice(0, H)
            p["b"][blk] = rng.uniform(-0.1, 0.1, H).astype(dt)
        if norm == "ln" and cell == "lstm":
            p.update(gx=np.ones(G, dt), bx=np.zeros(G, dt), gh=np.ones(G, dt), bh=np.zeros(G, dt),
                     gc=np.ones(H, dt), bc=np.zeros(H, dt))
        elif norm == "ln":
            p["g"] = np.ones(H, dt)
        elif norm == "bn":
            p.update(gx=np.full(G, BN_GAIN_INIT, dt), gh=np.full(G, BN_GAIN_INIT, dt))
            if cell == "lstm":
                p.update(gc=np.full(H, BN_GAIN_INIT, dt), bc=np.zeros(H, dt))
        self.params = p
        self.grads = {k: np.zeros_like(v) for k, v in p.items()}
        self.buffers = {}
        if norm == "bn":
            widths = {"x": G, "h": G, "c": H} if cell == "lstm" else {"x": G, "h": G}
            for s, w in widths.items():
                self.buffers["rm" + s] = np.zeros((max_steps, w), dt)
                self.buffers["rv" + s] = np.ones((max_steps, w), dt)
        self._ones_G, self._zeros_G = np.ones(G, dt), np.zeros(G, dt)
        self._ones_H, self._zeros_H = np.ones(H, dt), np.zeros(H, dt)
        self._saved = None
        # Kernels of the device: ValueError for an unknown one, CudaUnavailable (one sentence) where CUDA
        # cannot run. Parameters and gradients are NumPy arrays (the optimizer runs on the host). On
        # 'cuda' a forward uploads the parameters once and backward reuses those copies; activations
        # and saved state stay on the device, and with on_device=True so do y and dx (a stack passes
        # them between its layers without a host round trip).
        self.device = device
        self._k = backend.kernels(device)
        self._ones_G, self._zeros_G, self._ones_H, self._zeros_H = (
            self._k.to_device(a) for a in (self._ones_G, self._zeros_G, self._ones_H, self._zeros_H))

    @property
    def nstate(self):
        return 2 if self.cell == "lstm" else 1

    def zero_grad(self):
        for g in self.grads.values():
            g.fill(0)

    def _grow_buffers(self, T):
        """Extend BN population statistics to T steps by repeating the last step's row."""
        for k, v in self.buffers.items():
            if v.shape[0] < T:
                self.buffers[k] = np.concatenate([v, np.repeat(v[-1:], T - v.shape[0], axis=0)])

    def forward(self, x, state=None, training=True, on_device=False):
        """x (T,B,I) -> y (T,B,H), final state tuple. state: None (zeros) or (h0,) / (h0, c0), each (B,H).
        On 'cuda', x may be a device array, and on_device=True returns y and the state as device arrays."""
        x = _check_array("x", x, 3, self.dtype, (None, None, self.I), device_ok=True)
        T, B, _ = x.shape
        if T < 1 or B < 1:
            raise ValueError(f"x must hold at least one step and one sequence, got shape {x.shape}")
        if state is None:
            state = tuple(np.zeros((B, self.H), self.dtype) for _ in range(self.nstate))
        if len(state) != self.nstate:
            raise ValueError(f"a {self.cell} layer's state is a tuple of {self.nstate} arrays, got {len(state)}")
        state = tuple(_check_array(n, s, 2, self.dtype, (B, self.H)) for n, s in zip(("h0", "c0"), state))
        if self.norm == "bn" and training:
            self._grow_buffers(T)
        # Drop the previous step's activations before this step allocates its own: the allocator then
        # reuses their pages (S1: 0.4 GB that were otherwise faulted in afresh) and the peak stays one step's.
        self._saved = None
        nch, k = numba.get_num_threads(), self._k
        x = k.to_device(x)
        state = tuple(k.to_device(s) for s in state)
        p = {n: k.to_device(v) for n, v in self.params.items()}  # uploaded once per step on 'cuda'
        fetch = (lambda a: a) if on_device else k.to_host
        if self.cell == "lstm":
            h0, c0 = state
            if self.norm == "bn":
                bf = self.buffers
                y, hT, cT, saved = k.bn_lstm_forward(
                    x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                    bf["rmx"], bf["rvx"], bf["rmh"], bf["rvh"], bf["rmc"], bf["rvc"],
                    training, self.momentum, self.eps)
            else:
                ln = self.norm == "ln"
                gx, bx, gh, bh = ((p["gx"], p["bx"], p["gh"], p["bh"]) if ln else
                                  (self._ones_G, self._zeros_G, self._ones_G, self._zeros_G))
                gc, bc = (p["gc"], p["bc"]) if ln else (self._ones_H, self._zeros_H)
                y, hT, cT, saved = k.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], gx, bx, gh, bh, gc, bc,
                                                NORM_LN if ln else NORM_NONE, self.eps, nch)
            y, hT, cT = fetch((y, hT, cT))
            out_state = (hT, cT)
        else:
            (h0,) = state
            if self.norm == "bn":
                bf = self.buffers
                y, hT, saved = k.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"],
                                              bf["rmx"], bf["rvx"], bf["rmh"], bf["rvh"],
                                              training, self.momentum, self.eps)
            else:
                ln = self.norm == "ln"
                y, hT, saved = k.rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["g"] if ln else self._ones_H,
                                           NORM_LN if ln else NORM_NONE, self.eps, nch)
            y, hT = fetch((y, hT))
            out_state = (hT,)
        self._saved = (x, state, saved, p)
        return y, out_state

    def backward(self, dy, on_device=False):
        """dy (T,B,H) = dL/dy -> dx (T,B,I), dstate0 (dh0,) or (dh0, dc0). Adds into self.grads.
        On 'cuda', dy may be a device array, and on_device=True returns dx as one (dstate0 and the
        parameter gradients always come back to the host)."""
        if self._saved is None:
            raise RuntimeError("backward called before forward")
        x, state, saved, p = self._saved
        T, B, _ = x.shape
        dy = _check_array("dy", dy, 3, self.dtype, (T, B, self.H), device_ok=True)
        g, nch, k = self.grads, numba.get_num_threads(), self._k
        dy = k.to_device(dy)
        to_host = k.to_host
        k = _Fetch(k, on_device)
        if self.cell == "lstm":
            h0, c0 = state
            if self.norm == "bn":
                dx, dh0, dc0, *dp = k.to_host(k.bn_lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"],
                                                                 p["gx"], p["gh"], p["gc"]))
                names = ("Wx", "Wh", "b", "gx", "gh", "gc", "bc")
            else:
                ln = self.norm == "ln"
                gx, gh = (p["gx"], p["gh"]) if ln else (self._ones_G, self._ones_G)
                gc = p["gc"] if ln else self._ones_H
                dx, dh0, dc0, *dp = k.to_host(k.lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], gx, gh, gc,
                                                              NORM_LN if ln else NORM_NONE, nch))
                names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc") if ln else ("Wx", "Wh", "b")
            dstate = (dh0, dc0)
        else:
            (h0,) = state
            if self.norm == "bn":
                dx, dh0, *dp = k.to_host(k.bn_rnn_backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["gx"], p["gh"]))
                names = ("Wx", "Wh", "b", "gx", "gh")
            else:
                ln = self.norm == "ln"
                g_ = p["g"] if ln else self._ones_H
                dx, dh0, *dp = k.to_host(k.rnn_backward(dy, saved, x, h0, p["Wx"], p["Wh"], g_,
                                                        NORM_LN if ln else NORM_NONE, nch))
                names = ("Wx", "Wh", "b", "g") if ln else ("Wx", "Wh", "b")
            dstate = (dh0,)
        for n, d in zip(names, dp):
            g[n] += d
        dstate = to_host(dstate)
        return dx, dstate


class _Fetch:
    """The kernel namespace k, except that k.to_host(results) brings back everything but the first
    result (dx) when on_device: backward's parameter gradients go to the host optimizer, dx may stay."""

    def __init__(self, k, on_device):
        self._k, self._on_device = k, on_device

    def __getattr__(self, name):
        return getattr(self._k, name)

    def to_host(self, results):
        if not self._on_device:
            return self._k.to_host(results)
        return (results[0],) + tuple(self._k.to_host(tuple(results[1:])))


class RecurrentStack:
    """num_layers RecurrentLayers, each feeding its output sequence to the next."""

    def __init__(self, cell, norm, input_size, hidden_size, num_layers=1, dtype=np.float32, seed=0,
                 forget_bias=1.0, max_steps=1, eps=EPS, momentum=BN_MOMENTUM, device="cpu"):
        if int(num_layers) != num_layers or num_layers < 1:
            raise ValueError(f"num_layers must be a positive integer, got {num_layers}")
        rng = np.random.default_rng(seed)
        self.layers = [RecurrentLayer(cell, norm, input_size if k == 0 else hidden_size, hidden_size, dtype=dtype,
                                      forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum,
                                      rng=rng, device=device)
                       for k in range(int(num_layers))]
        self.config = dict(cell=cell, norm=norm, input_size=int(input_size), hidden_size=int(hidden_size),
                           num_layers=int(num_layers), dtype=np.dtype(dtype).name, forget_bias=float(forget_bias))
        self.dstate0 = None

    def _merged(self, attr):
        return {f"l{k}.{n}": v for k, layer in enumerate(self.layers) for n, v in getattr(layer, attr).items()}

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
        for k, layer in enumerate(self.layers):
            for n in layer.buffers:
                layer.buffers[n] = np.ascontiguousarray(buffers[f"l{k}.{n}"], dtype=layer.dtype)

    def zero_grad(self):
        for layer in self.layers:
            layer.zero_grad()

    @property
    def device(self):
        return self.layers[0].device

    def forward(self, x, state=None, training=True, on_device=False):
        """x (T,B,I) -> y (T,B,H) of the top layer, list of final state tuples (one per layer). On
        'cuda' the sequence passes between layers on the device; on_device=True leaves the top
        layer's y and states there too (the host gets nothing until the caller asks)."""
        if state is not None and len(state) != len(self.layers):
            raise ValueError(f"state must hold one entry per layer ({len(self.layers)}), got {len(state)}")
        states = []
        last = len(self.layers) - 1
        for k, layer in enumerate(self.layers):
            x, s = layer.forward(x, None if state is None else state[k], training, on_device or k < last)
            states.append(s)
        return x, states

    def backward(self, dy, on_device=False):
        """dy (T,B,H) -> dx (T,B,I); self.dstate0 holds each layer's initial-state gradient. On 'cuda'
        dy may be a device array; dx passes between layers on the device (to the host at the bottom
        unless on_device)."""
        dstate = []
        for k, layer in reversed(list(enumerate(self.layers))):
            dy, ds = layer.backward(dy, on_device or k > 0)
            dstate.append(ds)
        self.dstate0 = dstate[::-1]
        return dy
