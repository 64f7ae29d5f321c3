"""Recurrent stacks (lnrnn/model/layers.py) in float64 at tiny sizes against tanh RNN layers written here
(h_t = tanh(u_t Wx + h_{t-1} Wh + b) over each row's own steps): a two-layer stack from given, distinct
initial states per layer, whole and in two chunks carrying the states (t0 = 2), outputs and final states by
hand; a two-layer bidirectional stack over ragged rows (an empty row, a one-step row): outputs [forward |
backward] per running step, final states in the layers' order (l0, l0 backward, l1, l1 backward: the forward
direction's at the row's last step, the backward one's after the row's first), dL/dx and every parameter's
gradient against central differences of the hand-written forward; a BatchNorm stack's population statistics
loaded per layer; the refusal of a state with one entry per layer where the stack has one per direction."""
import re

import numpy as np
import pytest

from lnrnn.model.layers import RecurrentStack
from gradcheck_util import numeric_grad

I, H = 2, 3


def tanh_rnn(p, u, h0):
    """(n,H) outputs of one tanh RNN direction over u (n,in) from h0 (H,)."""
    h, out = h0, []
    for t in range(u.shape[0]):
        h = np.tanh(u[t] @ p["Wx"] + h @ p["Wh"] + p["b"])
        out.append(h)
    return np.array(out).reshape(u.shape[0], H)


def stack_of(layers, bidirectional=False, seed=0):
    stack = RecurrentStack("rnn", "none", I, H, num_layers=layers, dtype=np.float64, seed=seed,
                           bidirectional=bidirectional)
    rng = np.random.default_rng(30 + seed)
    for v in stack.params.values():
        v[...] = rng.normal(0.0, 0.7, v.shape)
    return stack


def layer_params(stack, name):
    return {n: stack.params[name + n] for n in ("Wx", "Wh", "b")}


def test_two_layers_from_given_states_whole_and_in_chunks_by_hand():
    T, B = 5, 2
    stack = stack_of(2, seed=1)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((T, B, I))
    s0 = [(rng.standard_normal((B, H)),), (rng.standard_normal((B, H)),)]
    y, st = stack.forward(x, s0, training=False, keep=False)
    p0, p1 = layer_params(stack, "l0."), layer_params(stack, "l1.")
    for r in range(B):
        h0 = tanh_rnn(p0, x[:, r], s0[0][0][r])
        h1 = tanh_rnn(p1, h0, s0[1][0][r])
        np.testing.assert_allclose(y[:, r], h1, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(st[0][0][r], h0[-1], rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(st[1][0][r], h1[-1], rtol=1e-12, atol=1e-13)
    ya, sa = stack.forward(x[:2], s0, training=False, keep=False)
    yb, sb = stack.forward(np.ascontiguousarray(x[2:]), sa, training=False, t0=2, keep=False)
    np.testing.assert_allclose(np.concatenate([ya, yb]), y, rtol=1e-12, atol=1e-13)
    for a, b in zip(sb, st):
        np.testing.assert_allclose(a[0], b[0], rtol=1e-12, atol=1e-13)


def bi_reference(params, x, lengths):
    """Per row: the top layer's (n,2H) outputs and the final states [l0, l0r, l1, l1r] (each (H,))."""
    outs, finals = [], []
    for r, n in enumerate(lengths):
        u, fin = x[:n, r], []
        for k in range(2):
            f = tanh_rnn(params[f"l{k}."], u, np.zeros(H))
            b = tanh_rnn(params[f"l{k}_reverse."], u[::-1], np.zeros(H))[::-1]
            fin += [f[-1] if n else np.zeros(H), b[0] if n else np.zeros(H)]
            u = np.concatenate([f, b], 1)
        outs.append(u)
        finals.append(fin)
    return outs, finals


def test_bidirectional_two_layers_by_hand_and_by_central_differences():
    T, B = 4, 3
    lengths = np.array([4, 0, 1], np.int64)
    stack = stack_of(2, bidirectional=True, seed=3)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((T, B, I))
    w = rng.standard_normal((T, B, 2 * H)) * (np.arange(T)[:, None] < lengths)[:, :, None]   # 0 at padding
    names = ["l0.", "l0_reverse.", "l1.", "l1_reverse."]
    params = {nm: {n: np.array(v) for n, v in layer_params(stack, nm).items()} for nm in names}
    y, st = stack.forward(x, training=True, lengths=lengths)
    outs, finals = bi_reference(params, x, lengths)
    for r, n in enumerate(lengths):
        np.testing.assert_allclose(y[:n, r], outs[r], rtol=1e-12, atol=1e-13)
        for j in range(4):
            np.testing.assert_allclose(st[j][0][r], finals[r][j], rtol=1e-12, atol=1e-13, err_msg=names[j])
    stack.zero_grad()
    dx = stack.backward(np.ascontiguousarray(w))
    xr = np.array(x)

    def loss():
        o, _ = bi_reference(params, xr, lengths)
        return sum(float((o[r] * w[:n, r]).sum()) for r, n in enumerate(lengths))
    np.testing.assert_allclose(dx, numeric_grad(loss, xr), rtol=1e-6, atol=1e-9)
    for nm in names:
        for n in ("Wx", "Wh", "b"):
            np.testing.assert_allclose(stack.grads[nm + n], numeric_grad(loss, params[nm][n]), rtol=1e-6,
                                       atol=1e-9, err_msg=nm + n)


def test_batchnorm_stack_loads_each_layers_statistics():
    stack = RecurrentStack("rnn", "bn", I, H, num_layers=2, dtype=np.float64, seed=0, max_steps=2)
    rng = np.random.default_rng(5)
    given = {k: rng.uniform(0.5, 2.0, (4,) + v.shape[1:]) for k, v in stack.buffers.items()}
    assert sorted(given) == sorted(f"l{k}.{n}" for k in range(2) for n in ("rmx", "rvx", "rmh", "rvh"))
    stack.load_buffers(given)
    for k, v in stack.buffers.items():
        np.testing.assert_array_equal(v, given[k], err_msg=k)


def test_a_bidirectional_stack_asks_for_one_state_per_direction():
    stack = stack_of(1, bidirectional=True)
    x = np.zeros((2, 1, I))
    with pytest.raises(ValueError, match="^" + re.escape("state must hold one entry per layer (2), got 1") + "$"):
        stack.forward(x, [(np.zeros((1, H)),)])
