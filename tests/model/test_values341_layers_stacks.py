"""Layer stacks of lnrnn/model/layers.py composed by hand from lnrnn/reference.py (the NumPy spec): bidirectional
stacks of 1, 2 and 3 layers over rows of lengths 0, 1 and T in one batch (each backward direction reading its
row's active steps reversed), their parameter names and counts written out; every gradient of a two-layer
bidirectional stack (dx and all 96 parameters) against central differences in float64; a plain three-layer LN-RNN
stack's dx and parameter gradients the same way; Graves's skip stack (residual inputs) run in chunks of 2 and 3
steps from carried states against one pass of the spec, and its initial-state gradients, layer by layer, against
central differences."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.layers import RecurrentStack
from test_values313_layers import _active, _bi_by_hand, _rnn_rows

I, H = 2, 3
LENGTHS = [0, 1, 4, 3]
T = 4


@pytest.mark.parametrize("layers", [1, 2, 3])
def test_bidirectional_stacks_of_1_2_3_layers_against_the_spec(layers):
    stack = RecurrentStack("rnn", "none", I, H, num_layers=layers, dtype=np.float64, seed=4, bidirectional=True)
    names = []
    for k in range(layers):
        for d in ("", "_reverse"):
            names += [f"l{k}{d}.Wx", f"l{k}{d}.Wh", f"l{k}{d}.b"]
    assert list(stack.params) == names
    shapes = {f"l{k}{d}.Wx": ((I if k == 0 else 2 * H), H) for k in range(layers) for d in ("", "_reverse")}
    assert {n: v.shape for n, v in stack.params.items() if n.endswith("Wx")} == shapes
    # the bottom layer's two directions: I*H + H*H + H each; every layer above reads 2H columns
    assert sum(v.size for v in stack.params.values()) == 2 * (2 * 3 + 9 + 3) + (layers - 1) * 2 * (6 * 3 + 9 + 3)
    assert stack.output_size == 6
    x = np.random.default_rng(layers).standard_normal((T, 4, I))
    y, states = stack.forward(x, lengths=LENGTHS, training=False)
    want, finals = _bi_by_hand(stack.params, x, LENGTHS, layers)
    assert y.shape == (T, 4, 2 * H)
    np.testing.assert_allclose(_active(y, LENGTHS), want, rtol=0, atol=1e-12)
    assert len(states) == 2 * layers
    for s, h in zip(states, finals):
        np.testing.assert_allclose(s[0], h, rtol=0, atol=1e-12)


def _central(f, arrays, eps=1e-6):
    """Central differences of the scalar f() with respect to every entry of every array (perturbed in place)."""
    out = []
    for a in arrays:
        g = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            keep = a[i]
            a[i] = keep + eps
            up = f()
            a[i] = keep - eps
            down = f()
            a[i] = keep
            g[i] = (up - down) / (2 * eps)
        out.append(g)
    return out


def test_two_layer_bidirectional_every_gradient_against_central_differences():
    lengths = [3, 0, 1]
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=6, bidirectional=True)
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 3, I))
    dy = _active(rng.standard_normal((3, 3, 2 * H)), lengths)
    P = stack.params
    stack.zero_grad()
    stack.forward(x, lengths=lengths, training=True)
    dx = stack.backward(dy)
    got = {n: g.copy() for n, g in stack.grads.items()}
    names = list(P)
    assert len(names) == 12 and sum(P[n].size for n in names) == 96

    def loss():
        return float(np.sum(_bi_by_hand(P, x, lengths, 2)[0] * dy))

    want = _central(loss, [x] + [P[n] for n in names])
    np.testing.assert_allclose(dx, want[0], rtol=1e-6, atol=1e-8)
    for n, w in zip(names, want[1:]):
        np.testing.assert_allclose(got[n], w, rtol=1e-6, atol=1e-8, err_msg=n)


def test_plain_three_layer_ln_rnn_gradients_against_central_differences():
    stack = RecurrentStack("rnn", "ln", I, H, num_layers=3, dtype=np.float64, seed=3)
    assert list(stack.params) == [f"l{k}.{n}" for k in range(3) for n in ("Wx", "Wh", "b", "g")]
    assert sum(v.size for v in stack.params.values()) == (2 * 3 + 9 + 3 + 3) + 2 * (9 + 9 + 3 + 3)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 2, I))
    dy = rng.standard_normal((3, 2, H))
    P = stack.params
    z = np.zeros((2, H))

    def by_hand():
        inp = x
        for k in range(3):
            inp = ref.rnn_forward(inp, z, P[f"l{k}.Wx"], P[f"l{k}.Wh"], P[f"l{k}.b"], P[f"l{k}.g"], "ln")[0]
        return inp

    y, _ = stack.forward(x, training=True)
    np.testing.assert_allclose(y, by_hand(), rtol=0, atol=1e-12)
    stack.zero_grad()
    dx = stack.backward(dy)
    got = {n: g.copy() for n, g in stack.grads.items()}
    want = _central(lambda: float(np.sum(by_hand() * dy)), [x, P["l0.Wx"], P["l1.Wh"], P["l2.g"]])
    np.testing.assert_allclose(dx, want[0], rtol=1e-6, atol=1e-8)
    for n, w in zip(["l0.Wx", "l1.Wh", "l2.g"], want[1:]):
        np.testing.assert_allclose(got[n], w, rtol=1e-6, atol=1e-8, err_msg=n)


LSTM_NAMES = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")


def test_skip_stack_chunks_from_carried_states_equal_one_pass_of_the_spec():
    stack = RecurrentStack("lstm", "ln", I, H, num_layers=2, dtype=np.float64, seed=12, skip=True)
    assert stack.output_size == 2 * H and stack.params["l1.Wx"].shape == (I + H, 4 * H)
    P = stack.params
    x = np.random.default_rng(13).standard_normal((5, 2, I))
    z = np.zeros((2, H))
    y0, h0, c0, _ = ref.lstm_forward(x, z, z, *[P["l0." + n] for n in LSTM_NAMES], "ln")
    y1, h1, c1, _ = ref.lstm_forward(np.concatenate([x, y0], axis=2), z, z, *[P["l1." + n] for n in LSTM_NAMES],
                                     "ln")
    ya, sa = stack.forward(x[:2], training=False)
    yb, sb = stack.forward(x[2:], sa, training=False, t0=2)
    np.testing.assert_allclose(np.concatenate([ya, yb]), np.concatenate([y0, y1], axis=2), rtol=0, atol=1e-12)
    for s, (h, c) in zip(sb, [(h0, c0), (h1, c1)]):
        np.testing.assert_allclose(s[0], h, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s[1], c, rtol=0, atol=1e-12)


def test_skip_stack_initial_state_gradients_layer_by_layer():
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=1, skip=True)
    P = stack.params
    rng = np.random.default_rng(21)
    x = rng.standard_normal((3, 2, I))
    s0 = [rng.standard_normal((2, H)), 0.5 * rng.standard_normal((2, H))]
    dy = rng.standard_normal((3, 2, 2 * H))

    def by_hand():
        y0 = ref.rnn_forward(x, s0[0], P["l0.Wx"], P["l0.Wh"], P["l0.b"], None, "none")[0]
        y1 = ref.rnn_forward(np.concatenate([x, y0], axis=2), s0[1], P["l1.Wx"], P["l1.Wh"], P["l1.b"], None,
                             "none")[0]
        return np.concatenate([y0, y1], axis=2)

    y, _ = stack.forward(x, [(s0[0],), (s0[1],)], training=True)
    np.testing.assert_allclose(y, by_hand(), rtol=0, atol=1e-12)
    dx = stack.backward(dy)
    want = _central(lambda: float(np.sum(by_hand() * dy)), [x, s0[0], s0[1]])
    np.testing.assert_allclose(dx, want[0], rtol=1e-6, atol=1e-8)
    assert len(stack.dstate0) == 2
    np.testing.assert_allclose(stack.dstate0[0][0], want[1], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(stack.dstate0[1][0], want[2], rtol=1e-6, atol=1e-8)
