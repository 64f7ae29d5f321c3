"""The synthesis window layer and stack (lnrnn/model/window.py), twentieth pass (round 378 of the planted bugs,
tests/mutants/mutants_values378.py), float64, I = 2 inputs, H = 5 units, C = 4 characters, K = 3 Gaussians
over B = 3 rows of lengths 4, 2 and 0 (test_values333_window_model's text), each against lnrnn/reference.py:

a two-layer stack's y, layer by layer: columns [0, H) reference.window_lstm_forward of layer 1, columns [H, 2H)
reference.lstm_forward of layer 2 over [x | h1 | w], and both final states; the same with window_norm 'none'
under an LN stack (the window layer's arithmetic the reference's 'none'); a BatchNorm stack's forward with its
defaults is a training forward (reference.window_lstm_forward and bn_lstm_forward at the batch's statistics,
the running statistics moved as theirs) that keeps what backward needs; one step and the next (stack.step):
y the forward's, step_phi (B,U) the reference's phi row by row and step_end the reference's
sum_k alpha exp(-beta (kappa - (U+1))^2) from its h and kappa; a fresh two-layer stack's backward against
central differences of sum(dy y): dx, dstate0 in layer order (layer 1's four arrays first), and layer 1's
gradients, Wp and bp included, one for every parameter. The constructor's documented defaults (Graves's three
layers, ten Gaussians, float32, forget bias 1, seed 0, the window at the stack's norm) and window_norm's names,
and the layer's and stack's refusals word for word."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.window import WINDOW_KAPPA_BIAS, WindowStack, check_text
from gradcheck_util import numeric_grad
from test_values333_window_model import B, C, CODES, H, I, K, ULEN, inputs
from test_values360_window import carried

G = 4 * H
TEXT = (CODES, ULEN)


def stack(norm="ln", num_layers=2, window_norm=None):
    s = WindowStack("lstm", norm, I, H, num_layers=num_layers, alphabet_size=C, window=K, dtype=np.float64, seed=7,
                    window_norm=window_norm)
    rng = np.random.default_rng(8)
    L1 = s.layers[0]
    L1.params["Wp"][...] = rng.normal(0.0, 0.5, (H, 3 * K))
    L1.params["bp"][...] = np.concatenate([rng.normal(0.0, 0.3, K), np.log([0.6, 1.1, 0.4]), np.log([0.5, 0.8, 0.3])])
    for layer in s.layers:                                   # gains and biases away from 1 and 0
        for n in ("gx", "gh", "gc", "bx", "bh", "bc"):
            if n in layer.params:
                layer.params[n][...] += rng.normal(0.0, 0.2, layer.params[n].shape)
    return s


def norm_args(p, G):
    """(gx, bx, gh, bh, gc, bc) as the reference takes them: the layer's own, unit gains and zero biases else."""
    H = G // 4
    return (p.get("gx", np.ones(G)), p.get("bx", np.zeros(G)), p.get("gh", np.ones(G)), p.get("bh", np.zeros(G)),
            p.get("gc", np.ones(H)), p.get("bc", np.zeros(H)))


def spec_layer1(L1, x, state, norm, training=False, buffers=None):
    p = L1.params
    bufs = buffers if buffers is not None else (np.zeros((0, 0)),) * 6
    return ref.window_lstm_forward(x, *state, CODES, ULEN, p["Wx"], p["Wh"], p["b"], *norm_args(p, G), p["Wp"],
                                   p["bp"], *bufs, norm, training=training)


def end_weight(L1, h, kappa, ulen):
    """phi(t, ulen + 1) by Graves's eq. 46 from h (B,H) and kappa (B,K)."""
    q = h @ L1.params["Wp"] + L1.params["bp"]
    alpha, beta = np.exp(q[:, :K]), np.exp(q[:, K:2 * K])
    return (alpha * np.exp(-beta * (kappa - (ulen[:, None] + 1.0)) ** 2)).sum(axis=1)


def zero_state():
    return (np.zeros((B, H)), np.zeros((B, H)), np.zeros((B, K)), np.zeros((B, C)))


@pytest.mark.parametrize("window_norm", [None, "none"])
def test_two_layer_forward_is_the_reference_layer_by_layer(window_norm):
    s = stack("ln", 2, window_norm)
    L1, L2 = s.layers
    assert L1.norm == (window_norm or "ln") and L2.norm == "ln"
    x = inputs(31, steps=4)
    start = carried(32, 2)
    y, states = s.forward(x, start, text=TEXT, training=False)
    h1, w, hT, cT, kT, wT, phi, _ = spec_layer1(L1, x, start[0], L1.norm)
    p2 = L2.params
    h2, h2T, c2T, _ = ref.lstm_forward(np.concatenate([x, h1, w], axis=2), *start[1], p2["Wx"], p2["Wh"], p2["b"],
                                       *norm_args(p2, G), "ln")
    assert y.shape == (4, B, 2 * H)
    np.testing.assert_allclose(y[:, :, :H], h1, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(y[:, :, H:], h2, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(s.phi, phi, rtol=1e-10, atol=1e-12)
    assert [len(st) for st in states] == [4, 2]
    for got, want in zip(list(states[0]) + list(states[1]), (hT, cT, kT, wT, h2T, c2T)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_a_batchnorm_stacks_default_forward_trains_on_the_batch_and_keeps_for_backward():
    s = stack("bn", 2)
    L1, L2 = s.layers
    T = 4
    x = inputs(33, steps=T)
    grown = [{n: np.repeat(v, T, axis=0) for n, v in L.buffers.items()} for L in s.layers]   # one row grown to T
    names = ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")
    y, states = s.forward(x, text=TEXT)                                 # training, keep: the defaults
    h1, w, hT, cT, kT, wT, phi, _ = spec_layer1(L1, x, zero_state(), "bn", training=True,
                                                buffers=tuple(grown[0][n] for n in names))
    p2 = L2.params
    h2, h2T, c2T, _ = ref.bn_lstm_forward(np.concatenate([x, h1, w], axis=2), np.zeros((B, H)), np.zeros((B, H)),
                                          p2["Wx"], p2["Wh"], p2["b"], p2["gx"], p2["gh"], p2["gc"], p2["bc"],
                                          *(grown[1][n] for n in names), True)
    np.testing.assert_allclose(y[:, :, :H], h1, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(y[:, :, H:], h2, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(s.phi, phi, rtol=1e-9, atol=1e-11)
    for got, want in zip(list(states[0]) + list(states[1]), (hT, cT, kT, wT, h2T, c2T)):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11)
    for L, want in zip(s.layers, grown):                                # the running statistics moved as the spec's
        for n in names:
            np.testing.assert_allclose(L.buffers[n], want[n], rtol=1e-10, atol=1e-12)
    dx = s.backward(np.ones((T, B, 2 * H)))                             # kept: backward runs
    assert dx.shape == (T, B, I) and np.isfinite(dx).all()


def test_a_step_and_the_next_leave_each_rows_phi_and_end_weight():
    s = stack("ln", 2)
    L1 = s.layers[0]
    x = inputs(35, steps=2)
    whole, _ = s.forward(x, None, text=TEXT, training=False)
    h1, _, _, _, _, _, phi, _ = spec_layer1(L1, x, zero_state(), "ln")
    state = None
    for t in range(2):
        y_t, state = s.step(x[t], state, t, text=TEXT)
        np.testing.assert_allclose(y_t, whole[t], rtol=1e-10, atol=1e-12)
        assert s.step_phi.shape == (B, CODES.shape[1])
        np.testing.assert_allclose(s.step_phi, phi[t], rtol=1e-10, atol=1e-12)
        kappa = spec_layer1(L1, x[:t + 1], zero_state(), "ln")[4]
        np.testing.assert_allclose(s.step_end, end_weight(L1, h1[t], kappa, ULEN.astype(float)), rtol=1e-10,
                                   atol=1e-12)
    assert not np.allclose(s.step_phi[0], s.step_phi[1])               # the rows' windows differ
    assert not s.step_phi[2].any()                                     # the empty row weighs nothing


def test_a_fresh_two_layer_backward_against_central_differences():
    s = stack("ln", 2)
    L1 = s.layers[0]
    assert set(L1.grads) == set(L1.params) and all(not g.any() for g in L1.grads.values())
    x = inputs(37, steps=3)
    start = carried(38, 2)
    dy = np.random.default_rng(39).normal(0.0, 1.0, (3, B, 2 * H))

    def loss():
        return float(np.sum(dy * s.forward(x, start, text=TEXT, keep=False, training=False)[0]))

    s.forward(x, start, text=TEXT, training=False)
    dx = s.backward(dy)
    num = dict(rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dx, numeric_grad(loss, x, eps=1e-6, order=2), **num)
    assert [len(d) for d in s.dstate0] == [4, 2]
    for j in range(2):
        for got, a in zip(s.dstate0[j], start[j]):
            np.testing.assert_allclose(got, numeric_grad(loss, a, eps=1e-6, order=2), **num)
    for name in ("Wp", "bp", "b", "gc"):
        want = numeric_grad(loss, L1.params[name], eps=1e-6, order=2)
        assert np.abs(want).max() > 1e-3
        np.testing.assert_allclose(L1.grads[name], want, **num)


def test_the_constructors_defaults_are_graves_three_layers_and_ten_gaussians():
    s = WindowStack("lstm", "ln", 3, 5)
    L1 = s.layers[0]
    assert len(s.layers) == 3 and (s.I, s.H, s.C, s.K) == (3, 5, 2, 10)
    assert L1.params["Wx"].shape == (3 + 2, 20) and L1.params["Wp"].shape == (5, 30)
    assert all(layer.norm == "ln" for layer in s.layers) and "window_norm" not in s.config
    for layer in s.layers:
        assert layer.params["Wx"].dtype == np.float32
        np.testing.assert_array_equal(layer.params["b"][5:10], 1.0)              # gates [i|f|g|o]: f at 1
    np.testing.assert_array_equal(L1.params["bp"], [0.0] * 20 + [WINDOW_KAPPA_BIAS] * 10)
    again = WindowStack("lstm", "ln", 3, 5, seed=0)
    for a, b in zip(s.layers, again.layers):
        for n in a.params:
            np.testing.assert_array_equal(a.params[n], b.params[n])


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_the_window_layer_takes_the_stacks_norm_unless_told(norm):
    s = WindowStack("lstm", norm, I, H, num_layers=2, alphabet_size=C, window=K)
    assert [layer.norm for layer in s.layers] == [norm, norm] and "window_norm" not in s.config
    for wn in ("none", "ln", "bn"):
        t = WindowStack("lstm", norm, I, H, num_layers=2, alphabet_size=C, window=K, window_norm=wn)
        assert [layer.norm for layer in t.layers] == [wn, norm]
        assert t.config.get("window_norm") == (None if wn == norm else wn)
    with pytest.raises(ValueError) as e:
        WindowStack("lstm", norm, I, H, alphabet_size=C, window=K, window_norm="batch")
    assert str(e.value) == "window_norm must be None (the stack's norm) or one of ['bn', 'ln', 'none'], got 'batch'"


def test_refusals_of_the_layer_and_the_stack_word_for_word():
    s = stack("ln", 2)
    L1 = s.layers[0]
    x = inputs(41, steps=2)
    with pytest.raises(RuntimeError) as e:
        L1.backward_text(np.zeros((2, B, H)), np.zeros((2, B, C)))
    assert str(e.value) == ("backward called before forward, or after an inference forward (keep=False), which "
                            "keeps nothing for it")
    L1.forward_text(x, TEXT, keep=False)
    with pytest.raises(RuntimeError):
        L1.backward_text(np.zeros((2, B, H)), np.zeros((2, B, C)))
    for n, word in ((1, "array"), (3, "arrays")):
        with pytest.raises(ValueError) as e:
            L1.forward_text(x, TEXT, state=(np.zeros((B, H)),) * n)
        assert str(e.value) == f"the window layer's state is (h, c) or (h, c, kappa, w), got {n} {word}"
    with pytest.raises(ValueError) as e:
        L1.forward_text(np.zeros((0, B, I)), TEXT)
    assert str(e.value) == f"x must hold at least one step and one sequence, got shape (0, {B}, {I})"
    with pytest.raises(ValueError) as e:
        check_text(None, B, C)
    assert str(e.value) == "this model writes a given text: pass text=(codes (B,U), lengths (B,))"
    with pytest.raises(TypeError) as e:
        L1.forward(x)
    assert str(e.value) == "the window layer reads a text: call forward_text (or run it in a WindowStack)"
    with pytest.raises(TypeError) as e:
        L1.backward(x)
    assert str(e.value) == "the window layer's backward is backward_text"
    with pytest.raises(ValueError) as e:
        s.forward(x, [carried(42, 2)[0]], text=TEXT)
    assert str(e.value) == "state must hold one entry per layer (2), got 1"
    with pytest.raises(ValueError) as e:
        stack("bn", 2).set_batch_reduce(lambda buf: None)
    assert str(e.value) == "synchronized BatchNorm across processes is not offered for the synthesis network"
    # a layer's forward_text with its defaults keeps what backward needs: dx of the right shape
    h, w, st = L1.forward_text(x, TEXT)
    dx, ds = L1.backward_text(np.ones((2, B, H)), np.zeros((2, B, C)))
    assert dx.shape == (2, B, I) and [d.shape for d in ds] == [(B, H), (B, H), (B, K), (B, C)]
