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

Kernels. A row names its kernels as the functions themselves: ``cpu`` (``Kernels``: forward, backward,
infer, imported plainly from ``lnrnn.kernels.<op>``) and ``cuda``, a function that imports the CUDA twins
(``lnrnn.kernels.<op>_cuda``) on the first request for device 'cuda', so ``import lnrnn`` never imports
numba.cuda. ``Cell.kernels(device)`` picks one: the one indirection between a layer and its kernels.
The adapters get that record and the layer's settings (``Facts``) and call ``kern.forward(...)``; rows
of one kernel family share one record, so a test that wraps ``LSTM_CPU.backward`` wraps what every CPU
LSTM layer calls.

Parameter order (also the order of the flat parameter buffer within a layer):
    Wx (I,G), Wh (H,G), b (G,), then ``extra`` in the order listed.
"""
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Callable, NamedTuple, Optional

import numpy as np

from lnrnn.config import BN_GAIN_INIT
from lnrnn.errors import UserError
from lnrnn.kernels import bn_lstm, bn_rnn, bn_sync, lstm, rnn
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.threadscope import kernel_threads


@dataclass
class Kernels:
    """One cell family's kernels on one device: the functions themselves. ``infer`` None: the family has
    no infer kernel (the BN cells). Not frozen, so a test can wrap one function for every layer
    (``monkeypatch.setattr(cells.LSTM_CPU, "backward", spy)``)."""

    forward: Callable
    backward: Callable
    infer: Optional[Callable] = None


# The CPU kernels, imported plainly above; the CUDA twins are imported by the functions below, on the first
# request for device 'cuda' (``Cell.kernels``): ``import lnrnn`` never imports numba.cuda.
LSTM_CPU = Kernels(lstm.lstm_forward, lstm.lstm_backward, lstm.lstm_infer)
RNN_CPU = Kernels(rnn.rnn_forward, rnn.rnn_backward, rnn.rnn_infer)
BN_LSTM_CPU = Kernels(bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward)
BN_RNN_CPU = Kernels(bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)
# BatchNorm whose statistics span a data-parallel group: the same arguments after ``reduce`` (``kernels.bn_sync``)
BN_LSTM_SYNCED = Kernels(bn_sync.bn_lstm_forward, bn_sync.bn_lstm_backward)
BN_RNN_SYNCED = Kernels(bn_sync.bn_rnn_forward, bn_sync.bn_rnn_backward)


@lru_cache(maxsize=None)
def lstm_cuda():
    from lnrnn.kernels import lstm_cuda as m
    return Kernels(m.lstm_forward, m.lstm_backward, m.lstm_infer)


@lru_cache(maxsize=None)
def rnn_cuda():
    from lnrnn.kernels import rnn_cuda as m
    return Kernels(m.rnn_forward, m.rnn_backward, m.rnn_infer)


@lru_cache(maxsize=None)
def bn_lstm_cuda():
    from lnrnn.kernels import bn_lstm_cuda as m
    return Kernels(m.bn_lstm_forward, m.bn_lstm_backward)


@lru_cache(maxsize=None)
def bn_rnn_cuda():
    from lnrnn.kernels import bn_rnn_cuda as m
    return Kernels(m.bn_rnn_forward, m.bn_rnn_backward)


class Facts(NamedTuple):
    """What a row's adapters read besides the arrays: the layer's settings (``lnrnn.model.functional.facts``
    builds it, for a ``RecurrentLayer`` and for the bindings alike)."""

    norm: str           # the row's norm: 'none' | 'ln' | 'bn'
    eps: float          # inside LayerNorm's and BatchNorm's square root
    momentum: float     # BatchNorm's running statistics
    clip_gates: float   # the LSTM backwards' bound on dL/d(gate preactivations); 0.0: off
    consts: dict        # unit gains and zero biases: '1G', '0G' (G,), '1H', '0H' (H,) (``functional.unit_gains``)


def _lstm_forward(kern, f, x, state, p, bufs, training, nch, lengths, keep):
    h0, c0 = state
    c = f.consts
    ln = f.norm == "ln"
    gx, bx, gh, bh = (p["gx"], p["bx"], p["gh"], p["bh"]) if ln else (c["1G"], c["0G"], c["1G"], c["0G"])
    gc, bc = (p["gc"], p["bc"]) if ln else (c["1H"], c["0H"])
    args = (x, h0, c0, p["Wx"], p["Wh"], p["b"], gx, bx, gh, bh, gc, bc, NORM_LN if ln else NORM_NONE, f.eps, nch)
    if not keep:
        y, hT, cT = kern.infer(*args)
        return y, (hT, cT), None, None                # no per-step c: see Cell.infer_seqs
    y, hT, cT, saved = kern.forward(*args)
    return y, (hT, cT), saved, (y, saved[LSTM_SAVED_C])


def _lstm_backward(kern, f, dy, saved, x, state, p, nch, dc_n=None):
    h0, c0 = state
    c = f.consts
    ln = f.norm == "ln"
    gx, gh = (p["gx"], p["gh"]) if ln else (c["1G"], c["1G"])
    gc = p["gc"] if ln else c["1H"]
    dx, dh0, dc0, *dp = kern.backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], gx, gh, gc,
                                      NORM_LN if ln else NORM_NONE, nch, clip=f.clip_gates, dcT=dc_n)
    return dx, (dh0, dc0), dp


def _bn_kw(lengths):
    return {} if lengths is None else {"lengths": lengths}


def _bn_lstm_forward(kern, f, x, state, p, bufs, training, nch, lengths, keep):
    # no infer kernel: keep=False runs this forward too (the layer drops its saved tuple)
    h0, c0 = state
    b = bufs
    y, hT, cT, saved = kern.forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                    b["rmx"], b["rvx"], b["rmh"], b["rvh"], b["rmc"], b["rvc"],
                                    training, f.momentum, f.eps, **_bn_kw(lengths))
    return y, (hT, cT), saved, (y, saved[BN_LSTM_SAVED_C])


def _bn_lstm_backward(kern, f, dy, saved, x, state, p, nch):
    h0, c0 = state
    dx, dh0, dc0, *dp = kern.backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                                      clip=f.clip_gates)
    return dx, (dh0, dc0), dp


def _rnn_forward(kern, f, x, state, p, bufs, training, nch, lengths, keep):
    (h0,) = state
    ln = f.norm == "ln"
    args = (x, h0, p["Wx"], p["Wh"], p["b"], p["g"] if ln else f.consts["1H"], NORM_LN if ln else NORM_NONE,
            f.eps, nch)
    if not keep:
        y, hT = kern.infer(*args)
        return y, (hT,), None, (y,)                   # h_t is y_t: a masked final state reads y
    y, hT, saved = kern.forward(*args)
    return y, (hT,), saved, (y,)


def _rnn_backward(kern, f, dy, saved, x, state, p, nch):
    (h0,) = state
    ln = f.norm == "ln"
    dx, dh0, *dp = kern.backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["g"] if ln else f.consts["1H"],
                                 NORM_LN if ln else NORM_NONE, nch)
    return dx, (dh0,), dp


def _bn_rnn_forward(kern, f, x, state, p, bufs, training, nch, lengths, keep):
    # no infer kernel: keep=False runs this forward too (the layer drops its saved tuple)
    (h0,) = state
    b = bufs
    y, hT, saved = kern.forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"],
                                b["rmx"], b["rvx"], b["rmh"], b["rvh"], training, f.momentum, f.eps,
                                **_bn_kw(lengths))
    return y, (hT,), saved, (y,)


def _bn_rnn_backward(kern, f, dy, saved, x, state, p, nch):
    (h0,) = state
    dx, dh0, *dp = kern.backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["gx"], p["gh"])
    return dx, (dh0,), dp


# Where the kernels' saved tuples hold y and c (the ``saved`` docstrings of lstm.py, rnn.py, bn_lstm.py,
# bn_rnn.py; tests/model/test_functional.py checks them against what the kernels return). The BN tuples end in
# the mode flag (training or not) after their arrays.
LSTM_SAVED_Y, LSTM_SAVED_C = 3, 1          # (gates, c, tc, y, xp, hhat, chat, rstd)
RNN_SAVED_Y = 0                            # (y, ahat, rstd)
BN_LSTM_SAVED_Y, BN_LSTM_SAVED_C = 11, 7   # (xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c,
                                           #  tc, y, lengths, training)
BN_RNN_SAVED_Y = 6                         # (xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, lengths, training)


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
    forward: Callable         # adapter(kern, facts, x, state, p, bufs, training, nch, lengths, keep)
    backward: Callable        # adapter(kern, facts, dy, saved, x, state, p, nch[, dc_n: the plain/LN LSTM's])
    grads: tuple              # names of the parameter gradients backward returns, in order
    activations: tuple        # (a, c): elements the forward saves per (step, row), a * H + c (lnrnn.training.memory)
    backward_loop: Callable   # the CPU backward's compiled time loop (lnrnn.training.prewarm compiles it elsewhere)
    cpu: Kernels              # the CPU kernels
    cuda: Callable            # () -> Kernels: the CUDA twins, imported on the first call (``kernels``)
    saved_y: int              # where y sits in the forward's saved tuple (the *_SAVED_* constants above)
    masked_kernel: bool = False  # the kernels take lengths (BN statistics must count running rows only)
    gate_clip: bool = False      # the backward kernel takes clip= (Graves's bound on dL/d(gate preactivations))
    infer_seqs: bool = True      # forward(keep=False) returns the state sequences too (module docstring)
    synced: Optional[Kernels] = None  # BN: the kernels whose statistics span a data-parallel group (``kernels``)

    def kernels(self, device="cpu", reduce=None):
        """The row's kernels on device 'cpu' or 'cuda' (the CUDA twins imported on the first request); with
        ``reduce`` (a BN row, on the CPU) the ``kernels.bn_sync`` ones bound to it, whose statistics span
        a data-parallel group. The one indirection between a layer and its kernels."""
        if reduce is not None:
            return Kernels(partial(self.synced.forward, reduce), partial(self.synced.backward, reduce))
        return self.cuda() if device == "cuda" else self.cpu

    @property
    def saved_flag(self):
        """The saved tuple ends in the forward's mode flag (training or not) after its arrays: the BN rows."""
        return self.norm == "bn"

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
         activations=(2, 0), backward_loop=rnn._backward_rows, cpu=RNN_CPU, cuda=rnn_cuda, saved_y=RNN_SAVED_Y),
    Cell("lstm", "lstm", "none", 4, 2, (), (), _lstm_forward, _lstm_backward, ("Wx", "Wh", "b"),
         activations=(11, 0), backward_loop=lstm._backward_rows, cpu=LSTM_CPU, cuda=lstm_cuda,
         saved_y=LSTM_SAVED_Y, gate_clip=True, infer_seqs=False),
    Cell("ln-rnn", "rnn", "ln", 1, 1, (("g", "H", 1.0),), (), _rnn_forward, _rnn_backward,
         ("Wx", "Wh", "b", "g"), activations=(3, 1), backward_loop=rnn._backward_rows, cpu=RNN_CPU, cuda=rnn_cuda,
         saved_y=RNN_SAVED_Y),
    Cell("ln-lstm", "lstm", "ln", 4, 2, _LN_LSTM, (), _lstm_forward, _lstm_backward,
         ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"), activations=(16, 3),
         backward_loop=lstm._backward_rows, cpu=LSTM_CPU, cuda=lstm_cuda, saved_y=LSTM_SAVED_Y, gate_clip=True,
         infer_seqs=False),
    Cell("bn-rnn", "rnn", "bn", 1, 1, (("gx", "H", BN_GAIN_INIT), ("gh", "H", BN_GAIN_INIT)),
         (("x", "G"), ("h", "G")), _bn_rnn_forward, _bn_rnn_backward, ("Wx", "Wh", "b", "gx", "gh"),
         activations=(3, 0), backward_loop=bn_rnn._backward_part, cpu=BN_RNN_CPU, cuda=bn_rnn_cuda,
         saved_y=BN_RNN_SAVED_Y, masked_kernel=True, synced=BN_RNN_SYNCED),
    Cell("bn-lstm", "lstm", "bn", 4, 2, _BN_LSTM, (("x", "G"), ("h", "G"), ("c", "H")),
         _bn_lstm_forward, _bn_lstm_backward, ("Wx", "Wh", "b", "gx", "gh", "gc", "bc"), activations=(15, 0),
         backward_loop=bn_lstm._backward_part, cpu=BN_LSTM_CPU, cuda=bn_lstm_cuda, saved_y=BN_LSTM_SAVED_Y,
         masked_kernel=True, gate_clip=True, synced=BN_LSTM_SYNCED),
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
