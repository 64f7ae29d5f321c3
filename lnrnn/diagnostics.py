"""Per-time-step diagnostics of a recurrent model: *why* normalization helps, step by step.

For one batch, ``per_step`` replays the model's stack with the plain NumPy reference (float64, so the
figures do not depend on the kernels' precision) in training mode (BN cells use the batch's statistics,
as in an update) and returns, for every layer l and step t:

- ``grad_h`` (L,T): mean over the batch's rows of ||dL/dh_t||_2, the total derivative of the batch's
  mean loss with respect to the hidden state (directly and through every later step). With a head
  that reads the last step only, this is how far back from the end the training signal reaches: a
  plain LSTM's curve falls by orders of magnitude over the 784 steps of pixel MNIST, a normalized
  cell's stays flatter.
- ``pre_std`` (L,T): the standard deviation, over the batch's rows and units, of the pre-activations
  entering the gate non-linearities (LSTM: the 4H gate inputs; RNN: the tanh argument);
- ``pre_sat`` (L,T): the fraction of those pre-activations with |a| > 3, where sigmoid and tanh are
  saturated (derivative below 0.05 and 0.01);
- ``h_std`` (L,T): the standard deviation of h_t over rows and units.

Rows count only at steps they run (``lengths``). The model itself is left as it was: its parameters,
gradients, BN population statistics and the head's gradients are not changed.
"""
import numpy as np

from lnrnn import reference as ref
from lnrnn.model.functional import check_lengths, running_mask

SATURATED = 3.0  # |pre-activation| above which a gate counts as saturated


def _layer_forward(layer, x, state, lengths):
    """Reference forward of one layer in float64 -> (y (T,B,H), cache, backward(dy, record) -> dx)."""
    p = {k: np.asarray(v, np.float64) for k, v in layer.params.items()}
    H, G = layer.H, p["Wh"].shape[1]
    st = [np.asarray(s, np.float64) for s in state]
    if layer.norm == "bn":
        bufs = {k: np.array(v, np.float64) for k, v in layer.buffers.items()}  # copies: training mode writes them
        if layer.cell == "lstm":
            y, _, _, saved = ref.bn_lstm_forward(x, st[0], st[1], p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"],
                                                 p["bc"], bufs["rmx"], bufs["rvx"], bufs["rmh"], bufs["rvh"],
                                                 bufs["rmc"], bufs["rvc"], True, layer.momentum, layer.eps, lengths)
            back = lambda dy, rec: ref.bn_lstm_backward(dy, saved, x, st[0], st[1], p["Wx"], p["Wh"], p["gx"],  # noqa: E731
                                                        p["gh"], p["gc"], record=rec)[0]
        else:
            y, _, saved = ref.bn_rnn_forward(x, st[0], p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], bufs["rmx"],
                                             bufs["rvx"], bufs["rmh"], bufs["rvh"], True, layer.momentum, layer.eps,
                                             lengths)
            back = lambda dy, rec: ref.bn_rnn_backward(dy, saved, x, st[0], p["Wx"], p["Wh"], p["gx"], p["gh"],  # noqa: E731
                                                       record=rec)[0]
        pre = [s["pre"] for s in saved["steps"]]
        return y, pre, back
    ln = layer.norm == "ln"
    if layer.cell == "lstm":
        one, zero = np.ones(G), np.zeros(G)
        gx, bx, gh, bh = (p["gx"], p["bx"], p["gh"], p["bh"]) if ln else (one, zero, one, zero)
        gc, bc = (p["gc"], p["bc"]) if ln else (np.ones(H), np.zeros(H))
        y, _, _, cache = ref.lstm_forward(x, st[0], st[1], p["Wx"], p["Wh"], p["b"], gx, bx, gh, bh, gc, bc,
                                          layer.norm, layer.eps)
        back = lambda dy, rec: ref.lstm_backward(dy, cache, p["Wx"], p["Wh"], gx, gh, gc, layer.norm,  # noqa: E731
                                                 record=rec)[0]
    else:
        g = p["g"] if ln else np.ones(H)
        y, _, cache = ref.rnn_forward(x, st[0], p["Wx"], p["Wh"], p["b"], g, layer.norm, layer.eps)
        back = lambda dy, rec: ref.rnn_backward(dy, cache, p["Wx"], p["Wh"], g, layer.norm, record=rec)[0]  # noqa: E731
    return y, [s["pre"] for s in cache], back


def _masked_stats(a, w):
    """a (T,B,K), w (T,B) row weights 0/1 -> (std (T,), fraction |a| > SATURATED (T,)) over rows and units."""
    n = np.maximum(w.sum(1) * a.shape[2], 1)                                  # (T,)
    mean = (a * w[:, :, None]).sum((1, 2)) / n
    var = (((a - mean[:, None, None]) ** 2) * w[:, :, None]).sum((1, 2)) / n
    sat = ((np.abs(a) > SATURATED) * w[:, :, None]).sum((1, 2)) / n
    return np.sqrt(var), sat


def per_step(model, x, targets, lengths=None, state=None):
    """x (T,B,I), targets as the model's head takes them, lengths (B,) or None -> dict of (L,T) float64
    arrays ``grad_h``, ``pre_std``, ``pre_sat``, ``h_std`` (module docstring), ``loss`` (the batch's
    loss per scored unit, a float) and ``dh`` (a list of L arrays (T,B,H): dL/dh_t itself). ``state``: initial states per layer; None draws the model's state noise for
    update 0 (the draw of a training run's first update) or zeros without noise."""
    stack, head = model.stack, model.head
    if getattr(stack, "device", "cpu") != "cpu":
        raise ValueError("per_step diagnostics run on a CPU model (load the checkpoint with device='cpu')")
    if getattr(stack, "bidirectional", False):
        raise ValueError("per_step diagnostics follow one direction of time; this stack is bidirectional")
    x = np.asarray(x, np.float64)
    T, B = x.shape[0], x.shape[1]
    lengths = check_lengths(lengths, T, B)
    if state is None:
        state = model.noise_state(B, (1, 0)) or stack.zero_state(B)
    run = np.ones((T, B)) if lengths is None else running_mask(lengths, T, np.float64)
    ys, pres, backs, inp = [], [], [], x
    for layer, st in zip(stack.layers, state):
        y, pre, back = _layer_forward(layer, inp, st, lengths)
        ys.append(y)
        pres.append(np.stack(pre))
        backs.append(back)
        inp = np.concatenate([x, y], axis=2) if stack.skip else y
    Y = np.concatenate(ys, axis=2) if stack.skip else ys[-1]                   # (T,B,output_size)

    # the head's dL/dY, with the head's own gradients restored afterwards
    saved_grads = {k: np.array(v) for k, v in head.grads.items()} if hasattr(head, "grads") else None
    h, valid, where = model._select(Y, T, lengths, 0)
    sums, count, cache = head.forward(h, targets, valid)
    dY = np.asarray(model._scatter(head.backward(cache, 1.0 / max(count, 1)), Y.shape, where), np.float64)
    if saved_grads is not None:
        for k, v in saved_grads.items():
            head.grads[k][...] = v

    L, H = len(ys), stack.layers[0].H
    grad_h, dhs = np.zeros((L, T)), [None] * L
    dnext = None                                                              # dL/d(input of layer l+1)
    for l in reversed(range(L)):
        dy = dY[:, :, l * H:(l + 1) * H].copy() if stack.skip else (dY.copy() if l == L - 1 else np.zeros_like(ys[l]))
        if dnext is not None:
            dy += dnext[:, :, -H:] if stack.skip else dnext
        rec = []
        dx = backs[l](dy, rec)
        dh = np.stack(rec[::-1])                                              # (T,B,H), t = 0 .. T-1
        dhs[l] = dh
        grad_h[l] = (np.linalg.norm(dh, axis=2) * run).sum(1) / np.maximum(run.sum(1), 1)
        dnext = dx
    pre_std, pre_sat, h_std = np.zeros((L, T)), np.zeros((L, T)), np.zeros((L, T))
    for l in range(L):
        pre_std[l], pre_sat[l] = _masked_stats(pres[l], run)
        h_std[l], _ = _masked_stats(ys[l], run)
    return dict(grad_h=grad_h, pre_std=pre_std, pre_sat=pre_sat, h_std=h_std,
                loss=float(sums["loss"]) / max(count, 1), dh=dhs)
