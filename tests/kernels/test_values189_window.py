"""The window's CPU kernel (lnrnn/kernels/window.py) against Graves (2013) eq. 46-51 and the LSTM of sec. 2 written
here as a NumPy loop over the steps, all rows of a step at once (LN per row, BN_t over the step's active rows with
the biased variance, none active: mean 0 and variance 0; phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2)
over the 1-based u <= ulen[b], w_t its sum per character code). B = 6 rows in two blocks of 3, K = 2; texts of
5, 0, 1, 4, 2 and 5 characters (U = 5 > T = 3: the window never reaches the end of the longest); rows of 3, 0, 1,
3, 2 and 3 steps. Checked: the forward of NORM_NONE, LN and BN_t in training against the loop, and again from
step 1 on with the first call's final state; float32 against the float64 loop; the batch (two blocks) against
each row run alone (one block; the rows never meet without BN), forward and every gradient; every gradient of
NORM_NONE, LN and BN_t against central differences of sum(dy y + dw w) over the active (step, row) pairs; the
refusal of a sequence of no steps, and the shapes named when ulen's shape is wrong."""
import numpy as np
import pytest

from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_backward, window_lstm_forward
from test_values146_window import backward_and_loss, window_params
from test_values167_window import check_central_differences

T, B, I, H, C, U, K = 3, 6, 2, 3, 4, 5, 2
G = 4 * H
ULEN = np.array([5, 0, 1, 4, 2, 5], np.int64)
LENGTHS = np.array([3, 0, 1, 3, 2, 3], np.int64)
EPS, MOMENTUM = 1e-3, 0.1
NAMES = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
NORMS = [NORM_NONE, NORM_LN, NORM_BN]


def problem(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    chars[0] = [3, 1, 3, 0, 2]                                         # a repeated code
    chars[1] = -7                                                      # the empty text: never read
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = window_params(rng, I, H, C, K, bc_scale=0.4)
    p["bc"] += 0.3                                                     # the cell's LN: a mean away from 0
    cast = [a.astype(dtype) for a in [x] + state]
    return cast[0], cast[1:], (chars, ULEN.copy()), {n: v.astype(dtype) for n, v in p.items()}


def forward(x, state, text, p, norm, keep=True, lengths=LENGTHS):
    Tn, dt = x.shape[0], x.dtype
    run = [np.zeros((Tn, G), dt), np.ones((Tn, G), dt), np.zeros((Tn, G), dt), np.ones((Tn, G), dt),
           np.zeros((Tn, H), dt), np.ones((Tn, H), dt)]
    return window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *run, norm, True, MOMENTUM, EPS,
                               lengths, keep)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def norm_rows(v, on, g, s, norm):
    """LN of each row, or BN_t of each column over the rows with on (none: mean 0, variance 0)."""
    if norm == NORM_LN:
        m = v.mean(axis=1, keepdims=True)
        return g * (v - m) / np.sqrt(((v - m) ** 2).mean(axis=1, keepdims=True) + EPS) + s
    act = v[on]
    m = act.mean(axis=0) if len(act) else np.zeros(v.shape[1])
    var = ((act - m) ** 2).mean(axis=0) if len(act) else np.zeros(v.shape[1])
    return g * (v - m) / np.sqrt(var + EPS) + s


def graves(x, state, text, p, norm, lengths=LENGTHS):
    """The loop in float64 -> y, w, phi (T,...) and the final h, c, kappa, w."""
    chars, ulen = text
    f = {n: v.astype(np.float64) for n, v in p.items()}
    h, c, kap, wp = (s.astype(np.float64) for s in state)
    Tn, Bn = x.shape[:2]
    pos = np.arange(1, U + 1)
    read = pos[None, :] <= ulen[:, None]                               # (B,U) the characters of each text
    codes = np.where(read, chars, 0)
    y, w, phi = np.zeros((Tn, Bn, H)), np.zeros((Tn, Bn, C)), np.zeros((Tn, Bn, U))
    for t in range(Tn):
        on = t < lengths
        xw = np.concatenate([x[t].astype(np.float64), wp], axis=1) @ f["Wx"]
        hw = h @ f["Wh"]
        if norm == NORM_NONE:
            a = xw + hw + f["b"]
        else:
            bx, bh = (f["bx"], f["bh"]) if norm == NORM_LN else (0.0, 0.0)
            a = norm_rows(xw, on, f["gx"], bx, norm) + norm_rows(hw, on, f["gh"], bh, norm) + f["b"]
        c = sigmoid(a[:, H:2 * H]) * c + sigmoid(a[:, :H]) * np.tanh(a[:, 2 * H:3 * H])
        h = sigmoid(a[:, 3 * H:]) * np.tanh(c if norm == NORM_NONE else norm_rows(c, on, f["gc"], f["bc"], norm))
        q = h @ f["Wp"] + f["bp"]
        alpha, beta = np.exp(q[:, :K]), np.exp(q[:, K:2 * K])
        kap = kap + np.exp(q[:, 2 * K:])
        e = alpha[:, :, None] * np.exp(-beta[:, :, None] * (kap[:, :, None] - pos[None, None, :]) ** 2)
        phi[t] = np.where(read, e.sum(axis=1), 0.0)
        wp = np.zeros((Bn, C))
        np.add.at(wp, (np.repeat(np.arange(Bn), U), codes.ravel()), phi[t].ravel())
        y[t], w[t] = h, wp
    return y, w, phi, h, c, kap, wp


@pytest.mark.parametrize("norm", NORMS)
def test_forward_and_a_chunk_from_step_1_against_the_loop(norm):
    x, state, text, p = problem(7)
    got = forward(x, state, text, p, norm)
    want = graves(x, state, text, p, norm)
    for name, g, e in zip(("y", "w", "phi"), (got[0], got[1], got[6]), want[:3]):
        np.testing.assert_allclose(g, e, rtol=1e-11, atol=1e-12, err_msg=name)
    for name, g, e in zip(("hT", "cT", "kappaT", "wT"), got[2:6], want[3:]):
        np.testing.assert_allclose(g, e, rtol=1e-11, atol=1e-12, err_msg=name)
    assert np.all(got[6][:, 1] == 0.0) and np.all(got[1][:, 1] == 0.0)   # the empty text: no phi, no w
    first = forward(x[:1], state, text, p, norm, keep=False, lengths=LENGTHS.clip(0, 1))
    later = forward(x[1:], list(first[2:6]), text, p, norm, lengths=np.maximum(LENGTHS - 1, 0))
    for name, g, e in zip(("y", "w", "phi"), (later[0], later[1], later[6]), want[:3]):
        np.testing.assert_allclose(g, e[1:], rtol=1e-11, atol=1e-12, err_msg=f"{name} from step 1")


def test_float32_against_the_float64_loop():
    x, state, text, p = problem(8, np.float32)
    got = forward(x, state, text, p, NORM_LN, keep=False)
    want = graves(x, state, text, p, NORM_LN)
    for name, g, e in zip(("y", "w", "phi"), (got[0], got[1], got[6]), want[:3]):
        assert g.dtype == np.float32, name
        np.testing.assert_allclose(g, e, rtol=3e-5, atol=3e-6, err_msg=name)


def grads(x, state, text, p, norm, dy, dw, lengths):
    out = forward(x, state, text, p, norm, lengths=lengths)
    return out, window_lstm_backward(dy, dw, out[7], x, *state, *text, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                                     p["Wp"], norm, 0.0)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_the_batch_equals_each_row_alone(norm):
    x, state, (chars, ulen), p = problem(9)
    rng = np.random.default_rng(10)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    out, got = grads(x, state, (chars, ulen), p, norm, dy, dw, LENGTHS)
    summed = [np.zeros_like(g) for g in got[5:]]
    for b in range(B):
        r = slice(b, b + 1)
        one, alone = grads(x[:, r], [s[r] for s in state], (chars[r], ulen[r]), p, norm, dy[:, r], dw[:, r],
                           LENGTHS[r])
        for name, g, e in zip(("y", "w", "phi"), (out[0], out[1], out[6]), (one[0], one[1], one[6])):
            np.testing.assert_allclose(g[:, r], e, rtol=1e-12, atol=1e-13, err_msg=f"{name} of row {b}")
        np.testing.assert_allclose(got[0][:, r], alone[0], rtol=1e-11, atol=1e-12, err_msg=f"dx of row {b}")
        for name, g, e in zip(("dh0", "dc0", "dkappa0", "dw0"), got[1:5], alone[1:5]):
            np.testing.assert_allclose(g[r], e, rtol=1e-11, atol=1e-12, err_msg=f"{name} of row {b}")
        for acc, e in zip(summed, alone[5:]):
            acc += e
    for name, g, e in zip(NAMES, got[5:], summed):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12, err_msg=f"d{name}: the rows' sum")


@pytest.mark.parametrize("norm", NORMS)
def test_every_gradient_against_central_differences(norm):
    x, state, text, p = problem(11)
    _, _, got, loss = backward_and_loss(x, state, text, p, norm, 12, forward, LENGTHS)
    check_central_differences(got, loss, x, state, p, norm)


def test_no_steps_and_a_ulen_of_the_wrong_shape_are_refused():
    x, state, (chars, ulen), p = problem(13)
    with pytest.raises(ValueError, match="at least one time step"):
        forward(x[:0], state, (chars, ulen), p, NORM_NONE, lengths=None)
    with pytest.raises(ValueError, match=r"with B = 6, got \(6, 5\) and \(5,\)"):
        forward(x, state, (chars, ulen[:5]), p, NORM_NONE)
