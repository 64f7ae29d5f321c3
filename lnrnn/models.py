"""Sequence models built on ``lnrnn.layers.RecurrentStack``.

``SequenceClassifier``: a recurrent stack and a linear head
    x (T,B,I) -> stack -> y (T,B,H) -> head
    last-step head (default):  logits = y[-1] @ W + b        W (H,C), b (C,), logits (B,C)
    per-step head (per_step):  logits = y[t] @ W + b, all t   logits (T,B,C)
with one of two objectives:
    'ce'   softmax cross-entropy, labels int (B,) or, per step, (B,T) with -1 marking unscored steps;
           loss = mean over scored (sample, step) of  logsumexp(logits) - logits[label]
           dlogits = (softmax(logits) - onehot(label)) / count     (zero on unscored steps)
    'mse'  regression with C = 1: loss = mean (pred - target)^2, dpred = 2 (pred - target) / B;
           accuracy = fraction with |pred - target| < tolerance.
The log-sum-exp subtracts the row maximum first, so large logits do not overflow.

``params``/``grads``/``buffers`` merge the stack's dicts (prefix 'rnn.') and the head's ('head.');
they are the stack's own arrays, so an optimizer updating them in place trains the model.
"""
import numpy as np

# CLI cell name -> (cell, norm) of RecurrentStack.
CELLS = {
    "rnn": ("rnn", "none"), "lstm": ("lstm", "none"),
    "ln-rnn": ("rnn", "ln"), "ln-lstm": ("lstm", "ln"),
    "bn-rnn": ("rnn", "bn"), "bn-lstm": ("lstm", "bn"),
}


def parse_cell(name):
    from lnrnn.errors import UserError
    if name not in CELLS:
        raise UserError(f"unknown cell {name!r}; choose one of {', '.join(CELLS)}.")
    return CELLS[name]


def log_softmax(logits):
    """Stable log-softmax over the last axis."""
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


class SequenceClassifier:
    """A RecurrentStack plus a linear head; see the module docstring for shapes and objectives."""

    def __init__(self, cell="lstm", norm="none", input_size=1, hidden_size=64, num_layers=1,
                 num_classes=10, objective="ce", per_step=False, tolerance=0.04,
                 dtype="float32", forget_bias=1.0, seed=0, stack=None, device="cpu"):
        if objective not in ("ce", "mse"):
            raise ValueError(f"objective must be 'ce' or 'mse', not {objective!r}")
        if objective == "mse" and (num_classes != 1 or per_step):
            raise ValueError("the 'mse' objective has one output on the last step")
        self.dtype = np.dtype(dtype)
        if stack is None:
            from lnrnn.layers import RecurrentStack
            stack = RecurrentStack(cell=cell, norm=norm, input_size=input_size, hidden_size=hidden_size,
                                   num_layers=num_layers, dtype=self.dtype.type, seed=seed,
                                   forget_bias=forget_bias, device=device)
        self.stack = stack
        H, C = hidden_size, num_classes
        rng = np.random.default_rng([seed, 7])  # a stream of its own, apart from the stack's
        bound = 1.0 / np.sqrt(H)
        self.head_params = {"W": rng.uniform(-bound, bound, (H, C)).astype(self.dtype),  # (H,C)
                            "b": np.zeros(C, self.dtype)}                                   # (C,)
        self.head_grads = {k: np.zeros_like(v) for k, v in self.head_params.items()}
        self.objective, self.per_step, self.tolerance = objective, bool(per_step), float(tolerance)
        self.config = dict(cell=cell, norm=norm, input_size=int(input_size), hidden_size=int(H),
                           num_layers=int(num_layers), num_classes=int(C), objective=objective,
                           per_step=bool(per_step), dtype=self.dtype.name, forget_bias=float(forget_bias))
        if objective == "mse":
            self.config["tolerance"] = self.tolerance

    # ---- merged dicts (rebuilt on access: they hold the very arrays of the stack and the head) ----
    @property
    def params(self):
        return {**{"rnn." + k: v for k, v in self.stack.params.items()},
                **{"head." + k: v for k, v in self.head_params.items()}}

    @property
    def grads(self):
        return {**{"rnn." + k: v for k, v in self.stack.grads.items()},
                **{"head." + k: v for k, v in self.head_grads.items()}}

    @property
    def buffers(self):
        return {"rnn." + k: v for k, v in getattr(self.stack, "buffers", {}).items()}

    def num_params(self):
        return int(sum(p.size for p in self.params.values()))

    def zero_grad(self):
        self.stack.zero_grad()
        for g in self.head_grads.values():
            g[...] = 0

    def load_arrays(self, arrays):
        """Copy params (in place, shapes must match) and buffers (BN statistics) into the model."""
        own_p, own_b = self.params, self.buffers
        names = set(own_p) | set(own_b)
        if set(arrays) != names:
            raise ValueError(f"array names differ: {sorted(set(arrays) ^ names)[:5]}")
        for k, p in own_p.items():
            if p.shape != arrays[k].shape:
                raise ValueError(f"{k}: shape {arrays[k].shape} vs {p.shape}")
            p[...] = arrays[k]
        if own_b:
            bufs = {k[len("rnn."):]: arrays[k] for k in own_b}
            if hasattr(self.stack, "load_buffers"):  # BN statistics may have grown to more steps
                self.stack.load_buffers(bufs)
            else:
                for k, b in self.stack.buffers.items():
                    b[...] = bufs[k]

    # ---- head forward/backward ----
    def head_forward(self, y, labels):
        """y (T,B,H) -> (loss_sum, correct, count, dlogits) with dlogits the gradient of loss_sum."""
        W, b = self.head_params["W"], self.head_params["b"]
        if self.objective == "mse":
            pred = (y[-1] @ W + b)[:, 0]                                  # (B,)
            err = pred - labels.astype(self.dtype)
            correct = int(np.count_nonzero(np.abs(err) < self.tolerance))
            return float(np.dot(err.astype(np.float64), err)), correct, len(err), (2 * err)[:, None]
        if self.per_step:
            logits = y @ W + b                                            # (T,B,C)
            lab = np.ascontiguousarray(labels.T)                          # (T,B)
        else:
            logits = y[-1] @ W + b                                        # (B,C)
            lab = labels
        logp = log_softmax(logits)
        mask = lab >= 0
        safe = np.where(mask, lab, 0)
        picked = np.take_along_axis(logp, safe[..., None], axis=-1)[..., 0]
        loss_sum = -float(picked[mask].sum(dtype=np.float64))
        correct = int(np.count_nonzero((logits.argmax(-1) == lab) & mask))
        dlogits = np.exp(logp)
        np.put_along_axis(dlogits, safe[..., None], np.take_along_axis(dlogits, safe[..., None], -1) - 1, -1)
        dlogits *= mask[..., None]
        return loss_sum, correct, int(mask.sum()), dlogits

    def head_backward(self, y, dlogits):
        """Accumulate head grads; -> dy (T,B,H)."""
        W = self.head_params["W"]
        if self.per_step:
            H, C = W.shape
            self.head_grads["W"] += y.reshape(-1, H).T @ dlogits.reshape(-1, C)
            self.head_grads["b"] += dlogits.reshape(-1, C).sum(0)
            return np.ascontiguousarray(dlogits @ W.T)
        h = y[-1]
        self.head_grads["W"] += h.T @ dlogits
        self.head_grads["b"] += dlogits.sum(0)
        dy = np.zeros_like(y)
        dy[-1] = dlogits @ W.T
        return dy

    # ---- whole model ----
    def _stack_forward(self, x, training):
        """-> (y_dev, y_head): the stack's output where it lives, and what the head reads on the host.
        On 'cuda' a last-step head copies only y[T-1] (B,H) back, as a (1,B,H) array (the head reads
        y[-1] alone); on the CPU both are y itself."""
        if getattr(self.stack, "device", "cpu") != "cuda":
            y, _ = self.stack.forward(x, None, training=training)
            return y, y
        y, _ = self.stack.forward(x, None, training=training, on_device=True)
        k = self.stack.layers[0]._k
        if self.per_step:
            return y, k.to_host(y)
        return y, k.to_host(y[y.shape[0] - 1])[None]

    def loss_and_grad(self, x, labels):
        """x (T,B,I): zero grads, forward, backward -> (mean loss, accuracy)."""
        self.zero_grad()
        y, y_head = self._stack_forward(x, training=True)
        loss_sum, correct, count, dlogits = self.head_forward(y_head, labels)
        count = max(count, 1)
        dlogits = (dlogits / count).astype(self.dtype)
        dy = self.head_backward(y_head, dlogits)
        if dy.shape[0] != y.shape[0]:  # 'cuda', last-step head: dL/dy is zero before the last step
            k = self.stack.layers[0]._k
            ddy = k.zeros(y.shape, self.dtype)
            ddy[y.shape[0] - 1].copy_to_device(dy[0])
            dy = ddy
        self.stack.backward(dy)
        return loss_sum / count, correct / count

    def loss_sums(self, x, labels):
        """Inference (training=False) on one batch -> (loss_sum, correct, count)."""
        _, y_head = self._stack_forward(x, training=False)
        loss_sum, correct, count, _ = self.head_forward(y_head, labels)
        return loss_sum, correct, count

    def evaluate(self, x, labels, batch_size=500):
        """x (T,N,I), labels for N samples -> (mean loss, accuracy), in batches of batch_size."""
        tot = [0.0, 0, 0]
        for s in range(0, x.shape[1], batch_size):
            part = self.loss_sums(np.ascontiguousarray(x[:, s:s + batch_size]), labels[s:s + batch_size])
            tot = [a + b for a, b in zip(tot, part)]
        n = max(tot[2], 1)
        return tot[0] / n, tot[1] / n
