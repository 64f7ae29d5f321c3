"""The window's CPU kernel (lnrnn/kernels/window.py) in float64 on strokes of 4, 2 and 3 steps and texts of 2, 5
and 1 characters: BN_t at inference (each step's own running rows, eps 0.3) against lnrnn.reference's forward, and
its backward (BN_t's running rstd in every dx) against central differences of sum(dy y + dw w) over the active
(step, row) pairs; BN_t in training against the reference (each step normalized by the biased variance of its
active rows; the running rows folded with n/(n-1)); LayerNorm's backward (the x and h sides in buffers of their
own) against central differences; every gradient includes step 0's share and the carried-in state's."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_BN, NORM_LN
from lnrnn.kernels.window import window_lstm_backward, window_lstm_forward
from gradcheck_util import numeric_grad

T, B, I, H, K, C, U = 4, 3, 2, 3, 2, 4, 5
G = 4 * H
ULEN = np.array([2, 5, 1], np.int64)
LENGTHS = np.array([4, 2, 3], np.int64)
EPS, MOMENTUM = 0.3, 0.2
TOL, TOL_GRAD = 1e-10, 1e-6
NAMES = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


def problem(seed, Ts=T + 1):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, C, (B, U)).astype(np.int64)
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = dict(Wx=0.5 * rng.standard_normal((I + C, G)), Wh=0.5 * rng.standard_normal((H, G)),
             b=0.2 * rng.standard_normal(G), gx=1.0 + 0.3 * rng.standard_normal(G), bx=0.2 * rng.standard_normal(G),
             gh=1.0 + 0.3 * rng.standard_normal(G), bh=0.2 * rng.standard_normal(G),
             gc=1.0 + 0.3 * rng.standard_normal(H), bc=0.2 * rng.standard_normal(H),
             Wp=0.4 * rng.standard_normal((H, 3 * K)),
             bp=np.concatenate([0.2 + 0.2 * rng.standard_normal(K), -0.5 + 0.2 * rng.standard_normal(K),
                                -0.3 + 0.2 * rng.standard_normal(K)]))
    run = [rng.normal(0.0, 0.7, (Ts, w)) if k % 2 == 0 else rng.uniform(0.2, 2.0, (Ts, w))
           for k, w in enumerate((G, G, G, G, H, H))]                 # rmx, rvx, rmh, rvh, rmc, rvc
    return x, state, (codes, ULEN.copy()), p, run


def forward(x, state, text, p, run, norm, training, keep=True):
    return window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *(r.copy() for r in run), norm, training,
                               MOMENTUM, EPS, LENGTHS, keep)


def active():
    return (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]     # (T,B,1)


def check_gradients(norm, training, seed):
    x, state, text, p, run = problem(seed)
    rng = np.random.default_rng(seed + 10)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    out = forward(x, state, text, p, run, norm, training)
    got = window_lstm_backward(dy, dw, out[7], x, *state, *text, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], p["Wp"],
                               norm, 0.0)
    on = active()

    def loss():
        y, w = forward(x, state, text, p, run, norm, training, keep=False)[:2]
        return float(np.sum(on * dy * y) + np.sum(on * dw * w))

    for name, g, v in zip(("dx", "dh0", "dc0", "dkappa0", "dw0"), got[:5], [x] + state):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=TOL_GRAD, atol=TOL_GRAD,
                                   err_msg=name)
    skip = ("bx", "bh") if norm == NORM_BN else ()                    # BN_t has no x and h shifts (b is theirs)
    for name, g in zip(NAMES, got[5:]):
        want = np.zeros_like(g) if name in skip else numeric_grad(loss, p[name], eps=1e-6, order=2)
        np.testing.assert_allclose(g, want, rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=f"d{name}")


def test_bn_inference_forward_reads_each_steps_running_rows_as_the_reference():
    x, state, text, p, run = problem(1)
    got = forward(x, state, text, p, run, NORM_BN, False)
    want = ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *run, "bn", training=False, eps=EPS,
                                   lengths=LENGTHS)
    for name, g, e in zip(("y", "w", "h", "c", "kappa", "w_T", "phi"), got[:7], want[:7]):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)


def test_bn_inference_gradients_equal_central_differences():
    check_gradients(NORM_BN, False, 2)


def test_bn_training_forward_and_running_rows_equal_the_reference():
    x, state, text, p, run = problem(3)
    mine = [r.copy() for r in run]
    got = window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *mine, NORM_BN, True, MOMENTUM, EPS,
                              LENGTHS, True)
    theirs = [r.copy() for r in run]
    want = ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), *theirs, "bn", training=True,
                                   momentum=MOMENTUM, eps=EPS, lengths=LENGTHS)
    for name, g, e in zip(("y", "w", "h", "c", "kappa", "w_T", "phi"), got[:7], want[:7]):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    for name, g, e in zip(("rmx", "rvx", "rmh", "rvh", "rmc", "rvc"), mine, theirs):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)


@pytest.mark.parametrize("norm", [NORM_LN, NORM_BN], ids=["ln", "bn"])
def test_training_gradients_equal_central_differences(norm):
    check_gradients(norm, True, 4)
