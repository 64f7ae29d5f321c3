"""The window layer (lnrnn/model/window.py, layer 1 of a WindowStack) on ragged strokes, float64: an inference
forward with lengths (keep=False) returns each row's state (h, c, kappa, w) after its own last step, against each
row run alone for its own number of steps (a row of 0 steps: its carried-in state), with texts of 1, 0 and 3
characters; the parameter gradients of two backward calls add up (twice one call's); a carried state of three
arrays is refused at the boundary.

T = 3, B = 3, I = 2, H = 3, K = 2, C = 4, U = 4; lengths 3, 1 and 0."""
import numpy as np
import pytest

from lnrnn.model.window import WindowStack

T, B, I, H, K, C, U = 3, 3, 2, 3, 2, 4, 4
ULEN = np.array([1, 0, 3], np.int64)
LENGTHS = np.array([3, 1, 0], np.int64)
TOL = 1e-12


def layer():
    s = WindowStack("lstm", "none", I, H, num_layers=1, alphabet_size=C, window=K, dtype=np.float64, seed=5)
    rng = np.random.default_rng(105)
    L1 = s.layers[0]
    L1.params["Wp"][...] = 0.4 * rng.standard_normal((H, 3 * K))  # a window that moves with h
    L1.params["bp"][...] = np.concatenate([0.2 + 0.2 * rng.standard_normal(K), -0.5 + 0.2 * rng.standard_normal(K),
                                           -0.3 + 0.2 * rng.standard_normal(K)])
    return L1


def problem(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, C, (B, U)).astype(np.int64)
    state = (0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C)))
    return rng.standard_normal((T, B, I)), (codes, ULEN.copy()), state


def test_inference_with_lengths_returns_each_row_final_state():
    L1 = layer()
    x, (codes, ulen), state = problem(1)
    _, _, final = L1.forward_text(x, (codes, ulen), state, training=False, lengths=LENGTHS, keep=False)
    for b in range(B):
        if LENGTHS[b] == 0:
            want = tuple(s[b:b + 1] for s in state)
        else:
            _, _, want = L1.forward_text(x[:LENGTHS[b], b:b + 1], (codes[b:b + 1], ulen[b:b + 1]),
                                         tuple(s[b:b + 1] for s in state), training=False, keep=False)
        for name, g, e in zip(("h", "c", "kappa", "w"), final, want):
            np.testing.assert_allclose(g[b:b + 1], e, rtol=TOL, atol=TOL, err_msg=f"{name} of row {b}")


def test_parameter_gradients_of_two_backward_calls_add_up():
    L1 = layer()
    x, text, state = problem(2)
    rng = np.random.default_rng(20)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    L1.forward_text(x, text, state, training=True, lengths=LENGTHS)
    L1.backward_text(dy, dw)
    once = {n: g.copy() for n, g in L1.grads.items()}
    assert any(np.any(g != 0.0) for g in once.values())
    L1.forward_text(x, text, state, training=True, lengths=LENGTHS)
    L1.backward_text(dy, dw)
    for n, g in L1.grads.items():
        np.testing.assert_allclose(g, 2.0 * once[n], rtol=TOL, atol=TOL, err_msg=f"d{n}")


def test_a_state_of_three_arrays_is_refused():
    L1 = layer()
    x, text, state = problem(3)
    with pytest.raises(ValueError, match=r"\(h, c\) or \(h, c, kappa, w\)"):
        L1.forward_text(x, text, state[:3], training=False)
