"""Recurrent stacks (lnrnn/model/layers.py), twelfth pass, in float64 at tiny sizes (I 2, H 3, tanh RNN cells):
a bidirectional stack of two layers over ragged rows (lengths 4, 1, 3) against lnrnn/reference.py's rnn_forward
composed here row by row (the backward direction reads each row's own steps reversed and gives its outputs back
in the row's order; layer 1 reads [forward | backward], 2H wide, or [x | y_0] with skip, y = [y_0 | y_1]); the
parameter names and shapes of such stacks counted by hand; a three-layer skip stack (layer k reads [x | h_{k-1}],
y = [h_0 | h_1 | h_2]) against the reference and its gradients (input and every parameter) against central
differences of a weighted sum of y."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn import reference
from lnrnn.model.layers import RecurrentStack

I, H = 2, 3
LENGTHS = np.array([4, 1, 3])


def randomized(stack, seed):
    rng = np.random.default_rng(seed)
    for v in stack.params.values():
        v[...] = rng.normal(0.0, 0.6, v.shape)
    return stack


def direction(p, name, x, lengths, reverse):
    """(T,B,H) one direction's outputs at each row's valid steps (zeros past them), by reference.rnn_forward."""
    T, B = x.shape[0], x.shape[1]
    out = np.zeros((T, B, H))
    for r in range(B):
        n = int(lengths[r])
        if n == 0:
            continue
        xr = x[:n, r][::-1] if reverse else x[:n, r]
        y, _, _ = reference.rnn_forward(np.ascontiguousarray(xr[:, None, :]), np.zeros((1, H)), p[name + "Wx"],
                                        p[name + "Wh"], p[name + "b"], None, "none")
        out[:n, r] = y[::-1, 0] if reverse else y[:, 0]
    return out


def bidirectional_by_hand(p, x, lengths, skip):
    inp, ys = x, []
    for k in range(2):
        yk = np.concatenate([direction(p, f"l{k}.", inp, lengths, False),
                             direction(p, f"l{k}_reverse.", inp, lengths, True)], axis=2)
        ys.append(yk)
        inp = np.concatenate([x, yk], axis=2) if skip else yk
    return np.concatenate(ys, axis=2) if skip else ys[-1]


def valid_mask(lengths, T):
    return (np.arange(T)[:, None] < lengths[None, :])[:, :, None]


@pytest.mark.parametrize("skip", [False, True])
def test_a_bidirectional_two_layer_stack_over_ragged_rows_against_the_reference(skip):
    T, B = 4, 3
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=7, skip=skip,
                                      bidirectional=True), 25701)
    p = {k: np.array(v) for k, v in stack.params.items()}
    x = np.random.default_rng(25702).standard_normal((T, B, I))
    y, states = stack.forward(x, lengths=LENGTHS)
    want = bidirectional_by_hand(p, x, LENGTHS, skip)
    assert y.shape == (T, B, (4 if skip else 2) * H)
    m = valid_mask(LENGTHS, T)
    np.testing.assert_allclose(y * m, want, rtol=1e-12, atol=1e-14)
    assert len(states) == 4
    top = want[:, :, 2 * H:] if skip else want
    # the top forward direction ends at each row's last step, the backward one at its first
    for r, n in enumerate(LENGTHS):
        np.testing.assert_allclose(states[2][0][r], top[n - 1, r, :H], rtol=1e-12)
        np.testing.assert_allclose(states[3][0][r], top[0, r, H:], rtol=1e-12)


@pytest.mark.parametrize("skip", [False, True])
def test_a_bidirectional_stacks_input_gradient_against_central_differences(skip):
    T, B = 4, 3
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=8, skip=skip,
                                      bidirectional=True), 25703)
    p = {k: np.array(v) for k, v in stack.params.items()}
    rng = np.random.default_rng(25704)
    x = rng.standard_normal((T, B, I))
    w = rng.standard_normal((T, B, (4 if skip else 2) * H)) * valid_mask(LENGTHS, T)
    stack.forward(x, lengths=LENGTHS)
    dx = stack.backward(w.copy())
    want = numeric_grad(lambda: float((bidirectional_by_hand(p, x, LENGTHS, skip) * w).sum()), x)
    np.testing.assert_allclose(dx, want, rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("skip,bidirectional,layers", [(False, True, 3), (True, True, 3), (True, False, 3),
                                                       (False, False, 2)])
def test_parameter_names_and_shapes_counted_by_hand(skip, bidirectional, layers):
    stack = RecurrentStack("rnn", "none", I, H, num_layers=layers, dtype=np.float64, skip=skip,
                           bidirectional=bidirectional)
    D = 2 if bidirectional else 1
    want = {}
    for k in range(layers):
        width = I if k == 0 else (I + D * H if skip else D * H)
        for name in [f"l{k}."] + ([f"l{k}_reverse."] if bidirectional else []):
            want.update({name + "Wx": (width, H), name + "Wh": (H, H), name + "b": (H,)})
    assert {k: v.shape for k, v in stack.params.items()} == want
    count = sum(int(np.prod(s)) for s in want.values())
    # e.g. bidirectional skip, 3 layers: 2*(6+9+3) + 2*2*(8*3+9+3) = 36 + 144 = 180
    assert count == {(False, True, 3): 36 + 4 * (18 + 12), (True, True, 3): 36 + 4 * (24 + 12),
                     (True, False, 3): 18 + 2 * (15 + 12), (False, False, 2): 18 + (9 + 12)}[(skip, bidirectional,
                                                                                              layers)]
    assert stack.flat[0].data.size == count


def skip_by_hand(p, x, layers=3):
    """y (T,B,layers H) = [h_0 | h_1 | ...] of a skip stack of rnn layers: layer k > 0 reads [x | h_{k-1}]
    (reference.rnn_forward); from zero states."""
    B = x.shape[1]
    inp, ys = x, []
    for k in range(layers):
        h, _, _ = reference.rnn_forward(inp, np.zeros((B, H)), p[f"l{k}.Wx"], p[f"l{k}.Wh"], p[f"l{k}.b"], None,
                                        "none")
        ys.append(h)
        inp = np.concatenate([x, h], axis=2)
    return np.concatenate(ys, axis=2)


def test_a_three_layer_skip_stack_and_all_its_gradients():
    T, B = 3, 2
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=3, dtype=np.float64, seed=9, skip=True),
                       25705)
    p = {k: np.array(v) for k, v in stack.params.items()}
    rng = np.random.default_rng(25706)
    x, w = rng.standard_normal((T, B, I)), rng.standard_normal((T, B, 3 * H))
    y, _ = stack.forward(x)
    np.testing.assert_allclose(y, skip_by_hand(p, x), rtol=1e-12, atol=1e-14)
    stack.zero_grad()
    dx = stack.backward(w.copy())
    grads = {k: np.array(v) for k, v in stack.grads.items()}

    def loss():
        return float((skip_by_hand(p, x) * w).sum())
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-7, atol=1e-10)
    for k in p:
        np.testing.assert_allclose(grads[k], numeric_grad(loss, p[k]), rtol=1e-6, atol=1e-9, err_msg=k)
