"""The functional layer API (lnrnn/model/functional.py), eighteenth pass: gate_clip against Graves's rule as
written here (a bound in (0, inf) kept as given, 0 and inf meaning off, a fractional bound not rounded, a
bound for a cell without gates refused word for word); layer_backward of an LSTM given dL/dy, dL/dh_n and
dL/dc_n together over full rows, and of an LSTM and an RNN given no dy at all (only dL/dh_n, rows of
lengths 0, 1 and T), against central differences of lnrnn.reference's forward in float64."""
import math

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import cells, functional
from gradcheck_util import numeric_grad
from test_values169_functional import B, H, T, inputs, params, ref_lstm

TOL = dict(rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("clip, want", [(0.5, 0.5), (2.5, 2.5), (1e-3, 1e-3), (0.0, 0.0), (math.inf, 0.0)])
def test_gate_clip_keeps_a_bound_and_reads_zero_and_inf_as_off(clip, want):
    got = functional.gate_clip(clip, cells.get("lstm"))
    assert got == want and isinstance(got, float)


def test_gate_clip_of_a_fraction_for_an_rnn_is_refused_word_for_word():
    assert functional.gate_clip(math.inf, cells.get("rnn")) == 0.0        # off: nothing to refuse
    with pytest.raises(ValueError) as e:
        functional.gate_clip(0.5, cells.get("rnn"))
    assert str(e.value) == "clip_gates clips the LSTM gates' derivatives; the rnn cell has no gates"


def test_lstm_backward_with_dy_dh_n_and_dc_n_together():
    p = params("lstm", 31)
    rng, x, (h0, c0) = inputs(32, 2)
    dy, dh, dc = (rng.standard_normal(s) for s in ((T, B, H), (B, H), (B, H)))
    y, _, res = functional.layer_forward("lstm", x, (h0, c0), p)
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, dy, (dh, dc))

    def loss():
        yr, hr, cr = ref_lstm(x, h0, c0, p)
        return float(np.sum(dy * yr) + np.sum(dh * hr) + np.sum(dc * cr))

    np.testing.assert_allclose(dx, numeric_grad(loss, x), **TOL)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), **TOL)
    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), **TOL)
    for n in ("Wx", "Wh", "b"):
        np.testing.assert_allclose(dp[n], numeric_grad(loss, p[n]), err_msg=n, **TOL)


def test_lstm_backward_with_no_dy_only_dh_n_over_lengths_0_1_and_t():
    p = params("lstm", 41)
    rng, x, (h0, c0) = inputs(42, 2)
    lengths = np.array([0, 1, T])
    dh = rng.standard_normal((B, H))
    y, _, res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths)
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, (dh,), lengths=lengths)

    def loss():                                              # sum over rows of dh . (h after the row's own last step)
        tot = 0.0
        for b, L in enumerate(lengths):
            if L == 0:
                tot += float(dh[b] @ h0[b])
            else:
                _, hb, _ = ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)
                tot += float(dh[b] @ hb[0])
        return tot

    np.testing.assert_allclose(dx, numeric_grad(loss, x), **TOL)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), **TOL)
    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), **TOL)
    np.testing.assert_allclose(dp["Wh"], numeric_grad(loss, p["Wh"]), **TOL)


def test_rnn_backward_with_no_dy_only_dh_n():
    p = params("rnn", 51)
    rng, x, (h0,) = inputs(52, 1)
    dh = rng.standard_normal((B, H))
    y, _, res = functional.layer_forward("rnn", x, (h0,), p)
    dx, (dh0,), dp = functional.layer_backward("rnn", res, x, (h0,), p, y, None, (dh,))

    def loss():
        _, hr, _ = ref.rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], np.ones(H), "none")
        return float(np.sum(dh * hr))

    np.testing.assert_allclose(dx, numeric_grad(loss, x), **TOL)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), **TOL)
    np.testing.assert_allclose(dp["Wx"], numeric_grad(loss, p["Wx"]), **TOL)
