"""The window stack by value (round 292 of the planted bugs, tests/mutants/mutants_values292.py): its forward
over given states against a hand composition of its layers (the window layer over x and the text, then each
layer above over [x | h below | w] with its own state entry, y = [h1 | h2 | h3] in layer order); a forward
without a state equal to one from explicit zeros (h, c, kappa and w all zero); the constructor's forget_bias
and eps reaching every layer (the LSTM's forget block b[H:2H] at forget_bias, its input and output gates' blocks zero; ln's candidate
block is a small random bias); no
crossings counted on the CPU; and an inference forward kept for a backward (keep=True, training=False) giving
dL/dx equal to central finite differences of L = sum(y * dy)."""
import numpy as np
import pytest

from lnrnn.model.window import WindowStack

I, H, C, K, B, T = 3, 4, 5, 2, 2, 3


def stack(num_layers=3, **kw):
    s = WindowStack("lstm", "ln", I, H, num_layers=num_layers, alphabet_size=C, window=K, dtype=np.float64,
                    seed=4, **kw)
    L1 = s.layers[0]
    L1.params["Wp"][...] = np.random.default_rng(2).normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.4, -0.3, 0.2, 0.1, np.log(0.4), np.log(0.3)]
    return s


def text():
    codes = np.array([[1, 4, 2, 3], [2, 0, 0, 0]], np.int64)
    return codes, np.array([4, 1], np.int64)


def inputs():
    rng = np.random.default_rng(11)
    return rng.normal(0.0, 1.0, (T, B, I))


def given_states(rng):
    s1 = (rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H)), rng.uniform(0.2, 1.5, (B, K)),
          rng.dirichlet(np.ones(C), B))
    return [s1] + [(rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H))) for _ in range(2)]


def test_forward_over_given_states_is_its_layers_composed_by_hand():
    s, x, txt = stack(), inputs(), text()
    st = given_states(np.random.default_rng(5))
    y, states = s.forward(x, st, training=False, keep=False, text=txt)
    L0, L1, L2 = s.layers
    h1, w, f1 = L0.forward_text(x, txt, st[0], training=False, keep=False)
    h2, f2 = L1.forward(np.concatenate([x, h1, w], axis=2), st[1], training=False, keep=False)
    h3, f3 = L2.forward(np.concatenate([x, h2, w], axis=2), st[2], training=False, keep=False)
    np.testing.assert_allclose(y, np.concatenate([h1, h2, h3], axis=2), rtol=1e-12, atol=1e-12)
    assert y.shape == (T, B, 3 * H)
    for got, want in zip(states, (f1, f2, f3)):
        assert len(got) == len(want)
        for g, v in zip(got, want):
            np.testing.assert_allclose(g, v, rtol=1e-12, atol=1e-12)
    # the layers really differ: y's thirds are not one another's
    assert not np.allclose(y[..., :H], y[..., 2 * H:])


def test_no_state_is_the_zero_state_of_every_layer():
    s, x, txt = stack(), inputs(), text()
    zeros = [tuple(np.zeros((B, n)) for n in (H, H, K, C))] + [(np.zeros((B, H)), np.zeros((B, H)))] * 2
    y0, _ = s.forward(x, None, training=False, keep=False, text=txt)
    y1, _ = s.forward(x, zeros, training=False, keep=False, text=txt)
    np.testing.assert_allclose(y0, y1, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fb", [0.0, 2.5])
def test_forget_bias_and_eps_reach_every_layer(fb):
    s = stack(forget_bias=fb, eps=0.25)
    assert s.config["forget_bias"] == fb
    for layer in s.layers:
        b = layer.params["b"]
        np.testing.assert_array_equal(b[H:2 * H], np.full(H, fb))
        np.testing.assert_array_equal(np.r_[b[:H], b[3 * H:]], np.zeros(2 * H))   # input and output gates
        assert layer.eps == 0.25


def test_an_inference_forward_kept_backs_up_to_finite_differences_and_crosses_nothing_on_the_cpu():
    s, x, txt = stack(num_layers=2), inputs(), text()
    dy = np.random.default_rng(3).normal(0.0, 1.0, (T, B, 2 * H))
    y, _ = s.forward(x, None, training=False, keep=True, text=txt)
    dx = s.backward(dy)
    assert s.crossings == {"x to device": 0, "y to host": 0, "dy to device": 0, "dx to host": 0}
    num = np.zeros_like(x)
    h = 1e-6
    for idx in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[idx] += h
        xm[idx] -= h
        yp, _ = s.forward(xp, None, training=False, keep=False, text=txt)
        ym, _ = s.forward(xm, None, training=False, keep=False, text=txt)
        num[idx] = ((yp - ym) * dy).sum() / (2 * h)
    np.testing.assert_allclose(dx, num, rtol=1e-6, atol=1e-8)
