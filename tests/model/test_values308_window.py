"""The synthesis window layer by value (round 308 of the planted bugs, tests/mutants/mutants_values308.py),
against lnrnn/reference.py (the NumPy spec, window_lstm_forward and window_lstm_backward): a batch whose text
lengths are 0, 1 and U (= 4) in one call; the stack run over 7 steps in one call and in chunks of 3 and 4
with its states carried (kappa and w of the window included), each equal to the spec over all 7 steps; a
one-layer stack's backward from a carried state (kappa0 and w0 not zero) with Graves's gate clip at 0.05,
its gradients and dstate0 (dh0, dc0, dkappa0, dw0) equal to the spec's with the same clip (and not to the
unclipped ones); refusals of a 3-array state and of float text lengths, word for word."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.window import WindowStack

B, I, H, C, K, T = 3, 3, 4, 5, 2, 7
ULEN = np.array([0, 1, 4], np.int64)
CODES = np.array([[0, 0, 0, 0], [3, 0, 0, 0], [1, 4, 2, 4]], np.int64)


def stack(num_layers=2, clip=0.0):
    s = WindowStack("lstm", "ln", I, H, num_layers=num_layers, alphabet_size=C, window=K, dtype=np.float64,
                    seed=3, clip_gates=clip)
    rng = np.random.default_rng(11)
    L1 = s.layers[0]
    L1.params["Wp"][...] = rng.normal(0.0, 0.6, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.3, -0.4, 0.2, 0.5, np.log(0.45), np.log(0.7)]   # kappa walks ~0.45 and ~0.7
    for name in ("gx", "gh", "gc"):
        L1.params[name][...] = rng.uniform(0.5, 1.5, L1.params[name].shape)
    for name in ("bx", "bh", "bc", "b"):
        L1.params[name][...] = rng.normal(0.0, 0.3, L1.params[name].shape)
    return s


def spec_forward(L1, x, state, codes=CODES, ulen=ULEN):
    """reference.window_lstm_forward of layer 1 (LN, evaluation) over x (T,B,I) from state (h, c, kappa, w)."""
    p = L1.params
    z = np.zeros((0, 0))
    return ref.window_lstm_forward(x, *state, codes, ulen, p["Wx"], p["Wh"], p["b"], p["gx"], p["bx"], p["gh"],
                                   p["bh"], p["gc"], p["bc"], p["Wp"], p["bp"], z, z, z, z, z, z, "ln",
                                   training=False)


def inputs(seed=5):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, (T, B, I))
    state = (rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H)), rng.uniform(0.0, 2.0, (B, K)),
             rng.uniform(0.0, 1.0, (B, C)))
    return x, state


def test_chunks_carry_kappa_and_w_and_equal_the_spec_over_lengths_0_1_and_U():
    s = stack()
    x, _ = inputs()
    zero = (np.zeros((B, H)), np.zeros((B, H)), np.zeros((B, K)), np.zeros((B, C)))
    y_ref, w_ref, hT, cT, kT, wT, phi_ref, _ = spec_forward(s.layers[0], x, zero)
    text = (CODES, ULEN)
    y_all, st_all = s.forward(x, None, training=False, keep=False, text=text)
    phi_all = s.phi.copy()
    y1, st1 = s.forward(x[:3], None, training=False, keep=False, text=text)
    phi1 = s.phi.copy()
    assert len(st1[0]) == 4
    y2, st2 = s.forward(x[3:], st1, training=False, keep=False, t0=3, text=text)
    phi2 = s.phi.copy()
    for y, phi in ((y_all, phi_all), (np.concatenate([y1, y2]), np.concatenate([phi1, phi2]))):
        np.testing.assert_allclose(y[..., :H], y_ref, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(phi, phi_ref, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(y[..., H:], y_all[..., H:], rtol=1e-10, atol=1e-12)
    for got in (st_all[0], st2[0]):
        for g, want in zip(got, (hT, cT, kT, wT)):
            np.testing.assert_allclose(g, want, rtol=1e-10, atol=1e-12)
    # the row of length 0 reads nothing: no weight, no window vector
    assert not phi_ref[:, 0].any() and not w_ref[:, 0].any()
    # kappa after 7 steps is the running sum of exp(k_hat), not the 4 steps of the second chunk alone
    assert np.all(kT > 7 * 0.2)


def test_one_layer_backward_from_a_carried_state_with_the_gate_clip_equals_the_spec():
    clip = 0.05
    s = stack(num_layers=1, clip=clip)
    L1 = s.layers[0]
    x, state = inputs(8)
    y, _ = s.forward(x, [state], training=True, text=(CODES, ULEN))
    dy = np.random.default_rng(2).normal(0.0, 1.0, y.shape)
    dx = s.backward(dy)
    p = L1.params
    y_ref, _, _, _, _, _, _, cache = spec_forward(L1, x, state)
    np.testing.assert_allclose(y, y_ref, rtol=1e-10, atol=1e-12)
    dw = np.zeros((T, B, C))
    got = ref.window_lstm_backward(dy, dw, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], p["Wp"], CODES,
                                   clip=clip)
    plain = ref.window_lstm_backward(dy, dw, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], p["Wp"], CODES)
    assert not np.allclose(got[5], plain[5], rtol=1e-6, atol=1e-9)      # the clip bites on dWx
    np.testing.assert_allclose(dx, got[0], rtol=1e-9, atol=1e-12)
    for g, want in zip(s.dstate0[0], got[1:5]):                          # dh0, dc0, dkappa0, dw0
        assert g.shape == want.shape
        np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-12)
    names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
    for n, want in zip(names, got[5:]):
        np.testing.assert_allclose(L1.grads[n], want, rtol=1e-9, atol=1e-12, err_msg=n)


def test_a_state_of_three_arrays_and_float_lengths_are_refused_word_for_word():
    s = stack()
    x, state = inputs()
    B2 = 2
    x2 = x[:, :B2]
    bad = (state[0][:B2], state[1][:B2], state[2][:B2])
    with pytest.raises(ValueError) as e:
        s.forward(x2, [bad, None], training=False, text=(CODES[:B2], ULEN[:B2]))
    assert str(e.value) == "the window layer's state is (h, c) or (h, c, kappa, w), got 3 arrays"
    with pytest.raises(ValueError) as e:
        s.forward(x, None, training=False, text=(CODES, np.array([0.0, 1.0, 4.0])))
    assert str(e.value) == "text lengths must be 3 integers, got float64 (3,)"
