"""The BN-LSTM's CPU kernel (lnrnn/kernels/bn_lstm.py) in float64 against the cell's definition written here in
NumPy (Cooijmans et al. 2016: a separate BatchNorm per step t for x Wx, h_{t-1} Wh and the cell) and against
lnrnn.reference: rows of their own lengths (an empty row, a step with one active row, a step with none), T
past each side's own number of running rows (x 4, h 2, cell 3), training and inference, momentum 0.3, gains
gx, gh, gc and the biases b, bc away from their defaults (every gain different from the others), initial states
h0 and c0 given and different, a narrow input (the fold path) and a wide one, the time loop on one and on two
parts over four row blocks (the same bits), Graves's clip; every gradient against central differences of the
definition's loss over the active (row, step)s."""
import contextlib

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm
from lnrnn.kernels.cpu import threads
from gradcheck_util import numeric_grad
from bn_problems import bn_step

T, B, I_NARROW, I_WIDE, H = 5, 7, 2, 6, 3
G = 4 * H
ROWS = (4, 2, 3)  # running rows of the x side, the h side, the cell
LENGTHS = np.array([4, 3, 1, 2, 3, 2, 0], np.int64)  # active rows per step: 6, 5, 3, 1, 0
MOM, EPS = 0.3, 1e-3
assert I_NARROW <= FOLD_MAX_I < I_WIDE
KEYS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")
NAMES = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")  # the order bn_lstm_backward returns


def problem(seed, I, T=T, B=B, x_shift=0.0, w_scale=0.5):
    """(parameters as a dict in the forward's argument order, running rows [rmx, rvx, rmh, rvh, rmc, rvc], dy);
    x drawn about x_shift, the weights w_scale times a standard normal."""
    rng = np.random.default_rng(seed)
    p = dict(x=rng.standard_normal((T, B, I)) + x_shift, h0=0.6 * rng.standard_normal((B, H)),
             c0=0.8 * rng.standard_normal((B, H)), Wx=w_scale * rng.standard_normal((I, G)),
             Wh=w_scale * rng.standard_normal((H, G)), b=0.3 * rng.standard_normal(G),
             gx=rng.uniform(0.5, 1.0, G), gh=rng.uniform(1.2, 1.8, G), gc=rng.uniform(0.6, 1.6, H),
             bc=0.3 * rng.standard_normal(H))
    run = []
    for rows, width in zip(ROWS, (G, G, H)):
        run += [0.4 * rng.standard_normal((rows, width)), rng.uniform(0.4, 2.5, (rows, width))]
    return p, run, rng.standard_normal((T, B, H))


# ---- the definition ----
def sig(v):
    return 1.0 / (1.0 + np.exp(-v))


def definition(p, run, training):
    """-> y (T,B,H), c (T,B,H); run updated in place when training.
    a = gh BN_t(h Wh) + gx BN_t(x Wx) + b, [i|f|g|o], c_t = s(f) c_{t-1} + s(i) tanh(g),
    h_t = s(o) tanh(gc BN_t(c_t) + bc)."""
    rmx, rvx, rmh, rvh, rmc, rvc = run
    h, c = p["h0"], p["c0"]
    y, cs = np.empty((T, B, H)), np.empty((T, B, H))
    for t in range(T):
        active = t < LENGTHS
        a = (p["gh"] * bn_step(h @ p["Wh"], active, rmh, rvh, t, training, MOM, EPS)
             + p["gx"] * bn_step(p["x"][t] @ p["Wx"], active, rmx, rvx, t, training, MOM, EPS) + p["b"])
        i, f, g, o = sig(a[:, :H]), sig(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sig(a[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(p["gc"] * bn_step(c, active, rmc, rvc, t, training, MOM, EPS) + p["bc"])
        y[t], cs[t] = h, c
    return y, cs


def loss(p, run, training, dy):
    y, _ = definition(p, [r.copy() for r in run], training)
    active = np.arange(T)[:, None] < LENGTHS[None, :]
    return float((dy * y)[active].sum())


def central_differences(p, run, training, dy, h=1e-5):
    """Central differences (order 2, step h) of loss() in every parameter of KEYS."""
    q = {k: v.copy() for k, v in p.items()}
    return {k: numeric_grad(lambda: loss(q, run, training, dy), q[k], eps=h, order=2) for k in KEYS}


# ---- the kernel ----
@contextlib.contextmanager
def split(parts):
    """The time loop over ``parts`` parts and four row blocks (B = 7: 1, 2, 2 and 2 rows)."""
    old = threads.PART_THREADS
    threads.PART_THREADS = parts
    try:
        with threads.block_rows(1):
            assert threads.batch_blocks(B) == 4
            yield
    finally:
        threads.PART_THREADS = old


def kernel(p, run, training, dy, parts, clip=0.0):
    """-> (y, hT, cT, saved), grads in bn_lstm_backward's order; run updated in place when training."""
    with split(parts):
        out = bn_lstm.bn_lstm_forward(*[p[k] for k in KEYS], *run, training, MOM, EPS, 0, lengths=LENGTHS)
        grads = bn_lstm.bn_lstm_backward(dy, out[3], *[p[k] for k in ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")],
                                         0, clip=clip)
    return out, grads


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


def flat(out, grads, run):
    return list(out[:3]) + [s for s in out[3] if isinstance(s, np.ndarray)] + list(grads) + list(run)


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_against_the_definition_and_central_differences(I, training):
    """y, hT, cT, the cell and the running rows against the definition on one and on two parts (the same bits);
    every gradient against central differences of the definition's loss."""
    p, run, dy = problem(10000 + I + 10 * training, I)
    run_d = [r.copy() for r in run]
    y_d, c_d = definition(p, run_d, training)
    results = []
    for parts in (1, 2):
        run_k = [r.copy() for r in run]
        out, grads = kernel(p, run_k, training, dy, parts)
        results.append(flat(out, grads, run_k))
        y, hT, cT, saved = out
        assert err(y, y_d) < 1e-10, f"y, {parts} parts"
        assert err(saved[7], c_d) < 1e-10, f"c, {parts} parts"
        assert err(hT, y_d[-1]) < 1e-10 and err(cT, c_d[-1]) < 1e-10, f"hT, cT, {parts} parts"
        for k, (g, w) in enumerate(zip(run_k, run_d)):
            assert err(g, w) < 1e-12, f"running array {k}, {parts} parts"
    for k, (a, b) in enumerate(zip(*results)):
        assert np.array_equal(a, b), f"array {k}: two parts differ from one"
    num = central_differences(p, run, training, dy)
    for name, g in zip(NAMES, grads):
        assert np.abs(num[name]).max() > 1e-4 or name == "x" and not training, name
        assert err(g, num[name]) < 1e-6, f"d{name}: {err(g, num[name]):.3g}"


@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_running_rows_by_side(I):
    """Training on the running rows: row t < Ts of each side is (1 - m) old + m (mean, unbiased variance) of
    step t's active rows, later steps record nothing; inference then reads row min(t, Ts-1) of each side (the
    x side's mean and variance are not confused): its y equals the definition's, the rows stay unchanged."""
    p, run, dy = problem(10020 + I, I)
    run_k = [r.copy() for r in run]
    kernel(p, run_k, True, dy, 2)
    active_x = [p["x"][t][t < LENGTHS] @ p["Wx"] for t in range(T)]
    for t in range(T):
        if t < ROWS[0] and len(active_x[t]):
            v = active_x[t]
            assert err(run_k[0][t], (1 - MOM) * run[0][t] + MOM * v.mean(0)) < 1e-12, f"rmx row {t}"
            want = (1 - MOM) * run[1][t] + MOM * (v.var(0, ddof=1) if len(v) > 1 else 0.0)
            assert err(run_k[1][t], want) < 1e-12, f"rvx row {t}"
    run_i = [r.copy() for r in run_k]
    out, _ = kernel(p, run_i, False, dy, 2)
    assert all(np.array_equal(a, b) for a, b in zip(run_i, run_k))
    y_d, _ = definition(p, [r.copy() for r in run_k], False)
    assert err(out[0], y_d) < 1e-10


@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_clip_against_the_reference(I):
    """Graves's clip at a bound that binds on some gate gradients: one and two parts give lnrnn.reference's
    clipped gradients, the same bits, and they differ from the unclipped ones."""
    p, run, dy = problem(10040 + I, I)
    args = [p[k] for k in ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")]
    out_r = ref.bn_lstm_forward(*[p[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS, LENGTHS)
    want = ref.bn_lstm_backward(dy, out_r[3], *args, clip=0.05)
    free = ref.bn_lstm_backward(dy, out_r[3], *args)
    assert err(want[5], free[5]) > 1e-3
    got = [kernel(p, [r.copy() for r in run], True, dy, parts, clip=0.05)[1] for parts in (1, 2)]
    for name, a, b, w in zip(NAMES, got[0], got[1], want):
        assert np.array_equal(a, b), name
        assert err(a, w) < 1e-10, f"d{name}"

