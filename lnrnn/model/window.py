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
        self._phi = None  # phi (T,B,U) of the last forward, where the kernels left it (``phi``)

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

    @property
    def phi(self):
        """phi (T,B,U) of the last forward (host), copied from the device on the first request only: a
        training run on 'cuda' never asks for it."""
        if self._phi is not None and not isinstance(self._phi, np.ndarray):
            self._phi = self._k.to_host(self._phi)
        return self._phi

    @scoped
    def forward_text(self, x, text, state=None, training=True, lengths=None, t0=0, keep=True, on_device=False):
        """x (T,B,I) and text -> h (T,B,H), w (T,B,C), final state (h, c, kappa, w); self.phi (T,B,U).
        On 'cuda' x may be a device array, and on_device=True returns h, w and the state as device arrays
        (``RecurrentLayer.forward``'s rule); the text, the state and the parameters are uploaded here once
        and the backward reuses those copies."""
        x = _check_array("x", x, 3, self.dtype, (None, None, self.I_x), device_ok=True)
        T, B, _ = x.shape
        if T < 1 or B < 1:
            raise ValueError(f"x must hold at least one step and one sequence, got shape {x.shape}")
        codes, ulen = check_text(text, B, self.C)
        lengths = check_lengths(lengths, T, B)
        H, K, C, dt = self.H, self.K, self.C, self.dtype
        if state is None:
            state = (np.zeros((B, H), dt), np.zeros((B, H), dt))
        if len(state) not in (2, 4):
            raise ValueError(f"the window layer's state is (h, c) or (h, c, kappa, w), got {len(state)} "
                             f"array{'s' * (len(state) != 1)}")
        if len(state) == 2:
            state = tuple(state) + (np.zeros((B, K), dt), np.zeros((B, C), dt))
        state = tuple(_check_array(n, s, 2, dt, (B, w), device_ok=True) for n, s, w in
                      zip(("h0", "c0", "kappa0", "w0"), state, (H, H, K, C)))
        if self.device_views and training and len(self.device_views) > 2:
            # BN statistics kept on the device (``RecurrentLayer.device_views``): steps t0.. updated there
            bufs = self.device_views[2] if t0 == 0 else {n: v[t0:t0 + T] for n, v in self.device_views[2].items()}
        else:
            bufs = self._buffer_rows(int(t0), T, training)
        k = self._k
        self._saved = None
        # one upload each on 'cuda' (identities on the CPU): the kernels take device arrays as they are
        x = k.to_device(x)
        state = tuple(k.to_device(s) for s in state)
        text_d = (k.to_device(codes), k.to_device(ulen))           # (B,U), (B,) int64
        p = self.device_views[0] if self.device_views else {n: k.to_device(v) for n, v in self.params.items()}
        L = np.full(B, T, np.int64) if lengths is None else lengths
        y, w, hT, cT, kT, wT, phi, saved = k.window_lstm_forward(
            x, *state, *text_d, p["Wx"], p["Wh"], p["b"], *self._norm_params(p), p["Wp"], p["bp"],
            *self._bn_rows(bufs), self.norm_code, bool(training), self.momentum, self.eps, L,
            bool(keep or lengths is not None))
        out = (hT, cT, kT, wT)
        if lengths is not None:
            out = self._masked_final(out, y, w, saved, state, lengths)
        self._phi = phi
        self._saved = (x, state, saved, text_d, p, lengths) if keep else None
        fetch = (lambda a: a) if on_device else k.to_host
        return fetch(y), fetch(w), tuple(fetch(s) for s in out)

    def _masked_final(self, out, y, w, saved, state, lengths):
        """Each row's state after its own last step (its initial state where lengths[b] = 0): the layers'
        ``final_state`` over the sequences of h (y), c, kappa (saved) and w."""
        c_seq, kappa_seq = self._k.window_sequences(saved)
        return final_state(self._k, out, (y, c_seq, kappa_seq, w), state, lengths)

    @scoped
    def backward_text(self, dy, dw, on_device=False):
        """dy (T,B,H) = dL/dh_t from above, dw (T,B,C) = dL/dw_t from the layers above -> dx (T,B,I),
        dstate0 (dh0, dc0, dkappa0, dw0). Adds into self.grads. On 'cuda' dy and dw may be device arrays,
        and on_device=True returns dx as one (dstate0 and the parameter gradients come to the host)."""
        if self._saved is None:
            raise RuntimeError("backward called before forward, or after an inference forward (keep=False), "
                               "which keeps nothing for it")
        x, state, saved, (codes, ulen), p, lengths = self._saved
        T, B, _ = x.shape
        dy = _check_array("dy", dy, 3, self.dtype, (T, B, self.H), device_ok=True)
        dw = _check_array("dw", dw, 3, self.dtype, (T, B, self.C), device_ok=True)
        k = self._k
        gx, _, gh, _, gc, _ = self._norm_params(p)
        dx, dh0, dc0, dk0, dw0, *dp = k.window_lstm_backward(
            dy, dw, saved, x, *state, codes, ulen, p["Wx"], p["Wh"], gx, gh, gc, p["Wp"], self.norm_code,
            self.clip_gates)
        names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
        if self.device_views:  # the update runs on the device: gradients and dstate0 stay there
            from lnrnn.kernels.cuda.arrays_cuda import add_into
            for n, d in zip(names, dp):
                if n in self.grads:
                    add_into(self.device_views[1][n], d)
            return (dx if on_device else k.to_host(dx)), (dh0, dc0, dk0, dw0)
        for n, d in zip(names, dp):
            if n in self.grads:
                self.grads[n] += k.to_host(d)
        return (dx if on_device else k.to_host(dx)), tuple(k.to_host(s) for s in (dh0, dc0, dk0, dw0))

    def forward(self, *a, **kw):
        raise TypeError("the window layer reads a text: call forward_text (or run it in a WindowStack)")

    def backward(self, *a, **kw):
        raise TypeError("the window layer's backward is backward_text")


class WindowStack(RecurrentStack):
    """Graves's synthesis network: a WindowLayer, then num_layers - 1 RecurrentLayers reading
    [x | h_below | w]; y = [h1 | ... | hL]. RecurrentStack's interface plus ``text`` (module docstring):
    its construction, parameter names, buffers and gradients are RecurrentStack's (a skip-connected stack
    of one direction, its layers made by ``_make_layers``); the running (forward, backward, step) is its own.

    device 'cuda': layer 1 and its window run on the window op's CUDA twin, layers 2..L on their cells'
    CUDA twins (``RecurrentLayer``), and everything between them stays on the device: layer k's input
    [x | h_{k-1} | w] and y = [h1 | ... | hL] are joined there, the backward splits dL/dy and
    dL/d(inputs) there (``join_columns``/``take_columns``). Whole sequences cross between host and
    device only at the stack's edges, each crossing counted in ``crossings``: x up and y down in a
    forward (none with on_device=True), dy up and dx down in a backward (dx stays with on_device=True).
    The model's host path runs the head on the host and gets y there; a training update on the device
    (``SequenceModel.loss_and_grad_on_device``) keeps y there, and the window layer reads and adds into the device
    buffers (``RecurrentLayer.device_views``). A forward with lengths picks each row's final state on the device
    (``functional.final_state``)."""

    conditioned = True

    def __init__(self, cell, norm, input_size, hidden_size, num_layers=3, alphabet_size=2, window=10,
                 dtype=np.float32, seed=0, forget_bias=1.0, max_steps=1, eps=EPS, momentum=BN_MOMENTUM,
                 device="cpu", recurrent_init="orthogonal", clip_gates=0.0, window_norm=None):
        if window_norm not in (None,) + tuple(NORM_CODES):
            raise ValueError(f"window_norm must be None (the stack's norm) or one of {sorted(NORM_CODES)}, "
                             f"got {window_norm!r}")
        self._window_args = (alphabet_size, window, window_norm or norm)  # checked by WindowLayer
        super().__init__(cell, norm, input_size, hidden_size, num_layers, dtype=dtype, seed=seed,
                         forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum, device=device,
                         skip=True, recurrent_init=recurrent_init, clip_gates=clip_gates, bidirectional=False)
        L1 = self.layers[0]
        self.I, self.H, self.C, self.K = L1.I_x, L1.H, L1.C, L1.K
        self.config.update(window=self.K, alphabet_size=self.C)
        if L1.norm != norm:
            self.config["window_norm"] = L1.norm
        # whole sequences moved between host and device (the class docstring); zeros on the CPU
        self.crossings = dict.fromkeys(("x to device", "y to host", "dy to device", "dx to host"), 0)

    def _make_layers(self, cell, norm, I, H, num_layers, rng, kw):
        """The WindowLayer (input I, window over C characters, norm window_norm), then RecurrentLayers of
        input I + H + C."""
        C, K, window_norm = self._window_args
        first = WindowLayer(cell, window_norm, I, H, C, K, rng, **kw)
        return [first] + [RecurrentLayer(cell, norm, I + H + first.C, H, rng=rng, **kw) for _ in range(num_layers - 1)]

    def set_batch_reduce(self, reduce):
        if reduce is not None and self.layers[0].norm == "bn":
            raise ValueError("synchronized BatchNorm across processes is not offered for the synthesis network")
        super().set_batch_reduce(reduce)

    @property
    def phi(self):
        """phi (T,B,U) of the last forward: the window's weight on each character at each step."""
        return self.layers[0].phi

    def _cross(self, what, move, a):
        """move(a) (the device namespace's to_device or to_host), counted in crossings[what] where a
        crosses between host and device (on 'cuda'; nothing crosses on the CPU)."""
        if self.device == "cuda":
            self.crossings[what] += 1
        return move(a)

    # ---- running ----
    def forward(self, x, state=None, training=True, on_device=False, lengths=None, t0=0, keep=True, text=None):
        """x (T,B,I), text -> y (T,B,L*H), final states (layer 1's (h, c, kappa, w), then (h, c) each).
        On 'cuda' x may be a device array, and on_device=True leaves y and the states on the device."""
        if state is not None and len(state) != len(self.layers):
            raise ValueError(f"state must hold one entry per layer ({len(self.layers)}), got {len(state)}")
        x = _check_array("x", x, 3, self.layers[0].dtype, (None, None, self.I), device_ok=True)
        k = self.layers[0]._k
        if not k.is_device(x):
            x = self._cross("x to device", k.to_device, x)
        st = (lambda j: None) if state is None else (lambda j: state[j])
        h, w, s1 = self.layers[0].forward_text(x, text, st(0), training, lengths, t0, keep, on_device=True)
        hs, states = [h], [s1]
        for j, layer in enumerate(self.layers[1:], start=1):
            h, s = layer.forward(k.join_columns([x, h, w]), st(j), training, on_device=True, lengths=lengths,
                                 t0=t0, keep=keep)                        # input (T,B,I+H+C)
            hs.append(h)
            states.append(s)
        y = k.join_columns(hs)                                            # (T,B,L*H)
        if on_device:
            return y, states
        return self._cross("y to host", k.to_host, y), k.to_host(states)

    def backward(self, dy, on_device=False):
        """dy (T,B,L*H) -> dx (T,B,I); self.dstate0: each layer's initial-state gradient. On 'cuda' dy may
        be a device array, and on_device=True leaves dx on the device."""
        H, I = self.H, self.I
        dy = _check_array("dy", dy, 3, self.layers[0].dtype, (None, None, self.output_size), device_ok=True)
        k = self.layers[0]._k
        if not k.is_device(dy):
            dy = self._cross("dy to device", k.to_device, dy)
        dx, dh_above, dw, dstate = None, None, None, []
        for j in reversed(range(1, len(self.layers))):
            d_in, ds = self.layers[j].backward(k.take_columns(dy, j * H, (j + 1) * H, dh_above),
                                               on_device=True)          # (T,B,I+H+C)
            dstate.append(ds)
            dx = k.take_columns(d_in, 0, I, dx)
            dh_above = k.take_columns(d_in, I, I + H)
            dw = k.take_columns(d_in, I + H, I + H + self.C, dw)
        if dw is None:
            dw = k.zeros(dy.shape[:2] + (self.C,), dy.dtype)
        d1, ds = self.layers[0].backward_text(k.take_columns(dy, 0, H, dh_above), dw, on_device=True)
        dstate.append(ds)
        dx = d1 if dx is None else k.take_columns(d1, 0, I, dx)
        self.dstate0 = dstate[::-1]
        if on_device:
            return dx
        return np.ascontiguousarray(self._cross("dx to host", k.to_host, dx))

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
