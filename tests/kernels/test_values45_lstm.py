"""The CPU LSTM (lnrnn/kernels/lstm.py) off its default paths, against the NumPy reference in float64: an eps
far from the default (all three LayerNorms feel it), every input width from 1 to past config.FOLD_MAX_I, B rows
on 1, 2 and 3 chunks, lstm_infer bit for bit lstm_forward; Graves's clip biting at every step, step 0
included; the float32 gates against the float64 sigmoid and tanh of the same preactivation; plan_steps's
regions computed by hand from the arrays' addresses."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE, fetch_table, lstm_backward, lstm_forward, lstm_infer, plan_steps

FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
NORM = {"none": NORM_NONE, "ln": NORM_LN}
WIDTHS = [1, 2, 3, FOLD_MAX_I, FOLD_MAX_I + 1, FOLD_MAX_I + 3]


def close(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def problem(rng, T, B, I, H, scale=0.5):
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return shift + scale * rng.standard_normal(s)
    return dict(x=P(T, B, I), h0=P(B, H), c0=P(B, H), Wx=P(I, G, scale=scale), Wh=P(H, G, scale=scale), b=P(G),
                gx=P(G, scale=0.3, shift=1), bx=P(G, scale=0.3), gh=P(G, scale=0.3, shift=1), bh=P(G, scale=0.3),
                gc=P(H, scale=0.3, shift=1), bc=P(H, scale=0.3))


def backward(p, saved, dy, norm, nchunks, **kw):
    return lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm],
                         nchunks, **kw)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_every_input_width_with_a_large_eps_against_the_reference(norm, I):
    """eps = 0.5 (50000 times the default: the variances here are O(0.1-10), so each LayerNorm's 1/std moves
    by up to 2x with it) over narrow and wide inputs, B = 5 rows on 1, 2 and 3 chunks: y, hT, cT and every
    gradient the reference's, and lstm_infer's y, hT, cT the same bits as lstm_forward's."""
    T, B, H, eps = 4, 5, 3, 0.5
    rng = np.random.default_rng(4500 + I)
    p = problem(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    yr, hr, cr, cache = R.lstm_forward(*[p[k] for k in FWD], norm, eps)
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for nch in (1, 2, 3):
        y, hT, cT, saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], eps, nch)
        assert close(y, yr) < 1e-12 and close(hT, hr) < 1e-12 and close(cT, cr) < 1e-12, nch
        yi, hi, ci = lstm_infer(*[p[k] for k in FWD], NORM[norm], eps, nch)
        assert np.array_equal(yi, y) and np.array_equal(hi, hT) and np.array_equal(ci, cT), nch
        got = backward(p, saved, dy, norm, nch)
        for k in range(6 if norm == "none" else 12):
            assert close(got[k], want[k]) < 1e-10, (nch, k)


@pytest.mark.parametrize("eps", [1e-5, 0.05, 2.0])
def test_the_eps_reaches_all_three_layernorms(eps):
    """The saved 1/std rows are 1/sqrt(var + eps) of x_t Wx, h_{t-1} Wh and c_t, their variances taken here
    from the saved c and y and the inputs, a wide input and a narrow one."""
    T, B, H = 3, 4, 2
    for I in (2, FOLD_MAX_I + 2):
        rng = np.random.default_rng(4510 + I)
        p = problem(rng, T, B, I, H)
        y, hT, cT, saved = lstm_forward(*[p[k] for k in FWD], NORM_LN, eps, 2)
        c, rstd = saved[1], saved[7]
        hprev = np.concatenate([p["h0"][None], y[:-1]])  # (T,B,H)
        want = np.stack([1 / np.sqrt((p["x"] @ p["Wx"]).var(axis=2) + eps),
                         1 / np.sqrt((hprev @ p["Wh"]).var(axis=2) + eps),
                         1 / np.sqrt(c.var(axis=2) + eps)])
        np.testing.assert_allclose(rstd, want, rtol=1e-11, atol=0)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 3, FOLD_MAX_I + 2])
def test_a_clip_that_bites_at_every_step_is_the_references(norm, I):
    """A bound small enough that dL/da is clipped at every step, the first one (t = 0, the last of BPTT)
    included: every gradient equals reference.lstm_backward's with the same clip, on 1 and 2 chunks."""
    T, B, H, clip = 3, 5, 3, 0.02
    rng = np.random.default_rng(4520 + I)
    p = problem(rng, T, B, I, H)
    dy = 3.0 * rng.standard_normal((T, B, H))
    _, _, _, cache = R.lstm_forward(*[p[k] for k in FWD], norm)
    bites = []
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)
    free = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for t in range(T):  # the clip changes step t's own dx: it bites there
        bites.append(close(want[0][t], free[0][t]) > 1e-3)
    assert all(bites)
    for nch in (1, 2):
        saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], 1e-5, nch)[3]
        got = backward(p, saved, dy, norm, nch, clip=clip)
        for k in range(6 if norm == "none" else 12):
            assert close(got[k], want[k]) < 1e-11, (nch, k)


def _sig64(z):
    return 1.0 / (1.0 + np.exp(-z))


@pytest.mark.parametrize("I", [1, FOLD_MAX_I + 1])
def test_float32_gates_are_the_float64_functions_of_their_preactivation(I):
    """Plain LSTM, one step, h0 = 0 and Wx's first row 1, the rest 0: every gate's preactivation is
    x_t[0] + b_j exactly (multiples of 1/64 below 16), over a grid of 9 x 80 values around 0 (where a
    sigmoid near 1/2 shows its exp's relative error at full weight). The i, f, o gates are within 1.1e-7
    of the float64 sigmoid of that value, the g gates (2 sigmoid(2z) - 1) within 2.2e-7 of tanh (the float32
    arithmetic here stays below 7.5e-8 and 1.5e-7; a reduction to [0, ln2) instead of |r| <= ln2/2 reaches 1.6e-7
    and 3.2e-7)."""
    T, B, H = 1, 9, 20
    G = 4 * H
    dt = np.float32
    x = np.zeros((T, B, I), dt)
    x[0, :, 0] = np.arange(B) / 64.0 - 4 / 64.0
    b = ((np.arange(G) * 37) % G - G // 2) / 32.0  # (G,) -1.25 .. 1.22 in steps of 1/32, shuffled over the blocks
    Wx = np.zeros((I, G), dt)
    Wx[0] = 1.0
    z = (x[0, :, 0:1].astype(np.float64) + b[None, :])  # (B,G) exact in float32 too
    h0 = np.zeros((B, H), dt)
    ones, zeros = np.ones(G, dt), np.zeros(G, dt)
    y, hT, cT, saved = lstm_forward(x, h0, h0.copy(), Wx, np.zeros((H, G), dt), b.astype(dt), ones, zeros, ones,
                                    zeros, np.ones(H, dt), np.zeros(H, dt), NORM_NONE, 1e-5, 2)
    a = saved[0][0].astype(np.float64)  # (B,G)
    sig = np.r_[0:2 * H, 3 * H:G]
    err_sig = np.abs(a[:, sig] - _sig64(z[:, sig])).max()
    err_tanh = np.abs(a[:, 2 * H:3 * H] - np.tanh(z[:, 2 * H:3 * H])).max()
    assert err_sig < 1.1e-7, err_sig
    assert err_tanh < 2.2e-7, err_tanh


def test_plan_regions_by_hand():
    """plan_steps over arrays of 1 to 5 steps, 1 to 7 rows of 3 to 33 values: for each array with steps, its
    region is [address of row lo of step (t + offset) mod steps, rounded down to 64 bytes; end of row
    hi - 1 of that step), counted from the arrays' own addresses; a step before 0 has none."""
    rng = np.random.default_rng(4530)
    for dtype in (np.float32, np.float64):
        for _ in range(20):
            B = int(rng.integers(1, 8))
            arrays = tuple(np.zeros((int(rng.integers(1, 6)), B, int(rng.integers(3, 34))), dtype) for _ in range(4))
            offsets = tuple(int(v) for v in rng.integers(-2, 1, 4))
            tab = fetch_table(arrays, offsets)
            plan = np.full((4, 2), -7, np.int64)
            lo = int(rng.integers(0, B))
            hi = int(rng.integers(lo + 1, B + 1))
            t = int(rng.integers(0, 6))
            n = plan_steps(plan, tab, t, lo, hi)
            want = []
            for a, off in zip(arrays, offsets):
                s = t + off
                if s < 0:
                    continue
                row_bytes = a.shape[2] * a.itemsize
                first = a.ctypes.data + (s % a.shape[0]) * B * row_bytes + lo * row_bytes
                end = first + (hi - lo) * row_bytes
                want.append((first - first % 64, end - (first - first % 64)))
            assert n == len(want)
            assert [tuple(r) for r in plan[:n]] == want, (t, lo, hi, offsets)
