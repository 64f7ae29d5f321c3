"""Graves's synthesis network (Graves 2013, sec. 5): a recurrent stack that reads a text through a soft
attention window while it writes.

    stack = WindowStack("lstm", "ln", input_size=3, hidden_size=400, num_layers=3, alphabet_size=C, window=10)
    y, states = stack.forward(x, text=(codes, ulen))     # x (T,B,3) -> y (T,B,L*H) = [h1 | ... | hL]
    dx = stack.backward(dy)                               # dy (T,B,L*H); gradients add into the layers'
    y_t, states = stack.step(x_t, states, t, text=(codes, ulen))   # one step (sampling): stack.step_phi
                                                          # (B,U) and stack.step_end (B,) (the stop rule's)

Wiring (Graves's eqs. 46-51): layer 1 reads [x_t | w_{t-1}]; the window moves on h1_t and gives
w_t = sum_u phi(t, u) c_u over the one-hot characters c_u of the line's text; layer k > 1 reads
[x_t | h(k-1)_t | w_t]; the head reads [h1_t | ... | hL_t]. Layer 1 and its window are one recurrence
(w_{t-1} feeds h1_t, which moves the window): they run in one time loop, the window op
(``lnrnn.kernels.window``: CPU kernel and CUDA twin, hand-written backward; spec
``reference.window_lstm_forward``); the layers above run as whole sequences with the cells' own
kernels (``lnrnn.model.layers.RecurrentLayer``).

Text: ``text = (codes (B,U) int64 in [0, C), ulen (B,) int64)``: row b's characters are codes[b, :ulen[b]]
(``lnrnn.data.strokes.encode_text``; code 0 is "unknown"); positions past ulen[b] are padding and add
nothing to phi, w, the loss or any gradient.

Window parameters (layer 1's ``Wp`` (H,3K), ``bp`` (3K,)): p_t = h1_t Wp + bp = [a_hat | b_hat | k_hat],
alpha = exp(a_hat), beta = exp(b_hat), kappa_t = kappa_{t-1} + exp(k_hat) (Graves's parameterization).
Initialization: Wp ~ N(0, WINDOW_INIT_STD^2), so that the first updates see p near its bias; bp of the
k_hat block at WINDOW_KAPPA_BIAS (exp(-3) = 0.05 characters per point, about the pace of handwriting
at our point spacing, where exp(0) = 1 character per point would run past the text at once), the rest 0.

State: layer 1's is (h, c, kappa (B,K), w (B,C)); an initial (h, c) pair starts kappa and w at zero
(what ``SequenceModel.noise_state`` gives). The other layers' are (h, c).
Cells: the LSTM rows of the registry (lstm, ln-lstm, bn-lstm); the RNN cells have no window kernel.
"""
import numpy as np

from lnrnn.config import BN_MOMENTUM, EPS
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from lnrnn.model.flat import repack
from lnrnn.model.functional import check_lengths, final_state
from lnrnn.model.layers import RecurrentLayer, RecurrentStack, _check_array
from lnrnn.threadscope import scoped

WINDOW_INIT_STD = 0.01     # std of the initial Wp
WINDOW_KAPPA_BIAS = -3.0   # initial bias of k_hat: kappa moves exp(-3) = 0.05 characters per point at first
NORM_CODES = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN}


def check_text(text, B, C):
    """text = (codes, ulen) -> (codes (B,U) int64, ulen (B,) int64) checked: codes in [0, C), 0 <= ulen <= U."""
    if text is None:
        raise ValueError("this model writes a given text: pass text=(codes (B,U), lengths (B,))")
    codes, ulen = text
    codes = np.ascontiguousarray(codes, dtype=np.int64) if np.issubdtype(np.asarray(codes).dtype, np.integer) else None
    if codes is None or codes.ndim != 2 or codes.shape[0] != B or codes.shape[1] < 1:
        raise ValueError(f"text codes must be a ({B},U) integer array with U >= 1, got {np.shape(text[0])}")
    ulen = np.asarray(ulen)
    if ulen.shape != (B,) or not np.issubdtype(ulen.dtype, np.integer):
        raise ValueError(f"text lengths must be {B} integers, got {ulen.dtype} {ulen.shape}")
    if codes.size and (codes.min() < 0 or codes.max() >= C):
        raise ValueError(f"text codes must lie in [0, {C}) (the model's alphabet), got {codes.min()}..{codes.max()}")
    if ulen.size and (ulen.min() < 0 or ulen.max() > codes.shape[1]):
        raise ValueError(f"text lengths must lie in [0, {codes.shape[1]}], got {ulen.min()}..{ulen.max()}")
    return codes, np.ascontiguousarray(ulen, dtype=np.int64)


class WindowLayer(RecurrentLayer):
    """Layer 1 of the synthesis network: an LSTM layer of input size I + C (it reads [x_t | w_{t-1}])
    with the window's parameters Wp (H,3K), bp (3K,) beside its own, run by the window op."""

    def __init__(self, cell, norm, input_size, hidden_size, alphabet_size, window, rng, **kw):
        super().__init__(cell, norm, int(input_size) + int(alphabet_size), hidden_size, rng=rng, **kw)
        if self.spec.cell != "lstm":
            raise ValueError(f"the attention window runs with the LSTM cells (lstm, ln-lstm, bn-lstm), not {self.spec.name}")
        if int(window) != window or window < 1 or int(alphabet_size) != alphabet_size or alphabet_size < 1:
            raise ValueError(f"window and alphabet_size must be positive integers, got {window} and {alphabet_size}")
        self.I_x, self.C, self.K = int(input_size), int(alphabet_size), int(window)
        H, K = self.H, self.K
        self.params["Wp"] = (WINDOW_INIT_STD * rng.standard_normal((H, 3 * K))).astype(self.dtype)
        bp = np.zeros(3 * K, self.dtype)
        bp[2 * K:] = WINDOW_KAPPA_BIAS
        self.params["bp"] = bp
        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.flat = (repack([("", self.params)]), repack([("", self.grads)]))
        self.phi = None  # (T,B,U) of the last forward

    @property
    def norm_code(self):
        return NORM_CODES[self.norm]

    def _norm_params(self, p):
        """(gx, bx, gh, bh, gc, bc) the window op takes: the layer's own, or the unit gains and zero biases
        that stand in for those its norm does not have (``functional.unit_gains``)."""
        c = self.consts
        return (p.get("gx", c["1G"]), p.get("bx", c["0G"]), p.get("gh", c["1G"]), p.get("bh", c["0G"]),
                p.get("gc", c["1H"]), p.get("bc", c["0H"]))

    def _bn_rows(self, bufs):
        z = np.zeros((0, 0), self.dtype)
        if not bufs:
            return (z,) * 6
        return tuple(bufs[n] for n in ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc"))

    @scoped
    def forward_text(self, x, text, state=None, training=True, lengths=None, t0=0, keep=True):
        """x (T,B,I) and text -> h (T,B,H), w (T,B,C), final state (h, c, kappa, w); self.phi (T,B,U)."""
        x = _check_array("x", x, 3, self.dtype, (None, None, self.I_x))
        T, B, _ = x.shape
        if T < 1 or B < 1:
            raise ValueError(f"x must hold at least one step and one sequence, got shape {x.shape}")
        codes, ulen = check_text(text, B, self.C)
        lengths = check_lengths(lengths, T, B)
        H, K, C, dt = self.H, self.K, self.C, self.dtype
        if state is None:
            state = (np.zeros((B, H), dt), np.zeros((B, H), dt))
        if len(state) not in (2, 4):
            raise ValueError(f"the window layer's state is (h, c) or (h, c, kappa, w), got {len(state)} arrays")
        if len(state) == 2:
            state = tuple(state) + (np.zeros((B, K), dt), np.zeros((B, C), dt))
        state = tuple(_check_array(n, s, 2, dt, (B, w)) for n, s, w in
                      zip(("h0", "c0", "kappa0", "w0"), state, (H, H, K, C)))
        bufs = self._buffer_rows(int(t0), T, training)
        p, k = self.params, self._k
        L = np.full(B, T, np.int64) if lengths is None else lengths
        self._saved = None
        y, w, hT, cT, kT, wT, phi, saved = k.window_lstm_forward(
            x, *state, codes, ulen, p["Wx"], p["Wh"], p["b"], *self._norm_params(p), p["Wp"], p["bp"],
            *self._bn_rows(bufs), self.norm_code, bool(training), self.momentum, self.eps, L,
            bool(keep or lengths is not None))
        y, w, phi = k.to_host(y), k.to_host(w), k.to_host(phi)
        out = tuple(k.to_host(s) for s in (hT, cT, kT, wT))
        if lengths is not None:
            out = self._masked_final(out, y, w, saved, state, lengths)
        self.phi = phi
        self._saved = (x, state, saved, codes, ulen, lengths) if keep else None
        return y, w, out

    def _masked_final(self, out, y, w, saved, state, lengths):
        """Each row's state after its own last step (its initial state where lengths[b] = 0): the layers'
        ``final_state`` over the sequences of h (y), c, kappa (saved) and w."""
        c_seq, kappa_seq = self._k.window_sequences(saved)
        return final_state(self._k, out, (y, c_seq, kappa_seq, w), state, lengths)

    @scoped
    def backward_text(self, dy, dw):
        """dy (T,B,H) = dL/dh_t from above, dw (T,B,C) = dL/dw_t from the layers above -> dx (T,B,I),
        dstate0 (dh0, dc0, dkappa0, dw0). Adds into self.grads."""
        if self._saved is None:
            raise RuntimeError("backward called before forward, or after an inference forward (keep=False), "
                               "which keeps nothing for it")
        x, state, saved, codes, ulen, lengths = self._saved
        T, B, _ = x.shape
        dy = _check_array("dy", dy, 3, self.dtype, (T, B, self.H))
        dw = _check_array("dw", dw, 3, self.dtype, (T, B, self.C))
        p, k = self.params, self._k
        gx, _, gh, _, gc, _ = self._norm_params(p)
        dx, dh0, dc0, dk0, dw0, *dp = k.window_lstm_backward(
            dy, dw, saved, x, *state, codes, ulen, p["Wx"], p["Wh"], gx, gh, gc, p["Wp"], self.norm_code,
            self.clip_gates)
        names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
        for n, d in zip(names, dp):
            if n in self.grads:
                self.grads[n] += k.to_host(d)
        return k.to_host(dx), tuple(k.to_host(s) for s in (dh0, dc0, dk0, dw0))

    def forward(self, *a, **kw):
        raise TypeError("the window layer reads a text: call forward_text (or run it in a WindowStack)")

    def backward(self, *a, **kw):
        raise TypeError("the window layer's backward is backward_text")


class WindowStack(RecurrentStack):
    """Graves's synthesis network: a WindowLayer, then num_layers - 1 RecurrentLayers reading
    [x | h_below | w]; y = [h1 | ... | hL]. RecurrentStack's interface plus ``text`` (module docstring):
    its parameter names, buffers and gradients are RecurrentStack's (inherited, over ``self.layers``);
    the running (forward, backward, step) is its own."""

    conditioned = True
    skip = True
    bidirectional, directions = False, 1  # one direction: the window reads the text as the pen goes

    def __init__(self, cell, norm, input_size, hidden_size, num_layers=3, alphabet_size=2, window=10,
                 dtype=np.float32, seed=0, forget_bias=1.0, max_steps=1, eps=EPS, momentum=BN_MOMENTUM,
                 device="cpu", recurrent_init="orthogonal", clip_gates=0.0):
        if int(num_layers) != num_layers or num_layers < 1:
            raise ValueError(f"num_layers must be a positive integer, got {num_layers}")
        if device != "cpu":
            raise ValueError("the synthesis network runs on the CPU (its window op has no device path in the "
                             "model yet); train with --device cpu")
        rng = np.random.default_rng(seed)
        I, H, C, K = int(input_size), int(hidden_size), int(alphabet_size), int(window)
        kw = dict(dtype=dtype, forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum,
                  device=device, recurrent_init=recurrent_init, clip_gates=clip_gates)
        self.layers = [WindowLayer(cell, norm, I, H, C, K, rng, **kw)]
        self.layers += [RecurrentLayer(cell, norm, I + H + C, H, rng=rng, **kw) for _ in range(int(num_layers) - 1)]
        self.I, self.H, self.C, self.K = I, H, C, K
        self.config = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=int(num_layers),
                           dtype=np.dtype(dtype).name, forget_bias=float(forget_bias), skip=True,
                           window=K, alphabet_size=C)
        self.output_size = H * len(self.layers)
        self.dstate0 = None
        self.flat = (repack(self.param_leaves()), repack(self.grad_leaves()))
        for layer in self.layers:
            layer.flat = None

    def set_batch_reduce(self, reduce):
        if reduce is not None and self.layers[0].norm == "bn":
            raise ValueError("synchronized BatchNorm across processes is not offered for the synthesis network")
        super().set_batch_reduce(reduce)

    @property
    def phi(self):
        """phi (T,B,U) of the last forward: the window's weight on each character at each step."""
        return self.layers[0].phi

    # ---- running ----
    def forward(self, x, state=None, training=True, on_device=False, lengths=None, t0=0, keep=True, text=None):
        """x (T,B,I), text -> y (T,B,L*H), final states (layer 1's (h, c, kappa, w), then (h, c) each)."""
        if state is not None and len(state) != len(self.layers):
            raise ValueError(f"state must hold one entry per layer ({len(self.layers)}), got {len(state)}")
        x = _check_array("x", x, 3, self.layers[0].dtype, (None, None, self.I))
        st = (lambda k: None) if state is None else (lambda k: state[k])
        h, w, s1 = self.layers[0].forward_text(x, text, st(0), training, lengths, t0, keep)
        hs, states = [h], [s1]
        for k, layer in enumerate(self.layers[1:], start=1):
            h, s = layer.forward(np.concatenate([x, h, w], axis=2), st(k), training, lengths=lengths, t0=t0,
                                 keep=keep)
            hs.append(h)
            states.append(s)
        return np.ascontiguousarray(np.concatenate(hs, axis=2)), states

    def backward(self, dy, on_device=False):
        """dy (T,B,L*H) -> dx (T,B,I); self.dstate0: each layer's initial-state gradient."""
        H, I = self.H, self.I
        dy = _check_array("dy", dy, 3, self.layers[0].dtype, (None, None, self.output_size))
        dx, dh_above, dw, dstate = None, None, None, []
        for k in reversed(range(1, len(self.layers))):
            dyk = np.ascontiguousarray(dy[:, :, k * H:(k + 1) * H])
            if dh_above is not None:
                dyk = dyk + dh_above
            d_in, ds = self.layers[k].backward(dyk)              # (T,B,I+H+C)
            dstate.append(ds)
            dx = d_in[:, :, :I] if dx is None else dx + d_in[:, :, :I]
            dh_above = d_in[:, :, I:I + H]
            dw = d_in[:, :, I + H:] if dw is None else dw + d_in[:, :, I + H:]
        dy1 = np.ascontiguousarray(dy[:, :, :H])
        if dh_above is not None:
            dy1 = dy1 + dh_above
        if dw is None:
            dw = np.zeros(dy.shape[:2] + (self.C,), dy.dtype)
        d1, ds = self.layers[0].backward_text(dy1, np.ascontiguousarray(dw))
        dstate.append(ds)
        dx = d1 if dx is None else dx + d1
        self.dstate0 = dstate[::-1]
        return np.ascontiguousarray(dx)

    def step(self, x_t, state=None, t=0, training=False, text=None):
        """One inference step: x_t (B,I) -> y_t (B,L*H), new states. Leaves this step's window on the stack:
        ``step_phi`` (B,U) = phi(t, u) for u = 1..U and ``step_end`` (B,) = phi(t, ulen[b] + 1), the
        window's weight just past each row's last character, which Graves's stop rule compares with
        every phi(t, u), u <= ulen[b] (``lnrnn.sample``)."""
        if not isinstance(x_t, np.ndarray) or x_t.ndim != 2:
            raise ValueError(f"x_t must be a (B,I) array, got {getattr(x_t, 'shape', type(x_t).__name__)}")
        y, states = self.forward(x_t[None], state, training=training, t0=t, keep=False, text=text)
        self.step_phi = self.phi[0]
        self.step_end = self._phi_past_end(y[0], states[0], text[1])
        return y[0], states

    def _phi_past_end(self, y_t, state1, ulen):
        """phi(t, ulen[b] + 1) (B,) from the step's output y_t (B,L*H) and layer 1's state (h, c, kappa, w)."""
        L1, K = self.layers[0], self.K
        h1 = np.asarray(y_t[:, :self.H], np.float64)
        p = h1 @ L1.params["Wp"].astype(np.float64) + L1.params["bp"]
        alpha, beta = np.exp(p[:, :K]), np.exp(p[:, K:2 * K])
        kappa = np.asarray(state1[2], np.float64)
        u = (np.asarray(ulen, np.float64) + 1.0)[:, None]
        return (alpha * np.exp(-beta * (kappa - u) ** 2)).sum(axis=1)
