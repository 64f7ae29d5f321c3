"""The BN-LSTM's CPU kernel (lnrnn/kernels/bn_lstm.py) on 1, 2 and 3 parts over 4 uneven row blocks (B = 7 rows
split 1, 2, 2, 2), float64, against the NumPy spec (reference.bn_lstm_forward/backward) and against the
definitions where they are short: narrow inputs (I = 2 and I = FOLD_MAX_I = 4: the fold path inside the loop) and a
wide one (I = 6); rows of their own lengths (a row ending after one step, two active rows at the last step);
T = 5 steps past each side's own number of running rows (x 4, h 2, cell 3: steps past a side's count record
nothing, inference reads its row min(t, Ts-1)); training and inference; Graves's clip at the median |dL/da| (it
binds on some entries and not on others) and clip 0 (off). Every part count gives the same bits."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm
from lnrnn.kernels.cpu import threads
from bn_problems import bn_problem

T, B, H = 5, 7, 3
G = 4 * H
ROWS = (4, 2, 3)  # running rows of the x side, the h side, the cell: each fewer than T, all different
LENGTHS = np.array([5, 2, 4, 1, 5, 3, 2], np.int64)  # active rows per step: 7, 6, 4, 3, 2
MOM, EPS = 0.3, 1e-3
TOL = 1e-10
KEYS = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
NAMES = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc")


def problem(seed, I):
    """(forward arguments up to the running rows, as a dict in order; the six running rows; dy (T,B,H)). Running
    means and variances differ in every column and row."""
    return bn_problem(np.random.default_rng(seed), "lstm", T, B, I, H, ROWS, var_lo=0.3, var_hi=3.0, mean_sc=0.5)


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


def kernel(a, run, dy, training, clip, parts, monkeypatch):
    """The kernel's forward and backward on ``parts`` parts over 4 row blocks -> (y, hT, cT, saved), gradients;
    the running rows in run folded in place."""
    monkeypatch.setattr(threads, "PART_THREADS", parts)
    with threads.block_rows(1):
        assert threads.batch_blocks(B) == 4
        out = bn_lstm.bn_lstm_forward(*a.values(), *run, training, MOM, EPS, 0, lengths=LENGTHS)
        grads = bn_lstm.bn_lstm_backward(dy, out[3], *[a[k] for k in KEYS], 0, clip=clip)
    return out, grads


def spec(a, run, dy, training, clip):
    out = ref.bn_lstm_forward(*a.values(), *run, training, MOM, EPS, LENGTHS)
    return out, ref.bn_lstm_backward(dy, out[3], *[a[k] for k in KEYS], clip=clip)


def arrays(out, grads, run):
    """Every array a call produced: outputs, the saved tuple's arrays, gradients, running rows."""
    saved = [s for s in out[3] if isinstance(s, np.ndarray)]
    return list(out[:3]) + saved + list(grads) + list(run)


def check_parts(a, run, dy, training, clip, monkeypatch):
    """1, 2 and 3 parts: the same bits; against the spec. Returns the one-part run's (out, grads, run)."""
    results = []
    for parts in (1, 2, 3):
        run_k = [r.copy() for r in run]
        out, grads = kernel(a, run_k, dy, training, clip, parts, monkeypatch)
        results.append((out, grads, run_k))
    first = arrays(*results[0])
    for parts, res in zip((2, 3), results[1:]):
        for k, (g, w) in enumerate(zip(arrays(*res), first)):
            assert np.array_equal(g, w), f"{parts} parts: array {k} differs from one part's"
    run_r = [r.copy() for r in run]
    out_r, grads_r = spec(a, run_r, dy, training, clip)
    out, grads, run_k = results[0]
    for k in range(3):
        assert err(out[k], out_r[k]) < TOL, f"output {k}"
    for name, g, w in zip(NAMES, grads, grads_r):
        assert err(g, w) < TOL, f"{name}: {err(g, w):.3g}"
    for k, (g, w) in enumerate(zip(run_k, run_r)):
        assert err(g, w) < TOL, f"running row {k}"
    return results[0]


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [2, FOLD_MAX_I, 6], ids=["fold", "fold-widest", "wide"])
def test_parts_agree_bit_for_bit_and_with_the_spec(I, training, monkeypatch):
    """Clip 0 (off): outputs, gradients and running rows equal the spec's on 1, 2 and 3 parts, bit for bit alike;
    every gradient flows (dgc and dbc are different sums)."""
    a, run, dy = problem(7900 + I, I)
    out, grads, _ = check_parts(a, run, dy, training, 0.0, monkeypatch)
    g = dict(zip(NAMES, grads))
    assert all(np.abs(g[k]).max() > 1e-4 for k in NAMES)
    assert err(g["dgc"], g["dbc"]) > 1e-3


@pytest.mark.parametrize("I", [2, 6], ids=["fold", "wide"])
def test_clip_binding_on_some_entries(I, monkeypatch):
    """Training, Graves's clip at the median |dL/da| of the active rows (recorded from the spec's clip_gate_grads):
    some entries bind, others do not, the gradients differ from the unclipped ones, and every part count gives
    the spec's clipped gradients, the same bits."""
    a, run, dy = problem(7910 + I, I)
    seen = []
    clip_spec = ref.clip_gate_grads
    monkeypatch.setattr(ref, "clip_gate_grads", lambda da, c: (seen.append(da.copy()), clip_spec(da, c))[1])
    spec(a, [r.copy() for r in run], dy, True, 0.0)
    monkeypatch.setattr(ref, "clip_gate_grads", clip_spec)
    active = np.arange(T)[::-1, None] < LENGTHS[None, :]  # seen runs backward in time
    da = np.abs(np.stack(seen)[active])
    clip = float(np.median(da))
    assert 0.3 < (da > clip).mean() < 0.7
    _, grads, _ = check_parts(a, run, dy, True, clip, monkeypatch)
    _, free = spec(a, [r.copy() for r in run], dy, True, 0.0)
    assert err(grads[5], free[5]) > 1e-3, "db: the clip binds"


@pytest.mark.parametrize("I", [2, 6], ids=["fold", "wide"])
def test_running_rows_and_statistics_by_hand(I, monkeypatch):
    """Training: each side's running row t < Ts is (1 - m) old + m (mean, unbiased variance) of step t's active
    rows (x_t Wx, h_{t-1} Wh as saved, c_t as saved); no other row exists, so steps t >= Ts record nothing; saved
    statistics are the active rows' mean and 1/sqrt(biased variance + eps). Inference: the saved statistics are
    row min(t, Ts-1) of each side's running rows, which come back unchanged."""
    a, run, dy = problem(7920 + I, I)
    run_k = [r.copy() for r in run]
    out, _ = kernel(a, run_k, dy, True, 0.0, 3, monkeypatch)
    saved = out[3]
    sides = (([a["x"][t] @ a["Wx"] for t in range(T)], 1, 2), (saved[3], 4, 5), (saved[7], 8, 9))
    for s, (vals, im, ir) in enumerate(sides):
        rm, rv, rm_k, rv_k = run[2 * s], run[2 * s + 1], run_k[2 * s], run_k[2 * s + 1]
        assert rm_k.shape[0] == ROWS[s] < T
        for t in range(T):
            v = np.asarray(vals[t])[LENGTHS > t]
            mean, var = v.mean(0), v.var(0)
            assert err(saved[im][t], mean) < 1e-12, f"side {s} mean, step {t}"
            assert err(saved[ir][t], 1 / np.sqrt(var + EPS)) < 1e-12, f"side {s} rstd, step {t}"
            if t < ROWS[s]:
                assert err(rm_k[t], (1 - MOM) * rm[t] + MOM * mean) < 1e-12, f"side {s} running mean {t}"
                assert err(rv_k[t], (1 - MOM) * rv[t] + MOM * v.var(0, ddof=1)) < 1e-12, f"side {s} running var {t}"
    run_i = [r.copy() for r in run]
    out, _ = kernel(a, run_i, dy, False, 0.0, 3, monkeypatch)
    saved = out[3]
    for s, (im, ir) in enumerate(((1, 2), (4, 5), (8, 9))):
        rm, rv = run[2 * s], run[2 * s + 1]
        assert np.array_equal(run_i[2 * s], rm) and np.array_equal(run_i[2 * s + 1], rv)
        for t in range(T):
            row = min(t, ROWS[s] - 1)
            assert err(saved[im][t], rm[row]) < 1e-15, f"side {s} inference mean, step {t}"
            assert err(saved[ir][t], 1 / np.sqrt(rv[row] + EPS)) < 1e-14, f"side {s} inference rstd, step {t}"


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [2, 6], ids=["fold", "wide"])
def test_padded_rows(I, training, monkeypatch):
    """hT and cT are step T-1's for every row, padded or not; dy at a padded (row, step) changes no gradient, and
    dL/dx there is zero."""
    a, run, dy = problem(7930 + I, I)
    out, grads = kernel(a, [r.copy() for r in run], dy, training, 0.0, 2, monkeypatch)
    y, hT, cT, saved = out
    assert np.array_equal(hT, y[T - 1]) and np.array_equal(cT, saved[7][T - 1])
    padded = np.arange(T)[:, None] >= LENGTHS[None, :]  # (T,B)
    assert padded.any()
    dy2 = dy + 5.0 * padded[..., None] * np.random.default_rng(1).standard_normal(dy.shape)
    _, grads2 = kernel(a, [r.copy() for r in run], dy2, training, 0.0, 2, monkeypatch)
    for name, g, w in zip(NAMES, grads2, grads):
        assert err(g, w) < 1e-13, name
    assert np.all(grads[0][padded] == 0.0)
