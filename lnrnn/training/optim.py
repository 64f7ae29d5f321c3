"""Optimizers over one flat parameter array (or dicts of named arrays), updating it in place.

``params`` and ``grads`` are either two 1-D arrays of one layout (``model.flat[0].data`` and
``model.flat[1].data``: the whole model, one array each, so a step is a handful of vector operations)
or dicts with identical keys and shapes. The optimizer keeps its state in the same form, in the
parameters' dtype. With a flat array, pass its layout (``lnrnn.model.flat.FlatArrays``) to ``state_dict``
and ``load_state_dict`` so that the saved slots are named per parameter, as they always were. ``state_dict()`` returns ``{"kind", "hyper", "step", "slots"}`` where ``slots``
maps a slot name ('momentum', 'm', 'v', 'sq') to a dict of arrays: everything is plain arrays and
JSON scalars, so ``lnrnn.training.checkpoint`` can store it in npz + JSON.

The update rules' arithmetic lives in ``lnrnn.kernels.optim`` (CPU) and its CUDA twin ``optim_cuda``:
an optimizer given device arrays (``lnrnn train --device cuda``) keeps its slots on the device and runs
the twin there (``state_dict`` copies them to the host; loaded host slots go to the device at the next
step).

Learning-rate decay is a function of the epoch (``decayed_lr``) rather than hidden state, so that a
resumed run sees the same rates as an uninterrupted one.
"""
import math

import numpy as np

from lnrnn.errors import UserError
from lnrnn.kernels import optim as cpu_rules
from lnrnn.kernels.optim import clip_scale


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
    scale = clip_scale(norm, max_norm)
    if scale is not None:
        for g in _arrays(grads):
            g *= g.dtype.type(scale)
    return norm


def decayed_lr(lr, decay, epoch):
    """Learning rate of a (0-based) epoch: lr * decay**epoch."""
    return lr * decay ** epoch


FLAT = ""  # the slot name of a flat parameter array


def _on_device(a):
    """A CUDA device array (numba-cuda's, or the simulator's), not a NumPy one."""
    return not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host")


def rules(p):
    """The module of update rules for p's device: ``lnrnn.kernels.optim`` or its CUDA twin (imported only
    for device arrays, so CPU training never imports numba.cuda)."""
    if not _on_device(p):
        return cpu_rules
    from lnrnn.kernels import optim_cuda
    return optim_cuda


def _host(a):
    return a.copy_to_host() if _on_device(a) else a.copy()


def hyper_problem(hyper):
    """What is wrong with saved hyper-parameters {name: value} (a checkpoint's), as "beta1 -1 (...)", or None:
    the learning rate and eps positive, the decay factors (beta1, beta2, alpha, momentum) in [0, 1), centred 0 or
    1, each a finite number; the constructors never make anything else."""
    for name, v in hyper.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            return f"{name} {v!r} (not a finite number)"
        if name in ("lr", "eps") and not v > 0:
            return f"{name} {v!r} (not positive)"
        if name in ("beta1", "beta2", "alpha", "momentum") and not 0 <= v < 1:
            return f"{name} {v!r} (not in [0, 1))"
        if name == "centred" and v not in (0, 1):
            return f"{name} {v!r} (not 0 or 1)"
    return None


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
        """The slot's array for parameter ``name``, made (zeros) on like's device at first use; a host
        slot (a loaded state) of device parameters is copied to the device once."""
        buf = self.slots[slot].get(name)
        if not _on_device(like):
            if buf is None:
                buf = self.slots[slot][name] = np.zeros_like(like)
            return buf
        from lnrnn.kernels.cuda import arrays_cuda
        if buf is None:
            buf = self.slots[slot][name] = arrays_cuda.zeros(like.shape, like.dtype)
        elif not _on_device(buf):
            buf = self.slots[slot][name] = arrays_cuda.to_device(buf)
        return buf

    def slots_kept(self):
        """Parameter-sized slots a step keeps with these hyper-parameters (what lnrnn.training.memory counts):
        each of slot_names unless a subclass says otherwise."""
        return len(self.slot_names)

    def step(self, params, grads):
        """One update of params in place from grads: two flat arrays, or dicts (every params[k] from grads[k])."""
        if isinstance(params, np.ndarray) or _on_device(params):
            if _on_device(grads) != _on_device(params) or getattr(grads, "shape", None) != params.shape \
                    or params.ndim != 1:
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
                slots[s] = {k: v.copy() for k, v in layout.split(_host(d[FLAT])).items()}
            else:
                slots[s] = {k: _host(v) for k, v in d.items()}
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

    def slots_kept(self):
        return 1 if self.hyper["momentum"] else 0  # momentum 0: plain SGD keeps nothing

    def _update(self, name, p, g):
        mu = self.hyper["momentum"]
        rules(p).sgd_update(p, self._slot("momentum", name, p) if mu else None, g, self.lr, mu)


class RMSProp(Optimizer):
    """sq = alpha * sq + (1 - alpha) g^2;  p -= lr * g / (sqrt(sq) + eps)."""

    kind = "rmsprop"
    slot_names = ("sq",)

    def __init__(self, lr=1e-3, alpha=0.99, eps=1e-8):
        super().__init__(lr, alpha=float(alpha), eps=float(eps))

    def _update(self, name, p, g):
        rules(p).rmsprop_update(p, self._slot("sq", name, p), g, self.lr, self.hyper["alpha"], self.hyper["eps"])


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

    def slots_kept(self):
        return 3 if self.hyper["centred"] else 2  # avg only when centred

    def _update(self, name, p, g):
        h = self.hyper
        avg = self._slot("avg", name, p) if h["centred"] else None
        rules(p).rmsprop_momentum_update(p, self._slot("sq", name, p), avg, self._slot("v", name, p), g, self.lr,
                                         h["alpha"], h["momentum"], h["eps"])


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
        h = self.hyper
        rules(p).adam_update(p, self._slot("m", name, p), self._slot("v", name, p), g, self.lr, h["beta1"],
                             h["beta2"], h["eps"], self.step_count)


OPTIMIZERS = {"adam": Adam, "rmsprop": RMSProp, "rmsprop-momentum": MomentumRMSProp,
              "rmsprop-graves": GravesRMSProp, "sgd": SGD}


def make_optimizer(kind, lr):
    if kind not in OPTIMIZERS:
        raise UserError(f"unknown optimizer {kind!r}; choose one of {', '.join(OPTIMIZERS)}.")
    return OPTIMIZERS[kind](lr=lr)
