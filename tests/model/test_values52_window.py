"""The synthesis network's window layer (lnrnn/model/window.py) against a NumPy reimplementation written here
from Graves 2013 eqs. 46-51: layer 1 an LSTM (gates [i|f|g|o], no norm) reading [x_t | w_{t-1}], the window
moved by h1_t (alpha = exp(a_hat), beta = exp(b_hat), kappa the running sum of exp(k_hat) from kappa0), phi(t, u)
over each row's own characters only and w_t = sum_u phi(t, u) onehot(c_u), for rows of different text lengths
whose padding holds codes that must not be read. Also: the documented initial parameters (Wp ~ N(0, 0.01^2),
kappa moving exp(-3) characters a point), window_norm taking layer 1 off the stack's norm, the checks of the
text and of the window's size, and each layer's initial-state gradient (dstate0, layer 1 first) against
central differences."""
import numpy as np
import pytest

from lnrnn.model.models import build_model
from lnrnn.model.window import WindowStack, check_text
from gradcheck_util import numeric_grad

I, H, C, K = 3, 4, 6, 2


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def layer1_by_hand(x, text, p, state):
    """x (T,B,I), text (codes (B,U), ulen (B,)), p the layer's params, state (h, c, kappa, w) ->
    h (T,B,H), w (T,B,C), phi (T,B,U), kappa_T (B,K)."""
    codes, ulen = text
    h, c, kappa, w = (np.array(s, np.float64) for s in state)
    T, B, _ = x.shape
    U = codes.shape[1]
    hs, ws, phis = [], [], []
    for t in range(T):
        a = np.concatenate([x[t], w], axis=1) @ p["Wx"] + h @ p["Wh"] + p["b"]
        i_, f_, g_, o_ = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c = f_ * c + i_ * g_
        h = o_ * np.tanh(c)
        q = h @ p["Wp"] + p["bp"]
        alpha, beta = np.exp(q[:, :K]), np.exp(q[:, K:2 * K])
        kappa = kappa + np.exp(q[:, 2 * K:])
        phi = np.zeros((B, U))
        w = np.zeros((B, C))
        for b in range(B):
            for u in range(ulen[b]):                                   # the row's own characters, 1-based u + 1
                phi[b, u] = np.sum(alpha[b] * np.exp(-beta[b] * (kappa[b] - (u + 1)) ** 2))
                w[b, codes[b, u]] += phi[b, u]
        hs.append(h)
        ws.append(w)
        phis.append(phi)
    return np.stack(hs), np.stack(ws), np.stack(phis), kappa


def stack(norm="ln", window_norm="none", num_layers=2, window=K, seed=3):
    s = WindowStack("lstm", norm, I, H, num_layers=num_layers, alphabet_size=C, window=window, dtype=np.float64,
                    seed=seed, window_norm=window_norm)
    rng = np.random.default_rng(seed)
    L1 = s.layers[0]
    L1.params["Wp"][...] = rng.normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.4, -0.3, 0.2, -0.1, np.log(0.5), np.log(0.3)]
    L1.params["Wx"][...] = rng.normal(0.0, 0.5, L1.params["Wx"].shape)
    return s


def batch(rng, T=5, ulen=(4, 1, 2)):
    ulen = np.array(ulen, np.int64)
    B, U = len(ulen), int(ulen.max())
    codes = rng.integers(1, C, (B, U))                                  # padding past ulen: real codes, unread
    x = rng.normal(size=(T, B, I))
    state = (rng.normal(0, 0.3, (B, H)), rng.normal(0, 0.3, (B, H)), rng.uniform(0.1, 0.8, (B, K)),
             rng.uniform(0.0, 0.5, (B, C)))
    return x, (codes, ulen), state


def test_layer_one_and_its_window_equal_the_recurrence_by_hand_for_rows_of_their_own_lengths():
    s = stack()
    L1 = s.layers[0]
    assert L1.norm == "none" and "gx" not in L1.params and "gx" in s.layers[1].params
    assert s.config["window_norm"] == "none"
    rng = np.random.default_rng(0)
    x, text, state = batch(rng)
    h, w, (hT, cT, kT, wT) = L1.forward_text(x, text, state, training=False, keep=False)
    want_h, want_w, want_phi, want_k = layer1_by_hand(x, text, L1.params, state)
    np.testing.assert_allclose(h, want_h, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w, want_w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(L1.phi, want_phi, rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(kT, want_k, rtol=1e-12)
    np.testing.assert_allclose(wT, want_w[-1], rtol=1e-10, atol=1e-12)
    assert np.ptp(want_k - state[2]) > 0.1                              # kappa moved by different amounts
    # a row's own outputs, alone with its own characters, are its outputs in the batch
    for b in range(3):
        u = text[1][b]
        alone = (text[0][b:b + 1, :u], text[1][b:b + 1])
        hb, wb, _ = L1.forward_text(x[:, b:b + 1], alone, tuple(v[b:b + 1] for v in state), training=False,
                                    keep=False)
        np.testing.assert_allclose(hb[:, 0], h[:, b], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(wb[:, 0], w[:, b], rtol=1e-12, atol=1e-14)


def test_the_window_norm_of_the_stack_is_the_layers_own_without_window_norm():
    s = WindowStack("lstm", "ln", I, H, num_layers=2, alphabet_size=C, window=K, dtype=np.float64)
    assert s.layers[0].norm == "ln" and "gx" in s.layers[0].params and "window_norm" not in s.config
    s = WindowStack("lstm", "none", I, H, num_layers=2, alphabet_size=C, window=K, dtype=np.float64,
                    window_norm="ln")
    assert s.layers[0].norm == "ln" and "gx" not in s.layers[1].params and s.config["window_norm"] == "ln"


def test_initial_window_parameters_are_the_documented_ones():
    """Wp ~ N(0, 0.01^2) over H x 3K = 1200 entries (the sample's std within 10%: its standard error is
    0.01 / sqrt(2400) = 2%), the a_hat and b_hat biases 0, kappa's exp(-3) = 0.0498 characters a point."""
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=40, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=10, alphabet_size=C,
                         head={"kind": "mdn", "components": 2, "per_step": True}), seed=5)
    L1 = m.stack.layers[0]
    Wp, bp = L1.params["Wp"], L1.params["bp"]
    assert Wp.shape == (40, 30) and bp.shape == (30,)
    assert 0.009 < Wp.std() < 0.011 and abs(Wp.mean()) < 0.002
    assert np.all(bp[:20] == 0.0)
    np.testing.assert_allclose(np.exp(bp[20:]), np.exp(-3.0), rtol=1e-6)
    # with Wp at 0, kappa moves exactly exp(-3) a step: 4 steps from kappa0 = 0 -> 4 exp(-3)
    L1.params["Wp"][...] = 0.0
    rng = np.random.default_rng(1)
    text = (np.array([[1, 2, 3]]), np.array([3]))
    _, _, (_, _, kT, _) = L1.forward_text(rng.normal(size=(4, 1, 3)), text, None, training=False, keep=False)
    np.testing.assert_allclose(kT, np.full((1, 10), 4 * np.exp(-3.0)), rtol=1e-6)


def test_check_text_refuses_an_empty_text_and_bad_lengths():
    codes, ulen = check_text((np.array([[1, 2], [3, 0]]), np.array([2, 1])), 2, C)
    assert codes.dtype == np.int64 and ulen.tolist() == [2, 1]
    with pytest.raises(ValueError, match="U >= 1"):
        check_text((np.zeros((2, 0), np.int64), np.array([0, 0])), 2, C)
    with pytest.raises(ValueError, match="U >= 1"):
        check_text((np.zeros((3, 2), np.int64), np.array([1, 1])), 2, C)
    with pytest.raises(ValueError, match=r"lie in \[0, 2\]"):
        check_text((np.ones((2, 2), np.int64), np.array([3, 1])), 2, C)
    with pytest.raises(ValueError, match=r"lie in \[0, 6\)"):
        check_text((np.full((2, 2), C), np.array([1, 1])), 2, C)


@pytest.mark.parametrize("window", [0, -1, 1.5])
def test_a_window_of_no_gaussians_is_refused(window):
    with pytest.raises(ValueError, match="window and alphabet_size must be positive integers"):
        WindowStack("lstm", "ln", I, H, num_layers=2, alphabet_size=C, window=window, dtype=np.float64)
    s = WindowStack("lstm", "ln", I, H, num_layers=2, alphabet_size=C, window=1, dtype=np.float64)
    assert s.layers[0].params["Wp"].shape == (H, 3)


def test_dstate0_is_each_layers_initial_state_gradient_layer_one_first():
    """loss = sum(y R) over a 3-layer stack: dstate0[j] against central differences of every initial-state
    array of layer j (layer 1: h, c, kappa, w; the others h, c), a few entries each."""
    s = stack(norm="none", num_layers=3)
    rng = np.random.default_rng(4)
    x, text, st1 = batch(rng, T=3, ulen=(3, 1))
    B = 2
    state = [st1] + [(rng.normal(0, 0.3, (B, H)), rng.normal(0, 0.3, (B, H))) for _ in range(2)]
    R = rng.normal(size=(3, B, 3 * H))

    def loss(st):
        y, _ = s.forward(x, st, training=True, keep=False, text=text)
        return float(np.sum(y * R))

    s.forward(x, state, training=True, text=text)
    s.backward(R)
    d = s.dstate0
    assert [len(v) for v in d] == [4, 2, 2]
    moved = [tuple(np.array(v) for v in ls) for ls in state]  # the states central differences move, in place
    for j, layer_state in enumerate(moved):
        for a, arr in enumerate(layer_state):
            corners = np.ravel_multi_index(([0, 1], [0, arr.shape[1] - 1]), arr.shape)  # (0, 0), (1, last)
            fd = numeric_grad(lambda: loss(moved), arr, eps=1e-6, idx=corners, order=2)
            np.testing.assert_allclose(d[j][a].reshape(-1)[corners], fd, rtol=1e-5, atol=1e-8,
                                       err_msg=f"layer {j} state {a}")
