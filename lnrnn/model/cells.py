"""The cell registry: every recurrent cell lnrnn offers, in one table.

Design. A cell variant is a row of ``CELLS``: its CLI name, cell and norm, how many gate blocks it
has (G = blocks * H), its state arity, the parameters beyond ``Wx (I,G), Wh (H,G), b (G,)`` with their
width and initial value, the BatchNorm population statistics it keeps, two
adapters that turn a layer's parameters into that kernel family's argument list and its results back
into ``(y, state, saved, state sequences)`` and ``(dx, dstate, parameter gradients)`` (the LSTM
backwards also get the layer's ``clip_gates``, Graves's bound on dL/d(gate preactivations)). Layers never
branch on the cell or the norm: they look the row up. A new variant is one row plus its kernels (and
an adapter, when its kernels take a new argument list).

The forward adapter gets the layer's ``keep``, False where no backward follows (evaluation,
prediction, sampling): then a cell with an infer kernel (lstm_infer, rnn_infer: the
forward's arguments, y and the final state bit for bit the forward's) runs it and returns ``saved``
None, so the (T,B,*) arrays BPTT needs are never allocated. The BN cells have none: their forward
runs and the layer drops its saved tuple. ``infer_seqs`` says whether that infer path still returns the per-step
state sequences a masked final state reads (the RNN's h is y; the LSTM infer kernel keeps only two
steps of c, so a masked LSTM forward keeps).

The adapters call the kernels on the namespace ``k`` of the layer's device (``lnrnn.backend.kernels``:
plain imports of the CPU twins, or of the CUDA ones), so a test that wraps
``backend.kernels('cpu').lstm_backward`` wraps what every layer calls.

Parameter order (also the order of the flat parameter buffer within a layer):
    Wx (I,G), Wh (H,G), b (G,), then ``extra`` in the order listed.
"""
from dataclasses import dataclass
from typing import Callable

import numpy as np

from lnrnn.config import BN_GAIN_INIT
from lnrnn.errors import UserError
from lnrnn.kernels import bn_lstm, bn_rnn, lstm, rnn
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.threadscope import kernel_threads


def _lstm_forward(k, L, x, state, p, bufs, training, nch, lengths, keep):
    h0, c0 = state
    c = L.consts
    ln = L.norm == "ln"
    gx, bx, gh, bh = (p["gx"], p["bx"], p["gh"], p["bh"]) if ln else (c["1G"], c["0G"], c["1G"], c["0G"])
    gc, bc = (p["gc"], p["bc"]) if ln else (c["1H"], c["0H"])
    args = (x, h0, c0, p["Wx"], p["Wh"], p["b"], gx, bx, gh, bh, gc, bc, NORM_LN if ln else NORM_NONE, L.eps, nch)
    if not keep:
        y, hT, cT = k.lstm_infer(*args)
        return y, (hT, cT), None, None                # no per-step c: see Cell.infer_seqs
    y, hT, cT, saved = k.lstm_forward(*args)
    return y, (hT, cT), saved, (y, saved[1])          # saved[1]: c (T,B,H)


def _lstm_backward(k, L, dy, saved, x, state, p, nch):
    h0, c0 = state
    c = L.consts
    ln = L.norm == "ln"
    gx, gh = (p["gx"], p["gh"]) if ln else (c["1G"], c["1G"])
    gc = p["gc"] if ln else c["1H"]
    dx, dh0, dc0, *dp = k.lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], gx, gh, gc,
                                        NORM_LN if ln else NORM_NONE, nch, clip=L.clip_gates)
    return dx, (dh0, dc0), dp


def _bn_kw(lengths):
    return {} if lengths is None else {"lengths": lengths}


def _bn_lstm_forward(k, L, x, state, p, bufs, training, nch, lengths, keep):
    # no infer kernel: keep=False runs this forward too (the layer drops its saved tuple)
    h0, c0 = state
    b = bufs
    y, hT, cT, saved = k.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                         b["rmx"], b["rvx"], b["rmh"], b["rvh"], b["rmc"], b["rvc"],
                                         training, L.momentum, L.eps, **_bn_kw(lengths))
    return y, (hT, cT), saved, (y, saved[7])          # saved[7]: c (T,B,H)


def _bn_lstm_backward(k, L, dy, saved, x, state, p, nch):
    h0, c0 = state
    dx, dh0, dc0, *dp = k.bn_lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                                           clip=L.clip_gates)
    return dx, (dh0, dc0), dp


def _rnn_forward(k, L, x, state, p, bufs, training, nch, lengths, keep):
    (h0,) = state
    ln = L.norm == "ln"
    args = (x, h0, p["Wx"], p["Wh"], p["b"], p["g"] if ln else L.consts["1H"], NORM_LN if ln else NORM_NONE,
            L.eps, nch)
    if not keep:
        y, hT = k.rnn_infer(*args)
        return y, (hT,), None, (y,)                   # h_t is y_t: a masked final state reads y
    y, hT, saved = k.rnn_forward(*args)
    return y, (hT,), saved, (y,)


def _rnn_backward(k, L, dy, saved, x, state, p, nch):
    (h0,) = state
    ln = L.norm == "ln"
    dx, dh0, *dp = k.rnn_backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["g"] if ln else L.consts["1H"],
                                  NORM_LN if ln else NORM_NONE, nch)
    return dx, (dh0,), dp


def _bn_rnn_forward(k, L, x, state, p, bufs, training, nch, lengths, keep):
    # no infer kernel: keep=False runs this forward too (the layer drops its saved tuple)
    (h0,) = state
    b = bufs
    y, hT, saved = k.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"],
                                    b["rmx"], b["rvx"], b["rmh"], b["rvh"], training, L.momentum, L.eps,
                                    **_bn_kw(lengths))
    return y, (hT,), saved, (y,)


def _bn_rnn_backward(k, L, dy, saved, x, state, p, nch):
    (h0,) = state
    dx, dh0, *dp = k.bn_rnn_backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["gx"], p["gh"])
    return dx, (dh0,), dp


@dataclass(frozen=True)
class Cell:
    """One row of the registry (see the module docstring)."""

    name: str                 # CLI name: 'ln-lstm'
    cell: str                 # 'lstm' | 'rnn'
    norm: str                 # 'none' | 'ln' | 'bn'
    blocks: int               # gate blocks: G = blocks * H ([i|f|g|o] for the LSTM)
    nstate: int               # 2: (h, c); 1: (h,)
    extra: tuple              # ((name, 'G' | 'H', initial value), ...) after Wx, Wh, b
    buffers: tuple            # BN population statistics: ((suffix, 'G' | 'H'), ...) -> rm<s>, rv<s> (Ts, width)
    forward: Callable         # adapter(k, layer, x, state, p, bufs, training, nch, lengths, keep)
    backward: Callable        # adapter(k, layer, dy, saved, x, state, p, nch)
    grads: tuple              # names of the parameter gradients backward returns, in order
    activations: tuple        # (a, c): elements the forward saves per (step, row), a * H + c (lnrnn.training.memory)
    backward_loop: Callable   # the CPU backward's compiled time loop (lnrnn.training.prewarm compiles it elsewhere)
    masked_kernel: bool = False  # the kernels take lengths (BN statistics must count running rows only)
    gate_clip: bool = False      # the backward kernel takes clip= (Graves's bound on dL/d(gate preactivations))
    infer_seqs: bool = True      # forward(keep=False) returns the state sequences too (module docstring)

    @property
    def state_names(self):
        return ("h0", "c0")[:self.nstate]

    def width(self, H, kind):
        return self.blocks * H if kind == "G" else H

    @property
    def param_names(self):
        """The parameters' names in the layer's order: Wx, Wh, b, then ``extra``."""
        return ("Wx", "Wh", "b") + tuple(n for n, _, _ in self.extra)

    @property
    def buffer_names(self):
        """The BatchNorm statistics' names in order: rm<s>, rv<s> for each of ``buffers``."""
        return tuple(p + s for s, _ in self.buffers for p in ("rm", "rv"))

    def param_shapes(self, I, H):
        """[(name, shape), ...] in the layer's order."""
        G = self.blocks * H
        return [("Wx", (I, G)), ("Wh", (H, G)), ("b", (G,))] + [(n, (self.width(H, w),)) for n, w, _ in self.extra]

    def init_params(self, rng, I, H, dtype, forget_bias, recurrent_init="orthogonal"):
        """Initial parameters: Glorot-uniform Wx, one orthogonal block of Wh per gate (identity blocks
        with recurrent_init='identity', Cooijmans et al.'s sequential-MNIST setting; the random draws
        are the same either way), zero b (the LSTM's forget block at forget_bias), extra parameters at
        their listed value."""
        if recurrent_init not in RECURRENT_INITS:
            raise ValueError(f"recurrent_init must be one of {', '.join(RECURRENT_INITS)}, not {recurrent_init!r}")
        G = self.blocks * H
        lim = np.sqrt(6.0 / (I + H))
        p = {"Wx": rng.uniform(-lim, lim, (I, G)).astype(dtype),
             "Wh": np.concatenate([_orthogonal(rng, H, dtype) for _ in range(self.blocks)], axis=1),
             "b": np.zeros(G, dtype)}
        if recurrent_init == "identity":
            p["Wh"] = np.tile(np.eye(H, dtype=dtype), (1, self.blocks))
        if self.cell == "lstm":
            p["b"][H:2 * H] = forget_bias
        if self.norm != "none":
            # With a zero input (the blank first pixels of MNIST) a zero state is a fixed point of the
            # normalized cells: every normalized row is all-zero, and each such step multiplies the
            # gradient by 1/sqrt(eps) ~ 316 (float32 overflows within ~15 steps). A small random bias
            # of the cell candidate (LSTM) or of the LN/BN sum (RNN) moves the state off zero at once.
            blk = slice(2 * H, 3 * H) if self.cell == "lstm" else slice(0, H)
            p["b"][blk] = rng.uniform(-0.1, 0.1, H).astype(dtype)
        for n, w, v in self.extra:
            p[n] = np.full(self.width(H, w), v, dtype)
        return p

    def init_buffers(self, H, max_steps, dtype):
        bufs = {}
        for s, w in self.buffers:
            bufs["rm" + s] = np.zeros((max_steps, self.width(H, w)), dtype)
            bufs["rv" + s] = np.ones((max_steps, self.width(H, w)), dtype)
        return bufs


def _orthogonal(rng, n, dtype):
    """A random orthogonal (n,n) matrix. The QR runs on one BLAS thread: NumPy's OpenBLAS splits even a
    128x128 factorization over every core and, on a busy machine, waits for descheduled threads between
    its panels (0.4-0.9 s per call measured on the shared 2-core machine, against 2 ms on one thread)."""
    with kernel_threads():
        q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return (q * np.sign(np.diag(r))).astype(dtype)


_LN_LSTM = (("gx", "G", 1.0), ("bx", "G", 0.0), ("gh", "G", 1.0), ("bh", "G", 0.0), ("gc", "H", 1.0), ("bc", "H", 0.0))
_BN_LSTM = (("gx", "G", BN_GAIN_INIT), ("gh", "G", BN_GAIN_INIT), ("gc", "H", BN_GAIN_INIT), ("bc", "H", 0.0))

# Per row: name, cell, norm, gate blocks, state arity, extra parameters, BN buffers; the adapters and the
# gradients they return; the activations saved per (step, row) (the ``saved`` docstrings of the kernel
# modules: LSTM gates G, c, tc, y, xp G (G = 4H); LN adds hhat G, chat H, rstd 3; BN saves xw G, hw G
# instead of xp; the RNN saves y and x Wx while forward runs, LN adds ahat and rstd, BN xw and hw); and
# the CPU backward's time loop.
CELLS = {c.name: c for c in (
    Cell("rnn", "rnn", "none", 1, 1, (), (), _rnn_forward, _rnn_backward, ("Wx", "Wh", "b"),
         activations=(2, 0), backward_loop=rnn._backward_rows),
    Cell("lstm", "lstm", "none", 4, 2, (), (), _lstm_forward, _lstm_backward, ("Wx", "Wh", "b"),
         activations=(11, 0), backward_loop=lstm._backward_rows, gate_clip=True, infer_seqs=False),
    Cell("ln-rnn", "rnn", "ln", 1, 1, (("g", "H", 1.0),), (), _rnn_forward, _rnn_backward,
         ("Wx", "Wh", "b", "g"), activations=(3, 1), backward_loop=rnn._backward_rows),
    Cell("ln-lstm", "lstm", "ln", 4, 2, _LN_LSTM, (), _lstm_forward, _lstm_backward,
         ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"), activations=(16, 3),
         backward_loop=lstm._backward_rows, gate_clip=True, infer_seqs=False),
    Cell("bn-rnn", "rnn", "bn", 1, 1, (("gx", "H", BN_GAIN_INIT), ("gh", "H", BN_GAIN_INIT)),
         (("x", "G"), ("h", "G")), _bn_rnn_forward, _bn_rnn_backward, ("Wx", "Wh", "b", "gx", "gh"),
         activations=(3, 0), backward_loop=bn_rnn._backward_part, masked_kernel=True),
    Cell("bn-lstm", "lstm", "bn", 4, 2, _BN_LSTM, (("x", "G"), ("h", "G"), ("c", "H")),
         _bn_lstm_forward, _bn_lstm_backward, ("Wx", "Wh", "b", "gx", "gh", "gc", "bc"), activations=(15, 0),
         backward_loop=bn_lstm._backward_part, masked_kernel=True, gate_clip=True),
)}
KINDS = ("rnn", "lstm")
RECURRENT_INITS = ("orthogonal", "identity")
NORMS = ("none", "ln", "bn")
_BY_PAIR = {(c.cell, c.norm): c for c in CELLS.values()}


def lookup(cell, norm):
    """The row of (cell, norm); ValueError naming the choices otherwise."""
    if cell not in KINDS:
        raise ValueError(f"unknown cell {cell!r}; expected one of {', '.join(KINDS)}")
    if norm not in NORMS:
        raise ValueError(f"unknown norm {norm!r}; expected one of {', '.join(NORMS)}")
    return _BY_PAIR[(cell, norm)]


def get(name):
    """The row of a CLI name ('ln-lstm'); UserError (one sentence, a ValueError too) otherwise."""
    if name not in CELLS:
        raise UnknownCell(f"unknown cell {name!r}; choose one of {', '.join(CELLS)}.")
    return CELLS[name]


class UnknownCell(UserError, ValueError):
    """A cell name that is not in the registry."""


def parse_cell(name):
    """'ln-lstm' -> ('lstm', 'ln')."""
    c = get(name)
    return c.cell, c.norm
