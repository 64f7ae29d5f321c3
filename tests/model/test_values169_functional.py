"""The functional layer API (lnrnn/model/functional.py) against lnrnn.reference and central differences in
float64 at tiny sizes (I != H, T != B): layer_forward with lengths of one per sequence, an LSTM's y and each
row's final state against the reference run row by row; an RNN's and an LN-RNN's inference forward
(keep=False) with lengths, each row's final h; a BN-RNN training forward with statistics of exactly T rows
(more rows than the layer is wide) against the reference, running statistics included; layer_backward with no
dy, only dL/dh_n, and with dL/dc_n over a full and an empty row (whose c_n is c0), against central
differences; the lengths and gate-clip refusals sentence for sentence."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import BN_MOMENTUM, EPS
from lnrnn.model import cells, functional
from gradcheck_util import numeric_grad

I, H, T, B = 2, 3, 4, 3


def params(name, seed):
    spec = cells.get(name)
    p = spec.init_params(np.random.default_rng(seed), I, H, np.float64, forget_bias=1.0)
    rng = np.random.default_rng(seed + 7)
    for n, v in p.items():
        v[...] = (1.0 if n.startswith("g") else 0.0) + 0.5 * rng.standard_normal(v.shape)
    return p


def inputs(seed, nstate):
    rng = np.random.default_rng(seed)
    return rng, rng.standard_normal((T, B, I)), tuple(0.5 * rng.standard_normal((B, H)) for _ in range(nstate))


def ref_lstm(x, h0, c0, p):
    G = 4 * H
    y, h, c, _ = ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], np.ones(G), np.zeros(G), np.ones(G),
                                  np.zeros(G), np.ones(H), np.zeros(H), "none")
    return y, h, c


def ref_rnn(name, x, h0, p):
    ln = name == "ln-rnn"
    y, h, _ = ref.rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["g"] if ln else np.ones(H), "ln" if ln else "none")
    return y, h


def test_lstm_forward_with_one_length_per_sequence_row_by_row():
    p = params("lstm", 1)
    _, x, (h0, c0) = inputs(2, 2)
    lengths = np.array([4, 1, 2])
    y, (hn, cn), res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    for b, L in enumerate(lengths):
        yb, hb, cb = ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)
        np.testing.assert_allclose(y[:L, b], yb[:, 0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(hn[b], hb[0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(cn[b], cb[0], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["rnn", "ln-rnn"])
def test_rnn_inference_with_lengths_reads_each_rows_final_h(name):
    p = params(name, 3)
    _, x, (h0,) = inputs(4, 1)
    lengths = np.array([2, 0, 4])
    y, (hn,), res = functional.layer_forward(name, x, (h0,), p, lengths=lengths, keep=False)
    assert res == []
    for b, L in enumerate(lengths):
        if L == 0:
            np.testing.assert_array_equal(hn[b], h0[b])
            continue
        yb, hb = ref_rnn(name, x[:L, b:b + 1], h0[b:b + 1], p)
        np.testing.assert_allclose(y[:L, b], yb[:, 0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(hn[b], hb[0], rtol=1e-10, atol=1e-12)


def test_bn_rnn_training_with_statistics_of_t_rows_against_the_reference():
    p = params("bn-rnn", 5)
    _, x, (h0,) = inputs(6, 1)
    spec = cells.get("bn-rnn")
    bufs = spec.init_buffers(H, T, np.float64)                 # (T, H): more rows than the layer is wide
    mine = {n: v.copy() for n, v in bufs.items()}
    y, (hn,), _ = functional.layer_forward("bn-rnn", x, (h0,), p, training=True, buffers=mine)
    theirs = {n: v.copy() for n, v in bufs.items()}
    yr, hr, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], theirs["rmx"], theirs["rvx"],
                                   theirs["rmh"], theirs["rvh"], True, BN_MOMENTUM, EPS)
    np.testing.assert_allclose(y, yr, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(hn, hr, rtol=1e-9, atol=1e-12)
    for n in bufs:
        np.testing.assert_allclose(mine[n], theirs[n], rtol=1e-9, atol=1e-12)
    # inference over T steps from the trained statistics: row t for each step
    y2, _, _ = functional.layer_forward("bn-rnn", x, (h0,), p, training=False, buffers=mine, keep=False)
    y2r, _, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], *(mine[n].copy() for n in
                                   ("rmx", "rvx", "rmh", "rvh")), False, BN_MOMENTUM, EPS)
    np.testing.assert_allclose(y2, y2r, rtol=1e-9, atol=1e-12)


def test_backward_with_no_dy_and_only_dh_n_against_central_differences():
    p = params("lstm", 7)
    rng, x, (h0, c0) = inputs(8, 2)
    dh_n = rng.standard_normal((B, H))
    y, final, res = functional.layer_forward("lstm", x, (h0, c0), p)
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, (dh_n,))

    def loss():
        return float(np.sum(dh_n * ref_lstm(x, h0, c0, p)[1]))

    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dp["Wh"], numeric_grad(loss, p["Wh"]), rtol=1e-6, atol=1e-8)


def test_dc_n_of_a_full_and_an_empty_row_against_central_differences():
    p = params("lstm", 9)
    rng, x, (h0, c0) = inputs(10, 2)
    lengths = np.array([4, 0, 4])
    dc_n = rng.standard_normal((B, H))
    y, final, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    np.testing.assert_array_equal(final[1][1], c0[1])                      # the empty row's c_n is c0
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, (None, dc_n),
                                                   lengths=lengths)

    def loss():
        total = 0.0
        for b, L in enumerate(lengths):
            cb = ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)[2][0] if L else c0[b]
            total += np.sum(dc_n[b] * cb)
        return total

    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dc0[1], dc_n[1], rtol=0, atol=0)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=1e-6, atol=1e-8)


def test_lengths_refusals_sentence_for_sentence():
    with pytest.raises(ValueError) as e:
        functional.check_lengths(np.array([1, 2]), T, B)
    assert str(e.value) == "lengths must be 3 integers (one per sequence), got int64 (2,)"
    with pytest.raises(ValueError) as e:
        functional.check_lengths(np.array([1, 5, 0]), T, B)
    assert str(e.value) == "lengths must lie in [0, 4], got 0..5"
    with pytest.raises(ValueError) as e:
        functional.check_lengths(np.array([1.0, 2.0, 3.0]), T, B)
    assert str(e.value) == "lengths must be 3 integers (one per sequence), got float64 (3,)"


@pytest.mark.parametrize("name", ["ln-rnn", "bn-rnn"])
def test_gate_clip_refusal_names_the_cell(name):
    with pytest.raises(ValueError) as e:
        functional.gate_clip(1.0, cells.get(name))
    assert str(e.value) == f"clip_gates clips the LSTM gates' derivatives; the {name} cell has no gates"
    with pytest.raises(ValueError) as e:
        functional.gate_clip(-1.0, cells.get("lstm"))
    assert str(e.value) == "clip_gates must be 0 (off) or positive, got -1.0"
