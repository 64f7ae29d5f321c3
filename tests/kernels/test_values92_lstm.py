"""The CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py) in float64 with every LayerNorm gain and bias away from its
default (gx, gh and gc apart from 1 and from each other, bx, bh, bc and b away from 0) and initial states h0, c0
that differ: forward against a step written here from the definitions (Ba et al. 2016) and against
lnrnn/reference.py; backward against the reference (also with a clip that binds) and against central
differences; a sequence run in two pieces, the states carried over (forward) and dL/dh, dL/dc handed back
(backward, checked against the reference's record of dL/dh_t), the same as one run; lstm_infer stepped one
step at a time the same as the sequence. B = 5 rows on the row blocks threads.batch_blocks gives with blocks
of 2 rows (2 chunks, 2+3) and on 3 chunks."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.cpu.threads import batch_blocks, block_rows
from lnrnn.kernels.lstm import lstm_backward, lstm_forward, lstm_infer
from gradcheck_util import numeric_grad
from test_values11_lstm import EPS, FWD, NORM, close
from test_values72_lstm import NAMES

WIDTHS = [2, FOLD_MAX_I + 2]  # narrow (x Wx in the row loop) and wide


def chunks():
    """The chunk counts B = 5 rows run on: batch_blocks' with blocks of at least 2 rows (2 chunks, rows 2+3:
    the blocks do not divide B), and 3 (rows 1+2+2)."""
    with block_rows(2):
        n = batch_blocks(5)
    assert n == 2
    return (n, 3)


def problem(seed, T, B, I, H):
    rng = np.random.default_rng(seed)
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    return dict(x=P(T, B, I), h0=P(B, H, scale=0.8, shift=0.3), c0=P(B, H, scale=1.2, shift=-0.4),
                Wx=P(I, G, scale=0.6), Wh=P(H, G, scale=0.6), b=P(G, scale=0.4, shift=0.2),
                gx=P(G, scale=0.2, shift=1.6), bx=P(G, scale=0.4, shift=-0.3), gh=P(G, scale=0.2, shift=0.5),
                bh=P(G, scale=0.4, shift=0.3), gc=P(H, scale=0.2, shift=1.7), bc=P(H, scale=0.4, shift=0.4))


def forward(p, norm, nchunks, **over):
    q = dict(p, **over)
    return lstm_forward(*[q[k] for k in FWD], NORM[norm], EPS, nchunks)


def backward(p, saved, dy, norm, nchunks, **kw):
    x, h0, c0 = (kw.pop(k, p[k]) for k in ("x", "h0", "c0"))
    return lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm],
                         nchunks, **kw)


def used(norm):
    return 12 if norm == "ln" else 6  # the plain LSTM returns zeros for the LN parameters


def by_definition(p, norm):
    """y (T,B,H), c (T,B,H): the LSTM step by the definitions, gate order [i|f|g|o]."""
    def ln(z, g, b):
        m = z.mean(-1, keepdims=True)
        return (z - m) / np.sqrt(((z - m) ** 2).mean(-1, keepdims=True) + EPS) * g + b

    def sig(z):
        return 1.0 / (1.0 + np.exp(-z))
    H = p["h0"].shape[1]
    h, c, ys, cs = p["h0"], p["c0"], [], []
    for xt in p["x"]:
        if norm == "ln":
            a = ln(xt @ p["Wx"], p["gx"], p["bx"]) + ln(h @ p["Wh"], p["gh"], p["bh"]) + p["b"]
        else:
            a = xt @ p["Wx"] + h @ p["Wh"] + p["b"]
        i, f, g, o = sig(a[:, :H]), sig(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sig(a[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(ln(c, p["gc"], p["bc"]) if norm == "ln" else c)
        ys.append(h)
        cs.append(c)
    return np.stack(ys), np.stack(cs)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_forward_by_definition_and_backward_against_the_reference(norm, I):
    """y, hT, cT and the saved c the definition's; every gradient the reference's, on 2 and 3 chunks."""
    T, B, H = 3, 5, 3
    p = problem(9200 + I, T, B, I, H)
    dy = np.random.default_rng(9210 + I).standard_normal((T, B, H))
    yd, cd = by_definition(p, norm)
    yr, hr, cr, cache = R.lstm_forward(*[p[k] for k in FWD], norm, EPS)
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for nch in chunks():
        y, hT, cT, saved = forward(p, norm, nch)
        assert close(y, yd) < 1e-12 and close(hT, yd[-1]) < 1e-12 and close(cT, cd[-1]) < 1e-12, nch
        assert close(saved[1], cd) < 1e-12 and close(y, yr) < 1e-12, nch
        assert close(hT, hr) < 1e-12 and close(cT, cr) < 1e-12, nch
        got = backward(p, saved, dy, norm, nch)
        for k in range(used(norm)):
            assert close(got[k], want[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("I", WIDTHS)
def test_ln_gradients_with_moved_gains_and_initial_states_by_central_differences(I):
    """L = sum(dy * y) + sum(dcT * cT): all twelve gradients of the LN-LSTM, gains and biases away from
    their defaults, h0 and c0 given, against central differences of L (not the reference), on 2 chunks."""
    T, B, H = 2, 5, 2
    p = problem(9220 + I, T, B, I, H)
    rng = np.random.default_rng(9230 + I)
    dy, dcT = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))

    def loss():
        y, _, cT, _ = forward(p, "ln", 1)
        return float(np.sum(dy * y) + np.sum(dcT * cT))

    nch = chunks()[0]
    got = backward(p, forward(p, "ln", nch)[3], dy, "ln", nch, dcT=dcT)
    for k, name in enumerate(("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")):  # NAMES' order
        num = numeric_grad(loss, p[name], eps=1e-4, order=4)
        assert close(got[k], num) < 1e-7, name


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_a_clip_that_bites_is_the_references(norm, I, monkeypatch):
    """Graves's clip at the 60th percentile of |dL/da| (the reference's, every step): every gradient the
    reference's with the same clip, on 2 and 3 chunks."""
    T, B, H = 3, 5, 2
    p = problem(9240 + I, T, B, I, H)
    dy = 2.0 * np.random.default_rng(9250 + I).standard_normal((T, B, H))
    _, _, _, cache = R.lstm_forward(*[p[k] for k in FWD], norm, EPS)
    das = []
    monkeypatch.setattr(R, "clip_gate_grads", lambda da, clip: das.append(da.copy()) or da)
    R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    monkeypatch.undo()
    clip = float(np.quantile(np.abs(np.concatenate(das)), 0.6))
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)
    for nch in chunks():
        got = backward(p, forward(p, norm, nch)[3], dy, norm, nch, clip=clip)
        for k in range(used(norm)):
            assert close(got[k], want[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_two_pieces_with_states_carried_are_one_sequence(norm, I):
    """Forward over steps [0, 2) then [2, 5) from (hT, cT) of the first: the whole run's y, hT, cT. Backward of
    the second piece, then of the first with dy[1] += the second's dh0 and dcT = its dc0: the whole run's dx,
    dh0, dc0 and the sums of the parameter gradients; the second piece's dh0 is the reference's record of
    dL/dh_1 less dy_1."""
    T, T1, B, H = 5, 2, 5, 3
    p = problem(9260 + I, T, B, I, H)
    dy = np.random.default_rng(9270 + I).standard_normal((T, B, H))
    _, _, _, cache = R.lstm_forward(*[p[k] for k in FWD], norm, EPS)
    record = []
    R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, record=record)
    dh_total = record[::-1]  # dL/dh_t, t = 0 .. T-1
    x1, x2 = np.ascontiguousarray(p["x"][:T1]), np.ascontiguousarray(p["x"][T1:])
    for nch in chunks():
        y, hT, cT, saved = forward(p, norm, nch)
        whole = backward(p, saved, dy, norm, nch)
        y1, h1, c1, s1 = forward(p, norm, nch, x=x1)
        y2, h2, c2, s2 = forward(p, norm, nch, x=x2, h0=h1, c0=c1)
        assert close(np.concatenate([y1, y2]), y) < 1e-13 and close(h2, hT) < 1e-13 and close(c2, cT) < 1e-13
        g2 = backward(p, s2, np.ascontiguousarray(dy[T1:]), norm, nch, x=x2, h0=h1, c0=c1)
        assert close(g2[1], dh_total[T1 - 1] - dy[T1 - 1]) < 1e-10, nch
        dy1 = np.ascontiguousarray(dy[:T1]).copy()
        dy1[-1] += g2[1]
        g1 = backward(p, s1, dy1, norm, nch, x=x1, dcT=np.ascontiguousarray(g2[2]))
        assert close(np.concatenate([g1[0], g2[0]]), whole[0]) < 1e-10, nch
        assert close(g1[1], whole[1]) < 1e-10 and close(g1[2], whole[2]) < 1e-10, nch
        for k in range(3, used(norm)):
            assert close(g1[k] + g2[k], whole[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_infer_one_step_at_a_time_is_the_sequence(norm, I):
    """lstm_infer over all T steps, and lstm_infer called on one step at a time with the states carried, give
    the definition's y and final states."""
    T, B, H = 4, 5, 3
    p = problem(9280 + I, T, B, I, H)
    yd, cd = by_definition(p, norm)
    for nch in chunks():
        y, hT, cT = lstm_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        assert close(y, yd) < 1e-12 and close(hT, yd[-1]) < 1e-12 and close(cT, cd[-1]) < 1e-12, nch
        h, c = p["h0"], p["c0"]
        for t in range(T):
            q = dict(p, x=np.ascontiguousarray(p["x"][t:t + 1]), h0=h, c0=c)
            yt, h, c = lstm_infer(*[q[k] for k in FWD], NORM[norm], EPS, nch)
            assert close(yt[0], yd[t]) < 1e-12 and close(h, yd[t]) < 1e-12 and close(c, cd[t]) < 1e-12, (nch, t)
