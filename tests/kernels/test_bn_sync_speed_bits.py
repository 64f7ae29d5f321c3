"""The synchronized BN cells (kernels.bn_sync) after their speed-up: the same bits on 1 and 2 Numba threads,
and the fused kernels' results.

bn_sync's time loop runs in Python and calls compiled pieces; the recurrent products run one packed
product per fixed row block (threads.batch_blocks) and the x side's steps are split over threads
(threads.run_chunks). Every sum over rows is a loop over the rows in row order, so the thread count must
change no bit: checked in one child process per thread count (NUMBA_NUM_THREADS is read once, when Numba
starts), float32, with masks (a padded row, an empty one, rows ending early) and B = 70 rows, which are
not a whole number of config.BLOCK_ROWS blocks. In float64 the cells must agree with the fused twins
(bn_lstm.py, bn_rnn.py) to rounding, forward (outputs, saved statistics, running statistics) and backward.
Results only: timings live in bench/reproducible_cost.py.
"""
import os
import subprocess
import sys
import testpaths

import numpy as np
import pytest

from bn_problems import bn_problem
from lnrnn.kernels import bn_lstm, bn_rnn, bn_sync

HERE, ROOT = os.path.dirname(os.path.abspath(__file__)), testpaths.ROOT  # this file's folder (the child imports it)
T, B, I, H, TS = 7, 70, 5, 24, 5       # T > Ts: the last steps update no running row
LENGTHS = np.array([7, 3, 0] + [7] * 30 + [5, 1] + [7] * 30 + [6, 2, 7, 4, 7])  # (B,)
ARGS = {"lstm": ["x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"], "rnn": ["x", "h0", "Wx", "Wh", "gx", "gh"]}
FUSED = {"lstm": (bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward),
         "rnn": (bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)}
SYNC = {"lstm": (bn_sync.bn_lstm_forward, bn_sync.bn_lstm_backward),
        "rnn": (bn_sync.bn_rnn_forward, bn_sync.bn_rnn_backward)}
CHILD_TIMEOUT_S = 900


def identity(buf):
    pass


def run_sync(cell, dtype, lengths, clip):
    """Synced forward and backward of one problem -> {name: array} (outputs, saved, running rows, grads)."""
    a, run, dy = bn_problem(np.random.default_rng(1), cell, T, B, I, H, TS, dtype=dtype)
    fwd, bwd = SYNC[cell]
    out = fwd(identity, *a.values(), *run, True, 0.1, 1e-5, lengths=lengths)
    kw = {"clip": clip} if cell == "lstm" else {}
    grads = bwd(identity, dy, out[-1], *[a[k] for k in ARGS[cell]], **kw)
    arrays = list(out[:-1]) + [s for s in out[-1] if isinstance(s, np.ndarray)] + list(run) + list(grads)
    return {f"{cell}/{k}": np.asarray(v) for k, v in enumerate(arrays)}


CHILD = """
import sys
import numba
import numpy as np
sys.path.insert(0, sys.argv[2])
import test_bn_sync_speed_bits as t
out = {"threads": np.array(numba.get_num_threads())}
for cell in ("lstm", "rnn"):
    out.update(t.run_sync(cell, np.float32, t.LENGTHS, 0.7))
np.savez(sys.argv[1], **out)
"""


def _child(tmp_path, threads):
    npz = tmp_path / f"threads-{threads}.npz"
    path = os.pathsep.join(p for p in (ROOT, testpaths.TESTS, os.environ.get("PYTHONPATH")) if p)  # the child imports this file
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads), "PYTHONPATH": path}
    r = subprocess.run([sys.executable, "-c", CHILD, str(npz), HERE], env=env, capture_output=True, text=True,
                       timeout=CHILD_TIMEOUT_S, cwd=ROOT)
    assert r.returncode == 0, f"the {threads}-thread child failed:\n{r.stdout}\n{r.stderr[-4000:]}"
    with np.load(npz) as z:
        arrays = {k: z[k] for k in z.files}
    assert int(arrays.pop("threads")) == threads, f"NUMBA_NUM_THREADS={threads} did not reach the child"
    return arrays


def test_same_bits_on_one_and_two_threads(tmp_path):
    one, two = _child(tmp_path, 1), _child(tmp_path, 2)
    assert sorted(one) == sorted(two)
    assert len(one) > 40
    for k in one:
        assert one[k].dtype != np.float64, k
        assert one[k].tobytes() == two[k].tobytes(), f"{k} differs between 1 and 2 threads"


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("lengths", [None, LENGTHS], ids=["full", "masked"])
def test_sync_equals_fused_float64(cell, lengths):
    a, run, dy = bn_problem(np.random.default_rng(2), cell, T, B, I, H, TS)
    run_f, run_s = [r.copy() for r in run], [r.copy() for r in run]
    fwd_f, bwd_f = FUSED[cell]
    fwd_s, bwd_s = SYNC[cell]
    out_f = fwd_f(*a.values(), *run_f, True, 0.1, 1e-5, lengths=lengths)
    out_s = fwd_s(identity, *a.values(), *run_s, True, 0.1, 1e-5, lengths=lengths)
    assert len(out_s[-1]) == len(out_f[-1]) + 1  # saved: the fused layout, then counts (T,)
    active = np.arange(T)[:, None] < (np.full(B, T) if lengths is None else lengths)  # (T,B)
    np.testing.assert_array_equal(out_s[-1][-1], active.sum(1))
    pairs = list(zip(out_f[:-1], out_s[:-1])) + list(zip(out_f[-1], out_s[-1][:-1])) + list(zip(run_f, run_s))
    bargs = [a[k] for k in ARGS[cell]]
    kw = {"clip": 0.7} if cell == "lstm" else {}
    pairs += list(zip(bwd_f(dy, out_f[-1], *bargs, **kw), bwd_s(identity, dy, out_s[-1], *bargs, **kw)))
    for k, (u, v) in enumerate(pairs):
        if isinstance(u, (bool, np.bool_)):
            assert u == v
            continue
        u, v = np.asarray(u), np.asarray(v)
        assert u.shape == v.shape, k
        assert np.abs(u - v).max() <= 1e-10 * max(np.abs(u).max(), 1.0), (k, np.abs(u - v).max())
