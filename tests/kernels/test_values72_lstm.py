"""The CPU LSTM (lnrnn/kernels/lstm.py) in float64 against the NumPy reference (lnrnn/reference.py) and central
differences, on the paths a default shape may not take: narrow inputs (I <= config.FOLD_MAX_I, x Wx in the row
loop, the LayerNorm of x_t Wx in closed form) and wide ones, one to three steps, B = 5 rows on 1, 2 and 3 chunks
(uneven: 3+2, 2+2+1), gains away from 1; the forward the same bits on every chunk count and lstm_infer the same
bits as lstm_forward; dL/dh and dL/dc seeded at the last step only; Graves's clip binding on some entries only;
a wide input's dWx, dx and dWh blocks cut short so that the T*B rows cross several block edges."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
import lnrnn.kernels.lstm as L
from lnrnn.kernels.lstm import lstm_backward, lstm_forward, lstm_infer
from gradcheck_util import numeric_grad
from split_bits import same_split
from test_values11_lstm import EPS, FWD, NORM, close

WIDTHS = [1, 3, FOLD_MAX_I, FOLD_MAX_I + 2]  # narrow (fold) up to the bound, then wide
NAMES = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc", "dbc")


def problem(rng, T, B, I, H):
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return shift + scale * rng.standard_normal(s)
    return dict(x=P(T, B, I), h0=P(B, H), c0=P(B, H), Wx=P(I, G, scale=0.6), Wh=P(H, G, scale=0.6), b=P(G, scale=0.5),
                gx=P(G, scale=0.4, shift=1), bx=P(G, scale=0.3), gh=P(G, scale=0.4, shift=0.8),
                bh=P(G, scale=0.3), gc=P(H, scale=0.4, shift=1.2), bc=P(H, scale=0.3))


def forward(p, norm, nchunks, eps=EPS):
    return lstm_forward(*[p[k] for k in FWD], NORM[norm], eps, nchunks)


def backward(p, saved, dy, norm, nchunks, **kw):
    return lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm],
                         nchunks, **kw)


def reference(p, norm, dy, clip=0.0):
    y, hT, cT, cache = R.lstm_forward(*[p[k] for k in FWD], norm, EPS)
    return (y, hT, cT), R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)


def grads_used(norm):
    return len(NAMES) if norm == "ln" else 6  # the plain LSTM returns zeros for the LN parameters


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
@pytest.mark.parametrize("T", [1, 2, 3])
def test_forward_and_backward_against_the_reference_on_chunks(norm, I, T):
    """y, hT, cT and all twelve gradients the reference's on 1, 2 and 3 chunks; the forward's outputs and saved
    arrays the same bits on every chunk count; lstm_infer's y, hT, cT the same bits as lstm_forward's."""
    B, H = 5, 3
    rng = np.random.default_rng(7200 + 10 * I + T)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    (yr, hr, cr), want = reference(p, norm, dy)
    first = None
    for nch in (1, 2, 3):
        y, hT, cT, saved = forward(p, norm, nch)
        assert close(y, yr) < 1e-12 and close(hT, hr) < 1e-12 and close(cT, cr) < 1e-12, nch
        if first is None:
            first = (y, hT, cT, saved)
        else:
            assert same_split(y, first[0]) and same_split(hT, first[1]) and same_split(cT, first[2])
            for k, (a, b) in enumerate(zip(saved, first[3])):
                assert same_split(a, b), (nch, k)
        yi, hi, ci = lstm_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        assert np.array_equal(yi, y) and np.array_equal(hi, hT) and np.array_equal(ci, cT), nch
        got = backward(p, saved, dy, norm, nch)
        for k in range(grads_used(norm)):
            assert close(got[k], want[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 1])
def test_seeds_at_the_last_step_only_by_central_differences(norm, I):
    """L = sum(dy_{T-1} * h_{T-1}) + sum(dcT * c_{T-1}): dy zero but at the last step, each row its own dcT;
    every input and parameter gradient against central differences of L, on 2 and 3 chunks (rows 3+2, 2+2+1)."""
    T, B, H = 2, 5, 3
    rng = np.random.default_rng(7230 + I)
    p = problem(rng, T, B, I, H)
    dy = np.zeros((T, B, H))
    dy[-1] = rng.standard_normal((B, H))
    dcT = rng.standard_normal((B, H)) * np.arange(1, B + 1)[:, None]

    def loss():
        y, _, cT, _ = forward(p, norm, 1)
        return float(np.sum(dy * y) + np.sum(dcT * cT))

    wrt = ("x", "h0", "c0", "Wx", "Wh", "b") + (("gx", "bx", "gh", "bh", "gc", "bc") if norm == "ln" else ())
    num = {k: numeric_grad(loss, p[k], eps=1e-4, order=4) for k in wrt}
    for nch in (2, 3):
        got = backward(p, forward(p, norm, nch)[3], dy, norm, nch, dcT=dcT)
        for k, name in enumerate(wrt):
            assert close(got[k], num[name]) < 1e-7, (nch, name)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 3, FOLD_MAX_I + 2])
def test_a_clip_binding_on_some_entries_is_the_references(norm, I, monkeypatch):
    """A bound at the median of |dL/da| over every step: some entries clipped, some not; every gradient the
    reference's with the same clip, on 1 and 3 chunks; a bound above every |dL/da| is the unclipped result."""
    T, B, H = 3, 5, 2
    rng = np.random.default_rng(7240 + I)
    p = problem(rng, T, B, I, H)
    dy = 3.0 * rng.standard_normal((T, B, H))
    das = []  # dL/da of every step (B,G), as the reference's backward hands it to its clip
    monkeypatch.setattr(R, "clip_gate_grads", lambda da, clip: das.append(da.copy()) or da)
    reference(p, norm, dy)
    monkeypatch.undo()
    mags = np.abs(np.concatenate(das))
    clip = float(np.median(mags))
    assert (mags > clip).mean() > 0.3 and (mags < clip).mean() > 0.3  # the bound binds on some entries only
    _, want = reference(p, norm, dy, clip=clip)
    _, free = reference(p, norm, dy)
    for nch in (1, 3):
        saved = forward(p, norm, nch)[3]
        got = backward(p, saved, dy, norm, nch, clip=clip)
        for k in range(grads_used(norm)):
            assert close(got[k], want[k]) < 1e-10, (nch, NAMES[k])
        loose = backward(p, saved, dy, norm, nch, clip=2 * float(mags.max()))
        for k in range(grads_used(norm)):
            assert close(loose[k], free[k]) < 1e-10, (nch, NAMES[k])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("tw", [False, True], ids=["blas", "transposed"])
@pytest.mark.parametrize("nb,xrows", [(3, 3), (3, 6), (2, 1), (7, 100)])
def test_wide_input_blocks_crossing_their_edges(norm, tw, nb, xrows, monkeypatch):
    """A wide input over T = 7 steps of B = 5 rows on 2 chunks (3+2 rows; m = 3): dWh blocks of nb steps
    (blas.dwh_blocks replaced here) and x blocks of config.DWX_BLOCK_ROWS // m steps within them, so that
    several x blocks share one dWh block and the last ones of each are short; the blocks' products on the
    BLAS or transposed (grad_t_add). dx, dWx, dWh and the rest the reference's."""
    T, B, I, H = 7, 5, FOLD_MAX_I + 2, 3
    monkeypatch.setattr(L, "dwh_blocks", lambda *a: (nb, tw))
    monkeypatch.setattr(L, "DWX_BLOCK_ROWS", xrows)
    rng = np.random.default_rng(7250 + nb)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    _, want = reference(p, norm, dy)
    got = backward(p, forward(p, norm, 2)[3], dy, norm, 2)
    for k in range(grads_used(norm)):
        assert close(got[k], want[k]) < 1e-10, NAMES[k]
