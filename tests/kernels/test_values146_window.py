"""The window's CPU kernel (lnrnn/kernels/window.py) against a NumPy loop written here from Graves (2013) eq.
46-51 and the LSTM of sec. 2 (one row, one step, one character at a time: alpha, beta and kappa's increment the
exps of h_t Wp + bp's three blocks, phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) over the 1-based
positions u <= ulen[b], w_t the sum of phi over the positions of each character code, fed back in X_{t+1}), for
NORM_NONE and LayerNorm, K = 1 and K = 3, texts of 5, 1, 0 and 3 characters and rows of their own lengths (padded
steps run on); BN_t in training against lnrnn.reference; float32 against the float64 loop; a sequence run in
two calls (h, c, kappa and w_T of the first passed to the second) against one call; window_sequences' kappa
against the loop's; every gradient (NORM_NONE and LN, K = 3) against central differences in float64 of
sum(dy y + dw w) over the active (step, row) pairs; the text check refusing chars with the wrong row count and
naming U in ulen's message."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_backward, window_lstm_forward, window_sequences
from gradcheck_util import numeric_grad

T, B, I, H, C, U = 4, 4, 2, 3, 4, 5
G = 4 * H
ULEN = np.array([5, 1, 0, 3], np.int64)
LENGTHS = np.array([4, 2, 3, 1], np.int64)
EPS, MOMENTUM = 1e-3, 0.1
NAMES = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


def window_params(rng, I, H, C, K, bc_scale=0.2):
    """The parameters NAMES of a window LSTM of I inputs, H units, C character codes and K Gaussians, in float64,
    drawn from rng (the cell's LN bias bc with standard deviation bc_scale)."""
    G = 4 * H
    return dict(Wx=0.5 * rng.standard_normal((I + C, G)), Wh=0.5 * rng.standard_normal((H, G)),
                b=0.3 * rng.standard_normal(G), gx=1.0 + 0.3 * rng.standard_normal(G), bx=0.2 * rng.standard_normal(G),
                gh=1.0 + 0.3 * rng.standard_normal(G), bh=0.2 * rng.standard_normal(G),
                gc=1.0 + 0.3 * rng.standard_normal(H), bc=bc_scale * rng.standard_normal(H),
                Wp=0.4 * rng.standard_normal((H, 3 * K)),
                bp=np.concatenate([0.2 + 0.2 * rng.standard_normal(K), -0.5 + 0.2 * rng.standard_normal(K),
                                   0.2 * rng.standard_normal(K)]))


def problem(K, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    chars[0] = [2, 0, 2, 3, 1]                                         # a repeated code
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = window_params(rng, I, H, C, K)
    cast = [a.astype(dtype) for a in [x] + state]
    return cast[0], cast[1:], (chars, ULEN.copy()), {n: v.astype(dtype) for n, v in p.items()}


def run_stats(dtype=np.float64):
    return [np.zeros((T, G), dtype), np.ones((T, G), dtype), np.zeros((T, G), dtype), np.ones((T, G), dtype),
            np.zeros((T, H), dtype), np.ones((T, H), dtype)]


def forward(x, state, text, p, norm, keep=True, lengths=LENGTHS, training=True):
    run = run_stats(x.dtype)
    return window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *run, norm, training, MOMENTUM, EPS,
                               lengths, keep)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def layer_norm(v, g, s):
    m = v.mean()
    return g * (v - m) / np.sqrt(((v - m) ** 2).mean() + EPS) + s


def loop(x, state, text, p, norm):
    """Graves's equations, one row and one step at a time, in float64 -> y, w, phi, kappa (T,B,K) and c (T,B,H)."""
    chars, ulen = text
    K = p["Wp"].shape[1] // 3
    f8 = {n: v.astype(np.float64) for n, v in p.items()}
    y, w, phi = np.zeros((T, B, H)), np.zeros((T, B, C)), np.zeros((T, B, U))
    kap, cs = np.zeros((T, B, K)), np.zeros((T, B, H))
    for b in range(B):
        h, c, kappa, wp = (np.array(s[b], np.float64) for s in state)
        for t in range(T):
            X = np.concatenate([x[t, b].astype(np.float64), wp])
            xw, hw = X @ f8["Wx"], h @ f8["Wh"]
            if norm == NORM_LN:
                a = layer_norm(xw, f8["gx"], f8["bx"]) + layer_norm(hw, f8["gh"], f8["bh"]) + f8["b"]
            else:
                a = xw + hw + f8["b"]
            i, f, g, o = sigmoid(a[:H]), sigmoid(a[H:2 * H]), np.tanh(a[2 * H:3 * H]), sigmoid(a[3 * H:])
            c = f * c + i * g
            h = o * np.tanh(layer_norm(c, f8["gc"], f8["bc"]) if norm == NORM_LN else c)
            q = h @ f8["Wp"] + f8["bp"]
            alpha, beta = np.exp(q[:K]), np.exp(q[K:2 * K])
            kappa = kappa + np.exp(q[2 * K:])
            wp = np.zeros(C)
            for u in range(1, ulen[b] + 1):
                v = sum(alpha[k] * np.exp(-beta[k] * (kappa[k] - u) ** 2) for k in range(K))
                phi[t, b, u - 1] = v
                wp[chars[b, u - 1]] += v
            y[t, b], w[t, b], kap[t, b], cs[t, b] = h, wp, kappa, c
    return y, w, phi, kap, cs


@pytest.mark.parametrize("K", [1, 3])
@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_forward_against_graves_loop(norm, K):
    x, state, text, p = problem(K, 3 + K)
    got = forward(x, state, text, p, norm)
    y, w, phi, kap, cs = loop(x, state, text, p, norm)
    for name, g, e in (("y", got[0], y), ("w", got[1], w), ("hT", got[2], y[-1]), ("cT", got[3], cs[-1]),
                       ("kappaT", got[4], kap[-1]), ("wT", got[5], w[-1]), ("phi", got[6], phi)):
        np.testing.assert_allclose(g, e, rtol=1e-11, atol=1e-12, err_msg=name)
    assert np.all(got[6][:, 2] == 0.0) and np.all(got[1][:, 2] == 0.0)   # the empty text: no phi, no w
    c_seq, kappa_seq = window_sequences(got[7])
    np.testing.assert_allclose(kappa_seq, kap, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(c_seq, cs, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_float32_forward_against_float64_loop(norm):
    x, state, text, p = problem(3, 11, np.float32)
    got = forward(x, state, text, p, norm, keep=False)
    y, w, phi = loop(x, state, text, p, norm)[:3]
    for name, g, e in (("y", got[0], y), ("w", got[1], w), ("phi", got[6], phi)):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=2e-5, atol=2e-6, err_msg=name)


def test_bn_training_forward_against_reference():
    x, state, text, p = problem(3, 7)
    run = run_stats()
    got = forward(x, state, text, p, NORM_BN)
    want = ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *run, "bn", training=True,
                                   momentum=MOMENTUM, eps=EPS, lengths=LENGTHS)
    for name, g, e in zip(("y", "w", "hT", "cT", "kappaT", "wT", "phi"), got[:7], want[:7]):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-11, err_msg=name)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_two_calls_carry_the_state_as_one(norm):
    x, state, text, p = problem(3, 5)
    whole = forward(x, state, text, p, norm, keep=False, lengths=None)
    first = forward(x[:1], state, text, p, norm, keep=False, lengths=None)
    second = forward(x[1:], [first[2], first[3], first[4], first[5]], text, p, norm, keep=False, lengths=None)
    for name, a, e in (("y", np.concatenate([first[0], second[0]]), whole[0]),
                       ("w", np.concatenate([first[1], second[1]]), whole[1]),
                       ("phi", np.concatenate([first[6], second[6]]), whole[6])):
        np.testing.assert_allclose(a, e, rtol=1e-12, atol=1e-13, err_msg=name)
    for name, a, e in zip(("hT", "cT", "kappaT", "wT"), second[2:6], whole[2:6]):
        np.testing.assert_allclose(a, e, rtol=1e-12, atol=1e-13, err_msg=name)


def backward_and_loss(x, state, text, p, norm, seed, run=forward, lengths=LENGTHS):
    """Upstream gradients dy and dw drawn from seed, the kernel's gradients of sum(dy y + dw w) over the active
    (step, row) pairs, and that sum as a function for central differences; run is the forward, called with
    lengths -> dy, dw, the gradients, loss."""
    Tn, Bn = x.shape[:2]
    rng = np.random.default_rng(seed)
    dy, dw = rng.standard_normal((Tn, Bn, p["Wh"].shape[0])), rng.standard_normal((Tn, Bn, state[3].shape[1]))
    out = run(x, state, text, p, norm, lengths=lengths)
    got = window_lstm_backward(dy, dw, out[7], x, *state, *text, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                               p["Wp"], norm, 0.0)
    on = (np.arange(Tn)[:, None] < lengths[None, :])[:, :, None]

    def loss():
        y, w = run(x, state, text, p, norm, keep=False, lengths=lengths)[:2]
        return float(np.sum(on * dy * y) + np.sum(on * dw * w))

    return dy, dw, got, loss


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_backward_against_central_differences(norm):
    x, state, text, p = problem(3, 21)
    _, _, got, loss = backward_and_loss(x, state, text, p, norm, 22)
    for name, g, v in zip(("dx", "dh0", "dc0", "dkappa0", "dw0"), got[:5], [x] + state):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=name)
    for name, g in zip(NAMES, got[5:]):
        if norm == NORM_NONE and name in ("gx", "bx", "gh", "bh", "gc", "bc"):
            assert np.all(g == 0.0), name                               # not read without a norm
            continue
        np.testing.assert_allclose(g, numeric_grad(loss, p[name], eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=f"d{name}")


def test_text_check_refuses_chars_of_another_batch_and_names_u():
    x, state, (chars, ulen), p = problem(1, 2)
    with pytest.raises(ValueError, match="chars must be"):
        forward(x, state, (np.vstack([chars, chars[:1]]), ulen), p, NORM_NONE)
    with pytest.raises(ValueError, match=r"ulen must lie in \[0, U\] = \[0, 5\]"):
        forward(x, state, (chars, np.array([6, 1, 0, 3], np.int64)), p, NORM_NONE)
