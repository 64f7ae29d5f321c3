"""The layer functions (lnrnn.model.functional) in float64 at tiny sizes, against NumPy written here: the LN-LSTM's
forward from its equations (LayerNorm of x Wx, h Wh and c, eps 1e-5); a BatchNorm layer's statistics of steps
0..T-1 from the batch moments of x_t Wx and h0 Wh (momentum 0.1, the variance unbiased), with buffers of exactly
T rows; the gradients layer_backward gives for dL/dh_n, dL/dc_n and a dy that is non-zero at padded steps against
central differences of the NumPy loss (padded steps add nothing); reverse_valid against its definition; a NaN
clip refused.
"""
import numpy as np
import pytest

from lnrnn.model import cells, functional
from lnrnn.model.functional import layer_backward, layer_forward, reverse_valid
from lnrnn.model.layers import RecurrentLayer
from test_values51_models import central, np_lstm, sigmoid

I, H = 3, 2
G = 4 * H
T, B = 4, 3


def params(seed, extra=()):
    rng = np.random.default_rng(seed)
    p = {"Wx": rng.standard_normal((I, G)), "Wh": rng.standard_normal((H, G)), "b": 0.1 * rng.standard_normal(G)}
    for n, size in extra:
        p[n] = (1.0 if n.startswith("g") else 0.0) + 0.3 * rng.standard_normal(size)
    return p


def np_ln(v, g, b, eps=1e-5):
    m = v.mean(-1, keepdims=True)
    var = ((v - m) ** 2).mean(-1, keepdims=True)
    return (v - m) / np.sqrt(var + eps) * g + b


def np_ln_lstm(x, h0, c0, p):
    h, c, ys = h0, c0, []
    for t in range(x.shape[0]):
        a = np_ln(x[t] @ p["Wx"], p["gx"], p["bx"]) + np_ln(h @ p["Wh"], p["gh"], p["bh"]) + p["b"]
        i, f, g, o = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(np_ln(c, p["gc"], p["bc"]))
        ys.append(h)
    return np.stack(ys), h, c


def inputs(seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((T, B, I)), 0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H))


def test_ln_lstm_forward_equals_numpy_with_eps_1e5():
    p = params(1, [("gx", G), ("bx", G), ("gh", G), ("bh", G), ("gc", H), ("bc", H)])
    x, h0, c0 = inputs(2)
    y, (hT, cT), _ = layer_forward("ln-lstm", x, (h0, c0), p)
    want_y, want_h, want_c = np_ln_lstm(x, h0, c0, p)
    np.testing.assert_allclose(y, want_y, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(hT, want_h, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(cT, want_c, rtol=1e-9, atol=1e-12)


def test_batchnorm_statistics_of_exactly_T_rows_move_by_the_momentum():
    p = params(3, [("gx", G), ("gh", G), ("gc", H), ("bc", H)])
    x, h0, c0 = inputs(4)
    buf = {"rmx": np.zeros((T, G)), "rvx": np.ones((T, G)), "rmh": np.zeros((T, G)), "rvh": np.ones((T, G)),
           "rmc": np.zeros((T, H)), "rvc": np.ones((T, H))}
    layer_forward("bn-lstm", x, (h0, c0), p, training=True, buffers=buf)
    xw = x @ p["Wx"]                                                   # (T,B,G): no recurrence in it
    np.testing.assert_allclose(buf["rmx"], 0.1 * xw.mean(1), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(buf["rvx"], 0.9 + 0.1 * xw.var(1, ddof=1), rtol=1e-9, atol=1e-12)
    hw = h0 @ p["Wh"]                                                  # step 0 reads the given h0
    np.testing.assert_allclose(buf["rmh"][0], 0.1 * hw.mean(0), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(buf["rvh"][0], 0.9 + 0.1 * hw.var(0, ddof=1), rtol=1e-9, atol=1e-12)


# ---- layer_backward: the final states' gradients and padded steps ----

def grads_of(f, p, h0, c0):
    """Central differences of f(p, h0, c0) for every parameter and both initial states."""
    q = {**p, "h0": h0, "c0": c0}
    return central(lambda r: f({n: r[n] for n in p}, r["h0"], r["c0"]), q, list(q))


def check(dx, dstate, dp, num, x_num=None):
    for n, g in dp.items():
        np.testing.assert_allclose(g, num[n], rtol=1e-5, atol=1e-8, err_msg=n)
    np.testing.assert_allclose(dstate[0], num["h0"], rtol=1e-5, atol=1e-8, err_msg="dh0")
    np.testing.assert_allclose(dstate[1], num["c0"], rtol=1e-5, atol=1e-8, err_msg="dc0")
    if x_num is not None:
        np.testing.assert_allclose(dx, x_num, rtol=1e-5, atol=1e-8, err_msg="dx")


def test_gradient_of_h_n_without_lengths_enters_at_the_last_step():
    p = params(5)
    x, h0, c0 = inputs(6)
    w = np.random.default_rng(7).standard_normal((B, H))
    y, final, res = layer_forward("lstm", x, (h0, c0), p)
    dx, dstate, dp = layer_backward("lstm", res, x, (h0, c0), p, y, None, dfinal=(w, None))
    full = np.full(B, T)
    num = grads_of(lambda q, a, b: float(np.sum(np_lstm(x, a, b, q, full)[1][0] * w)), p, h0, c0)
    x_num = central(lambda r: float(np.sum(np_lstm(r["x"], h0, c0, p, full)[1][0] * w)), {"x": x}, ["x"])["x"]
    check(dx, dstate, dp, num, x_num)


def test_gradient_of_c_n_with_a_zero_entry_is_taken():
    p = params(8)
    x, h0, c0 = inputs(9)
    w = np.random.default_rng(10).standard_normal((B, H))
    w[1, 0] = 0.0                                                     # one entry of dL/dc_n is 0, the rest not
    y, final, res = layer_forward("lstm", x, (h0, c0), p)
    dx, dstate, dp = layer_backward("lstm", res, x, (h0, c0), p, y, None, dfinal=(None, w))
    full = np.full(B, T)
    num = grads_of(lambda q, a, b: float(np.sum(np_lstm(x, a, b, q, full)[1][1] * w)), p, h0, c0)
    check(dx, dstate, dp, num)


@pytest.mark.parametrize("cell", ["lstm", "bn-lstm"])
def test_dy_at_padded_steps_adds_nothing(cell):
    lengths = np.array([4, 1, 2])
    x, h0, c0 = inputs(11)
    dy = np.random.default_rng(12).standard_normal((T, B, H))          # non-zero at padded steps too
    run = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]
    if cell == "lstm":
        p = params(13)
        y, final, res = layer_forward(cell, x, (h0, c0), p, lengths=lengths)
        dx, dstate, dp = layer_backward(cell, res, x, (h0, c0), p, y, dy, lengths=lengths)
        num = grads_of(lambda q, a, b: float(np.sum(np_lstm(x, a, b, q, lengths)[0] * dy * run)), p, h0, c0)
        check(dx, dstate, dp, num)
        return
    # BN: the masked kernel's gradient with dy zeroed at padded steps is the reference
    p = params(13, [("gx", G), ("gh", G), ("gc", H), ("bc", H)])
    buf = {n: np.zeros((T, G if n[-1] != "c" else H)) for n in ("rmx", "rmh", "rmc")}
    buf.update({n: np.ones((T, G if n[-1] != "c" else H)) for n in ("rvx", "rvh", "rvc")})
    y, final, res = layer_forward(cell, x, (h0, c0), p, lengths=lengths, buffers=buf)
    got = layer_backward(cell, res, x, (h0, c0), p, y, dy, lengths=lengths)
    want = layer_backward(cell, res, x, (h0, c0), p, y, dy * run, lengths=lengths)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-14)
    for n in want[2]:
        np.testing.assert_allclose(got[2][n], want[2][n], rtol=1e-12, atol=1e-14, err_msg=n)


# ---- reverse_valid, the clip check ----

def test_reverse_valid_follows_its_definition():
    rng = np.random.default_rng(14)
    a = rng.standard_normal((T, B, 2))
    lengths = np.array([4, 0, 2])
    want = a.copy()
    for b in range(B):
        for t in range(lengths[b]):
            want[t, b] = a[lengths[b] - 1 - t, b]
    np.testing.assert_array_equal(reverse_valid(a, lengths), want)
    np.testing.assert_array_equal(reverse_valid(reverse_valid(a, lengths), lengths), a)
    whole = np.stack([a[T - 1 - t] for t in range(T)])
    np.testing.assert_array_equal(reverse_valid(a, None), whole)


@pytest.mark.parametrize("clip", [float("nan"), -1.0])
def test_a_nan_or_negative_gate_clip_is_refused(clip):
    with pytest.raises(ValueError, match="clip_gates"):
        functional.gate_clip(clip, cells.get("lstm"))
    with pytest.raises(ValueError, match="clip_gates"):
        RecurrentLayer("lstm", "none", I, H, dtype=np.float64, clip_gates=clip)
    assert functional.gate_clip(0.0, cells.get("lstm")) == 0.0
    assert functional.gate_clip(2.5, cells.get("lstm")) == 2.5
