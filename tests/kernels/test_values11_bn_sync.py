"""The synchronized BN cells (lnrnn/kernels/bn_sync.py) on a batch whose last steps have no active row (every
length shorter than T, one of them 0), in float64 against the fused twins (bn_lstm.py, bn_rnn.py): such a
step normalizes with mean 0 and variance 0 (1/std = 1/sqrt(eps)), leaves its running rows alone, and
everything else, forward and backward, is the fused cells' to rounding."""
import numpy as np
import pytest

from bn_problems import bn_problem
from test_bn_sync_speed_bits import ARGS, FUSED, SYNC, identity

T, B, I, H, TS = 4, 5, 5, 4, 4  # I = 5 > config.FOLD_MAX_I: the fused saved layout is the synced one
LENGTHS = np.array([2, 0, 1, 2, 1])  # steps 2 and 3: no active row
EPS = 1e-5


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_steps_without_an_active_row_equal_the_fused_cells(cell):
    a, run, dy = bn_problem(np.random.default_rng(61), cell, T, B, I, H, TS)
    run_f, run_s = [r.copy() for r in run], [r.copy() for r in run]
    fwd_f, bwd_f = FUSED[cell]
    fwd_s, bwd_s = SYNC[cell]
    out_f = fwd_f(*a.values(), *run_f, True, 0.1, EPS, lengths=LENGTHS)
    out_s = fwd_s(identity, *a.values(), *run_s, True, 0.1, EPS, lengths=LENGTHS)
    saved_s = out_s[-1]
    rstd_x = saved_s[2]  # (T,G): the x side's 1/std, by definition 1/sqrt(eps) at a step without rows
    np.testing.assert_allclose(rstd_x[2:], 1 / np.sqrt(EPS), rtol=1e-12)
    for k, (r0, r) in enumerate(zip(run, run_s)):
        np.testing.assert_array_equal(r[2:], r0[2:], err_msg=f"running statistics {k}")
    pairs = list(zip(out_f[:-1], out_s[:-1])) + list(zip(out_f[-1], saved_s[:-1])) + list(zip(run_f, run_s))
    bargs = [a[k] for k in ARGS[cell]]
    pairs += list(zip(bwd_f(dy, out_f[-1], *bargs), bwd_s(identity, dy, saved_s, *bargs)))
    for k, (u, v) in enumerate(pairs):
        if isinstance(u, (bool, np.bool_)):
            assert u == v
            continue
        u, v = np.asarray(u), np.asarray(v)
        assert u.shape == v.shape, k
        assert np.abs(u - v).max(initial=0.0) <= 1e-10 * max(np.abs(u).max(initial=0.0), 1.0), k
