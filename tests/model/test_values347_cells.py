"""The cell registry's adapters one step at a time (lnrnn/model/cells.py): plain and LN cells stepped through
functional.layer_forward one time step per call, the state handed on, equal the spec's whole-sequence run
(lnrnn/reference.py, float64) step by step and in the final state, with and without a backward to follow; every
gradient of a one-step (and a two-step) call against central differences, h0 and c0 told apart by distinct
values; the BN-LSTM's h0 and c0 and their gradients against the spec; lookup's refusals word for word; the
default recurrent initialization orthogonal, not the identity."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn import reference as ref
from lnrnn.model import cells, functional
from test_values282_cells import B, H, bn_lstm_case, setup_of

TOL = dict(rtol=1e-9, atol=1e-11)


def spec_run(name, x, state, p):
    """The spec's whole-sequence run: y (T,B,H) and the final state tuple."""
    norm = cells.get(name).norm
    if cells.get(name).cell == "lstm":
        if norm == "ln":
            ln = (p["gx"], p["bx"], p["gh"], p["bh"], p["gc"], p["bc"])
        else:
            G = p["b"].shape[0]
            ln = (np.ones(G), np.zeros(G), np.ones(G), np.zeros(G), np.ones(H), np.zeros(H))
        y, h, c, _ = ref.lstm_forward(x, *state, p["Wx"], p["Wh"], p["b"], *ln, norm)
        return y, (h, c)
    y, h, _ = ref.rnn_forward(x, *state, p["Wx"], p["Wh"], p["b"], p.get("g", np.ones(H)), norm)
    return y, (h,)


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "rnn", "ln-rnn"])
def test_steps_one_at_a_time_chain_to_the_spec_run(name, keep):
    T3 = 3
    _, p, x, state, _ = setup_of(name, 3470, T3)
    want_y, want_final = spec_run(name, x, state, p)
    s = state
    for t in range(T3):
        y, s, _ = functional.layer_forward(name, x[t:t + 1], s, p, keep=keep)
        assert y.shape == (1, B, H)
        np.testing.assert_allclose(y[0], want_y[t], **TOL, err_msg=f"step {t}")
        np.testing.assert_allclose(s[0], want_y[t], **TOL, err_msg=f"h after step {t}")   # h_t is y_t
    assert len(s) == len(want_final)
    for got, want, n in zip(s, want_final, ("h", "c")):
        np.testing.assert_allclose(got, want, **TOL, err_msg=n)


@pytest.mark.parametrize("T_", [1, 2])
@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "rnn", "ln-rnn"])
def test_every_gradient_of_a_short_call_against_central_differences(name, T_):
    spec, p, x, state, rng = setup_of(name, 3471 + T_, T_)
    wy = rng.standard_normal((T_, B, H))
    wf = tuple(rng.standard_normal((B, H)) for _ in state)          # dL/dh_n and dL/dc_n, unlike each other

    def loss():
        y, final, _ = functional.layer_forward(name, x, state, p, keep=False)
        return float((wy * y).sum() + sum((w * f).sum() for w, f in zip(wf, final)))

    y, _, res = functional.layer_forward(name, x, state, p)
    dx, dstate, dp = functional.layer_backward(name, res, x, state, p, y, wy, dfinal=wf)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
    assert len(dstate) == spec.nstate
    for d, s, n in zip(dstate, state, ("h0", "c0")):
        np.testing.assert_allclose(d, numeric_grad(loss, s), rtol=1e-6, atol=1e-8, err_msg=n)
    for n in spec.param_names:
        np.testing.assert_allclose(dp[n], numeric_grad(loss, p[n]), rtol=1e-6, atol=1e-8, err_msg=n)


def test_bn_lstm_h0_and_c0_and_their_gradients_against_the_spec():
    _, p, x, (h0, c0), bufs, rng = bn_lstm_case()
    c0 = c0 + 1.5                                                   # c0 far from h0
    T_ = x.shape[0]
    mine = {n: v.copy() for n, v in bufs.items()}
    y, (hn, cn), res = functional.layer_forward("bn-lstm", x, (h0, c0), p, buffers=mine)
    rb = {n: v.copy() for n, v in bufs.items()}
    ry, rh, rc, saved = ref.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                            rb["rmx"], rb["rvx"], rb["rmh"], rb["rvh"], rb["rmc"], rb["rvc"], True)
    np.testing.assert_allclose(y, ry, **TOL)
    np.testing.assert_allclose(hn, rh, **TOL)
    np.testing.assert_allclose(cn, rc, **TOL)
    dy = rng.standard_normal((T_, B, H))
    dx, dstate, _ = functional.layer_backward("bn-lstm", res, x, (h0, c0), p, y, dy)
    want = ref.bn_lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"])
    np.testing.assert_allclose(dx, want[0], **TOL)
    np.testing.assert_allclose(dstate[0], want[1], **TOL, err_msg="dh0")
    np.testing.assert_allclose(dstate[1], want[2], **TOL, err_msg="dc0")
    assert np.abs(want[1] - want[2]).max() > 1e-3                  # the two are told apart


def test_lookup_of_every_pair():
    """Each of the six (cell, norm) pairs to its row (the refusals word for word: test_values169_cells)."""
    for cell in ("rnn", "lstm"):
        for norm, prefix in (("none", ""), ("ln", "ln-"), ("bn", "bn-")):
            row = cells.lookup(cell, norm)
            assert (row.name, row.cell, row.norm) == (prefix + cell, cell, norm)


@pytest.mark.parametrize("name", ["rnn", "lstm"])
def test_default_recurrent_blocks_are_orthogonal_and_identity_only_when_asked(name):
    spec = cells.get(name)
    I_, H_ = 2, 4
    orth = spec.init_params(np.random.default_rng(5), I_, H_, np.float64, 1.0)
    ident = spec.init_params(np.random.default_rng(5), I_, H_, np.float64, 1.0, recurrent_init="identity")
    for k in range(spec.blocks):
        Q = orth["Wh"][:, k * H_:(k + 1) * H_]
        np.testing.assert_allclose(Q.T @ Q, np.eye(H_), atol=1e-12)
        assert np.abs(Q - np.eye(H_)).max() > 0.1                   # a random rotation, not the identity
        np.testing.assert_array_equal(ident["Wh"][:, k * H_:(k + 1) * H_], np.eye(H_))
    np.testing.assert_array_equal(orth["Wx"], ident["Wx"])          # the same draws either way
