"""The functional layer API (lnrnn/model/functional.py: layer_forward, layer_backward) against lnrnn.reference
and central differences in float64 at tiny sizes: a plain LSTM's dh0, dc0 and dx with dL/dh_n over rows of their
own lengths (a full row, an empty row whose h_n is h0, a one-step row), and with dL/dc_n on full rows; a
BN-RNN's inference forward over more steps than its statistics hold (step t reads row min(t, Ts-1)) against the
reference; layer_forward's outputs, final state and kept residuals against a RecurrentLayer's forward on the same
parameters, and layer_backward's gradients against the layer's backward."""
import numpy as np

from lnrnn import reference as ref
from lnrnn.config import EPS
from lnrnn.model import functional
from lnrnn.model.layers import RecurrentLayer
from gradcheck_util import numeric_grad

I, H, T, B = 2, 3, 4, 3
G = 4 * H


def randomize(params, seed):
    rng = np.random.default_rng(seed)
    for n, v in params.items():
        v[...] = (1.0 if n.startswith("g") else 0.0) + 0.5 * rng.standard_normal(v.shape)


def ref_lstm(x, h0, c0, p):
    y, h, c, _ = ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], np.ones(G), np.zeros(G), np.ones(G),
                                  np.zeros(G), np.ones(H), np.zeros(H), "none")
    return y, h, c


def masked(a, lengths):
    return a * (np.arange(a.shape[0])[:, None] < lengths[None, :])[:, :, None]


def setup_lstm(seed):
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64)
    p = layer.params
    randomize(p, seed)
    rng = np.random.default_rng(seed + 1)
    x = rng.standard_normal((T, B, I))
    h0, c0 = (0.5 * rng.standard_normal((B, H)) for _ in range(2))
    return layer, p, rng, x, h0, c0


def test_dh_n_over_a_full_an_empty_and_a_one_step_row_against_central_differences():
    layer, p, rng, x, h0, c0 = setup_lstm(1)
    lengths = np.array([4, 0, 1])
    dy = masked(rng.standard_normal((T, B, H)), lengths)
    dh_n = rng.standard_normal((B, H))
    y, final, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    np.testing.assert_allclose(final[0][1], h0[1], rtol=0, atol=0)          # the empty row's h_n is h0
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, dy, (dh_n,), lengths=lengths)

    def loss():
        total = 0.0
        for b, L in enumerate(lengths):
            hT = h0[b]
            if L:
                yb, hT, _ = ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)
                total += np.sum(dy[:L, b:b + 1] * yb)
                hT = hT[0]
            total += np.sum(dh_n[b] * hT)
        return total

    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dp["Wx"], numeric_grad(loss, p["Wx"]), rtol=1e-6, atol=1e-8)


def test_dc_n_alone_on_full_rows_against_central_differences():
    layer, p, rng, x, h0, c0 = setup_lstm(3)
    dc_n = rng.standard_normal((B, H))
    y, final, res = functional.layer_forward("lstm", x, (h0, c0), p)
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, (None, dc_n))

    def loss():
        return float(np.sum(dc_n * ref_lstm(x, h0, c0, p)[2]))

    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dp["Wh"], numeric_grad(loss, p["Wh"]), rtol=1e-6, atol=1e-8)


def test_bn_rnn_inference_past_the_statistics_against_the_reference():
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, max_steps=2)
    p = layer.params
    randomize(p, 5)
    rng = np.random.default_rng(6)
    Ts = 2
    bufs = {"rmx": rng.standard_normal((Ts, H)), "rvx": rng.uniform(0.5, 2.0, (Ts, H)),
            "rmh": rng.standard_normal((Ts, H)), "rvh": rng.uniform(0.5, 2.0, (Ts, H))}
    x = rng.standard_normal((T, B, I))
    h0 = 0.5 * rng.standard_normal((B, H))
    y, (hT,), _ = functional.layer_forward("bn-rnn", x, (h0,), p, training=False, buffers=bufs, keep=False)
    want = {n: v.copy() for n, v in bufs.items()}
    wy, wh, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], want["rmx"], want["rvx"],
                                   want["rmh"], want["rvh"], False, 0.1, EPS)
    np.testing.assert_allclose(y, wy, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hT, wh, rtol=1e-10, atol=1e-12)
    for n in bufs:  # inference leaves the statistics alone
        np.testing.assert_array_equal(bufs[n], want[n])
    # by hand at step T-1 (reads row Ts-1)
    a = lambda z, m, v, g: g * (z - m[Ts - 1]) / np.sqrt(v[Ts - 1] + EPS)  # noqa: E731
    h_prev = wy[T - 2]
    last = np.tanh(a(h_prev @ p["Wh"], bufs["rmh"], bufs["rvh"], p["gh"]) +
                   a(x[T - 1] @ p["Wx"], bufs["rmx"], bufs["rvx"], p["gx"]) + p["b"])
    np.testing.assert_allclose(y[T - 1], last, rtol=1e-10, atol=1e-12)


def test_layer_functions_against_the_layer_on_the_same_parameters():
    layer, p, rng, x, h0, c0 = setup_lstm(7)
    lengths = np.array([4, 2, 1])
    dy = masked(rng.standard_normal((T, B, H)), lengths)
    y, final, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    ly, lfinal = layer.forward(x, (h0, c0), lengths=lengths)
    np.testing.assert_allclose(y, ly, rtol=1e-13, atol=1e-14)
    for a, b in zip(final, lfinal):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-14)
    saved = layer._saved[2]
    kept = [s for i, s in enumerate(saved) if i != 3]                        # the residuals: saved without y
    assert len(res) == len(kept)
    for a, b in zip(res, kept):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    dx, dstate, dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, dy, lengths=lengths)
    layer.zero_grad()
    ldx, ldstate = layer.backward(dy)
    np.testing.assert_allclose(dx, ldx, rtol=1e-13, atol=1e-14)
    for a, b in zip(dstate, ldstate):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-14)
    for n in ("Wx", "Wh", "b"):
        np.testing.assert_allclose(dp[n], layer.grads[n], rtol=1e-13, atol=1e-14)
    # and the layer's y at each row's valid steps is the reference's over that row alone
    for b, L in enumerate(lengths):
        np.testing.assert_allclose(y[:L, b], ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)[0][:, 0],
                                   rtol=1e-10, atol=1e-12)
