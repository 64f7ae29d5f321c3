"""The functional layer API (lnrnn/model/functional.py) and the cell registry's rows (lnrnn/model/cells.py),
second pass, float64 at tiny sizes (I != H != T != B): reverse_valid written out by hand with lengths 2, 0 and T;
the refusal of a dL/dc_n seed for cells without one, word for word naming the cell as passed (residual_layout
for every row with I inside and past FOLD_MAX_I is test_values204_functional's); dL/dh_n and dL/dc_n of rows of length 0 by the hand rule (dh0 = dh_n, dc0 = dc_n) beside an inner
row against lnrnn.reference's backward of dy holding dh_n at its last step; an LN-LSTM's forward with an eps of
0.3 passed through, its gradients with and without Graves's gate clip, an LN-RNN's gradients and a BN-LSTM's
training forward with lengths (statistics over running rows) against lnrnn.reference; the forget-gate bias of
init_params at its block, by the definition of each row's b."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import BN_MOMENTUM, FOLD_MAX_I
from lnrnn.model import cells, functional
from test_values169_functional import B, H, I, T, inputs, params, ref_lstm

TOL = dict(rtol=1e-9, atol=1e-11)


def test_reverse_valid_by_hand_with_lengths_two_zero_and_t():
    a = np.arange(T * B).reshape(T, B) * 10 + 1            # a[t, b] = 10 * (t * B + b) + 1
    out = functional.reverse_valid(a, np.array([2, 0, T]))
    col = lambda b, ts: [10 * (t * B + b) + 1 for t in ts]
    np.testing.assert_array_equal(out[:, 0], col(0, [1, 0, 2, 3]))    # two steps swapped, padding kept
    np.testing.assert_array_equal(out[:, 1], col(1, [0, 1, 2, 3]))    # nothing runs: all padding
    np.testing.assert_array_equal(out[:, 2], col(2, [3, 2, 1, 0]))    # all T steps reversed


@pytest.mark.parametrize("name", ["bn-lstm", "ln-rnn"])
def test_dc_n_refused_naming_the_cell_as_passed(name):
    spec = cells.get(name)
    p = params(name, 21)
    _, x, state = inputs(22, spec.nstate)
    bufs = spec.init_buffers(H, T, np.float64)
    y, _, res = functional.layer_forward(name, x, state, p, buffers=bufs)
    dc = np.ones((B, H))
    with pytest.raises(NotImplementedError) as e:
        functional.layer_backward(name, res, x, state, p, y, np.zeros((T, B, H)), dfinal=(None, dc))
    assert str(e.value) == (f"lnrnn's {name} kernels take no gradient for the final cell state c_n: use the output "
                            "sequence or h_n in the loss, or detach c_n.")


def test_final_state_gradients_of_empty_rows_by_hand_and_of_an_inner_row():
    p = params("lstm", 24)
    _, x, (h0, c0) = inputs(25, 2)
    lengths = np.array([0, 2, 0])
    rng = np.random.default_rng(26)
    dh_n, dc_n = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    dc_n[1] = 0.0                                   # an inner row takes no dL/dc_n (refused otherwise)
    y, _, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    dx, (dh0, dc0), _ = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, dfinal=(dh_n, dc_n),
                                                  lengths=lengths)
    for b in (0, 2):                                # h_n = h0, c_n = c0: the seeds pass straight through
        np.testing.assert_array_equal(dh0[b], dh_n[b])
        np.testing.assert_array_equal(dc0[b], dc_n[b])
        np.testing.assert_array_equal(dx[:, b], 0.0)
    G = 4 * H
    _, _, _, cache = ref.lstm_forward(x[:2, 1:2], h0[1:2], c0[1:2], p["Wx"], p["Wh"], p["b"], np.ones(G),
                                      np.zeros(G), np.ones(G), np.zeros(G), np.ones(H), np.zeros(H), "none")
    dy = np.zeros((2, 1, H))
    dy[1, 0] = dh_n[1]                              # h_n of a row of 2 steps is y at step 1
    rdx, rdh0, rdc0, *_ = ref.lstm_backward(dy, cache, p["Wx"], p["Wh"], np.ones(G), np.ones(G), np.ones(H), "none")
    np.testing.assert_allclose(dh0[1], rdh0[0], **TOL)
    np.testing.assert_allclose(dc0[1], rdc0[0], **TOL)
    np.testing.assert_allclose(dx[:2, 1], rdx[:, 0], **TOL)


def _ref_ln_lstm(x, h0, c0, p, eps):
    return ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["bx"], p["gh"], p["bh"], p["gc"],
                            p["bc"], "ln", eps)


@pytest.mark.parametrize("keep", [True, False])
def test_ln_lstm_forward_takes_the_eps_passed(keep):
    p = params("ln-lstm", 27)
    _, x, (h0, c0) = inputs(28, 2)
    x = 0.05 * x                                    # small sums: an eps of 0.3 weighs in every LayerNorm
    y, (hn, cn), _ = functional.layer_forward("ln-lstm", x, (h0, c0), p, eps=0.3, keep=keep)
    ry, rh, rc, _ = _ref_ln_lstm(x, h0, c0, p, 0.3)
    np.testing.assert_allclose(y, ry, **TOL)
    np.testing.assert_allclose(hn, rh, **TOL)
    np.testing.assert_allclose(cn, rc, **TOL)


@pytest.mark.parametrize("clip", [0.0, 0.05])
def test_ln_lstm_gradients_against_the_reference_with_and_without_clip(clip):
    p = params("ln-lstm", 29)
    assert not np.allclose(p["gx"], p["gh"])
    rng, x, (h0, c0) = inputs(30, 2)
    dy = rng.standard_normal((T, B, H))
    y, _, res = functional.layer_forward("ln-lstm", x, (h0, c0), p)
    dx, (dh0, dc0), dp = functional.layer_backward("ln-lstm", res, x, (h0, c0), p, y, dy, clip_gates=clip)
    _, _, _, cache = _ref_ln_lstm(x, h0, c0, p, 1e-5)
    r = ref.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], "ln", clip=clip)
    for got, want in zip([dx, dh0, dc0] + [dp[n] for n in ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")],
                         r):
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)


def test_ln_rnn_gradients_against_the_reference():
    p = params("ln-rnn", 31)
    rng, x, (h0,) = inputs(32, 1)
    dy = rng.standard_normal((T, B, H))
    y, _, res = functional.layer_forward("ln-rnn", x, (h0,), p)
    dx, (dh0,), dp = functional.layer_backward("ln-rnn", res, x, (h0,), p, y, dy)
    _, _, cache = ref.rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["g"], "ln")
    r = ref.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], "ln")
    for got, want in zip([dx, dh0] + [dp[n] for n in ("Wx", "Wh", "b", "g")], r):
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)


def test_bn_lstm_training_with_lengths_counts_running_rows_only():
    spec = cells.get("bn-lstm")
    p = params("bn-lstm", 33)
    _, x, (h0, c0) = inputs(34, 2)
    lengths = np.array([4, 1, 3])
    bufs = spec.init_buffers(H, T, np.float64)
    rbufs = {n: v.copy() for n, v in bufs.items()}
    y, _, _ = functional.layer_forward("bn-lstm", x, (h0, c0), p, lengths=lengths, buffers=bufs)
    ry, _, _, _ = ref.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                      *(rbufs[n] for n in spec.buffer_names), True, BN_MOMENTUM, 1e-5,
                                      lengths=lengths)
    valid = np.arange(T)[:, None] < lengths[None, :]
    np.testing.assert_allclose(y[valid], ry[valid], **TOL)
    for n in spec.buffer_names:
        np.testing.assert_allclose(bufs[n], rbufs[n], **TOL)


@pytest.mark.parametrize("name", ["rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm"])
def test_forget_bias_sits_in_the_lstm_forget_block_only(name):
    spec = cells.get(name)
    b = spec.init_params(np.random.default_rng(35), I, H, np.float64, forget_bias=1.5)["b"]
    if spec.cell == "lstm":                          # [i|f|g|o]: f at H..2H-1, the candidate g at 2H..3H-1
        np.testing.assert_array_equal(b[H:2 * H], 1.5)
        np.testing.assert_array_equal(np.r_[b[:H], b[3 * H:]], 0.0)
        cand = b[2 * H:3 * H]
    else:                                            # one block: no forget gate, no 1.5 anywhere
        assert b.shape == (H,)
        cand = b
    if spec.norm == "none":
        np.testing.assert_array_equal(cand, 0.0)
    else:
        assert np.all(np.abs(cand) <= 0.1) and np.all(cand != 0.0) and not np.any(cand == 1.5)
