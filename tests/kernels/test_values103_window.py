"""The window op's CPU kernel (lnrnn/kernels/window.py) on ragged rows, BatchNorm and the gate clip: texts of 1, 0
and 3 characters (a row of length 0: phi and w exactly 0 there) and strokes of 3, 1 and 2 steps. Compared against:
the layer written out in NumPy with LayerNorm (x and h sides each with their own gain and shift; p_t read from h_t);
central differences of sum(dy y + dw w) over the active (row, step) pairs in float64, without a norm and with
BN_t (statistics over the active rows), for x, the initial h, c, kappa and w, the weights and biases and the BN
gains; BN_t's running rows after one training step against the definition (mean and n/(n-1) times the variance of
the active rows, folded with the momentum); dbx and dbh exactly zero with BN (no shift on the x and h sides); the
clipped backward against lnrnn.reference's (the spec, reference.clip_gate_grads) with a bound that bites.

T = 3, B = 3, I = 2, H = 3, K = 2, C = 4, U = 5 (test_values84_window's problem, its texts cut). float64: forward to
1e-12, gradients to 1e-6."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_lstm_backward, window_lstm_forward
from gradcheck_util import numeric_grad
import test_values84_window as base  # noqa: E402  (the problem: initial state, weights, texts)

T, B, I, H, K, C, U = 3, base.B, base.I, base.H, base.K, base.C, base.U
G = 4 * H
ULEN = np.array([1, 0, 3], np.int64)      # one character, none, three
LENGTHS = np.array([3, 1, 2], np.int64)   # every step, one, two
EPS, MOM = 1e-5, 0.1
TOL, TOL_GRAD = 1e-12, 1e-6


def problem(seed):
    a = base.problem(seed, T=T)
    a["ulen"] = ULEN.copy()  # base pads past 1, 5, 3 characters: every code read here is in range
    return a


def running():
    """Fresh running rows (Ts = T) rmx, rvx, rmh, rvh, rmc, rvc: means 0.1, variances 0.9."""
    return tuple(np.full((T, F), v) for F, v in zip((G, G, G, G, H, H), (0.1, 0.9) * 3))


def forward(a, norm, lengths=LENGTHS, keep=True, run=None, x=None):
    run = run if run is not None else (running() if norm == NORM_BN else (np.empty((0, 0)),) * 6)
    return window_lstm_forward(a["x"] if x is None else x, a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"],
                               a["ulen"], a["Wx"], a["Wh"], a["b"], a["gx"], a["bx"], a["gh"], a["bh"], a["gc"],
                               a["bc"], a["Wp"], a["bp"], *run, norm, True, MOM, EPS, lengths, keep)


def backward(a, out, dy, dw, norm, clip=0.0):
    return window_lstm_backward(dy, dw, out[7], a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"], a["ulen"],
                                a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], norm, clip)


def layernorm(v, g, s):
    m = v.mean(axis=1, keepdims=True)
    return g * (v - m) / np.sqrt(v.var(axis=1, keepdims=True) + EPS) + s


def by_hand_ln(a):
    """y, w, phi of the layer with LayerNorm on both products and the cell, written out (test_values84_window's)."""
    return base.by_hand(a, ln=layernorm)[:3]


def test_layernorm_forward_equals_the_layer_written_out_and_an_empty_text_weighs_nothing():
    a = problem(31)
    y, w, _, _, _, _, phi, _ = forward(a, NORM_LN, lengths=None)
    want = by_hand_ln(a)
    for name, g, e in zip(("y", "w", "phi"), (y, w, phi), want):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    assert np.all(phi[:, 1] == 0.0) and np.all(w[:, 1] == 0.0)  # the row of no characters
    assert np.all(phi[:, 0, 1:] == 0.0) and np.all(phi[:, 0, 0] > 0.0)  # one character: phi there only
    assert np.all(phi[:, 2, 3:] == 0.0) and np.all(phi[:, 2, 2] > 0.0)


GRADS = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_BN])
def test_ragged_gradients_equal_central_differences_of_the_active_steps(norm):
    a = problem(32)
    rng = np.random.default_rng(320)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    on = (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]  # (T,B,1) active (step, row)
    got = dict(zip(GRADS, backward(a, forward(a, norm), dy, dw, norm)))

    def loss():
        y, w = forward(a, norm, keep=False)[:2]
        return float(np.sum(on * dy * y) + np.sum(on * dw * w))

    names = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "Wp", "bp")
    if norm == NORM_BN:
        names += ("gx", "gh", "gc", "bc")
    for name in names:
        want = numeric_grad(loss, a[name], eps=1e-6, order=2)
        np.testing.assert_allclose(got[name], want, rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=f"d{name}")
    if norm == NORM_BN:  # BN_t has no shift on the x and h sides: b alone shifts them
        assert np.all(got["bx"] == 0.0) and np.all(got["bh"] == 0.0)
        assert np.any(got["b"] != 0.0)
    np.testing.assert_array_equal(got["x"][1:, 1], 0.0)  # row 1 runs one step: no later dx


def test_bn_running_rows_after_one_step_equal_the_definition():
    a = problem(33)
    run = running()
    before = tuple(r.copy() for r in run)
    lengths = np.array([1, 0, 1], np.int64)  # rows 0 and 2 active at step 0
    forward(a, NORM_BN, lengths=lengths, run=run, x=a["x"][:1])
    act = lengths > 0
    xw = np.concatenate([a["x"][0], a["w0"]], axis=1) @ a["Wx"]
    hw = a["h0"] @ a["Wh"]
    for k, v in enumerate((xw, hw)):
        m, var = v[act].mean(axis=0), v[act].var(axis=0, ddof=1)  # n/(n-1) times the batch variance
        np.testing.assert_allclose(run[2 * k][0], (1 - MOM) * before[2 * k][0] + MOM * m, rtol=TOL, atol=TOL)
        np.testing.assert_allclose(run[2 * k + 1][0], (1 - MOM) * before[2 * k + 1][0] + MOM * var, rtol=TOL,
                                   atol=TOL)
        for r in range(4):  # rows of the steps not run stay as they were
            np.testing.assert_array_equal(run[r][1:], before[r][1:])


def test_clipped_backward_equals_the_reference():
    a = problem(34)
    rng = np.random.default_rng(340)
    dy, dw = 3.0 * rng.standard_normal((T, B, H)), 3.0 * rng.standard_normal((T, B, C))
    out = forward(a, NORM_NONE, lengths=None)
    free = dict(zip(GRADS, backward(a, out, dy, dw, NORM_NONE)))
    clip = 0.05
    assert np.max(free["b"]) > T * B * clip and np.min(free["b"]) < -T * B * clip  # the bound bites both ways
    got = dict(zip(GRADS, backward(a, out, dy, dw, NORM_NONE, clip)))
    cache = ref.window_lstm_forward(a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"], a["ulen"], a["Wx"],
                                    a["Wh"], a["b"], a["gx"], a["bx"], a["gh"], a["bh"], a["gc"], a["bc"], a["Wp"],
                                    a["bp"], *(None,) * 6, "none")[7]
    want = dict(zip(GRADS, ref.window_lstm_backward(dy, dw, cache, a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"],
                                                    a["Wp"], a["chars"], clip)))
    assert np.all(np.abs(got["b"]) <= T * B * clip + 1e-12)  # every step's dL/da in [-clip, clip]
    for name in ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "Wp", "bp"):
        np.testing.assert_allclose(got[name], want[name], rtol=1e-10, atol=1e-10, err_msg=f"d{name}")
