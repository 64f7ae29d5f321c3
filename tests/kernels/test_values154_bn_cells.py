"""The BN cells' CPU kernels (lnrnn/kernels/bn_lstm.py, bn_rnn.py, and their x side in bn_cell_x.py) in float64
against lnrnn.reference, every option on at once: rows of their own lengths (an empty row, a one-step row, a
step with one active row and one with none), T past each side's own number of running rows (the rows grown
to fit in training would be the layer's job: here training records rows t < Ts only and inference reads row
min(t, Ts-1), checked against the reference's rule), momentum 0.3 and the running variance unbiased as the
reference takes it, initial states h0 and c0 given, gains of the x and h sides (and the cell's gain and bias)
distinct, x columns with different means; narrow inputs (the fold path, I <= FOLD_MAX_I) and wide ones;
B = 7 over four row blocks, on one and on two parts (B not a multiple of the parts). Every gradient against the
reference's backward and against central differences of the reference's loss over the active (row, step)s;
float32 against float64."""

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm, bn_rnn
from gradcheck_util import numeric_grad
from test_values100_bn_lstm import split  # the same B = 7 over four row blocks

T, B = 5, 7
H = {"lstm": 3, "rnn": 5}
TS = (4, 2, 3)  # running rows of the x side, the h side, the cell
LENGTHS = np.array([5, 0, 1, 4, 2, 4, 1], np.int64)  # active rows per step: 5, 4, 3, 3, 1
MOM, EPS = 0.3, 1e-3
I_NARROW, I_WIDE = 2, 6
assert I_NARROW <= FOLD_MAX_I < I_WIDE
KEYS = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"),
        "rnn": ("x", "h0", "Wx", "Wh", "b", "gx", "gh")}
BWD_ARGS = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"), "rnn": ("x", "h0", "Wx", "Wh", "gx", "gh")}
GRADS = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"),  # the order the backwards return
         "rnn": ("x", "h0", "Wx", "Wh", "b", "gx", "gh")}


def problem(cell, I, seed):
    """(parameters in the forward's order, running rows [rmx, rvx, rmh, rvh(, rmc, rvc)], dy), float64."""
    rng = np.random.default_rng(seed)
    h = H[cell]
    G = 4 * h if cell == "lstm" else h
    p = dict(x=rng.standard_normal((T, B, I)) + rng.uniform(-2, 2, I), h0=0.7 * rng.standard_normal((B, h)))
    if cell == "lstm":
        p["c0"] = 0.9 * rng.standard_normal((B, h)) + 0.5
    p.update(Wx=0.6 * rng.standard_normal((I, G)), Wh=0.5 * rng.standard_normal((h, G)),
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.4, 0.9, G), gh=rng.uniform(1.1, 1.7, G))
    if cell == "lstm":
        p.update(gc=rng.uniform(0.6, 1.4, h), bc=0.3 * rng.standard_normal(h))
    widths = (G, G, h) if cell == "lstm" else (G, G)
    run = []
    for rows, w in zip(TS, widths):
        run += [0.5 * rng.standard_normal((rows, w)), rng.uniform(0.3, 2.5, (rows, w))]
    return p, run, rng.standard_normal((T, B, h))


def kernel(cell, p, run, training, dy, parts=2, dtype=np.float64):
    """-> (forward's outputs, grads in the backward's order); run updated in place when training."""
    q = {k: v.astype(dtype) for k, v in p.items()}
    fwd, bwd = (bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward) if cell == "lstm" else \
        (bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)
    with split(parts):
        out = fwd(*[q[k] for k in KEYS[cell]], *run, training, MOM, EPS, 0, lengths=LENGTHS)
        grads = bwd(dy.astype(dtype), out[-1], *[q[k] for k in BWD_ARGS[cell]], 0)
    return out, grads


def reference(cell, p, run, training, dy):
    fwd, bwd = (ref.bn_lstm_forward, ref.bn_lstm_backward) if cell == "lstm" else \
        (ref.bn_rnn_forward, ref.bn_rnn_backward)
    out = fwd(*[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, LENGTHS)
    return out, bwd(dy, out[-1], *[p[k] for k in BWD_ARGS[cell]])


def loss(cell, p, run, training, dy):
    y = reference(cell, p, [r.copy() for r in run], training, dy)[0][0]
    act = np.arange(T)[:, None] < LENGTHS[None, :]
    return float((dy * y)[act].sum())


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


CASES = [(cell, I, training) for cell in ("lstm", "rnn") for I in (I_NARROW, I_WIDE) for training in (True, False)]
IDS = [f"{c}-{'fold' if i <= FOLD_MAX_I else 'wide'}-{'training' if t else 'inference'}" for c, i, t in CASES]


@pytest.mark.parametrize("cell,I,training", CASES, ids=IDS)
def test_against_the_reference(cell, I, training):
    """y, the final states, the running rows and every gradient against the reference, on one and on two
    parts (the same bits); the running rows checked by hand against the reference's rule as well."""
    p, run, dy = problem(cell, I, 15400 + I + 10 * training + (cell == "rnn"))
    run_r = [r.copy() for r in run]
    out_r, grads_r = reference(cell, p, run_r, training, dy)
    got = []
    for parts in (1, 2):
        run_k = [r.copy() for r in run]
        out, grads = kernel(cell, p, run_k, training, dy, parts)
        got.append([*out[:-1], *grads, *run_k])
        assert err(out[0], out_r[0]) < 1e-10, f"y, {parts} parts"
        for k in range(1, len(out) - 1):
            assert err(out[k], out_r[k]) < 1e-10, f"final state {k}, {parts} parts"
        for name, g, w in zip(GRADS[cell], grads, grads_r):
            assert err(g, w) < 1e-9, f"d{name}, {parts} parts: {err(g, w):.3g}"
        for k, (a, w) in enumerate(zip(run_k, run_r)):
            assert err(a, w) < 1e-12, f"running array {k}, {parts} parts"
    for k, (a, b) in enumerate(zip(*got)):
        assert np.array_equal(a, b), f"array {k}: two parts differ from one"
    if training:  # rows t < Ts moved by hand (x side: the mean and unbiased variance of step t's x Wx)
        for t in range(TS[0]):
            v = p["x"][t][t < LENGTHS] @ p["Wx"]
            assert err(got[0][-len(run)][t], (1 - MOM) * run[0][t] + MOM * v.mean(0)) < 1e-12
            assert err(got[0][-len(run) + 1][t], (1 - MOM) * run[1][t] + MOM * v.var(0, ddof=1)) < 1e-12
    else:
        assert all(np.array_equal(a, r) for a, r in zip(got[0][-len(run):], run))


@pytest.mark.parametrize("cell,I,training", CASES, ids=IDS)
def test_gradients_against_central_differences(cell, I, training):
    """The kernel's gradients against central differences of the reference's loss (dy over the active steps)."""
    p, run, dy = problem(cell, I, 15500 + I + 10 * training + (cell == "rnn"))
    _, grads = kernel(cell, p, [r.copy() for r in run], training, dy)
    q = {k: v.copy() for k, v in p.items()}
    for name, g in zip(GRADS[cell], grads):
        num = numeric_grad(lambda: loss(cell, q, run, training, dy), q[name], eps=1e-5, order=2)
        assert np.abs(num).max() > 1e-4, name
        assert err(g, num) < 1e-6, f"d{name}: {err(g, num):.3g}"


def test_inference_reads_the_last_running_row():
    """Inference past Ts reads row min(t, Ts-1) of each side: the kernel's y equals the reference's, also after
    row 0 of every side is moved (a row that only step 0 may read), and that move changes y."""
    for cell in ("lstm", "rnn"):
        p, run, dy = problem(cell, I_WIDE, 15600 + (cell == "rnn"))
        y_r = reference(cell, p, [r.copy() for r in run], False, dy)[0][0]
        (y, *_), _ = kernel(cell, p, [r.copy() for r in run], False, dy)
        assert err(y, y_r) < 1e-10
        wrapped = [r.copy() for r in run]
        for k in range(len(run)):
            wrapped[k][0] = wrapped[k][-1] + 0.5  # row 0 is never row min(t, Ts-1) for t >= Ts
        y_w = reference(cell, p, [r.copy() for r in wrapped], False, dy)[0][0]
        (y2, *_), _ = kernel(cell, p, [r.copy() for r in wrapped], False, dy)
        assert err(y2, y_w) < 1e-10
        assert err(y2, y) > 1e-3


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("I", [I_NARROW, I_WIDE], ids=["fold", "wide"])
def test_float32_against_float64(cell, I):
    """Training in float32: y and every gradient close to the float64 kernel's."""
    p, run, dy = problem(cell, I, 15700 + I + (cell == "rnn"))
    o64, g64 = kernel(cell, p, [r.copy() for r in run], True, dy)
    o32, g32 = kernel(cell, p, [r.astype(np.float32) for r in run], True, dy, dtype=np.float32)
    assert o32[0].dtype == np.float32
    assert err(o32[0], o64[0]) < 1e-4
    for name, a, b in zip(GRADS[cell], g32, g64):
        assert a.dtype == np.float32, name
        assert err(a, b) < 2e-3, f"d{name}: {err(a, b):.3g}"
