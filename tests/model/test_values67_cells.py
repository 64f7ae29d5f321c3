"""The cell registry's adapters (lnrnn/model/cells.py, reached through lnrnn.model.functional's layer
functions) in float64 against NumPy written here: the LN-RNN with its eps (the default and a large one), the
LN-LSTM from its equations (Ba et al. 2016: LayerNorm of x Wx, h Wh and c, each with its own gain and shift,
all of them different) and the BN-RNN in training mode from the batch moments of each step (x Wx and h Wh
normalized with their own gains); every cell stepped one step at a time, its state carried, against one call
over the whole sequence; the final (h, c) of rows shorter than T against the NumPy state after each row's own
steps; the LN-LSTM's gradients against central differences of the NumPy loss."""
import numpy as np
import pytest

from lnrnn.config import EPS
from lnrnn.model import cells
from lnrnn.model.functional import layer_backward, layer_forward
from gradcheck_util import numeric_grad

T, B, I, H = 4, 3, 2, 3
G = 4 * H


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def ln(v, g, s, eps=EPS):
    m = v.mean(-1, keepdims=True)
    return (v - m) / np.sqrt(((v - m) ** 2).mean(-1, keepdims=True) + eps) * g + s


def np_lstm(x, h0, c0, p, norm):
    """y (T,B,H) and the states (h_t, c_t) after each step t (lists of T)."""
    h, c, ys, cs = h0, c0, [], []
    for t in range(x.shape[0]):
        if norm == "ln":
            a = ln(x[t] @ p["Wx"], p["gx"], p["bx"]) + ln(h @ p["Wh"], p["gh"], p["bh"]) + p["b"]
        else:
            a = x[t] @ p["Wx"] + h @ p["Wh"] + p["b"]
        i, f, g, o = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(ln(c, p["gc"], p["bc"]) if norm == "ln" else c)
        ys.append(h)
        cs.append(c)
    return np.stack(ys), np.stack(cs)


def np_bn_rnn(x, h0, p):
    def bn(v, g):
        m = v.mean(0)
        return (v - m) / np.sqrt(((v - m) ** 2).mean(0) + EPS) * g
    h, ys = h0, []
    for t in range(x.shape[0]):
        h = np.tanh(bn(x[t] @ p["Wx"], p["gx"]) + bn(h @ p["Wh"], p["gh"]) + p["b"])
        ys.append(h)
    return np.stack(ys)


def params(name, seed):
    """The row's parameters, each drawn at random (gains around 1, shifts around 0, all different)."""
    spec = cells.get(name)
    rng = np.random.default_rng(seed)
    p = {}
    for n, shape in spec.param_shapes(I, H):
        base = 1.0 if n.startswith("g") else 0.0
        p[n] = base + (0.6 if n in ("Wx", "Wh") else 0.4) * rng.standard_normal(shape)
    return p


def inputs(seed, nstate):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    return x, tuple(0.5 * rng.standard_normal((B, H)) for _ in range(nstate))


def test_ln_lstm_forward_against_its_equations():
    p = params("ln-lstm", 1)
    x, (h0, c0) = inputs(2, 2)
    y, (hT, cT), _ = layer_forward("ln-lstm", x, (h0, c0), p)
    want_y, want_c = np_lstm(x, h0, c0, p, "ln")
    np.testing.assert_allclose(y, want_y, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hT, want_y[-1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cT, want_c[-1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("eps", [EPS, 0.05])
def test_ln_rnn_forward_against_its_equations(eps):
    """h_t = tanh(LayerNorm(x_t Wx + h_{t-1} Wh; g, b)) with the layer's eps; rows of small pre-activations
    (variance near eps) show it."""
    p = params("ln-rnn", 12)
    p["Wx"] *= 0.1
    p["Wh"] *= 0.1
    x, (h0,) = inputs(13, 1)
    y, (hT,), _ = layer_forward("ln-rnn", x, (h0,), p, eps=eps)
    h, want = h0, []
    for t in range(T):
        h = np.tanh(ln(x[t] @ p["Wx"] + h @ p["Wh"], p["g"], p["b"], eps))
        want.append(h)
    np.testing.assert_allclose(y, np.stack(want), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hT, want[-1], rtol=1e-10, atol=1e-12)


def test_bn_rnn_training_forward_against_batch_moments():
    spec = cells.get("bn-rnn")
    p = params("bn-rnn", 3)
    x, (h0,) = inputs(4, 1)
    bufs = spec.init_buffers(H, T, np.float64)
    y, (hT,), _ = layer_forward("bn-rnn", x, (h0,), p, training=True, buffers=bufs)
    want = np_bn_rnn(x, h0, p)
    np.testing.assert_allclose(y, want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(hT, want[-1], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", ["rnn", "ln-rnn", "lstm", "ln-lstm"])
def test_stepping_one_step_at_a_time_equals_the_sequence(name):
    spec = cells.get(name)
    p = params(name, 5)
    x, state = inputs(6, spec.nstate)
    y, final, _ = layer_forward(name, x, state, p)
    st, ys = state, []
    for t in range(T):
        y_t, st, _ = layer_forward(name, x[t:t + 1], st, p)
        ys.append(y_t[0])
    np.testing.assert_allclose(np.stack(ys), y, rtol=1e-12, atol=1e-14)
    for a, b in zip(st, final):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,norm", [("lstm", "none"), ("ln-lstm", "ln")])
@pytest.mark.parametrize("keep", [True, False])
def test_final_state_of_short_rows(name, norm, keep):
    """Rows of 4, 2 and 0 steps: (h, c) after each row's own last step, (h0, c0) for the empty row."""
    p = params(name, 7)
    x, (h0, c0) = inputs(8, 2)
    lengths = np.array([4, 2, 0])
    _, (hT, cT), _ = layer_forward(name, x, (h0, c0), p, lengths=lengths, keep=keep)
    ys, cs = np_lstm(x, h0, c0, p, norm)
    want_h = np.stack([ys[3, 0], ys[1, 1], h0[2]])
    want_c = np.stack([cs[3, 0], cs[1, 1], c0[2]])
    np.testing.assert_allclose(hT, want_h, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cT, want_c, rtol=1e-10, atol=1e-12)


def test_ln_lstm_gradients_against_central_differences():
    p = params("ln-lstm", 9)
    x, (h0, c0) = inputs(10, 2)
    w = np.random.default_rng(11).standard_normal((T, B, H))        # L = sum(w * y)
    y, final, res = layer_forward("ln-lstm", x, (h0, c0), p)
    dx, (dh0, dc0), dp = layer_backward("ln-lstm", res, x, (h0, c0), p, y, w)

    def loss():
        return np.sum(w * np_lstm(x, h0, c0, p, "ln")[0])

    got = dict(dp, x=dx, h0=dh0, c0=dc0)
    for name, arr in [(n, p[n]) for n in ("gx", "bx", "gh", "bh", "gc", "bc", "Wx", "Wh", "b")] + \
                     [("x", x), ("h0", h0), ("c0", c0)]:
        num = numeric_grad(loss, arr, eps=1e-6, order=2)
        np.testing.assert_allclose(got[name], num, rtol=1e-5, atol=1e-8, err_msg=name)
