"""Finite-difference gradient checks: the judge of every hand-written backward.

    num = numeric_grad(lambda: loss(), arr)      # perturbs arr in place, restores it
    rel_error(analytic, num)                     # max over elements |a-n| / max(|a|+|n|, floor)

``check_stack`` runs a whole (multi-layer) recurrent stack in float64 against central differences
for every parameter, the input sequence and the initial states, optionally on a padded batch
(``lengths``) or as a chunk that starts at step ``t0`` from a carried state; ``check_model`` does the
same for a whole model (stack + head: the loss the trainer minimizes); ``lnrnn gradcheck`` prints
their lines.
"""
import numpy as np

TINY = 1e-12     # floor of the relative-error denominator (both gradients ~0 -> absolute error)
SCALE_FLOOR = 1e-2  # elements below 1% of the array's largest are judged against that scale
TOLERANCE = 1e-6  # max relative error accepted for a float64 central-difference check


def numeric_grad(f, arr, eps=1e-4, idx=None, order=4):
    """Central differences of scalar f() w.r.t. arr, element by element.

    order=4 (default): (8(f(a+eps) - f(a-eps)) - (f(a+2eps) - f(a-2eps))) / 12eps, truncation O(eps^4),
             so eps can be large enough (1e-4) that float64 rounding noise, O(1e-16 |f| / eps), stays
             far below the 1e-6 tolerance even for gradient elements of size ~1e-6.
    order=2: (f(a+eps) - f(a-eps)) / 2eps, truncation O(eps^2); pass a smaller eps (~1e-5).
    idx: None for every element (returns an array shaped like arr), or a sequence of flat indices
    (returns a 1-D array of the derivatives at those indices, in that order).
    """
    if order not in (2, 4):
        raise ValueError("order must be 2 or 4")
    flat = arr.reshape(-1)  # a view: arr must be contiguous
    if not np.shares_memory(flat, arr):
        raise ValueError("numeric_grad needs a contiguous array")
    which = range(flat.size) if idx is None else idx
    out = np.empty(len(which), dtype=np.float64)
    for n, k in enumerate(which):
        old = flat[k]
        flat[k] = old + eps
        fp = float(f())
        flat[k] = old - eps
        fm = float(f())
        if order == 4:
            flat[k] = old + 2 * eps
            fp2 = float(f())
            flat[k] = old - 2 * eps
            fm2 = float(f())
            out[n] = (8 * (fp - fm) - (fp2 - fm2)) / (12 * eps)
        else:
            out[n] = (fp - fm) / (2 * eps)
        flat[k] = old
    return out.reshape(arr.shape) if idx is None else out


def rel_error(a, n):
    """max over elements of |a - n| / max(|a| + |n|, floor), floor = max(TINY, SCALE_FLOOR * max(|a| + |n|)).

    A plain elementwise ratio judges an element of 1e-7 in an array whose largest entry is 1e-3 by
    finite-difference noise alone (float64 evaluation of the loss is exact to ~1e-15, so a difference
    quotient carries ~1e-11 absolute noise): seen on the inference-mode BN-LSTM, whose first-layer
    gradients are 1e-3 of the loss scale. Elements below 1% of the array's largest are therefore
    measured against that 1% (so their absolute error must stay below 1e-8 of the array's scale at
    the default tolerance); every larger element keeps the plain elementwise ratio, where any wrong
    formula shows.
    """
    a = np.asarray(a, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    mag = np.abs(a) + np.abs(n)
    floor = max(TINY, SCALE_FLOOR * float(np.max(mag, initial=0.0)))
    return float(np.max(np.abs(a - n) / np.maximum(mag, floor), initial=0.0))


def sample_idx(arr, k, rng):
    """All flat indices of arr if it has at most k elements, else k distinct random ones (sorted)."""
    if arr.size <= k:
        return np.arange(arr.size)
    return np.sort(rng.choice(arr.size, size=k, replace=False))


def check_stack(cell, norm, T=5, B=3, I=3, H=4, num_layers=2, training=True, seed=0, max_elems=40,
                lengths=None, t0=0, skip=False):
    """Gradient-check a float64 RecurrentStack on a random problem.

    The loss is sum(y * R) for a fixed random R (so every output step matters). Returns a list of
    (name, max relative error) for every parameter ('l0.Wx', ...), the input 'x' and each layer's
    initial state ('l0.h0', 'l0.c0', ...). At most max_elems random elements of each array are checked.
    For BN in training mode the population statistics are restored before every evaluation; in
    inference mode they are first set to random, non-trivial values. lengths (B,): a padded batch
    (R is zero nowhere: the layers must drop dL/dy at padded steps themselves); t0: the chunk's first
    step (BN statistics of steps t0..t0+T-1; the buffers hold t0+T rows).
    """
    from lnrnn.model.layers import RecurrentStack

    rng = np.random.default_rng(seed)
    stack = RecurrentStack(cell, norm, I, H, num_layers=num_layers, dtype=np.float64, seed=seed, max_steps=t0 + T,
                           skip=skip)
    # Move every parameter away from its initial value so no gradient is trivially zero or symmetric.
    for v in stack.params.values():
        v += 0.3 * rng.standard_normal(v.shape)
    for layer in stack.layers:
        for n, v in layer.buffers.items():
            v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else 0.3 * rng.standard_normal(v.shape)
    saved_buffers = {k: v.copy() for k, v in stack.buffers.items()}
    x = rng.standard_normal((T, B, I))
    state = [tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate)) for layer in stack.layers]
    R = rng.standard_normal((T, B, stack.output_size))

    def loss():
        stack.load_buffers(saved_buffers)
        y, _ = stack.forward(x, state, training, lengths=lengths, t0=t0)
        if lengths is not None:  # the loss a head would see: running steps only
            return float(np.sum(y * R * (np.arange(T)[:, None] < lengths)[:, :, None]))
        return float(np.sum(y * R))

    loss()
    stack.zero_grad()
    dx = stack.backward(R.copy())
    analytic = dict(stack.grads)
    analytic["x"] = dx
    targets = dict(stack.params)
    targets["x"] = x
    for k, (layer_state, dstate) in enumerate(zip(state, stack.dstate0)):
        for name, s, ds in zip(("h0", "c0"), layer_state, dstate):
            targets[f"l{k}.{name}"], analytic[f"l{k}.{name}"] = s, ds
    results = []
    for name, arr in targets.items():
        idx = sample_idx(arr, max_elems, rng)
        num = numeric_grad(loss, arr, idx=idx)
        results.append((name, rel_error(analytic[name].reshape(-1)[idx], num)))
    return results


def check_model(cell, norm, head="classifier", per_step=False, T=5, B=3, I=3, H=4, num_layers=2, seed=0,
                max_elems=40, lengths=None, skip=False, window=0, alphabet=5, bidirectional=False):
    """Gradient-check a float64 model (stack + head) on its mean loss, optionally on a padded batch.
    head: 'classifier' (3 classes) or 'regression' (2 outputs), on the last step or every step, or
    'mdn' (a mixture of 2 bivariate Gaussians and an end-of-stroke bit, every step). window K > 0 (LSTM
    cells): Graves's synthesis network (``lnrnn.model.window``) reading random texts of up to 4 of
    ``alphabet`` characters, of different lengths (one empty), so positions past a text are padding.
    bidirectional: every layer also runs backward (``lnrnn.model.layers.RecurrentStack``).
    -> [(name, max relative error)] for every parameter ('rnn.l0.Wx', ..., 'head.W', 'head.b')."""
    from lnrnn.model.models import build_model

    rng = np.random.default_rng(seed)
    outputs = {"classifier": 3, "regression": 2, "mdn": 13}[head]
    hc = ({"kind": "mdn", "components": 2, "per_step": True} if head == "mdn" else
          {"kind": head, "outputs": outputs, "per_step": per_step})
    config = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=num_layers, dtype="float64",
                  forget_bias=1.0, head=hc, skip=skip)
    if bidirectional:
        config["bidirectional"] = True
    if window:
        config.update(window=int(window), alphabet_size=int(alphabet), skip=True)
    model = build_model(config, seed=seed, max_steps=T)
    flat = model.flat[0].data
    flat += 0.3 * rng.standard_normal(flat.size)
    saved_buffers = {k: v.copy() for k, v in model.buffers.items()}
    x = rng.standard_normal((T, B, I))
    if head == "classifier":
        targets = rng.integers(0, outputs, (B, T) if per_step else B)
    elif head == "mdn":
        targets = rng.standard_normal((B, T, 3))
        targets[..., 2] = rng.integers(0, 2, (B, T))
    else:
        targets = rng.standard_normal((B, T, outputs) if per_step else (B, outputs))

    text = None
    if window:
        U = 4
        text = (rng.integers(0, alphabet, (B, U)), np.arange(B) % (U + 1))   # (B,U) codes, (B,) lengths 0..U

    def loss():
        model.stack.load_buffers({k[len("rnn."):]: v for k, v in saved_buffers.items()})
        return model.loss_and_grad(x, targets, lengths, text=text)["loss"]

    loss()
    analytic = model.flat[1].data.copy()
    results = []
    for (name, shape, off) in model.flat[0].layout:
        size = int(np.prod(shape, dtype=np.int64))
        view = flat[off:off + size]
        idx = sample_idx(view, max_elems, rng)
        num = numeric_grad(loss, view, idx=idx)
        results.append((name, rel_error(analytic[off:off + size][idx], num)))
    return results
