"""The synthesis window layer and stack (lnrnn/model/window.py), nineteenth pass (round 360 of the planted bugs,
tests/mutants/mutants_values360.py), float64, C = 4 characters, K = 3 Gaussians, H = 5 units, I = 2 inputs
(test_values333_window_model's stack and text: lengths 4, 2 and 0), no two sizes equal: layer 1's Wx has
I + C rows (it reads [x | w]) and one call of a one-layer stack equals lnrnn/reference.py's
window_lstm_forward (h, phi, and the final h, c, kappa, w); a three-layer stack's final states are each
layer's own (h equal to its columns of y at the last step); a three-layer stack's backward from a carried
state (kappa0 and w0 not zero) against central differences of sum(dy y): dx, every layer's dstate0 in layer
order, and layer 1's window gradients (Wp, bp) and layer 2's Wx."""
import numpy as np

from test_values333_window_model import B, C, CODES, H, I, K, ULEN, inputs, stack
from gradcheck_util import numeric_grad
from test_values308_window import spec_forward

G = 4 * H


def spec(L1, x, state):
    """reference.window_lstm_forward of layer 1 over x (T,B,I) from state (h, c, kappa, w), this file's text."""
    return spec_forward(L1, x, state, CODES, ULEN)


def carried(seed, layers):
    """A start state per layer: layer 1's (h, c, kappa, w), the others' (h, c), none of them zero."""
    rng = np.random.default_rng(seed)
    first = (rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H)), rng.uniform(0.2, 2.0, (B, K)),
             rng.uniform(0.1, 1.0, (B, C)))
    return [first] + [(rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H))) for _ in range(layers - 1)]


def test_layer_one_reads_x_and_the_window_and_one_call_equals_the_spec():
    s = stack(num_layers=1)
    L1 = s.layers[0]
    assert L1.params["Wx"].shape == (I + C, G)                 # [x | w_{t-1}]: I + C columns in, not I + K
    x = inputs(21, steps=4)
    start = carried(22, 1)
    y, states = s.forward(x, start, text=(CODES, ULEN), training=False)
    y_ref, w_ref, hT, cT, kT, wT, phi_ref, _ = spec(L1, x, start[0])
    np.testing.assert_allclose(y, y_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(s.phi, phi_ref, rtol=1e-10, atol=1e-12)
    for got, want in zip(states[0], (hT, cT, kT, wT)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_each_layers_final_state_is_its_own_last_step():
    s = stack(num_layers=3)
    x = inputs(23, steps=4)
    y, states = s.forward(x, carried(24, 3), text=(CODES, ULEN), training=False)
    assert [len(st) for st in states] == [4, 2, 2]
    for j in range(3):
        np.testing.assert_array_equal(states[j][0], y[-1, :, j * H:(j + 1) * H])
    # the layers differ: no layer's final h stands in for another's
    assert not np.allclose(states[1][0], states[0][0]) and not np.allclose(states[2][0], states[1][0])


def test_three_layer_backward_from_a_carried_state_against_central_differences():
    s = stack(num_layers=3)
    x = inputs(25, steps=3)
    start = carried(26, 3)
    dy = np.random.default_rng(27).normal(0.0, 1.0, (3, B, 3 * H))
    text = (CODES, ULEN)

    def loss():
        return float(np.sum(dy * s.forward(x, start, text=text, keep=False, training=False)[0]))

    s.forward(x, start, text=text, training=False)
    dx = s.backward(dy)
    np.testing.assert_allclose(dx, numeric_grad(loss, x, eps=1e-6, order=2), rtol=1e-6, atol=1e-8)
    assert [len(d) for d in s.dstate0] == [4, 2, 2]
    for j in range(3):
        for got, a in zip(s.dstate0[j], start[j]):
            np.testing.assert_allclose(got, numeric_grad(loss, a, eps=1e-6, order=2), rtol=1e-6, atol=1e-8)
    L1, L2 = s.layers[0], s.layers[1]
    for name in ("Wp", "bp"):
        want = numeric_grad(loss, L1.params[name], eps=1e-6, order=2)
        assert np.abs(want).max() > 1e-3                      # the window's parameters do move the loss
        np.testing.assert_allclose(L1.grads[name], want, rtol=1e-6, atol=1e-8)
    idx = [0, 7, 13, 29, 41, 58]
    np.testing.assert_allclose(L2.grads["Wx"].reshape(-1)[idx],
                               numeric_grad(loss, L2.params["Wx"], eps=1e-6, idx=idx, order=2), rtol=1e-6, atol=1e-8)
