"""The window's CPU kernel (lnrnn/kernels/window.py) with every option on, against a NumPy loop written here
from Graves (2013) eq. 46-51 and the LSTM of sec. 2 in float64 (one step, one row, one character at a time:
alpha, beta and kappa's increment the exps of h_t Wp + bp's three blocks, phi(t,u) = sum_k alpha_k
exp(-beta_k (kappa_k - u)^2) over the 1-based u <= ulen[b], w_t the sum of phi over the positions of each code,
fed back in X_{t+1}; BN_t's mean and biased variance over the step's active rows, none active: 0 and 0), for
NORM_NONE, LayerNorm and BN_t in training; B = 5 (two row blocks of 3 and 2) and K = 2; texts of 5, 3, 0, 1 and
4 characters; lengths 4, 0, 1, 3, 2 (an empty row and a one-step row); initial h, c, kappa and w given, and the
sequence run again from step 2 on with the first call's final state (kappa and w carried); float32 against the
float64 loop; every gradient against central differences in float64 of sum(dy y + dw w) over the active
(step, row) pairs, BN_t's also against lnrnn.reference; the character-code check naming C as its bound."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_forward
from gradcheck_util import numeric_grad
from test_values146_window import backward_and_loss, window_params

T, B, I, H, C, U, K = 4, 5, 2, 3, 4, 5, 2
G = 4 * H
ULEN = np.array([5, 3, 0, 1, 4], np.int64)
LENGTHS = np.array([4, 0, 1, 3, 2], np.int64)
EPS, MOMENTUM = 1e-3, 0.1
NAMES = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
NORMS = [NORM_NONE, NORM_LN, NORM_BN]


def problem(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    chars[0] = [1, 3, 1, 0, 2]                                         # a repeated code
    chars[2] = 99                                                      # the empty text: never read
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = window_params(rng, I, H, C, K, bc_scale=0.4)
    cast = [a.astype(dtype) for a in [x] + state]
    return cast[0], cast[1:], (chars, ULEN.copy()), {n: v.astype(dtype) for n, v in p.items()}


def run_stats(n, dtype=np.float64):
    return [np.zeros((n, G), dtype), np.ones((n, G), dtype), np.zeros((n, G), dtype), np.ones((n, G), dtype),
            np.zeros((n, H), dtype), np.ones((n, H), dtype)]


def forward(x, state, text, p, norm, keep=True, lengths=LENGTHS):
    run = run_stats(x.shape[0], x.dtype)
    return window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *run, norm, True, MOMENTUM, EPS,
                               lengths, keep)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def layer_norm(v, g, s):
    m = sum(v) / len(v)
    return g * (v - m) / np.sqrt(sum((v - m) ** 2) / len(v) + EPS) + s


def batch_norm(rows, on, g, s):
    """BN_t in training over the active rows (mean and biased variance; none active: 0 and 0)."""
    act = [r for r, a in zip(rows, on) if a]
    m = sum(act) / len(act) if act else np.zeros_like(rows[0])
    v = sum((r - m) ** 2 for r in act) / len(act) if act else np.zeros_like(rows[0])
    return [g * (r - m) / np.sqrt(v + EPS) + s for r in rows]


def loop(x, state, text, p, norm, lengths=LENGTHS):
    """Graves's equations one step and one row at a time in float64 -> y, w, phi (T,...)."""
    chars, ulen = text
    f8 = {n: v.astype(np.float64) for n, v in p.items()}
    Tn = x.shape[0]
    h, c, kappa, wp = ([np.array(s[b], np.float64) for b in range(B)] for s in state)
    y, w, phi = np.zeros((Tn, B, H)), np.zeros((Tn, B, C)), np.zeros((Tn, B, U))
    zero_g = np.zeros(G)
    for t in range(Tn):
        on = [t < lengths[b] for b in range(B)]
        xw = [np.concatenate([x[t, b].astype(np.float64), wp[b]]) @ f8["Wx"] for b in range(B)]
        hw = [h[b] @ f8["Wh"] for b in range(B)]
        if norm == NORM_LN:
            a = [layer_norm(xw[b], f8["gx"], f8["bx"]) + layer_norm(hw[b], f8["gh"], f8["bh"]) + f8["b"]
                 for b in range(B)]
        elif norm == NORM_BN:
            xn, hn = batch_norm(xw, on, f8["gx"], zero_g), batch_norm(hw, on, f8["gh"], zero_g)
            a = [xn[b] + hn[b] + f8["b"] for b in range(B)]
        else:
            a = [xw[b] + hw[b] + f8["b"] for b in range(B)]
        o = []
        for b in range(B):
            i, f, g = sigmoid(a[b][:H]), sigmoid(a[b][H:2 * H]), np.tanh(a[b][2 * H:3 * H])
            o.append(sigmoid(a[b][3 * H:]))
            c[b] = f * c[b] + i * g
        if norm == NORM_LN:
            cn = [layer_norm(c[b], f8["gc"], f8["bc"]) for b in range(B)]
        elif norm == NORM_BN:
            cn = batch_norm(c, on, f8["gc"], f8["bc"])
        else:
            cn = c
        for b in range(B):
            h[b] = o[b] * np.tanh(cn[b])
            q = h[b] @ f8["Wp"] + f8["bp"]
            alpha, beta = np.exp(q[:K]), np.exp(q[K:2 * K])
            kappa[b] = kappa[b] + np.exp(q[2 * K:])
            wp[b] = np.zeros(C)
            for u in range(1, ulen[b] + 1):
                v = sum(alpha[k] * np.exp(-beta[k] * (kappa[b][k] - u) ** 2) for k in range(K))
                phi[t, b, u - 1] = v
                wp[b][chars[b, u - 1]] += v
            y[t, b], w[t, b] = h[b], wp[b]
    return y, w, phi


def check(got, want, rtol, atol):
    y, w, phi = want
    for name, g, e in (("y", got[0], y), ("w", got[1], w), ("hT", got[2], y[-1]), ("wT", got[5], w[-1]),
                       ("phi", got[6], phi)):
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=name)


@pytest.mark.parametrize("norm", NORMS)
def test_forward_and_a_later_chunk_against_graves_loop(norm):
    x, state, text, p = problem(31)
    check(forward(x, state, text, p, norm), loop(x, state, text, p, norm), 1e-11, 1e-12)
    first = forward(x[:2], state, text, p, norm, keep=False, lengths=LENGTHS.clip(0, 2))
    later = np.maximum(LENGTHS - 2, 0)
    carried = [first[2], first[3], first[4], first[5]]                 # h, c, kappa and w after step 1
    got = forward(x[2:], carried, text, p, norm, lengths=later)
    want = loop(x, state, text, p, norm)
    np.testing.assert_allclose(got[0], want[0][2:], rtol=1e-11, atol=1e-12, err_msg="y from step 2")
    np.testing.assert_allclose(got[1], want[1][2:], rtol=1e-11, atol=1e-12, err_msg="w from step 2")
    np.testing.assert_allclose(got[6], want[2][2:], rtol=1e-11, atol=1e-12, err_msg="phi from step 2")


def test_float32_against_float64_loop():
    x, state, text, p = problem(32, np.float32)
    got = forward(x, state, text, p, NORM_NONE, keep=False)
    assert got[0].dtype == np.float32 and got[6].dtype == np.float32
    check(got, loop(x, state, text, p, NORM_NONE), 3e-5, 3e-6)


def loss_and_grads(norm, seed):
    x, state, text, p = problem(seed)
    dy, dw, got, loss = backward_and_loss(x, state, text, p, norm, seed + 1, forward, LENGTHS)
    return x, state, text, p, dy, dw, got, loss


def check_central_differences(got, loss, x, state, p, norm):
    """Every gradient of got (dx, dh0, dc0, dkappa0, dw0, then NAMES') against central differences of loss; the
    parameters a norm does not read must have a gradient of exactly 0 (also used by test_values189_window)."""
    for name, g, v in zip(("dx", "dh0", "dc0", "dkappa0", "dw0"), got[:5], [x] + state):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=name)
    for name, g in zip(NAMES, got[5:]):
        if (norm == NORM_NONE and name in ("gx", "bx", "gh", "bh", "gc", "bc")) or \
                (norm == NORM_BN and name in ("bx", "bh")):
            assert np.all(g == 0.0), name                               # not read by this norm
            continue
        np.testing.assert_allclose(g, numeric_grad(loss, p[name], eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=f"d{name}")


@pytest.mark.parametrize("norm", NORMS)
def test_backward_against_central_differences(norm):
    x, state, text, p, dy, dw, got, loss = loss_and_grads(norm, 41)
    assert np.all(got[0][:, 1] == 0.0)                                 # the empty row: no gradient reaches x
    check_central_differences(got, loss, x, state, p, norm)


def test_bn_backward_against_reference():
    x, state, text, p, dy, dw, got, _ = loss_and_grads(NORM_BN, 43)
    run = run_stats(T)
    want_out = ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *run, "bn", training=True,
                                       momentum=MOMENTUM, eps=EPS, lengths=LENGTHS)
    want = ref.window_lstm_backward(dy, dw, want_out[7], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], p["Wp"],
                                    text[0])
    names = ("dx", "dh0", "dc0", "dkappa0", "dw0") + tuple("d" + n for n in NAMES)
    for name, g, e in zip(names, got, want):
        np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-11, err_msg=name)


def test_code_check_names_c_as_the_bound():
    x, state, (chars, ulen), p = problem(2)
    bad = chars.copy()
    bad[3, 0] = C                                                      # the one code of the 1-character text
    with pytest.raises(ValueError, match=r"character codes must lie in \[0, C\) = \[0, 4\), got 0\.\.4"):
        forward(x, state, (bad, ulen), p, NORM_NONE)
