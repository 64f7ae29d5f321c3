"""The functional layer API (lnrnn/model/functional.py) and the cell registry's rows (lnrnn/model/cells.py)
against lnrnn.reference and central differences, float64 at tiny sizes (I != H): each row's final state with
lengths of 0, 1 and inner ones, for the plain LSTM with and without keep and the LN-LSTM, against the reference
run over the row's own steps; a BN-LSTM's inference forward with population statistics that are not the unit
ones, against the reference (the statistics left as they were); a BN-RNN's backward after an inference forward
against the reference's inference backward; a BN-RNN training forward with lengths whose statistics must count
the running rows only (running statistics included); an LN-LSTM's dy at padded steps dropped (the reference's
backward of dy masked by hand); dL/dc_n of an empty row and of full rows, with dy, against the hand rule (an
empty row's dc0 is its dc_n, its dh0 zero) and central differences."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import BN_MOMENTUM, EPS
from lnrnn.model import cells, functional
from gradcheck_util import numeric_grad
from test_values169_functional import inputs, params, ref_lstm

I, H, T = 2, 3, 4          # test_values169_functional's sizes (its inputs() gives B = 3)
TOL = dict(rtol=1e-9, atol=1e-12)


def ref_ln_lstm(x, h0, c0, p):
    return ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["bx"], p["gh"], p["bh"], p["gc"],
                            p["bc"], "ln")


def stats(spec, seed):
    """Population statistics of T rows that are not the unit ones (means off 0, variances off 1)."""
    rng = np.random.default_rng(seed)
    bufs = spec.init_buffers(H, T, np.float64)
    for n, v in bufs.items():
        v[...] = rng.uniform(0.5, 2.0, v.shape) if n.startswith("rv") else 0.3 * rng.standard_normal(v.shape)
    return bufs


@pytest.mark.parametrize("name,keep", [("lstm", False), ("lstm", True), ("ln-lstm", True)])
def test_final_state_is_each_rows_own_last_step(name, keep):
    p = params(name, 11)
    _, x, (h0, c0) = inputs(12, 2)
    lengths = np.array([1, 0, 3])                  # one step, none, an inner end; no row runs all T
    y, (hn, cn), res = functional.layer_forward(name, x, (h0, c0), p, lengths=lengths, keep=keep)
    assert (res != []) == keep
    run = ref_lstm if name == "lstm" else (lambda *a: ref_ln_lstm(*a)[:3])
    for b, L in enumerate(lengths):
        if L == 0:
            np.testing.assert_array_equal(hn[b], h0[b])
            np.testing.assert_array_equal(cn[b], c0[b])
            continue
        yb, hb, cb = run(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)
        np.testing.assert_allclose(y[:L, b], yb[:, 0], **TOL)
        np.testing.assert_allclose(hn[b], hb[0], **TOL)
        np.testing.assert_allclose(cn[b], cb[0], **TOL)


def test_bn_lstm_inference_reads_the_population_statistics():
    spec = cells.get("bn-lstm")
    p = params("bn-lstm", 13)
    _, x, (h0, c0) = inputs(14, 2)
    bufs = stats(spec, 15)
    mine = {n: v.copy() for n, v in bufs.items()}
    y, (hn, cn), _ = functional.layer_forward("bn-lstm", x, (h0, c0), p, training=False, buffers=mine, keep=False)
    r = {n: v.copy() for n, v in bufs.items()}
    yr, hr, cr, _ = ref.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                        r["rmx"], r["rvx"], r["rmh"], r["rvh"], r["rmc"], r["rvc"], False)
    np.testing.assert_allclose(y, yr, **TOL)
    np.testing.assert_allclose(hn, hr, **TOL)
    np.testing.assert_allclose(cn, cr, **TOL)
    for n in bufs:                                 # inference moves no statistic
        np.testing.assert_array_equal(mine[n], bufs[n], err_msg=n)


def test_bn_rnn_backward_after_an_inference_forward_is_the_inference_backward():
    spec = cells.get("bn-rnn")
    p = params("bn-rnn", 16)
    rng, x, (h0,) = inputs(17, 1)
    dy = rng.standard_normal((T, 3, H))
    bufs = stats(spec, 18)
    y, _, res = functional.layer_forward("bn-rnn", x, (h0,), p, training=False, buffers=bufs)
    dx, (dh0,), dp = functional.layer_backward("bn-rnn", res, x, (h0,), p, y, dy, training=False)
    yr, _, saved = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"],
                                      *(bufs[n].copy() for n in ("rmx", "rvx", "rmh", "rvh")), False)
    np.testing.assert_allclose(y, yr, **TOL)
    want = ref.bn_rnn_backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["gx"], p["gh"])
    np.testing.assert_allclose(dx, want[0], **TOL)
    np.testing.assert_allclose(dh0, want[1], **TOL)
    for n, w in zip(("Wx", "Wh", "b", "gx", "gh"), want[2:]):
        np.testing.assert_allclose(dp[n], w, err_msg=n, **TOL)


def test_bn_rnn_training_statistics_count_the_running_rows_only():
    spec = cells.get("bn-rnn")
    p = params("bn-rnn", 19)
    rng = np.random.default_rng(20)
    x, h0 = rng.standard_normal((T, 4, I)), 0.5 * rng.standard_normal((4, H))
    lengths = np.array([4, 3, 4, 2])               # 4, 4, 3 and 2 rows run at steps 0..3
    bufs = spec.init_buffers(H, T, np.float64)
    mine = {n: v.copy() for n, v in bufs.items()}
    y, (hn,), _ = functional.layer_forward("bn-rnn", x, (h0,), p, lengths=lengths, training=True, buffers=mine)
    r = {n: v.copy() for n, v in bufs.items()}
    yr, _, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], r["rmx"], r["rvx"], r["rmh"],
                                  r["rvh"], True, BN_MOMENTUM, EPS, lengths=lengths)
    for b, L in enumerate(lengths):
        np.testing.assert_allclose(y[:L, b], yr[:L, b], **TOL)
        np.testing.assert_allclose(hn[b], yr[L - 1, b], **TOL)
    for n in bufs:
        np.testing.assert_allclose(mine[n], r[n], err_msg=n, **TOL)


def test_ln_lstm_dy_at_padded_steps_is_dropped():
    p = params("ln-lstm", 21)
    rng, x, (h0, c0) = inputs(22, 2)
    lengths = np.array([2, 4, 1])
    dy = rng.standard_normal((T, 3, H))            # nonzero at the padded steps too
    y, _, res = functional.layer_forward("ln-lstm", x, (h0, c0), p, lengths=lengths)
    dx, (dh0, dc0), dp = functional.layer_backward("ln-lstm", res, x, (h0, c0), p, y, dy, lengths=lengths)
    kept = dy * (np.arange(T)[:, None] < lengths[None, :])[:, :, None]     # the loss reads running steps only
    _, _, _, cache = ref_ln_lstm(x, h0, c0, p)
    want = ref.lstm_backward(kept, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], "ln")
    np.testing.assert_allclose(dx, want[0], **TOL)
    np.testing.assert_allclose(dh0, want[1], **TOL)
    np.testing.assert_allclose(dc0, want[2], **TOL)
    for n, w in zip(("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"), want[3:]):
        np.testing.assert_allclose(dp[n], w, err_msg=n, **TOL)


def test_dc_n_of_an_empty_row_and_of_full_rows_with_dy():
    p = params("lstm", 23)
    rng, x, (h0, c0) = inputs(24, 2)
    lengths = np.array([0, 4, 4])
    dy, dc_n = rng.standard_normal((T, 3, H)), rng.standard_normal((3, H))
    y, _, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    dx, (dh0, dc0), _ = functional.layer_backward("lstm", res, x, (h0, c0), p, y, dy, (None, dc_n), lengths=lengths)
    # the empty row: no step reads it, its c_n is c0 -> dc0 = dc_n, dh0 = 0, dx = 0
    np.testing.assert_array_equal(dc0[0], dc_n[0])
    np.testing.assert_array_equal(dh0[0], np.zeros(H))
    np.testing.assert_array_equal(dx[:, 0], np.zeros((T, I)))

    def loss():                                    # the full rows: sum(dy * y) + sum(dc_n * c_T)
        yr, _, cr = ref_lstm(x[:, 1:], h0[1:], c0[1:], p)
        return float(np.sum(dy[:, 1:] * yr) + np.sum(dc_n[1:] * cr))

    np.testing.assert_allclose(dx[:, 1:], numeric_grad(loss, x)[:, 1:], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dh0[1:], numeric_grad(loss, h0)[1:], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dc0[1:], numeric_grad(loss, c0)[1:], rtol=1e-6, atol=1e-8)
