"""The CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py) with every option at once against the NumPy spec
(lnrnn/reference.py) in float64: B = 5 rows on 1, 2 and 3 chunks (none a divisor of 5), inputs 1, 2, 3,
FOLD_MAX_I, FOLD_MAX_I + 1 and FOLD_MAX_I + 3 columns wide (around the bound of the narrow path), gains and
biases away from 1 and 0, a forget bias of +1; lstm_forward and lstm_infer (no saved arrays) over the whole
sequence and in pieces carrying (h, c); every gradient of lstm_backward against the reference's, with Graves's
gate clip off and binding (reference.clip_gate_grads); every gradient and a final-cell gradient (dcT) against
central differences of the reference's loss; float32 against float64 within float32 tolerance. The
per-step product not chosen at import: test_values147_rec_products."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE, lstm_backward, lstm_forward, lstm_infer
from gradcheck_util import numeric_grad

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
GRADS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
WIDTHS = [1, 2, 3, FOLD_MAX_I, FOLD_MAX_I + 1, FOLD_MAX_I + 3]


def rel(a, b):
    return float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30))


def problem(seed, T, B, I, H):
    """Gains near 1.3, 0.8 and 1.4 (each element its own), biases away from 0, b's forget block shifted by +1,
    x columns of several scales, h0 and c0 away from 0."""
    rng = np.random.default_rng(seed)
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    b = P(G, scale=0.4, shift=0.1)
    b[H:2 * H] += 1.0  # forget bias
    x = P(T, B, I) * np.linspace(0.6, 1.8, I)
    return dict(x=np.ascontiguousarray(x), h0=P(B, H, scale=0.7, shift=0.2), c0=P(B, H, scale=0.6, shift=0.5),
                Wx=P(I, G, scale=0.7, shift=0.1), Wh=P(H, G, scale=0.6), b=b,
                gx=P(G, scale=0.3, shift=1.3), bx=P(G, scale=0.3, shift=-0.2), gh=P(G, scale=0.3, shift=0.8),
                bh=P(G, scale=0.3, shift=0.3), gc=P(H, scale=0.3, shift=1.4), bc=P(H, scale=0.3, shift=0.4))


def spec(p, norm):
    """y, hT, cT, cache of reference.lstm_forward."""
    return R.lstm_forward(*[p[k] for k in FWD], norm, EPS)


def kernel_backward(p, saved, dy, norm, nch, clip=0.0, dcT=None):
    return lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                         NORM[norm], nch, clip=clip, dcT=dcT)


def check_central_differences(p, norm, nch, wy, wc=None, eps=1e-4):
    """Every gradient of the kernel on nch chunks against central differences of the loss sum(wy y) (+ sum(wc c_T),
    the kernel given dcT = wc) through reference.lstm_forward."""
    def loss():
        y, _, c, _ = spec(p, norm)
        return float((wy * y).sum() + (0.0 if wc is None else (wc * c).sum()))
    _, _, _, saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
    got = kernel_backward(p, saved, wy, norm, nch, dcT=wc)
    for name, g in zip(GRADS, got):
        want = numeric_grad(loss, p[name], eps=eps)
        assert g.shape == want.shape, name
        assert np.max(np.abs(g - want)) < 1e-7 * max(1.0, float(np.max(np.abs(want)))), (name, g, want)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_forward_and_infer_whole_and_in_pieces_against_the_spec(norm, I):
    """T = 4, B = 5: outputs, final h and c of both entry points on 1, 2 and 3 chunks; then pieces [0, 1),
    [1, 3), [3, 4) with (h, c) carried from each piece to the next give the same outputs and final state."""
    T, B, H = 4, 5, 3
    p = problem(14700 + I, T, B, I, H)
    y, hT, cT, _ = spec(p, norm)
    for nch in (1, 2, 3):
        yf, hf, cf, _ = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        yi, hi, ci = lstm_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        for name, got, want in (("y", yf, y), ("hT", hf, hT), ("cT", cf, cT),
                                ("infer y", yi, y), ("infer hT", hi, hT), ("infer cT", ci, cT)):
            assert got.shape == want.shape, (name, nch)
            assert rel(got, want) < 1e-12, (name, nch, rel(got, want))
        for run in (lambda q: lstm_forward(*[q[k] for k in FWD], NORM[norm], EPS, nch)[:3],
                    lambda q: lstm_infer(*[q[k] for k in FWD], NORM[norm], EPS, nch)):
            h, c, ys = p["h0"], p["c0"], []
            for lo, hi_ in ((0, 1), (1, 3), (3, 4)):
                yp, h, c = run(dict(p, x=np.ascontiguousarray(p["x"][lo:hi_]), h0=h, c0=c))
                ys.append(yp)
            assert rel(np.concatenate(ys), y) < 1e-12, nch
            assert rel(h, hT) < 1e-12 and rel(c, cT) < 1e-12, nch


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 3, FOLD_MAX_I, FOLD_MAX_I + 1, FOLD_MAX_I + 3])
def test_every_gradient_against_the_spec_with_and_without_the_clip(norm, I):
    """T = 4, B = 5 on 1 and 3 chunks; clip 0 (off) and 0.05 (binds on many gate derivatives: checked)."""
    T, B, H = 4, 5, 3
    p = problem(14720 + I, T, B, I, H)
    dy = np.random.default_rng(14740 + I).standard_normal((T, B, H))
    _, _, _, cache = spec(p, norm)
    for clip in (0.0, 0.05):
        want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)
        if clip:  # the bound is reached somewhere, else this run would not test it
            da = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
            assert rel(da[5], want[5]) > 1e-3
        for nch in (1, 3):
            _, _, _, saved = lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
            got = kernel_backward(p, saved, dy, norm, nch, clip=clip)
            for name, g, w in zip(GRADS, got, want):
                assert g.shape == w.shape, (name, nch, clip)
                assert np.max(np.abs(g - w)) <= 1e-10 * max(1.0, float(np.max(np.abs(w)))), (name, nch, clip)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [3, FOLD_MAX_I + 1])
def test_every_gradient_and_a_final_cell_gradient_against_central_differences(norm, I):
    """Loss sum(wy y) + sum(wc c_T) through reference.lstm_forward; the kernel gets wc as dcT. 3 chunks of
    B = 5 rows."""
    T, B, H = 3, 5, 2
    p = problem(14760 + I, T, B, I, H)
    rng = np.random.default_rng(14780 + I)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    check_central_differences(p, norm, 3, wy, wc, eps=1e-5)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 2])
def test_float32_against_float64(norm, I):
    """The same problem rounded to float32: outputs, final state and every gradient within float32's
    tolerance of the float64 run (the relative error of each against the float64 value's largest)."""
    T, B, H = 4, 5, 3
    p = problem(14800 + I, T, B, I, H)
    dy = np.random.default_rng(14820 + I).standard_normal((T, B, H))
    p32 = {k: v.astype(np.float32) for k, v in p.items()}
    out = {}
    for name, q, d in (("64", p, dy), ("32", p32, dy.astype(np.float32))):
        y, hT, cT, saved = lstm_forward(*[q[k] for k in FWD], NORM[norm], EPS, 2)
        yi = lstm_infer(*[q[k] for k in FWD], NORM[norm], EPS, 2)[0]
        out[name] = (y, hT, cT, yi) + tuple(kernel_backward(q, saved, d, norm, 2))
    for k, (a, b) in enumerate(zip(out["32"], out["64"])):
        assert a.dtype == np.float32, k
        if np.max(np.abs(b)) > 0:
            assert rel(a.astype(np.float64), b) < 2e-4, (k, rel(a.astype(np.float64), b))

