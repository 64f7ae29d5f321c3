"""The BN-RNN (lnrnn/kernels/bn_rnn.py, with the row parts of bn_parts.py and the x side of bn_cell_x.py)
against its definition written here in NumPy, float64, with rows of their own lengths: a step where one row is
active, a step where none is, T > Ts, a narrow input (the fold path, I <= config.FOLD_MAX_I) and a wide one,
and the time loop split into 1, 2 and 3 parts over four blocks of uneven size (B = 7 with one row a block at
least). Every gradient against central differences of the definition's loss, which counts the active (row,
step)s only (dy at padded ones is set and must be ignored); the running rows after two training batches
and the inference that uses them (forward and backward) against the definition too."""
import contextlib

import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_rnn
from lnrnn.kernels.cpu import threads
from bn_problems import bn_step

T, B, H, TS = 5, 7, 3, 4
MOM, EPS = 0.2, 1e-3
# step 0: 6 rows, 1: 5, 2: 3, 3: one row (row 0), 4: none
LENGTHS = np.array([4, 3, 1, 2, 3, 2, 0], np.int64)
TOL = 1e-7
NARROW, WIDE = 2, 6
assert NARROW <= FOLD_MAX_I < WIDE


# ---- the definition ----
def rnn_definition(p, run, training, lengths):
    """p: x (T,B,I), h0, Wx, Wh, b, gx, gh; run: [rmx, rvx, rmh, rvh] (updated in place when training)
    -> y (T,B,H): h_t = tanh(gh BN_t(h_{t-1} Wh) + gx BN_t(x_t Wx) + b) for every row."""
    x, h = p["x"], p["h0"]
    rmx, rvx, rmh, rvh = run
    y = np.empty((x.shape[0], x.shape[1], h.shape[1]))
    for t in range(x.shape[0]):
        active = t < lengths
        h = np.tanh(p["gh"] * bn_step(h @ p["Wh"], active, rmh, rvh, t, training, MOM, EPS)
                    + p["gx"] * bn_step(x[t] @ p["Wx"], active, rmx, rvx, t, training, MOM, EPS) + p["b"])
        y[t] = h
    return y


def loss(p, run, training, lengths, dy):
    """sum of dy * y over the active (row, step)s; run is not touched."""
    y = rnn_definition(p, [r.copy() for r in run], training, lengths)
    active = np.arange(y.shape[0])[:, None] < lengths[None, :]
    return float((dy * y)[active].sum())


def problem(seed, I, Tn=T, Bn=B, Ts=TS, mean_shift=0.0):
    rng = np.random.default_rng(seed)
    p = dict(x=rng.standard_normal((Tn, Bn, I)), h0=0.5 * rng.standard_normal((Bn, H)),
             Wx=0.6 * rng.standard_normal((I, H)), Wh=0.5 * rng.standard_normal((H, H)),
             b=0.2 * rng.standard_normal(H), gx=rng.uniform(0.5, 1.5, H), gh=rng.uniform(0.5, 1.5, H))
    run = [mean_shift + 0.3 * rng.standard_normal((Ts, H)) if k % 2 == 0 else rng.uniform(0.5, 1.5, (Ts, H))
           for k in range(4)]
    dy = rng.standard_normal((Tn, Bn, H))
    return p, run, dy


def numeric_grads(p, run, training, lengths, dy):
    """dL/d every argument of the definition by central differences (4th order) -> dict keyed like p."""
    q = {k: v.copy() for k, v in p.items()}
    return {k: numeric_grad(lambda: loss(q, run, training, lengths, dy), q[k]) for k in q}


# ---- the kernel ----
@contextlib.contextmanager
def split(parts):
    """The BN-RNN's time loop over ``parts`` parts (threads.PART_THREADS) and blocks of one row at least
    (B = 7: four blocks of 1, 2, 2 and 2 rows; three parts own 1, 1 and 2 of them)."""
    old = threads.PART_THREADS
    threads.PART_THREADS = parts
    try:
        with threads.block_rows(1):
            yield
    finally:
        threads.PART_THREADS = old


def kernel(p, run, training, lengths, dy, parts):
    """-> y, hT, grads (dx, dh0, dWx, dWh, db, dgx, dgh); run updated in place when training."""
    with split(parts):
        assert threads.batch_blocks(p["x"].shape[1]) == 4
        y, hT, saved = bn_rnn.bn_rnn_forward(*p.values(), *run, training, MOM, EPS, 0, lengths)
        grads = bn_rnn.bn_rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["gx"], p["gh"], 0)
    return y, hT, grads


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


GRAD_NAMES = ["x", "h0", "Wx", "Wh", "b", "gx", "gh"]


@pytest.mark.parametrize("parts", [1, 2, 3])
@pytest.mark.parametrize("I", [NARROW, WIDE], ids=["fold", "wide"])
def test_training_step_against_the_definition_and_central_differences(I, parts):
    """Training, masked rows (one active row at step 3, none at step 4, T > Ts): y for every row (padded ones
    too, normalized with the active rows' statistics), the running rows, and every gradient against central
    differences of the loss over the active (row, step)s."""
    p, run, dy = problem(6500 + I, I)
    run_d, run_k = [r.copy() for r in run], [r.copy() for r in run]
    y_d = rnn_definition(p, run_d, True, LENGTHS)
    y, hT, grads = kernel(p, run_k, True, LENGTHS, dy, parts)
    assert err(y, y_d) < 1e-10, "y"
    assert err(hT, y_d[-1]) < 1e-10, "hT"
    for k, (g, w, r0) in enumerate(zip(run_k, run_d, run)):
        assert not np.array_equal(w, r0)
        assert err(g, w) < 1e-12, f"running row {k}"
    num = numeric_grads(p, run, True, LENGTHS, dy)
    for name, g in zip(GRAD_NAMES, grads):
        assert np.abs(num[name]).max() > 1e-3, name
        assert err(g, num[name]) < TOL, f"d{name}: {err(g, num[name]):.3g}"


@pytest.mark.parametrize("parts", [1, 3])
@pytest.mark.parametrize("I", [NARROW, WIDE], ids=["fold", "wide"])
def test_running_rows_over_two_batches_then_inference(I, parts):
    """Two training batches fold their statistics into the running rows (momentum 0.2, rows t < Ts only);
    then inference uses row min(t, Ts-1) of them for T > Ts: y, and every gradient of the inference forward
    (constant statistics) against central differences."""
    p, run, dy = problem(6510 + I, I)
    p2, _, _ = problem(6520 + I, I)
    run_d, run_k = [r.copy() for r in run], [r.copy() for r in run]
    for q in (p, p2):
        rnn_definition(q, run_d, True, LENGTHS)
        kernel(q, run_k, True, LENGTHS, dy, parts)
    for k, (g, w) in enumerate(zip(run_k, run_d)):
        assert err(g, w) < 1e-12, f"running row {k} after two batches"
    frozen = [r.copy() for r in run_k]
    y_d = rnn_definition(p, run_d, False, LENGTHS)
    y, _, grads = kernel(p, run_k, False, LENGTHS, dy, parts)
    for g, w in zip(run_k, frozen):
        np.testing.assert_array_equal(g, w)  # inference leaves the running rows alone
    assert err(y, y_d) < 1e-10, "inference y"
    num = numeric_grads(p, run_d, False, LENGTHS, dy)
    for name, g in zip(GRAD_NAMES, grads):
        assert err(g, num[name]) < TOL, f"inference d{name}: {err(g, num[name]):.3g}"


@pytest.mark.parametrize("I", [NARROW, WIDE], ids=["fold", "wide"])
def test_one_two_and_three_parts_agree(I):
    """The statistics come from every block's moments in block order: 1, 2 and 3 parts give the same y,
    running rows and gradients (to rounding) on the masked problem."""
    p, run, dy = problem(6530 + I, I)
    outs = []
    for parts in (1, 2, 3):
        run_k = [r.copy() for r in run]
        y, hT, grads = kernel(p, run_k, True, LENGTHS, dy, parts)
        outs.append([y, hT, *run_k, *grads])
    for other in outs[1:]:
        for k, (a, b) in enumerate(zip(outs[0], other)):
            assert err(b, a) < 1e-12, k
