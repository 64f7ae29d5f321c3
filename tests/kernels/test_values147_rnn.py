"""The CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) with every option at once against the NumPy spec
(lnrnn/reference.py) in float64: B = 5 rows on 1, 2 and 3 chunks, inputs 1, 2, FOLD_MAX_I, FOLD_MAX_I + 1 and
FOLD_MAX_I + 3 columns wide, gain and bias away from 1 and 0; rnn_forward and rnn_infer (no saved arrays)
over the whole sequence and in pieces carrying h; every gradient of rnn_backward against the reference's and
against central differences of the reference's loss; float32 against float64 within float32 tolerance. The
per-step product not chosen at import: test_values147_rec_products."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels.rnn import NORM_LN, NORM_NONE, rnn_backward, rnn_forward, rnn_infer
from gradcheck_util import numeric_grad

EPS = 1e-5
NORM = {"none": NORM_NONE, "ln": NORM_LN}
FWD = ("x", "h0", "Wx", "Wh", "b", "g")
GRADS = ("x", "h0", "Wx", "Wh", "b", "g")
WIDTHS = [1, 2, FOLD_MAX_I, FOLD_MAX_I + 1, FOLD_MAX_I + 3]


def rel(a, b):
    return float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30))


def problem(seed, T, B, I, H):
    """Gain near 1.4 (each element its own), bias away from 0, x columns of several scales, h0 away from 0."""
    rng = np.random.default_rng(seed)

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    x = P(T, B, I) * np.linspace(0.6, 1.8, I)
    return dict(x=np.ascontiguousarray(x), h0=P(B, H, scale=0.8, shift=0.3), Wx=P(I, H, scale=0.6, shift=0.1),
                Wh=P(H, H, scale=0.7), b=P(H, scale=0.4, shift=0.3), g=P(H, scale=0.3, shift=1.4))


def spec(p, norm):
    """y, hT, cache of reference.rnn_forward."""
    return R.rnn_forward(*[p[k] for k in FWD], norm, EPS)


def kernel_backward(p, saved, dy, norm, nch):
    return rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], nch)


def check_central_differences(p, norm, dy):
    """Every gradient of the kernel on 3 chunks against central differences of the loss sum(dy y) through
    reference.rnn_forward."""
    def loss():
        return float((dy * spec(p, norm)[0]).sum())
    saved = rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, 3)[2]
    got = kernel_backward(p, saved, dy, norm, 3)
    for name, g in zip(GRADS, got):
        want = numeric_grad(loss, p[name], eps=1e-5)
        assert g.shape == want.shape, name
        assert np.max(np.abs(g - want)) < 1e-7 * max(1.0, float(np.max(np.abs(want)))), (name, g, want)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_forward_and_infer_whole_and_in_pieces_against_the_spec(norm, I):
    """T = 4, B = 5: outputs and final h of both entry points on 1, 2 and 3 chunks; pieces [0, 1), [1, 3),
    [3, 4) with h carried over give the same."""
    T, B, H = 4, 5, 3
    p = problem(14900 + I, T, B, I, H)
    y, hT, _ = spec(p, norm)
    for nch in (1, 2, 3):
        yf, hf, _ = rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        yi, hi = rnn_infer(*[p[k] for k in FWD], NORM[norm], EPS, nch)
        for name, got, want in (("y", yf, y), ("hT", hf, hT), ("infer y", yi, y), ("infer hT", hi, hT)):
            assert got.shape == want.shape, (name, nch)
            assert rel(got, want) < 1e-12, (name, nch, rel(got, want))
        for run in (lambda q: rnn_forward(*[q[k] for k in FWD], NORM[norm], EPS, nch)[:2],
                    lambda q: rnn_infer(*[q[k] for k in FWD], NORM[norm], EPS, nch)):
            h, ys = p["h0"], []
            for lo, hi_ in ((0, 1), (1, 3), (3, 4)):
                yp, h = run(dict(p, x=np.ascontiguousarray(p["x"][lo:hi_]), h0=h))
                ys.append(yp)
            assert rel(np.concatenate(ys), y) < 1e-12 and rel(h, hT) < 1e-12, nch


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_every_gradient_against_the_spec(norm, I):
    """T = 4, B = 5 on 1 and 3 chunks."""
    T, B, H = 4, 5, 3
    p = problem(14920 + I, T, B, I, H)
    dy = np.random.default_rng(14940 + I).standard_normal((T, B, H))
    _, _, cache = spec(p, norm)
    want = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    for nch in (1, 3):
        saved = rnn_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)[2]
        got = kernel_backward(p, saved, dy, norm, nch)
        for name, gk, w in zip(GRADS, got, want):
            assert gk.shape == w.shape, (name, nch)
            assert np.max(np.abs(gk - w)) <= 1e-10 * max(1.0, float(np.max(np.abs(w)))), (name, nch)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 1])
def test_every_gradient_against_central_differences(norm, I):
    """Loss sum(wy y) through reference.rnn_forward; 3 chunks of B = 5 rows. The plain RNN's gain is unused:
    its gradient is zeros, as its differences are."""
    T, B, H = 3, 5, 3
    p = problem(14960 + I, T, B, I, H)
    check_central_differences(p, norm, np.random.default_rng(14980 + I).standard_normal((T, B, H)))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 2])
def test_float32_against_float64(norm, I):
    """The same problem rounded to float32: outputs, final h and every gradient within float32's tolerance
    of the float64 run."""
    T, B, H = 4, 5, 3
    p = problem(15000 + I, T, B, I, H)
    dy = np.random.default_rng(15020 + I).standard_normal((T, B, H))
    p32 = {k: v.astype(np.float32) for k, v in p.items()}
    out = {}
    for name, q, d in (("64", p, dy), ("32", p32, dy.astype(np.float32))):
        y, hT, saved = rnn_forward(*[q[k] for k in FWD], NORM[norm], EPS, 2)
        yi = rnn_infer(*[q[k] for k in FWD], NORM[norm], EPS, 2)[0]
        out[name] = (y, hT, yi) + tuple(kernel_backward(q, saved, d, norm, 2))
    for k, (a, b) in enumerate(zip(out["32"], out["64"])):
        assert a.dtype == np.float32, k
        if np.max(np.abs(b)) > 0:
            assert rel(a.astype(np.float64), b) < 2e-4, (k, rel(a.astype(np.float64), b))
