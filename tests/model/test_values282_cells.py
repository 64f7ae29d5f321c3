"""The cell rows (lnrnn/model/cells.py) through the functional layer API (lnrnn/model/functional.py),
thirteenth pass, float64 at awkward sizes (B 3, H 5, I 7, T 4): plain, LN and BN cells against lnrnn.reference
with random gains (every gain its own value, so no two can stand in for each other), lengths 0, 1 and T in one
batch, an LN-LSTM's state carried over two chunks against one run; gradients of the plain and LN cells against
central differences of the layer's own forward; a BN-LSTM's gradients against lnrnn.reference's backward with
h0 != c0; BatchNorm statistics shorter than the sequence read row min(t, Ts - 1) in evaluation and refused in
training word for word; dL/dc_n of an empty row passed to dc0 unchanged and of a full one-step row through
the forget gate, worked out by hand."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn import reference as ref
from lnrnn.model import cells, functional

B, H, I, T = 3, 5, 7, 4
TOL = dict(rtol=1e-9, atol=1e-11)


def setup_of(name, seed, T=T):
    spec = cells.get(name)
    rng = np.random.default_rng(seed)
    p = {n: np.ascontiguousarray((1.0 if n.startswith("g") else 0.0) + rng.normal(0.0, 0.4, v.shape))
         for n, v in spec.init_params(rng, I, H, np.float64, forget_bias=1.0).items()}
    x = rng.standard_normal((T, B, I))
    state = tuple(rng.normal(0.0, 0.6, (B, H)) for _ in range(spec.nstate))
    return spec, p, x, state, rng


def running(lengths, T=T):
    return np.array([[t < L for L in lengths] for t in range(T)], float)[:, :, None]


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "rnn", "ln-rnn"])
def test_gradients_against_central_differences_with_lengths_zero_one_and_t(name):
    spec, p, x, state, rng = setup_of(name, 2820)
    lengths = np.array([0, 1, T])
    wy = rng.standard_normal((T, B, H)) * running(lengths)
    wh = rng.standard_normal((B, H))

    def loss():
        y, final, _ = functional.layer_forward(name, x, state, p, lengths=lengths, keep=False)
        return float((wy * y).sum() + (wh * final[0]).sum())

    y, _, res = functional.layer_forward(name, x, state, p, lengths=lengths)
    dx, dstate, dp = functional.layer_backward(name, res, x, state, p, y, wy, dfinal=(wh,), lengths=lengths)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dstate[0], numeric_grad(loss, state[0]), rtol=1e-6, atol=1e-8)
    for n in spec.param_names:
        np.testing.assert_allclose(dp[n], numeric_grad(loss, p[n]), rtol=1e-6, atol=1e-8, err_msg=n)


def test_ln_lstm_state_carried_over_two_chunks_is_one_reference_run():
    T5 = 5
    _, p, x, (h0, c0), _ = setup_of("ln-lstm", 2821, T5)
    y1, s1, _ = functional.layer_forward("ln-lstm", x[:2], (h0, c0), p, keep=False)
    y2, (hn, cn), _ = functional.layer_forward("ln-lstm", x[2:], s1, p, keep=False)
    y, h, c, _ = ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["bx"], p["gh"], p["bh"],
                                  p["gc"], p["bc"], "ln")
    np.testing.assert_allclose(np.concatenate([y1, y2]), y, **TOL)
    np.testing.assert_allclose(hn, h, **TOL)
    np.testing.assert_allclose(cn, c, **TOL)


def bn_lstm_case():
    spec, p, x, (h0, c0), rng = setup_of("bn-lstm", 2822)
    bufs = spec.init_buffers(H, T, np.float64)
    for n, v in bufs.items():
        v[...] = rng.uniform(0.5, 1.5, v.shape)
    return spec, p, x, (h0, c0), bufs, rng


def test_bn_lstm_training_forward_and_backward_against_the_reference():
    spec, p, x, (h0, c0), bufs, rng = bn_lstm_case()
    lengths = np.array([T, 1, 2])
    mine = {n: v.copy() for n, v in bufs.items()}
    y, (hn, cn), res = functional.layer_forward("bn-lstm", x, (h0, c0), p, lengths=lengths, buffers=mine)
    rb = {n: v.copy() for n, v in bufs.items()}
    ry, rh, rc, saved = ref.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                            rb["rmx"], rb["rvx"], rb["rmh"], rb["rvh"], rb["rmc"], rb["rvc"], True,
                                            lengths=lengths)
    run = running(lengths)
    np.testing.assert_allclose(y * run, ry * run, **TOL)
    for b, L in enumerate(lengths):
        np.testing.assert_allclose(hn[b], ry[L - 1, b], **TOL)
    np.testing.assert_allclose(cn[0], rc[0], **TOL)
    for n in bufs:
        np.testing.assert_allclose(mine[n], rb[n], **TOL, err_msg=n)
    dy = rng.standard_normal((T, B, H)) * run
    dx, (dh0, dc0), dp = functional.layer_backward("bn-lstm", res, x, (h0, c0), p, y, dy, lengths=lengths)
    want = ref.bn_lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"])
    np.testing.assert_allclose(dx, want[0], **TOL)
    np.testing.assert_allclose(dh0, want[1], **TOL)
    np.testing.assert_allclose(dc0, want[2], **TOL)
    for n, w in zip(("Wx", "Wh", "b", "gx", "gh", "gc", "bc"), want[3:]):
        np.testing.assert_allclose(dp[n], w, **TOL, err_msg=n)


def test_bn_rnn_statistics_shorter_than_the_sequence_read_their_last_row_in_evaluation():
    spec, p, x, (h0,), rng = setup_of("bn-rnn", 2823)
    bufs = spec.init_buffers(H, 2, np.float64)                       # Ts = 2 < T = 4
    for n, v in bufs.items():
        v[...] = rng.uniform(0.5, 1.5, v.shape)
    y, (hn,), _ = functional.layer_forward("bn-rnn", x, (h0,), p, training=False, buffers=bufs)
    ry, rh, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], bufs["rmx"], bufs["rvx"],
                                   bufs["rmh"], bufs["rvh"], False)
    np.testing.assert_allclose(y, ry, **TOL)
    np.testing.assert_allclose(hn, rh, **TOL)
    with pytest.raises(ValueError) as e:
        functional.layer_forward("bn-rnn", x, (h0,), p, training=True, buffers=bufs)
    assert str(e.value) == ("BatchNorm statistics hold 2 steps, fewer than the sequence's 4: grow them first "
                            "(lnrnn.model.functional.grow_buffers)")


def test_dc_n_of_an_empty_row_is_dc0_and_of_a_one_step_row_goes_through_the_forget_gate():
    _, p, x, (h0, c0), rng = setup_of("lstm", 2824, 1)
    lengths = np.array([0, 1, 1])                                    # T = 1: rows 1 and 2 run all T steps
    dc_n = rng.standard_normal((B, H))
    y, _, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    _, (dh0, dc0), _ = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, dfinal=(None, dc_n),
                                                 lengths=lengths)
    a = x[0] @ p["Wx"] + h0 @ p["Wh"] + p["b"]                       # gates [i|f|g|o]; c_1 = f c0 + i g
    f = 1.0 / (1.0 + np.exp(-a[:, H:2 * H]))
    np.testing.assert_allclose(dc0[0], dc_n[0], **TOL)              # c_n is c0 itself
    np.testing.assert_allclose(dc0[1:], dc_n[1:] * f[1:], **TOL)     # dL/dc0 = dL/dc_1 * f
