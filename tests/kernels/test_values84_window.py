"""The window op's CPU kernel (lnrnn/kernels/window.py) against the synthesis layer written out here in NumPy:
an LSTM without a norm reading [x_t | w_{t-1}] (gates [i|f|g|o]), p_t = h_t Wp + bp, alpha = exp(a_hat), beta =
exp(b_hat), kappa_t = kappa_{t-1} + exp(k_hat), phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) for u =
1..ulen[b] (0 past it), w_t = sum_u phi(t,u) onehot(chars[b,u-1]). Also: inference (keep=False, two slots of c
and kappa) against keep=True over 5 steps; a sequence run in two calls with (h, c, kappa, w) carried against one
call, and kappa_T - kappa_0 against the sum of the saved exp(k_hat) over the steps; every gradient (x, the initial
h, c, kappa and w, the weights and biases, LayerNorm's gains and shifts) against central differences of the
kernel's own forward, without a norm and with LayerNorm.

B = 3 rows with texts of 1, 5 (the whole row) and 3 characters, codes past each text out of range (never read),
T = 4, I = 2, H = 3, K = 2, C = 4, U = 5. float64: forward to 1e-12, gradients to 1e-6 (relative and absolute)."""
import numpy as np
import pytest

from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_backward, window_lstm_forward
from gradcheck_util import numeric_grad

T, B, I, H, K, C, U = 4, 3, 2, 3, 2, 4, 5
G = 4 * H
ULEN = np.array([1, 5, 3], np.int64)
NONE = np.empty((0, 0))
TOL, TOL_GRAD = 1e-12, 1e-6


def problem(seed, T=T):
    rng = np.random.default_rng(seed)
    n = lambda sc, *s, shift=0.0: shift + sc * rng.standard_normal(s)  # noqa: E731
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    for b in range(B):
        chars[b, ULEN[b]:] = C + 7  # padding: never read
    bp = np.concatenate([n(0.3, K, shift=0.2), n(0.2, K, shift=-0.5), n(0.2, K, shift=-0.3)])
    return dict(x=n(1, T, B, I), h0=n(0.5, B, H), c0=n(0.5, B, H), kappa0=rng.uniform(0.0, 1.5, (B, K)),
                w0=n(0.5, B, C), chars=chars, ulen=ULEN.copy(), Wx=n(0.5, I + C, G), Wh=n(0.4, H, G), b=n(0.2, G),
                gx=n(0.2, G, shift=1.0), bx=n(0.2, G), gh=n(0.2, G, shift=1.0), bh=n(0.2, G),
                gc=n(0.2, H, shift=1.0), bc=n(0.2, H), Wp=n(0.4, H, 3 * K), bp=bp)


def forward(a, norm=NORM_NONE, keep=True, x=None, state=None):
    """window_lstm_forward on a's arrays (x and the initial state (h0, c0, kappa0, w0) replaceable)."""
    st = state if state is not None else (a["h0"], a["c0"], a["kappa0"], a["w0"])
    return window_lstm_forward(a["x"] if x is None else x, *st, a["chars"], a["ulen"], a["Wx"], a["Wh"], a["b"],
                               a["gx"], a["bx"], a["gh"], a["bh"], a["gc"], a["bc"], a["Wp"], a["bp"],
                               *(NONE,) * 6, norm, True, 0.1, 1e-5, None, keep)


def by_hand(a, ln=None):
    """y (T,B,H), w (T,B,C), phi (T,B,U) and the final h, c, kappa, w of the layer in NumPy: without a norm, or
    with ln(v, gain, shift) a LayerNorm over the x side's and h side's products and the cell (gx, bx; gh, bh; gc,
    bc), texts of a["ulen"] characters."""
    sig = lambda z: 1.0 / (1.0 + np.exp(-z))  # noqa: E731
    h, c, kap, w = a["h0"], a["c0"], a["kappa0"], a["w0"]
    Tn = a["x"].shape[0]
    ys, wss, phis = np.zeros((Tn, B, H)), np.zeros((Tn, B, C)), np.zeros((Tn, B, U))
    for t in range(Tn):
        xw, hw = np.concatenate([a["x"][t], w], axis=1) @ a["Wx"], h @ a["Wh"]
        if ln is not None:
            xw, hw = ln(xw, a["gx"], a["bx"]), ln(hw, a["gh"], a["bh"])
        z = xw + hw + a["b"]
        i, f, g, o = sig(z[:, :H]), sig(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), sig(z[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(c if ln is None else ln(c, a["gc"], a["bc"]))
        p = h @ a["Wp"] + a["bp"]
        alpha, beta = np.exp(p[:, :K]), np.exp(p[:, K:2 * K])
        kap = kap + np.exp(p[:, 2 * K:])
        w = np.zeros((B, C))
        for b in range(B):
            for u in range(a["ulen"][b]):
                phis[t, b, u] = np.sum(alpha[b] * np.exp(-beta[b] * (kap[b] - (u + 1)) ** 2))
                w[b, a["chars"][b, u]] += phis[t, b, u]
        ys[t], wss[t] = h, w
    return ys, wss, phis, h, c, kap, w


def close(got, want, tol=TOL, what=""):
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=what)


def test_forward_equals_the_layer_written_out():
    a = problem(1)
    y, w, hT, cT, kT, wT, phi, _ = forward(a)
    want = by_hand(a)
    for name, g, e in zip(("y", "w", "phi", "hT", "cT", "kappaT", "wT"), (y, w, phi, hT, cT, kT, wT), want):
        close(g, e, what=name)
    for b in range(B):  # past each row's text phi is exactly 0, and its last character has weight
        assert np.all(phi[:, b, ULEN[b]:] == 0.0)
        assert np.all(phi[:, b, ULEN[b] - 1] > 0.0)


def test_inference_slots_equal_keep_over_five_steps():
    a = problem(2, T=5)
    kept = forward(a, keep=True)
    inf = forward(a, keep=False)
    assert inf[7] is None
    for name, g, e in zip(("y", "w", "hT", "cT", "kappaT", "wT", "phi"), inf[:7], kept[:7]):
        np.testing.assert_array_equal(g, e, err_msg=name)
    want = by_hand(a)
    close(inf[4], want[5], what="kappaT")
    close(inf[3], want[4], what="cT")


def test_two_calls_with_the_state_carried_equal_one_call_and_kappa_accumulates():
    a = problem(3)
    whole = forward(a)
    first = forward(a, x=a["x"][:2])
    second = forward(a, x=a["x"][2:], state=first[2:6])
    close(np.concatenate([first[0], second[0]]), whole[0], what="y")
    close(np.concatenate([first[1], second[1]]), whole[1], what="w")
    close(np.concatenate([first[6], second[6]]), whole[6], what="phi")
    for name, g, e in zip(("hT", "cT", "kappaT", "wT"), second[2:6], whole[2:6]):
        close(g, e, what=name)
    steps = whole[7][9][:, :, 2 * K:]  # saved win: exp(k_hat) of every step
    close(whole[4] - a["kappa0"], steps.sum(axis=0), what="kappa_T - kappa_0")
    close(whole[7][10][0], a["kappa0"] + steps[0], what="kappa_1")


GRAD_OF = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_every_gradient_equals_central_differences(norm):
    a = problem(4)
    rng = np.random.default_rng(40)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    out = forward(a, norm)
    grads = window_lstm_backward(dy, dw, out[7], a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"],
                                 a["ulen"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], norm, 0.0)
    got = dict(zip(GRAD_OF, grads))

    def loss():
        y, w = forward(a, norm, keep=False)[:2]
        return float(np.sum(dy * y) + np.sum(dw * w))

    names = GRAD_OF if norm == NORM_LN else ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "Wp", "bp")
    for name in names:
        want = numeric_grad(loss, a[name], eps=1e-6, order=2)
        np.testing.assert_allclose(got[name], want, rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=f"d{name}")
    if norm == NORM_NONE:
        for name in ("gx", "bx", "gh", "bh", "gc", "bc"):
            assert np.all(got[name] == 0.0), name
