"""The RNN, LSTM and BN kernels (lnrnn/kernels/rnn.py, lstm.py, bn_rnn.py, bn_lstm.py, with the weight-gradient
products of lnrnn/kernels/cpu/gemm.py and the BN blocks of bn_parts.py) give the same bits wherever their buffers
lie in memory: every pair of the buffers the kernels' Python bodies allocate (outputs, saved arrays, partial sums,
each chunk's scratch) side by side, in both orders, 0 or 1 element apart, against the same call with NumPy's own
allocations. The arena they come from is filled with NaN, so a kernel that reads a buffer from ``np.empty`` before
it writes it (a partial sum or a carried gradient that should start at zero) gives other bits too.

Why it can fail: the kernels are compiled with fastmath (config.FASTMATH). Where LLVM vectorises a loop that
writes one array while it reads another, it keeps the scalar loop as well and runs it when the two lie closer
than a few vectors apart (its runtime overlap check). Both loops must round alike, or the bits depend on where
malloc put the buffers: with ``nsz`` beside ``reassoc`` they did not (LLVM may then rewrite a - b - c as
a - (b + c) in one loop and not in the other), and an LN-RNN backward moved by an ulp from one call to the
next in the same process, which broke "the same bits on any number of ranks" at random."""
import numpy as np
import pytest

from lnrnn.kernels import bn_lstm as bn_lstm_mod
from lnrnn.kernels import bn_parts as bn_parts_mod
from lnrnn.kernels import bn_rnn as bn_rnn_mod
from lnrnn.kernels import lstm as lstm_mod
from lnrnn.kernels import rnn as rnn_mod
from lnrnn.kernels.cpu import gemm as gemm_mod

MODULES = (rnn_mod, lstm_mod, bn_rnn_mod, bn_lstm_mod, bn_parts_mod, gemm_mod)  # whose allocations are placed

ARENA_BYTES = 1 << 19       # the CASES' buffers take under 200 KB; refilled with NaN for every call
PAIR_AT = ARENA_BYTES // 2   # where a placed pair meets; the other buffers lie below it, SPREAD bytes apart
SPREAD = 1024                # farther apart than any vectorised loop's footprint


class Arena:
    """Stands in for NumPy in a kernel module: ``empty`` and ``zeros`` hand out views of one 64-byte aligned
    arena filled with NaN (the rest is NumPy's). With pair (i, j), the call's i-th buffer lies just before its
    j-th, skew elements (of the j-th) between them, whichever came first; every other buffer lies SPREAD bytes
    from its neighbours."""

    def __init__(self, pair=None, skew=0):
        self.mem = np.full(ARENA_BYTES + 64, 0xFF, np.uint8)   # NaN in every float: a read before a write shows
        self.base = (-self.mem.ctypes.data) % 64
        self.pair, self.skew = pair, skew
        self.cursor = 0        # the next free byte of the spread buffers
        self.first_end = None  # where the pair's buffer placed first begins (j first) or ends (i first)
        self.count = 0

    def __getattr__(self, name):
        return getattr(np, name)

    def empty(self, shape, dtype=np.float64):
        dtype = np.dtype(dtype)
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        k, (i, j) = self.count, self.pair or (-1, -1)
        self.count += 1
        if k == i and i < j:                       # i first: it ends where j will begin
            start = PAIR_AT
            self.first_end = start + nbytes
        elif k == j and j < i:                     # j first: it begins where i will end
            start = self.first_end = PAIR_AT
        elif k == j:
            start = self.first_end + self.skew * dtype.itemsize
            start += (-start) % dtype.itemsize
        elif k == i:
            start = self.first_end - self.skew * np.dtype(self.j_dtype).itemsize - nbytes
            start -= start % dtype.itemsize
        else:
            start = self.cursor + (-self.cursor) % 64
            self.cursor = start + nbytes + SPREAD
            assert self.cursor < PAIR_AT - SPREAD, "the arena is too small for this call"
        if k == j:
            self.j_dtype = dtype
        return self.mem[self.base + start:self.base + start + nbytes].view(dtype).reshape(shape)

    def zeros(self, shape, dtype=np.float64):
        a = self.empty(shape, dtype)
        a[...] = 0
        return a


def placed(monkeypatch, call, pair=None, skew=0):
    """call() with the kernel modules' allocations in an Arena -> (its results, how many buffers it placed)."""
    arena = Arena(pair, skew)
    with monkeypatch.context() as m:
        for mod in MODULES:
            m.setattr(mod, "np", arena)
        out = call()
    return [np.array(a) for a in out], arena.count


def flat(out):
    """The arrays of a kernel's results (tuples and saved tuples opened), copied."""
    if isinstance(out, np.ndarray):
        return [out.copy()]
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in flat(o)]
    return []   # a saved tuple's flags


def draws(dtype, seed):
    """(P, gain) from one generator, in dtype: P(*shape) standard normal values, gain(*shape) values near 1."""
    rng = np.random.default_rng(seed)

    def P(*shape):
        return rng.standard_normal(shape).astype(dtype)

    def gain(*shape):
        return (1 + 0.2 * rng.standard_normal(shape)).astype(dtype)
    return P, gain


def rnn_call(T, B, I, H, norm, dtype, nch, seed):
    P, gain = draws(dtype, seed)
    x, h0, Wx, Wh, b, dy = P(T, B, I), P(B, H), P(I, H), P(H, H) * 0.5, P(H), P(T, B, H)
    g = gain(H)

    def call():
        y, hT, saved = rnn_mod.rnn_forward(x, h0, Wx, Wh, b, g, norm, 1e-5, nch)
        return flat((y, hT, saved, rnn_mod.rnn_backward(dy, saved, x, h0, Wx, Wh, g, norm, nch)))
    return call


def lstm_call(T, B, I, H, norm, dtype, nch, seed):
    G = 4 * H
    P, gain = draws(dtype, seed)
    x, h0, c0, Wx, Wh, b, dy = P(T, B, I), P(B, H), P(B, H), P(I, G), P(H, G) * 0.5, P(G), P(T, B, H)
    gx, bx, gh, bh, gc, bc = gain(G), P(G), gain(G), P(G), gain(H), P(H)

    def call():
        y, hT, cT, saved = lstm_mod.lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, 1e-5, nch)
        return flat((y, hT, cT, saved, lstm_mod.lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nch)))
    return call


def bn_rnn_call(T, B, I, H, par_min, dtype, nch, seed):
    P, gain = draws(dtype, seed)
    x, h0, Wx, Wh, b, dy = P(T, B, I), P(B, H), P(I, H), P(H, H) * 0.5, P(H), P(T, B, H)
    gx, gh = gain(H), gain(H)
    stats = [P(T, H) * 0.1 for _ in range(2)] + [1 + P(T, H) ** 2 for _ in range(2)]   # rm, rv (T,H) each
    lengths = np.arange(B, 0, -1) * T // B                                            # ragged rows

    def call():
        rmx, rmh, rvx, rvh = (a.copy() for a in stats)
        y, hT, saved = bn_rnn_mod.bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, True, 0.1, 1e-5,
                                                 par_min, lengths)
        return flat((y, hT, saved, rmx, rvx, rmh, rvh,
                     bn_rnn_mod.bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, par_min)))
    return call


def bn_lstm_call(T, B, I, H, par_min, dtype, nch, seed):
    G = 4 * H
    P, gain = draws(dtype, seed)
    x, h0, c0, Wx, Wh, b, dy = P(T, B, I), P(B, H), P(B, H), P(I, G), P(H, G) * 0.5, P(G), P(T, B, H)
    gx, gh, gc, bc = gain(G), gain(G), gain(H), P(H)
    stats = [P(T, w) * 0.1 for w in (G, G, H)] + [1 + P(T, w) ** 2 for w in (G, G, H)]
    lengths = np.arange(B, 0, -1) * T // B

    def call():
        rmx, rmh, rmc, rvx, rvh, rvc = (a.copy() for a in stats)
        y, hT, cT, saved = bn_lstm_mod.bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh,
                                                       rmc, rvc, True, 0.1, 1e-5, par_min, lengths)
        return flat((y, hT, cT, saved, rmx, rvx, rmh, rvh, rmc, rvc,
                     bn_lstm_mod.bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, par_min)))
    return call


CASES = [  # (T, B, I, H, chunks): narrow (folded) and wide inputs, hidden widths off every vector width
    (3, 3, 3, 4, 3), (2, 3, 6, 5, 2), (2, 5, 3, 13, 2)]


CALLS = {("rnn", "ln"): (rnn_call, rnn_mod.NORM_LN), ("rnn", "none"): (rnn_call, rnn_mod.NORM_NONE),
         ("lstm", "ln"): (lstm_call, rnn_mod.NORM_LN), ("lstm", "none"): (lstm_call, rnn_mod.NORM_NONE),
         # BN: the time loop on one thread (the default threshold, at these sizes) and split over two parts
         ("rnn", "bn"): (bn_rnn_call, None), ("rnn", "bn-parts"): (bn_rnn_call, 1),
         ("lstm", "bn"): (bn_lstm_call, None), ("lstm", "bn-parts"): (bn_lstm_call, 1)}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("cell, norm", list(CALLS))
def test_the_same_bits_wherever_the_buffers_lie(monkeypatch, cell, norm, dtype):
    make, arg = CALLS[cell, norm]
    if arg is None:
        arg = bn_rnn_mod.PAR_MIN_WORK
    moved = []
    for k, (T, B, I, H, nch) in enumerate(CASES):
        call = make(T, B, I, H, arg, dtype, nch, seed=k)
        want = [a.copy() for a in call()]    # NumPy's allocations (and the kernels compiled for these types)
        spread, n = placed(monkeypatch, call)
        assert n > 8 and len(spread) == len(want)   # the buffers went through the arena
        assert all(a.tobytes() == b.tobytes() for a, b in zip(spread, want))
        for i in range(n):
            for j in range(n):
                for skew in (0, 1) if i != j else ():
                    got, _ = placed(monkeypatch, call, (i, j), skew)
                    bad = [q for q, (a, b) in enumerate(zip(got, want)) if a.tobytes() != b.tobytes()]
                    if bad:
                        moved.append(((T, B, I, H, nch), f"buffer {i} just before buffer {j}", skew, bad))
    assert not moved, f"{len(moved)} placements moved the bits, e.g. {moved[:3]}"
