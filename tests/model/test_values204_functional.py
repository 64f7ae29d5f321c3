"""The functional layer API (lnrnn/model/functional.py) against lnrnn.reference and central differences in
float64 at tiny sizes (I != H, T != B): residual_layout against the residuals layer_forward really returns for
every cell, at a narrow input and one past FOLD_MAX_I; an LN-RNN's backward through its residuals against central differences; an LSTM's inference forward
(keep=False) with lengths, each row's final (h, c) against the reference run over the row's own steps;
dL/dh_n of a batch with an empty row (whose h_n is h0) and dL/dc_n of full rows without lengths against central
differences; the gate-clip refusal word for word."""
import re

import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.model import cells, functional
from gradcheck_util import numeric_grad
from test_values169_functional import inputs, params, ref_lstm, ref_rnn

I, H, T, B = 2, 3, 4, 3   # the sizes test_values169_functional's helpers are built at
TOL = 1e-6


@pytest.mark.parametrize("Ix", [I, FOLD_MAX_I + 1])
@pytest.mark.parametrize("name", ["rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm"])
def test_residual_layout_is_what_layer_forward_returns(name, Ix):
    """Every cell, with an input narrow enough to be folded into the row loop and one just too wide for it."""
    spec = cells.get(name)
    rng = np.random.default_rng(23)
    p = spec.init_params(rng, Ix, H, np.float64, forget_bias=1.0)
    x = rng.standard_normal((T, B, Ix))
    state = tuple(rng.standard_normal((B, H)) for _ in range(spec.nstate))
    _, _, res = functional.layer_forward(name, x, state, p, buffers=spec.init_buffers(H, T, np.float64))
    got = [(tuple(np.shape(r)), np.asarray(r).dtype) for r in res]
    want = [(tuple(s), np.dtype(d)) for s, d in functional.residual_layout(name, T, B, Ix, H, np.float64)]
    assert got == want


def test_ln_rnn_backward_through_its_residuals_against_central_differences():
    p = params("ln-rnn", 3)
    rng, x, (h0,) = inputs(4, 1)
    dy = rng.standard_normal((T, B, H))
    y, final, res = functional.layer_forward("ln-rnn", x, (h0,), p)
    np.testing.assert_allclose(y, ref_rnn("ln-rnn", x, h0, p)[0], rtol=1e-10, atol=1e-12)
    dx, (dh0,), dp = functional.layer_backward("ln-rnn", res, x, (h0,), p, y, dy)

    def loss():
        return float(np.sum(dy * ref_rnn("ln-rnn", x, h0, p)[0]))

    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=TOL, atol=1e-8)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=TOL, atol=1e-8)
    for n in ("Wh", "g"):
        np.testing.assert_allclose(dp[n], numeric_grad(loss, p[n]), rtol=TOL, atol=1e-8, err_msg=n)


def test_lstm_inference_with_lengths_final_state_row_by_row():
    p = params("lstm", 5)
    _, x, (h0, c0) = inputs(6, 2)
    lengths = np.array([3, 0, 1])
    y, (hn, cn), res = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths, keep=False)
    assert res == []
    check_rows_by_reference(x, (h0, c0), p, lengths, (hn, cn))


def check_rows_by_reference(x, state, p, lengths, final, y=None):
    """Each row b of an LSTM layer run with lengths, against ref_lstm over its own first lengths[b] steps: the
    final (h, c) (the initial state where the length is 0) and, where given, y over those steps."""
    (h0, c0), (hn, cn) = state, final
    for b, L in enumerate(lengths):
        if L == 0:
            np.testing.assert_array_equal(hn[b], h0[b])
            np.testing.assert_array_equal(cn[b], c0[b])
            continue
        yb, hb, cb = ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p)
        if y is not None:
            np.testing.assert_allclose(y[:L, b], yb[:, 0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(hn[b], hb[0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(cn[b], cb[0], rtol=1e-10, atol=1e-12)


def test_dh_n_with_an_empty_row_against_central_differences():
    p = params("rnn", 7)
    rng, x, (h0,) = inputs(8, 1)
    lengths = np.array([4, 0, 2])
    dh_n = rng.standard_normal((B, H))
    y, final, res = functional.layer_forward("rnn", x, (h0,), p, lengths=lengths)
    dx, (dh0,), dp = functional.layer_backward("rnn", res, x, (h0,), p, y, None, (dh_n,), lengths=lengths)

    def loss():
        tot = 0.0
        for b, L in enumerate(lengths):
            hb = h0[b] if L == 0 else ref_rnn("rnn", x[:L, b:b + 1], h0[b:b + 1], p)[1][0]
            tot += float(dh_n[b] @ hb)
        return tot

    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=TOL, atol=1e-8)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=TOL, atol=1e-8)
    np.testing.assert_allclose(dp["Wx"], numeric_grad(loss, p["Wx"]), rtol=TOL, atol=1e-8)


def test_dc_n_of_full_rows_without_lengths_against_central_differences():
    p = params("lstm", 9)
    rng, x, (h0, c0) = inputs(10, 2)
    dc_n = rng.standard_normal((B, H))
    y, final, res = functional.layer_forward("lstm", x, (h0, c0), p)
    dx, (dh0, dc0), dp = functional.layer_backward("lstm", res, x, (h0, c0), p, y, None, (None, dc_n))

    def loss():
        return float(np.sum(dc_n * ref_lstm(x, h0, c0, p)[2]))

    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), rtol=TOL, atol=1e-8)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=TOL, atol=1e-8)
    np.testing.assert_allclose(dp["b"], numeric_grad(loss, p["b"]), rtol=TOL, atol=1e-8)


def test_gate_clip_refusal_word_for_word():
    p = params("lstm", 11)
    _, x, state = inputs(12, 2)
    y, _, res = functional.layer_forward("lstm", x, state, p)
    with pytest.raises(ValueError, match=re.escape("clip_gates must be 0 (off) or positive, got -0.5")):
        functional.layer_backward("lstm", res, x, state, p, y, np.ones_like(y), clip_gates=-0.5)
    with pytest.raises(ValueError, match=re.escape("clip_gates clips the LSTM gates' derivatives; the rnn cell "
                                                   "has no gates")):
        functional.setup(cells.get("rnn"), H, np.float64, clip_gates=1.0)
