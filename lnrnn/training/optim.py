"""Optimizers over one flat parameter array (or dicts of named arrays), updating it in place.

``params`` and ``grads`` are either two 1-D arrays of one layout (``model.flat[0].data`` and
``model.flat[1].data``: the whole model, one array each, so a step is a handful of vector operations)
or dicts with identical keys and shapes. The optimizer keeps its state in the same form, in the
parameters' dtype. With a flat array, pass its layout (``lnrnn.model.flat.FlatArrays``) to ``state_dict``
and ``load_state_dict`` so that the saved slots are named per parameter, as they always were. ``state_dict()`` returns ``{"kind", "hyper", "step", "slots"}`` where ``slots``
maps a slot name ('momentum', 'm', 'v', 'sq') to a dict of arrays: everything is plain arrays and
JSON scalars, so ``lnrnn.training.checkpoint`` can store it in npz + JSON.

Learning-rate decay is a function of the epoch (``decayed_lr``) rather than hidden state, so that a
resumed run sees the same rates as an uninterrupted one.
"""
import math

import numpy as np

from lnrnn.errors import UserError


def _arrays(grads):
    return [grads] if isinstance(grads, np.ndarray) else list(grads.values())


def global_norm(grads):
    """sqrt(sum of squares of every gradient) (a flat array or a dict), summed in float64."""
    total = 0.0
    for g in _arrays(grads):
        flat = g.reshape(-1).astype(np.float64)
        total += float(np.dot(flat, flat))
    return math.sqrt(total)


def clip_grad_norm(grads, max_norm):
    """Scale all grads in place so their global norm is at most max_norm (<= 0: no clipping).

    Returns the norm before clipping (inf/nan when some gradient is not finite; grads untouched then).
    """
    norm = global_norm(grads)
    if max_norm and max_norm > 0 and math.isfinite(norm) and norm > max_norm:
        scale = max_norm / (norm + 1e-6)
        for g in _arrays(grads):
            g *= g.dtype.type(scale)
    return norm


def decayed_lr(lr, decay, epoch):
    """Learning rate of a (0-based) epoch: lr * decay**epoch."""
    return lr * decay ** epoch


FLAT = ""  # the slot name of a flat parameter array


class Optimizer:
    kind = "?"
    slot_names = ()

    def __init__(self, lr, **hyper):
        if not (lr > 0 and math.isfinite(lr)):
            raise UserError(f"the learning rate must be a positive number, not {lr}.")
        self.lr = float(lr)
        self.hyper = hyper
        self.step_count = 0
        self.slots = {name: {} for name in self.slot_names}

    def _slot(self, slot, name, like):
        buf = self.slots[slot].get(name)
        if buf is None:
            buf = self.slots[slot][name] = np.zeros_like(like)
        return buf

    def step(self, params, grads):
        """One update of params in place from grads: two flat arrays, or dicts (every params[k] from grads[k])."""
        if isinstance(params, np.ndarray):
            if not isinstance(grads, np.ndarray) or grads.shape != params.shape or params.ndim != 1:
                raise ValueError("a flat parameter array needs a flat gradient array of the same shape")
            self.step_count += 1
            self._update(FLAT, params, grads)
            return
        if params.keys() != grads.keys():
            raise ValueError(f"params and grads keys differ: {sorted(set(params) ^ set(grads))}")
        self.step_count += 1
        for name, p in params.items():
            self._update(name, p, grads[name])

    def state_dict(self, layout=None):
        """Plain arrays and JSON scalars. With ``layout`` (the FlatArrays of a flat parameter array),
        a flat slot is saved as one array per parameter name."""
        slots = {}
        for s, d in self.slots.items():
            if FLAT in d and layout is not None:
                slots[s] = {k: v.copy() for k, v in layout.split(d[FLAT]).items()}
            else:
                slots[s] = {k: v.copy() for k, v in d.items()}
        return {"kind": self.kind, "hyper": {"lr": self.lr, **self.hyper}, "step": self.step_count,
                "slots": slots}

    def load_state_dict(self, state, layout=None):
        """The inverse of state_dict; with ``layout``, named slots are joined into flat ones
        (ValueError when they do not fit the layout)."""
        if state.get("kind") != self.kind:
            raise UserError(f"the saved optimizer state is for {state.get('kind')}, not {self.kind}.")
        hyper = dict(state["hyper"])
        self.lr = float(hyper.pop("lr"))
        self.hyper.update(hyper)
        self.step_count = int(state["step"])
        self.slots = {s: {k: np.array(v) for k, v in state["slots"].get(s, {}).items()}
                      for s in self.slot_names}
        if layout is not None:
            for s, d in self.slots.items():
                if d:
                    missing = set(layout.names) ^ set(d)
                    if missing:
                        raise ValueError(f"optimizer slot {s} does not match the parameters: {sorted(missing)[:5]}")
                    self.slots[s] = {FLAT: layout.join(d)}


class SGD(Optimizer):
    """p -= lr * v with v = momentum * v + g (PyTorch's form; momentum 0: plain SGD)."""

    kind = "sgd"
    slot_names = ("momentum",)

    def __init__(self, lr=0.01, momentum=0.9):
        super().__init__(lr, momentum=float(momentum))

    def _update(self, name, p, g):
        mu = self.hyper["momentum"]
        if mu:
            v = self._slot("momentum", name, p)
            v *= p.dtype.type(mu)
            v += g
            g = v
        p -= p.dtype.type(self.lr) * g


class RMSProp(Optimizer):
    """sq = alpha * sq + (1 - alpha) g^2;  p -= lr * g / (sqrt(sq) + eps)."""

    kind = "rmsprop"
    slot_names = ("sq",)

    def __init__(self, lr=1e-3, alpha=0.99, eps=1e-8):
        super().__init__(lr, alpha=float(alpha), eps=float(eps))

    def _update(self, name, p, g):
        t = p.dtype.type
        a, eps = self.hyper["alpha"], self.hyper["eps"]
        sq = self._slot("sq", name, p)
        sq *= t(a)
        sq += t(1 - a) * g * g
        p -= t(self.lr) * g / (np.sqrt(sq) + t(eps))


class RMSPropMomentum(Optimizer):
    """RMSProp with momentum, centred or not: the form Graves (2013, eqs. 38-41) trained handwriting with,
    and Cooijmans et al. (2016) sequential MNIST (momentum 0.9, not centred).

        sq  = alpha sq + (1 - alpha) g^2
        avg = alpha avg + (1 - alpha) g                     (centred only; else avg = 0)
        v   = momentum v - lr g / sqrt(sq - avg^2 + eps)
        p  += v
    eps sits inside the square root, as in Graves's equations. 'rmsprop-graves': alpha 0.95, momentum
    0.9, eps 1e-4, centred; 'rmsprop-momentum': alpha 0.9, momentum 0.9, eps 1e-8 (under the root),
    not centred."""

    slot_names = ("sq", "avg", "v")

    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, centred=True):
        super().__init__(lr, alpha=float(alpha), momentum=float(momentum), eps=float(eps),
                         centred=float(bool(centred)))  # 1.0 / 0.0: hyper-parameters are JSON floats

    def _update(self, name, p, g):
        t = p.dtype.type
        h = self.hyper
        a = h["alpha"]
        sq = self._slot("sq", name, p)
        sq *= t(a)
        sq += t(1 - a) * g * g
        denom = sq + t(h["eps"])
        if h["centred"]:
            avg = self._slot("avg", name, p)
            avg *= t(a)
            avg += t(1 - a) * g
            denom = denom - avg * avg
        v = self._slot("v", name, p)
        v *= t(h["momentum"])
        v -= t(self.lr) * g / np.sqrt(denom)
        p += v


class GravesRMSProp(RMSPropMomentum):
    kind = "rmsprop-graves"

    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, centred=True):
        super().__init__(lr, alpha, momentum, eps, centred)


class MomentumRMSProp(RMSPropMomentum):
    kind = "rmsprop-momentum"

    def __init__(self, lr=1e-3, alpha=0.9, momentum=0.9, eps=1e-8, centred=False):
        super().__init__(lr, alpha, momentum, eps, centred)


class Adam(Optimizer):
    """Adam (Kingma & Ba 2015) with bias correction folded into the step size."""

    kind = "adam"
    slot_names = ("m", "v")

    def __init__(self, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__(lr, beta1=float(beta1), beta2=float(beta2), eps=float(eps))

    def _update(self, name, p, g):
        t = p.dtype.type
        b1, b2, eps = self.hyper["beta1"], self.hyper["beta2"], self.hyper["eps"]
        m, v = self._slot("m", name, p), self._slot("v", name, p)
        m *= t(b1)
        m += t(1 - b1) * g
        v *= t(b2)
        v += t(1 - b2) * g * g
        k = self.step_count
        step = self.lr * math.sqrt(1 - b2 ** k) / (1 - b1 ** k)
        eps_hat = eps * math.sqrt(1 - b2 ** k)  # eps applied to the bias-corrected v, as in the paper
        p -= t(step) * m / (np.sqrt(v) + t(eps_hat))


OPTIMIZERS = {"adam": Adam, "rmsprop": RMSProp, "rmsprop-momentum": MomentumRMSProp,
              "rmsprop-graves": GravesRMSProp, "sgd": SGD}


def make_optimizer(kind, lr):
    if kind not in OPTIMIZERS:
        raise UserError(f"unknown optimizer {kind!r}; choose one of {', '.join(OPTIMIZERS)}.")
    return OPTIMIZERS[kind](lr=lr)
