"""The synchronized BatchNorm cells (lnrnn/kernels/bn_sync.py) in float64, B = 5, H = 3, T = 4, lengths
[4, 0, 1, 4, 2] (lengths 0, 1 and T in one batch; active rows per step 4, 3, 2, 2 by hand), running rows: x 4,
h 2 and c 3 (fewer h and c rows than steps), momentum 0.3, eps 0.05, narrow (I = 2) and wide (I = FOLD_MAX_I + 1)
inputs, a carried state h0 (and c0 different from it).

Groups of one, two (rows 0-1 | 2-4) and three (rows 0-1 | 2 | 3-4) ranks on threads (tests/thread_ranks.py,
the reduce summing the ranks' buffers). Forward in training against lnrnn.reference on the whole batch: y, hT,
cT, every rank's running rows, the counts per step. Gradients of every group against the reference's backward
(with and without Graves's clip) and, unclipped, against central differences of the reference's loss over the
active (row, step)s; the ranks' input gradients are their rows of it, their parameter gradients add up to it.
Evaluation (the running statistics, nothing reduced) with lengths against the reference forward, its backward
against central differences of the reference's evaluation loss. The running rows of a group of three after two
calls against (1 - m) r + m s written out, rows past the running rows untouched."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_sync
from thread_ranks import run_ranks
from test_values296_bn_sync import KEYS, momentum_update, problem, ref_forward
from test_values317_bn_sync import half, reference_numeric_grads, sync_bwd, sync_fwd

T, B, H = 4, 5, 3
LENGTHS = np.array([4, 0, 1, 4, 2], np.int64)
COUNTS = [4, 3, 2, 2]   # active rows per step, by hand
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]
GROUPS = {1: (slice(0, 5),), 2: (slice(0, 2), slice(2, 5)), 3: (slice(0, 2), slice(2, 3), slice(3, 5))}
SIZES = (2, FOLD_MAX_I + 1)
NOUT = {"rnn": 2, "lstm": 3}
PER_ROW = ("x", "h0", "c0")
CLIP = 0.02


def in_group(n, cell, p, run, dy, training=True, clip=0.0):
    """Each rank's (forward outputs, gradients) and running rows for a group of n ranks."""
    runs = [[r.copy() for r in run] for _ in range(n)]

    def job(reduce, r):
        sl = GROUPS[n][r]
        q = half(p, sl)
        out = sync_fwd(cell, reduce, q, runs[r], training, LENGTHS[sl].copy())
        d = np.ascontiguousarray(dy[:, sl])
        if cell == "lstm":
            g = bn_sync.bn_lstm_backward(reduce, d, out[-1], *[q[k] for k in KEYS[cell] if k not in ("b", "bc")],
                                         clip=clip)
        else:
            g = sync_bwd(cell, reduce, d, out[-1], q)
        return out, dict(zip(KEYS[cell], g))

    return run_ranks(n, job), runs


def whole(parts, name, k=None):
    """A per-row array put back together along the batch, or a parameter gradient summed over the ranks."""
    if k is not None:
        return np.concatenate([o[k] for o, _ in parts], axis=1 if k == 0 else 0)
    if name in PER_ROW:
        return np.concatenate([g[name] for _, g in parts], axis=1 if name == "x" else 0)
    return sum(g[name] for _, g in parts)


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_training_forward_of_groups_of_one_two_three_against_the_reference(cell, I):
    p, run, dy = problem(cell, I, 3570 + I + (cell == "lstm"))
    run_r = [r.copy() for r in run]
    want = ref_forward(cell, p, run_r, True, LENGTHS)
    for n in GROUPS:
        parts, runs = in_group(n, cell, p, run, dy)
        for k, name in enumerate(("y", "hT", "cT")[:NOUT[cell]]):
            np.testing.assert_allclose(whole(parts, None, k), want[k], rtol=1e-12, atol=1e-12,
                                       err_msg=f"group of {n}: {name}")
        for r in range(n):
            for j in range(len(run)):
                np.testing.assert_allclose(runs[r][j], run_r[j], rtol=1e-12, atol=1e-12,
                                           err_msg=f"group of {n}, rank {r}: running array {j}")
            np.testing.assert_array_equal(parts[r][0][-1][-1], COUNTS)


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("cell, clip", [("rnn", 0.0), ("lstm", 0.0), ("lstm", CLIP)])
def test_gradients_of_groups_against_the_reference_and_central_differences(cell, clip, I):
    p, run, dy = problem(cell, I, 3580 + I + (cell == "lstm"))
    run_r = [r.copy() for r in run]
    fwd = ref_forward(cell, p, run_r, True, LENGTHS)
    nograd = [k for k in KEYS[cell] if k in ("b", "bc")]
    args = [p[k] for k in KEYS[cell] if k not in nograd]
    if cell == "lstm":
        want = dict(zip(KEYS[cell], ref.bn_lstm_backward(dy, fwd[-1], *args, clip=clip)))
        if clip:   # the bound is met: the clipped gradient is another one
            free = dict(zip(KEYS[cell], ref.bn_lstm_backward(dy, fwd[-1], *args)))
            assert np.abs(free["Wh"] - want["Wh"]).max() > 1e-3
    else:
        want = dict(zip(KEYS[cell], ref.bn_rnn_backward(dy, fwd[-1], *args)))
    if not clip:
        nums = reference_numeric_grads(cell, p, run, dy, True, LENGTHS)
        for name in KEYS[cell]:
            np.testing.assert_allclose(want[name], nums[name], rtol=1e-6, atol=1e-8, err_msg=f"reference d{name}")
    for n in GROUPS:
        parts, _ = in_group(n, cell, p, run, dy, clip=clip)
        for name in KEYS[cell]:
            np.testing.assert_allclose(whole(parts, name), want[name], rtol=1e-12, atol=1e-12,
                                       err_msg=f"group of {n}: d{name}")


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_evaluation_with_lengths_against_the_reference_and_central_differences(cell, I):
    p, run, dy = problem(cell, I, 3590 + I + (cell == "lstm"))
    want = ref_forward(cell, p, [r.copy() for r in run], False, LENGTHS)
    for n in GROUPS:
        parts, runs = in_group(n, cell, p, run, dy, training=False)
        for k, name in enumerate(("y", "hT", "cT")[:NOUT[cell]]):
            np.testing.assert_allclose(whole(parts, None, k), want[k], rtol=1e-12, atol=1e-12,
                                       err_msg=f"group of {n}: {name}")
        for r in range(n):
            for j in range(len(run)):
                np.testing.assert_array_equal(runs[r][j], run[j])
    nums = reference_numeric_grads(cell, p, run, dy, False, LENGTHS)
    for name in KEYS[cell]:
        np.testing.assert_allclose(whole(parts, name), nums[name], rtol=1e-6, atol=1e-8, err_msg=f"evaluation d{name}")


def test_running_rows_of_three_ranks_after_two_calls_are_the_momentum_formula():
    """BN-RNN: x rows for every step; two h rows, so step 0 moves row 0, step 1 row 1, steps 2 and 3 read row 1
    and leave it. The h side's step 1 rows come from the reference's y at step 0."""
    rng = np.random.default_rng(3599)
    p, run, dy = problem("rnn", 2, 3599)
    act = [np.flatnonzero(ACTIVE[t]) for t in range(T)]
    cur = [r.copy() for r in run]
    for call in range(2):
        if call == 1:
            p["x"] = rng.standard_normal((T, B, 2)) + 0.7
            p["h0"] = rng.standard_normal((B, H))
        want = [r.copy() for r in cur]
        for t in range(T):
            want[0][t], want[1][t] = momentum_update(want[0][t], want[1][t], (p["x"][t] @ p["Wx"])[act[t]])
        y0 = ref_forward("rnn", p, [r.copy() for r in cur], True, LENGTHS)[0][0]
        want[2][0], want[3][0] = momentum_update(want[2][0], want[3][0], (p["h0"] @ p["Wh"])[act[0]])
        want[2][1], want[3][1] = momentum_update(want[2][1], want[3][1], (y0 @ p["Wh"])[act[1]])
        _, runs = in_group(3, "rnn", p, cur, dy)
        for r in range(3):
            for name, a, w in zip(("rmx", "rvx", "rmh", "rvh"), runs[r], want):
                np.testing.assert_allclose(a, w, rtol=1e-12, atol=1e-12, err_msg=f"rank {r}: {name} after {call + 1}")
        cur = runs[0]
