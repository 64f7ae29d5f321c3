"""The BN-RNN's CPU kernel (lnrnn/kernels/bn_rnn.py) in float64 against its definition written here in NumPy and
against lnrnn.reference: rows of their own lengths given to the kernel (an empty row, a step with one active
row, a step with none), each side with its own number of running rows below T (x 4, h 2, so the fold path's x
rows are counted from the x side's arrays), training and inference, momentum 0.3, gains gx and gh and the bias b
away from their defaults, h0 given, a narrow input (the fold path) and a wide one, the time loop on one and on
two parts over four row blocks (the same bits); every gradient, by name, against central differences of the
definition's loss over the active (row, step)s, and the reference's record of dL/dh at step 0 against dh0's
source."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_rnn
from gradcheck_util import numeric_grad
from bn_problems import bn_step
from test_values100_bn_lstm import split  # the time loop over 1 or 2 parts and four row blocks of its B = 7

T, B, I_NARROW, I_WIDE, H = 5, 7, 2, 6, 3
ROWS = (4, 2)  # running rows of the x side and the h side
LENGTHS = np.array([4, 3, 1, 2, 3, 2, 0], np.int64)  # active rows per step: 6, 5, 3, 1, 0
MOM, EPS = 0.3, 1e-3
assert I_NARROW <= FOLD_MAX_I < I_WIDE
KEYS = ("x", "h0", "Wx", "Wh", "b", "gx", "gh")  # the forward's order, and the backward's (dx, dh0, dWx, ...)
BWD_NAMES = ("x", "h0", "Wx", "Wh", "b", "gx", "gh")


def problem(seed, I):
    rng = np.random.default_rng(seed)
    p = dict(x=rng.standard_normal((T, B, I)), h0=0.6 * rng.standard_normal((B, H)),
             Wx=0.6 * rng.standard_normal((I, H)), Wh=0.5 * rng.standard_normal((H, H)),
             b=0.3 * rng.standard_normal(H), gx=rng.uniform(0.5, 1.0, H), gh=rng.uniform(1.2, 1.8, H))
    run = []
    for rows in ROWS:
        run += [0.4 * rng.standard_normal((rows, H)), rng.uniform(0.4, 2.5, (rows, H))]
    return p, run, rng.standard_normal((T, B, H))


# ---- the definition ----
def definition(p, run, training):
    """h_t = tanh(gh BN_t(h_{t-1} Wh) + gx BN_t(x_t Wx) + b) -> y (T,B,H); run updated when training."""
    rmx, rvx, rmh, rvh = run
    h = p["h0"]
    y = np.empty((T, B, H))
    for t in range(T):
        active = t < LENGTHS
        h = np.tanh(p["gh"] * bn_step(h @ p["Wh"], active, rmh, rvh, t, training, MOM, EPS)
                    + p["gx"] * bn_step(p["x"][t] @ p["Wx"], active, rmx, rvx, t, training, MOM, EPS) + p["b"])
        y[t] = h
    return y


def loss(p, run, training, dy):
    y = definition(p, [r.copy() for r in run], training)
    active = np.arange(T)[:, None] < LENGTHS[None, :]
    return float((dy * y)[active].sum())


def central_differences(p, run, training, dy, h=1e-5):
    """Central differences (order 2, step h) of loss() in every parameter of KEYS."""
    q = {k: v.copy() for k, v in p.items()}
    return {k: numeric_grad(lambda: loss(q, run, training, dy), q[k], eps=h, order=2) for k in KEYS}


# ---- the kernel ----
def kernel(p, run, training, dy, parts):
    """-> y, hT, saved, grads (dx, dh0, dWx, dWh, db, dgx, dgh); run updated in place when training."""
    with split(parts):
        y, hT, saved = bn_rnn.bn_rnn_forward(*[p[k] for k in KEYS], *run, training, MOM, EPS, 0, lengths=LENGTHS)
        grads = bn_rnn.bn_rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["gx"], p["gh"], 0)
    return y, hT, saved, grads


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_against_the_definition_and_central_differences(I, training):
    """y, hT and the running rows against the definition on one and two parts (the same bits); every gradient,
    matched by name, against central differences."""
    p, run, dy = problem(10100 + I + 10 * training, I)
    run_d = [r.copy() for r in run]
    y_d = definition(p, run_d, training)
    results = []
    for parts in (1, 2):
        run_k = [r.copy() for r in run]
        y, hT, saved, grads = kernel(p, run_k, training, dy, parts)
        assert err(y, y_d) < 1e-10, f"y, {parts} parts"
        assert err(hT, y_d[-1]) < 1e-10, f"hT, {parts} parts"
        for k, (g, w) in enumerate(zip(run_k, run_d)):
            assert err(g, w) < 1e-12, f"running array {k}, {parts} parts"
        results.append([y, hT] + [s for s in saved if isinstance(s, np.ndarray)] + list(grads) + run_k)
    for k, (a, b) in enumerate(zip(*results)):
        assert np.array_equal(a, b), f"array {k}: two parts differ from one"
    num = central_differences(p, run, training, dy)
    for name, g in zip(BWD_NAMES, grads):
        assert err(g, num[name]) < 1e-6, f"d{name}: {err(g, num[name]):.3g}"


@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_x_side_running_rows_counted_by_its_own_arrays(I):
    """Training: the x side records rows 0..3 (its own 4 rows, more than the h side's 2) from step t's active
    rows of x_t Wx; inference afterwards reads row min(t, 3) for the x side and min(t, 1) for the h side."""
    p, run, dy = problem(10130 + I, I)
    run_k = [r.copy() for r in run]
    kernel(p, run_k, True, dy, 2)
    for t in range(ROWS[0]):
        v = p["x"][t][t < LENGTHS] @ p["Wx"]
        n = len(v)  # 6, 5, 3 and 1 rows: one row's variance is 0 (the n / max(n - 1, 1) rule)
        assert n >= 1
        assert err(run_k[0][t], (1 - MOM) * run[0][t] + MOM * v.mean(0)) < 1e-12, f"rmx row {t}"
        want = (1 - MOM) * run[1][t] + MOM * v.var(0) * n / max(n - 1, 1)
        assert err(run_k[1][t], want) < 1e-12, f"rvx row {t}"
    y, _, saved, _ = kernel(p, [r.copy() for r in run_k], False, dy, 2)
    for t in range(T):
        assert err(saved[1][t], run_k[0][min(t, ROWS[0] - 1)]) < 1e-15, f"x mean, step {t}"
        assert err(saved[4][t], run_k[2][min(t, ROWS[1] - 1)]) < 1e-15, f"h mean, step {t}"
    assert err(y, definition(p, [r.copy() for r in run_k], False)) < 1e-10


@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_lengths_and_the_reference_record(I):
    """The kernel with lengths equals lnrnn.reference with the same lengths (and differs from it without them);
    dh0 is the reference's recorded dL/dh at step 0 pushed through the step's BN backward and Wh^T."""
    p, run, dy = problem(10150 + I, I)
    y, _, _, grads = kernel(p, [r.copy() for r in run], True, dy, 2)
    out_r = ref.bn_rnn_forward(*[p[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS, LENGTHS)
    free = ref.bn_rnn_forward(*[p[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS, None)
    assert err(y, out_r[0]) < 1e-10 and err(y, free[0]) > 1e-3
    record = []
    want = ref.bn_rnn_backward(dy, out_r[2], p["x"], p["h0"], p["Wx"], p["Wh"], p["gx"], p["gh"], record=record)
    for name, g, w in zip(BWD_NAMES, grads, want):
        assert err(g, w) < 1e-10, f"d{name}"
    s = out_r[2]["steps"][0]  # step 0: every row but the empty one is active
    active = LENGTHS > 0
    da = record[-1] * (1 - s["h"] ** 2)
    dhw, _, _ = ref._bn_step_backward(da, s["hw"], s["mh"], s["sh"], p["gh"], True, active)
    assert err(grads[1], dhw @ p["Wh"].T) < 1e-10
