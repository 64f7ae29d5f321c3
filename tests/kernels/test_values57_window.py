"""The synthesis layer's window (lnrnn/kernels/window.py) in float64 at tiny shapes, rows of their own text
lengths (a full text, a short one, none) and sequence lengths: alpha, beta and exp(k_hat) recomputed here
from the returned h_t, kappa_t as kappa0 plus their running sum, phi(t,u) summed over the K components at
the 1-based positions 1..ulen[b] (0 past them) and w_t as phi summed per character (repeated characters);
the forward and every gradient against the NumPy spec (lnrnn.reference) with dL/dy and dL/dw nonzero at
padded steps; and the gradients of the window's parameters and of the initial kappa and w against central
differences of the kernel's own forward, the loss read over the running steps only."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels import window
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from gradcheck_util import numeric_grad

EPS, MOM = 1e-5, 0.1
T, B, I, H, K, C, U = 4, 4, 2, 3, 2, 4, 5
LENGTHS = np.array([4, 2, 3, 1], np.int64)
ULEN = np.array([5, 2, 0, 3], np.int64)
CHARS = np.array([[1, 3, 1, 0, 1],      # repeated characters
                  [2, 2, 0, 0, 0],      # past ulen: codes that are never read
                  [3, 1, 2, 0, 1],
                  [0, 3, 0, 2, 2]], np.int64)
NORMS = {"none": NORM_NONE, "ln": NORM_LN}


def problem(seed):
    rng = np.random.default_rng(seed)
    G = 4 * H

    def nrm(*shape, sc=1.0, mu=0.0):
        return mu + sc * rng.standard_normal(shape)
    a = dict(x=nrm(T, B, I), h0=nrm(B, H, sc=0.5), c0=nrm(B, H, sc=0.5), kappa0=rng.uniform(0.0, 1.5, (B, K)),
             w0=rng.uniform(0.0, 0.5, (B, C)), chars=CHARS.copy(), ulen=ULEN.copy(),
             Wx=nrm(I + C, G, sc=0.4), Wh=nrm(H, G, sc=0.4), b=nrm(G, sc=0.1), gx=nrm(G, sc=0.2, mu=1.0),
             bx=nrm(G, sc=0.1), gh=nrm(G, sc=0.2, mu=1.0), bh=nrm(G, sc=0.1), gc=nrm(H, sc=0.2, mu=1.0),
             bc=nrm(H, sc=0.1), Wp=nrm(H, 3 * K, sc=0.4),
             # alpha ~ 1 (two components of different sizes), beta ~ 0.4, kappa moving ~0.6 a step
             bp=np.concatenate([[0.3, -0.4], nrm(K, sc=0.1, mu=-1.0), nrm(K, sc=0.1, mu=-0.5)]))
    return a, nrm(T, B, H), nrm(T, B, C)


def forward(a, norm="none", keep=True):
    return window.window_lstm_forward(*a.values(), *[np.zeros((0, 0))] * 6, NORMS[norm], True, MOM, EPS, LENGTHS,
                                      keep)


def backward(dy, dw, saved, a, norm="none"):
    return window.window_lstm_backward(dy, dw, saved, a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"],
                                       a["ulen"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], NORMS[norm],
                                       0.0)


def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), 1e-300))


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_alpha_beta_kappa_phi_and_w_by_hand(norm):
    """From the returned h_t alone: p = h_t Wp + bp, alpha = exp(a_hat), beta = exp(b_hat), kappa_t = kappa0 +
    the sum of exp(k_hat) over steps 0..t, phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) for
    u = 1..ulen[b] (0 past), w_t[c] = phi summed over the positions holding c (the saved window rows, kappa
    and the final state agree)."""
    a, _, _ = problem(57)
    y, w, hT, cT, kT, wT, phi, saved = forward(a, norm)
    p = np.einsum("tbh,hk->tbk", y, a["Wp"]) + a["bp"]                                   # (T,B,3K)
    alpha, beta, ek = np.exp(p[..., :K]), np.exp(p[..., K:2 * K]), np.exp(p[..., 2 * K:])
    kappa = a["kappa0"][None] + np.cumsum(ek, axis=0)                                     # (T,B,K)
    win = saved[9]
    assert rel(win, np.concatenate([alpha, beta, ek], axis=2)) < 1e-12
    assert rel(saved[10], kappa) < 1e-12 and rel(kT, kappa[-1]) < 1e-12
    want_phi = np.zeros((T, B, U))
    want_w = np.zeros((T, B, C))
    for t in range(T):
        for b in range(B):
            for u in range(ULEN[b]):
                pos = u + 1.0
                v = sum(alpha[t, b, k] * np.exp(-beta[t, b, k] * (kappa[t, b, k] - pos) ** 2) for k in range(K))
                want_phi[t, b, u] = v
                want_w[t, b, CHARS[b, u]] += v
    # the window sweeps the text: phi is far from 0 somewhere and the two components both count
    assert want_phi.max() > 0.2
    np.testing.assert_allclose(phi, want_phi, rtol=1e-12, atol=1e-300)
    np.testing.assert_array_equal(phi[:, 1, 2:], 0.0)       # row 1: two characters
    np.testing.assert_array_equal(phi[:, 2], 0.0)                   # row 2: no text
    np.testing.assert_allclose(w, want_w, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(wT, want_w[-1], rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_forward_and_every_gradient_against_the_reference(norm):
    """The kernel against reference.window_lstm_forward/backward (float64, same inputs): y, w, hT, cT, kappaT,
    wT, phi to 1e-12 and the 16 gradients to 1e-10, with dL/dy and dL/dw nonzero at the padded steps too
    (both ignored there)."""
    a, dy, dw = problem(58)
    want = ref.window_lstm_forward(*a.values(), *[np.zeros((0, 0))] * 6, norm, True, MOM, EPS, LENGTHS)
    got = forward(a, norm)
    for k in range(7):
        assert rel(got[k], want[k]) < 1e-12, k
    g_want = ref.window_lstm_backward(dy, dw, want[-1], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"],
                                      a["chars"], 0.0)
    g_got = backward(dy, dw, got[-1], a, norm)
    names = ("dx", "dh0", "dc0", "dkappa0", "dw0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc", "dbc",
             "dWp", "dbp")
    for name, g, w in zip(names, g_got, g_want):
        assert rel(g, w) < 1e-10, name


def test_window_gradients_against_central_differences():
    """dWp, dbp, dkappa0, dw0 and dWx's window rows of the kernel (no norm) against central differences of
    L = sum over running (t, b) of dy . y_t + dw . w_t, the forward being the kernel's own."""
    a, dy, dw = problem(59)
    on = (np.arange(T)[:, None] < LENGTHS[None, :])[..., None]                         # (T,B,1)

    def loss(v):
        y, w = forward(v, keep=False)[:2]
        return float(np.sum(np.where(on, dy * y, 0.0)) + np.sum(np.where(on, dw * w, 0.0)))
    g = backward(dy, dw, forward(a)[-1], a)
    grads = {"kappa0": g[3], "w0": g[4], "Wx": g[5], "Wp": g[14], "bp": g[15]}
    step = 1e-6
    for name, got in grads.items():
        moved = dict(a, **{name: a[name].copy()})  # the one argument central differences move
        if name == "Wx":                               # the window's rows of Wx (those of w_{t-1})
            got = got[I:]
            rows = np.arange(I * got.shape[1], moved["Wx"].size)
            num = numeric_grad(lambda: loss(moved), moved["Wx"], eps=step, idx=rows, order=2).reshape(got.shape)
        else:
            num = numeric_grad(lambda: loss(moved), moved[name], eps=step, order=2)
        assert np.max(np.abs(num)) > 1e-3, name
        np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-7 * np.max(np.abs(num)), err_msg=name)
