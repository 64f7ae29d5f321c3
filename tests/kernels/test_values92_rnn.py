"""The CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) in float64 with an initial state h0 given and the LayerNorm's
gain and bias away from their defaults: forward against tanh by the definition and lnrnn/reference.py; every
gradient against the reference and against central differences; a sequence run in two pieces (h carried
over, dL/dh handed back, checked against the reference's record of dL/dh_t) the same as one run; rnn_infer
stepped one step at a time the same as the sequence. B = 5 rows on the row blocks threads.batch_blocks gives
with blocks of 2 rows (2 chunks, 2+3) and on 3 chunks."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.kernels.rnn import rnn_backward, rnn_forward, rnn_infer
from gradcheck_util import numeric_grad
from test_values72_rnn import EPS, FWD, NAMES, NORM
from test_values92_lstm import WIDTHS, chunks, close


def problem(seed, T, B, I, H):
    rng = np.random.default_rng(seed)

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    return dict(x=P(T, B, I), h0=P(B, H, scale=0.8, shift=0.3), Wx=P(I, H, scale=0.6), Wh=P(H, H, scale=0.7),
                b=P(H, scale=0.4, shift=0.3), g=P(H, scale=0.3, shift=1.5))


def forward(p, norm, nchunks, **over):
    q = dict(p, **over)
    return rnn_forward(*[q[k] for k in FWD], NORM[norm], EPS, nchunks)


def backward(p, saved, dy, norm, nchunks, x=None, h0=None):
    return rnn_backward(dy, saved, p["x"] if x is None else x, p["h0"] if h0 is None else h0, p["Wx"], p["Wh"],
                        p["g"], NORM[norm], nchunks)


def used(norm):
    return 6 if norm == "ln" else 5  # the plain cell's dg is zero


def by_definition(p, norm):
    h, ys = p["h0"], []
    for xt in p["x"]:
        a = xt @ p["Wx"] + h @ p["Wh"]
        if norm == "ln":
            m = a.mean(-1, keepdims=True)
            a = (a - m) / np.sqrt(((a - m) ** 2).mean(-1, keepdims=True) + EPS) * p["g"]
        h = np.tanh(a + p["b"])
        ys.append(h)
    return np.stack(ys)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_forward_by_definition_and_backward_against_the_reference(norm, I):
    T, B, H = 3, 5, 4
    p = problem(9290 + I, T, B, I, H)
    dy = np.random.default_rng(9300 + I).standard_normal((T, B, H))
    yd = by_definition(p, norm)
    _, _, cache = R.rnn_forward(*[p[k] for k in FWD], norm, EPS)
    want = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    for nch in chunks():
        y, hT, saved = forward(p, norm, nch)
        assert close(y, yd) < 1e-12 and close(hT, yd[-1]) < 1e-12, nch
        got = backward(p, saved, dy, norm, nch)
        for k in range(used(norm)):
            assert close(got[k], want[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_every_gradient_with_an_initial_state_by_central_differences(norm, I):
    """L = sum(dy * y), h0 given: dx, dh0, dWx, dWh, db (and dg) against central differences of L, on 2 chunks."""
    T, B, H = 3, 5, 3
    p = problem(9310 + I, T, B, I, H)
    dy = np.random.default_rng(9320 + I).standard_normal((T, B, H))

    def loss():
        return float(np.sum(dy * forward(p, norm, 1)[0]))

    nch = chunks()[0]
    got = backward(p, forward(p, norm, nch)[2], dy, norm, nch)
    for k, name in enumerate(("x", "h0", "Wx", "Wh", "b", "g")[:used(norm)]):  # NAMES' order
        assert close(got[k], numeric_grad(loss, p[name], eps=1e-4, order=4)) < 1e-7, name


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_two_pieces_with_the_state_carried_are_one_sequence(norm, I):
    """Forward over steps [0, 2) then [2, 5) from the first's hT: the whole run's y, hT. Backward of the second
    piece, then of the first with dy[1] += the second's dh0: the whole run's dx, dh0 and the sums of the
    parameter gradients; the second's dh0 is the reference's record of dL/dh_1 less dy_1."""
    T, T1, B, H = 5, 2, 5, 3
    p = problem(9330 + I, T, B, I, H)
    dy = np.random.default_rng(9340 + I).standard_normal((T, B, H))
    _, _, cache = R.rnn_forward(*[p[k] for k in FWD], norm, EPS)
    record = []
    R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm, record=record)
    dh_total = record[::-1]  # dL/dh_t, t = 0 .. T-1
    x1, x2 = np.ascontiguousarray(p["x"][:T1]), np.ascontiguousarray(p["x"][T1:])
    for nch in chunks():
        y, hT, saved = forward(p, norm, nch)
        whole = backward(p, saved, dy, norm, nch)
        y1, h1, s1 = forward(p, norm, nch, x=x1)
        y2, h2, s2 = forward(p, norm, nch, x=x2, h0=h1)
        assert close(np.concatenate([y1, y2]), y) < 1e-13 and close(h2, hT) < 1e-13, nch
        g2 = backward(p, s2, np.ascontiguousarray(dy[T1:]), norm, nch, x=x2, h0=h1)
        assert close(g2[1], dh_total[T1 - 1] - dy[T1 - 1]) < 1e-10, nch
        dy1 = np.ascontiguousarray(dy[:T1]).copy()
        dy1[-1] += g2[1]
        g1 = backward(p, s1, dy1, norm, nch, x=x1)
        assert close(np.concatenate([g1[0], g2[0]]), whole[0]) < 1e-10 and close(g1[1], whole[1]) < 1e-10, nch
        for k in range(2, used(norm)):
            assert close(g1[k] + g2[k], whole[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_infer_one_step_at_a_time_is_the_sequence(norm, I):
    T, B, H = 4, 5, 3
    p = problem(9350 + I, T, B, I, H)
    yd = by_definition(p, norm)
    for nch in chunks():
        y, hT = rnn_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        assert close(y, yd) < 1e-12 and close(hT, yd[-1]) < 1e-12, nch
        h = p["h0"]
        for t in range(T):
            yt, h = rnn_infer(*[dict(p, x=np.ascontiguousarray(p["x"][t:t + 1]), h0=h)[k] for k in FWD],
                              NORM[norm], EPS, nch)
            assert close(yt[0], yd[t]) < 1e-12 and close(h, yd[t]) < 1e-12, (nch, t)
