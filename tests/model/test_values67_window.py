"""The synthesis network's window model (lnrnn/model/window.py) with a window of K = 2 components and an
alphabet of C = 6 characters (so that every state slot has its own width): its parameters' shapes against the
model's definition (layer 1 reads [x | w], the layers above [x | h1 | w], the window's Wp (H,3K) and bp (3K,)
with kappa's bias), the order of its final state (h, c, kappa, w) against layer 1 recomputed here by
test_values52_window's NumPy LSTM and window, a sequence run in two calls with that state carried against one
call, and the one-layer stack's gradients (plain, and with LayerNorm of random gains and shifts) against
central differences of that NumPy recomputation (LayerNorm's written here)."""
import numpy as np
import pytest

from lnrnn.config import EPS
from lnrnn.model.window import WINDOW_KAPPA_BIAS, WindowStack
from test_values52_window import C, H, I, K, batch, layer1_by_hand, stack
from gradcheck_util import numeric_grad

assert K != C


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_parameter_shapes(norm):
    s = WindowStack("lstm", norm, I, H, num_layers=3, alphabet_size=C, window=K, dtype=np.float64, seed=0)
    L1 = s.layers[0]
    G = 4 * H
    assert L1.params["Wx"].shape == (I + C, G)
    assert L1.params["Wh"].shape == (H, G) and L1.params["b"].shape == (G,)
    assert L1.params["Wp"].shape == (H, 3 * K) and L1.params["bp"].shape == (3 * K,)
    np.testing.assert_array_equal(L1.params["bp"], [0.0] * (2 * K) + [WINDOW_KAPPA_BIAS] * K)
    for L in s.layers[1:]:
        assert L.params["Wx"].shape == (I + H + C, G)
        assert L.params["Wh"].shape == (H, G)
    if norm == "ln":
        for L in s.layers:
            assert L.params["gx"].shape == L.params["bh"].shape == (G,) and L.params["gc"].shape == (H,)
    assert (s.I, s.H, s.C, s.K) == (I, H, C, K)
    assert s.output_size == 3 * H


def test_final_state_is_h_c_kappa_w_and_carries_over():
    s = stack(norm="none", window_norm="none", num_layers=2)
    rng = np.random.default_rng(1)
    x, text, _ = batch(rng, T=5)
    B = x.shape[1]
    y, states = s.forward(x, training=False, text=text)
    h1, w1, _, kappa = layer1_by_hand(x, text, s.layers[0].params,
                                      (np.zeros((B, H)), np.zeros((B, H)), np.zeros((B, K)), np.zeros((B, C))))
    np.testing.assert_allclose(y[:, :, :H], h1, rtol=1e-10, atol=1e-12)
    hT, cT, kT, wT = states[0]
    assert (hT.shape, cT.shape, kT.shape, wT.shape) == ((B, H), (B, H), (B, K), (B, C))
    np.testing.assert_allclose(hT, h1[-1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(kT, kappa, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(wT, w1[-1], rtol=1e-10, atol=1e-12)
    ya, sa = s.forward(x[:2], training=False, text=text)
    yb, sb = s.forward(x[2:], sa, training=False, text=text)
    np.testing.assert_allclose(np.concatenate([ya, yb]), y, rtol=1e-10, atol=1e-12)
    for got, want in zip(sb[0] + sb[1], states[0] + states[1]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def ln(v, g, s, eps=EPS):
    m = v.mean(-1, keepdims=True)
    return (v - m) / np.sqrt(((v - m) ** 2).mean(-1, keepdims=True) + eps) * g + s


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def layer1_ln(x, text, p):
    """Layer 1 with LayerNorm (Ba et al. 2016) from zero state: a_t = LN([x_t | w_{t-1}] Wx; gx, bx)
    + LN(h_{t-1} Wh; gh, bh) + b, c_t = f c_{t-1} + i g, h_t = o tanh(LN(c_t; gc, bc)), then the window
    (Graves 2013, eqs. 46-51) over each row's own characters -> h (T,B,H)."""
    codes, ulen = text
    T, B, _ = x.shape
    h, c, kappa, w = np.zeros((B, H)), np.zeros((B, H)), np.zeros((B, K)), np.zeros((B, C))
    hs = []
    for t in range(T):
        a = (ln(np.concatenate([x[t], w], axis=1) @ p["Wx"], p["gx"], p["bx"])
             + ln(h @ p["Wh"], p["gh"], p["bh"]) + p["b"])
        i_, f_, g_, o_ = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c = f_ * c + i_ * g_
        h = o_ * np.tanh(ln(c, p["gc"], p["bc"]))
        q = h @ p["Wp"] + p["bp"]
        alpha, beta = np.exp(q[:, :K]), np.exp(q[:, K:2 * K])
        kappa = kappa + np.exp(q[:, 2 * K:])
        w = np.zeros((B, C))
        for b in range(B):
            for u in range(ulen[b]):
                w[b, codes[b, u]] += np.sum(alpha[b] * np.exp(-beta[b] * (kappa[b] - (u + 1)) ** 2))
        hs.append(h)
    return np.stack(hs)


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_one_layer_gradients_against_central_differences(norm):
    s = stack(norm=norm, window_norm=norm, num_layers=1)
    rng = np.random.default_rng(2)
    x, text, _ = batch(rng, T=4)
    B = x.shape[1]
    p = s.layers[0].params
    names = ["Wx", "Wh", "b", "Wp", "bp"]
    if norm == "ln":
        for n in ("gx", "bx", "gh", "bh", "gc", "bc"):
            p[n][...] = (1.0 if n[0] == "g" else 0.0) + 0.4 * rng.standard_normal(p[n].shape)
        names += ["gx", "bx", "gh", "bh", "gc", "bc"]
    wy = rng.normal(size=(4, B, H))                                  # L = sum(wy * h1)
    zero = (np.zeros((B, H)), np.zeros((B, H)), np.zeros((B, K)), np.zeros((B, C)))
    s.forward(x, training=True, text=text)
    dx = s.backward(wy)

    def loss():
        h1 = layer1_ln(x, text, p) if norm == "ln" else layer1_by_hand(x, text, p, zero)[0]
        return np.sum(wy * h1)

    for name, got, arr in [(n, s.layers[0].grads[n], p[n]) for n in names] + [("x", dx, x)]:
        num = numeric_grad(loss, arr, eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-4, name
        np.testing.assert_allclose(got, num, rtol=1e-5, atol=1e-8, err_msg=name)
