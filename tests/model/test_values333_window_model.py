"""The synthesis window layer and stack (lnrnn/model/window.py), eighteenth pass (round 333 of the planted bugs,
tests/mutants/mutants_values333.py), float64, with an alphabet C = 4, K = 3 Gaussians and H = 5 units (no two
of I, C, K, H equal, so a size read in place of another shows): the layer's parameter shapes and the stack's
output and state shapes; T = 5 steps over B = 3 rows with lengths 5, 2 and 0 (each row's final state its own
last step's, the empty row's its initial state) and a length of 6 refused word for word; a sequence in chunks
of 2 and 3 steps carrying (h, c, kappa, w) equal to one call; a dy of C columns refused word for word; a
two-layer stack's dx against central differences of sum(dy y)."""
import numpy as np
import pytest

from lnrnn.model.window import WindowStack
from gradcheck_util import numeric_grad

T, B, I, H, C, K = 5, 3, 2, 5, 4, 3
CODES = np.array([[1, 3, 0, 2], [2, 2, 0, 0], [0, 0, 0, 0]], np.int64)
ULEN = np.array([4, 2, 0], np.int64)


def stack(num_layers=1):
    s = WindowStack("lstm", "ln", I, H, num_layers=num_layers, alphabet_size=C, window=K, dtype=np.float64, seed=7)
    rng = np.random.default_rng(8)
    L1 = s.layers[0]
    L1.params["Wp"][...] = rng.normal(0.0, 0.5, (H, 3 * K))
    L1.params["bp"][...] = np.concatenate([rng.normal(0.0, 0.3, K), np.log([0.6, 1.1, 0.4]), np.log([0.5, 0.8, 0.3])])
    return s


def inputs(seed=9, steps=T):
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, 1.0, (steps, B, I))


def test_layer_parameter_shapes_and_stack_outputs():
    s = stack(num_layers=2)
    L1 = s.layers[0]
    assert (L1.I_x, L1.C, L1.K, L1.H) == (I, C, K, H)
    assert L1.params["Wx"].shape == (I + C, 4 * H) and L1.params["Wh"].shape == (H, 4 * H)
    assert L1.params["Wp"].shape == (H, 3 * K) and L1.params["bp"].shape == (3 * K,)
    assert s.layers[1].params["Wx"].shape == (I + H + C, 4 * H)
    assert (s.I, s.H, s.C, s.K) == (I, H, C, K)
    y, states = s.forward(inputs(), text=(CODES, ULEN))
    assert y.shape == (T, B, 2 * H)
    assert [a.shape for a in states[0]] == [(B, H), (B, H), (B, K), (B, C)]
    assert [a.shape for a in states[1]] == [(B, H), (B, H)]
    assert s.phi.shape == (T, B, 4)


def test_lengths_5_2_0_over_five_steps_and_a_length_of_6_refused():
    s = stack()
    x = inputs()
    y, states = s.forward(x, text=(CODES, ULEN), lengths=np.array([5, 2, 0]))
    h, c, kappa, w = states[0]
    np.testing.assert_array_equal(h[0], y[4, 0, :H])
    np.testing.assert_array_equal(h[1], y[1, 1, :H])
    assert not h[2].any() and not c[2].any() and not kappa[2].any() and not w[2].any()   # length 0: the zero start
    full, _ = s.forward(x, text=(CODES, ULEN))
    np.testing.assert_array_equal(y[:, 0], full[:, 0])
    with pytest.raises(ValueError) as e:
        s.forward(x, text=(CODES, ULEN), lengths=np.array([6, 2, 0]))
    assert str(e.value) == "lengths must lie in [0, 5], got 0..6"


def test_chunks_of_2_and_3_carrying_kappa_and_w_equal_one_call():
    s = stack()
    x = inputs(11)
    rng = np.random.default_rng(12)
    start = [(rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H)), rng.uniform(0.0, 2.0, (B, K)),
              rng.uniform(0.0, 1.0, (B, C)))]
    whole, end = s.forward(x, start, text=(CODES, ULEN), training=False)
    a, mid = s.forward(x[:2], start, text=(CODES, ULEN), training=False)
    b, end2 = s.forward(x[2:], mid, t0=2, text=(CODES, ULEN), training=False)
    np.testing.assert_allclose(np.concatenate([a, b]), whole, rtol=1e-12, atol=1e-14)
    for g, e in zip(end2[0], end[0]):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-14)


def test_a_dy_of_c_columns_refused_word_for_word():
    s = stack()
    L1 = s.layers[0]
    L1.forward_text(inputs(steps=3), (CODES, ULEN))
    with pytest.raises(ValueError) as e:
        L1.backward_text(np.zeros((3, B, C)), np.zeros((3, B, C)))
    assert str(e.value) == "dy must have shape (3,3,5), got (3, 3, 4)"


def test_two_layer_stack_dx_against_central_differences():
    s = stack(num_layers=2)
    x = inputs(13, steps=3)
    dy = np.random.default_rng(14).normal(0.0, 1.0, (3, B, 2 * H))

    def loss():
        return float(np.sum(dy * s.forward(x, text=(CODES, ULEN), keep=False, training=False)[0]))

    s.forward(x, text=(CODES, ULEN))
    dx = s.backward(dy)
    np.testing.assert_allclose(dx, numeric_grad(loss, x, eps=1e-6, order=2), rtol=1e-6, atol=1e-8)
