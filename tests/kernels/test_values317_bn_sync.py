"""The synchronized BatchNorm cells (lnrnn/kernels/bn_sync.py), BN-RNN and BN-LSTM in float64, B = 5, H = 3,
T = 4, I = 2, lengths [4, 0, 1, 4, 2] (lengths 0, 1 and T in one batch; active rows per step 4, 3, 2, 2),
running rows: x 4, h 2 and c 3 (fewer h and c rows than steps), momentum 0.3, eps 0.05.

Two groups: one process (reduce the identity) and two ranks on threads holding the halves rows 0-1 and 2-4 of
the batch, whose reduce sums the two halves' buffers (tests/thread_ranks.py). Both against lnrnn.reference and
the fused kernels (bn_lstm.py, bn_rnn.py) on the whole batch: y, hT, cT, the running rows (each rank's copy), the
counts per step by hand; the gradients of the one process against central differences of the reference's loss
over the active (row, step)s and against the fused backward, the halves' input gradients their rows of it and
their parameter gradients adding up to it. The running rows after one and two calls against (1 - m) r + m s
written out (the variance's n/(n - 1), one h row moved by step 0 only); inference with fewer running rows than
steps (row min(t, Ts - 1)) against the reference, nothing written."""
import numpy as np
import pytest

from lnrnn.kernels import bn_lstm as fused_lstm, bn_rnn as fused_rnn, bn_sync
from gradcheck_util import numeric_grad
from thread_ranks import run_ranks
from test_values296_bn_sync import KEYS, identity, momentum_update, problem, ref_forward

T, B, H, I = 4, 5, 3, 2
MOM, EPS = 0.3, 0.05
LENGTHS = np.array([4, 0, 1, 4, 2], np.int64)
COUNTS = [4, 3, 2, 2]   # active rows per step, by hand
HALVES = (slice(0, 2), slice(2, 5))
NOUT = {"rnn": 2, "lstm": 3}   # y, hT (, cT)
PER_ROW = ("x", "h0", "c0")


def reference_numeric_grads(cell, p, run, dy, training, lengths):
    """dL/d(each parameter of KEYS[cell]) of L = sum of dy * y over the active (step, row)s, y the reference's
    forward from the running rows run (copied for every call), by central differences; each checked away
    from 0 -> {name: gradient}."""
    q = {k: v.copy() for k, v in p.items()}
    active = np.arange(dy.shape[0])[:, None] < lengths[None, :]

    def loss():
        y = ref_forward(cell, q, [r.copy() for r in run], training, lengths)[0]
        return float((dy * y)[active].sum())

    out = {}
    for name in KEYS[cell]:
        out[name] = numeric_grad(loss, q[name], eps=1e-6, order=2)
        assert np.abs(out[name]).max() > 1e-3, name
    return out


def sync_fwd(cell, reduce, p, run, training, lengths):
    f = bn_sync.bn_lstm_forward if cell == "lstm" else bn_sync.bn_rnn_forward
    return f(reduce, *[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=lengths)


def sync_bwd(cell, reduce, dy, saved, p):
    f = bn_sync.bn_lstm_backward if cell == "lstm" else bn_sync.bn_rnn_backward
    return f(reduce, dy, saved, *[p[k] for k in KEYS[cell] if k not in ("b", "bc")])


def fused_fwd(cell, p, run, training):
    f = fused_lstm.bn_lstm_forward if cell == "lstm" else fused_rnn.bn_rnn_forward
    return f(*[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=LENGTHS)


def fused_bwd(cell, dy, saved, p):
    f = fused_lstm.bn_lstm_backward if cell == "lstm" else fused_rnn.bn_rnn_backward
    return f(dy, saved, *[p[k] for k in KEYS[cell] if k not in ("b", "bc")])


def half(p, sl):
    return {k: np.ascontiguousarray(v[:, sl] if k == "x" else v[sl] if k in PER_ROW else v) for k, v in p.items()}


def two_halves(cell, p, run, dy, training=True):
    """Each half's (forward outputs, gradients or None) and running rows, the reduce summing the two halves."""
    runs = [[r.copy() for r in run] for _ in HALVES]

    def job(reduce, r):
        sl = HALVES[r]
        q = half(p, sl)
        out = sync_fwd(cell, reduce, q, runs[r], training, LENGTHS[sl].copy())
        g = sync_bwd(cell, reduce, np.ascontiguousarray(dy[:, sl]), out[-1], q) if training else None
        return out, g

    return run_ranks(2, job), runs


def joined(parts, k):
    """Output k of the two halves put back together along the batch."""
    return np.concatenate([o[k] for o in parts], axis=1 if k == 0 else 0)


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_forward_one_process_and_two_halves_against_the_reference_and_fused(cell):
    p, run, dy = problem(cell, I, 3170 + (cell == "lstm"))
    run_r, run_f, run_1 = ([r.copy() for r in run] for _ in range(3))
    want = ref_forward(cell, p, run_r, True, LENGTHS)
    fused = fused_fwd(cell, p, run_f, True)
    one = sync_fwd(cell, identity, p, run_1, True, LENGTHS)
    halves, runs = two_halves(cell, p, run, dy)
    outs = [o for o, _ in halves]
    for k, name in enumerate(("y", "hT", "cT")[:NOUT[cell]]):
        for got, who in ((one[k], "one process"), (joined(outs, k), "two halves"), (fused[k], "fused")):
            np.testing.assert_allclose(got, want[k], rtol=1e-10, atol=1e-11, err_msg=f"{who}: {name}")
    for j in range(len(run)):
        for got, who in ((run_1[j], "one process"), (runs[0][j], "half 0"), (runs[1][j], "half 1"),
                         (run_f[j], "fused")):
            np.testing.assert_allclose(got, run_r[j], rtol=1e-10, atol=1e-11, err_msg=f"{who}: running array {j}")
    for got in (one[-1][-1], outs[0][-1][-1], outs[1][-1][-1]):
        np.testing.assert_array_equal(got, COUNTS)


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_backward_against_central_differences_fused_and_two_halves(cell):
    p, run, dy = problem(cell, I, 3172 + (cell == "lstm"))
    one = sync_fwd(cell, identity, p, [r.copy() for r in run], True, LENGTHS)
    g1 = dict(zip(KEYS[cell], sync_bwd(cell, identity, dy, one[-1], p)))
    fused = fused_fwd(cell, p, [r.copy() for r in run], True)
    gf = dict(zip(KEYS[cell], fused_bwd(cell, dy, fused[-1], p)))
    nums = reference_numeric_grads(cell, p, run, dy, True, LENGTHS)
    for name in KEYS[cell]:
        np.testing.assert_allclose(g1[name], nums[name], rtol=1e-6, atol=1e-8,
                                   err_msg=f"d{name} vs central differences")
        np.testing.assert_allclose(g1[name], gf[name], rtol=1e-9, atol=1e-11, err_msg=f"d{name} vs fused")
    halves, _ = two_halves(cell, p, run, dy)
    gh = [dict(zip(KEYS[cell], g)) for _, g in halves]
    for name in KEYS[cell]:
        if name in PER_ROW:
            got = np.concatenate([g[name] for g in gh], axis=1 if name == "x" else 0)
        else:
            got = gh[0][name] + gh[1][name]
        np.testing.assert_allclose(got, g1[name], rtol=1e-9, atol=1e-11, err_msg=f"two halves: d{name}")


def test_running_rows_after_one_and_two_calls_of_two_halves_are_the_momentum_formula():
    """BN-RNN, T = 2: step 0 has rows 0, 2, 3, 4 active, step 1 rows 0 and 3 (one in each half). x rows for both
    steps; one h row, so only step 0 moves it (step 1 reads it and leaves it)."""
    rng = np.random.default_rng(3174)
    p, run, dy = problem("rnn", I, 3174, ts=(2, 1, 1))
    p["x"], dy = p["x"][:2], dy[:2]
    act = [np.array([0, 2, 3, 4]), np.array([0, 3])]

    cur = [r.copy() for r in run]
    for call in range(2):
        if call == 1:
            p["x"] = rng.standard_normal((2, B, I)) - 1.5
            p["h0"] = rng.standard_normal((B, H))
        want = [r.copy() for r in cur]
        for t in range(2):
            want[0][t], want[1][t] = momentum_update(want[0][t], want[1][t], (p["x"][t] @ p["Wx"])[act[t]])
        want[2][0], want[3][0] = momentum_update(want[2][0], want[3][0], (p["h0"] @ p["Wh"])[act[0]])
        runs = [[r.copy() for r in cur] for _ in HALVES]

        def job(reduce, r):
            sl = HALVES[r]
            return sync_fwd("rnn", reduce, half(p, sl), runs[r], True, np.array([2, 0, 1, 2, 1], np.int64)[sl])

        run_ranks(2, job)
        for r in range(2):
            for name, a, w in zip(("rmx", "rvx", "rmh", "rvh"), runs[r], want):
                np.testing.assert_allclose(a, w, rtol=1e-12, atol=1e-13, err_msg=f"half {r}: {name} after {call + 1}")
        cur = runs[0]


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_inference_past_the_running_rows_against_the_reference(cell):
    p, run, dy = problem(cell, I, 3176 + (cell == "lstm"), ts=(3, 2, 1))
    run_r, run_1 = [r.copy() for r in run], [r.copy() for r in run]
    want = ref_forward(cell, p, run_r, False, LENGTHS)
    one = sync_fwd(cell, identity, p, run_1, False, LENGTHS)
    halves, runs = two_halves(cell, p, run, dy, training=False)
    outs = [o for o, _ in halves]
    for k, name in enumerate(("y", "hT", "cT")[:NOUT[cell]]):
        np.testing.assert_allclose(one[k], want[k], rtol=1e-10, atol=1e-11, err_msg=f"one process: {name}")
        np.testing.assert_allclose(joined(outs, k), want[k], rtol=1e-10, atol=1e-11, err_msg=f"two halves: {name}")
    for j in range(len(run)):
        for got in (run_1[j], runs[0][j], runs[1][j]):
            np.testing.assert_array_equal(got, run[j])
