"""The synchronized BN cells (lnrnn/kernels/bn_sync.py) in a group of two ranks that hold the same rows,
float64: ``reduce`` doubles every buffer it is given (the sum over two equal ranks), so the group's batch is
the rank's rows twice. Against the NumPy spec (reference.py) run on that doubled batch in one process: each
rank's outputs and dL/dx are the spec's on its rows, the running statistics the spec's (n = 2B in the
unbiased variance), and each rank's parameter gradients half the spec's (its own part; the trainer's
allreduce adds the two), with ragged rows and T > Ts."""
import numpy as np
import pytest

from bn_problems import bn_problem
from test_values18_bn_sync import ARGS, B, EPS, LENGTHS, MOM, REF, SYNC, TS, H, I, T, close


def two_equal_ranks(buf):
    buf *= 2.0


def doubled(v):
    """An array of the rank's rows (B along axis 1 for (T,B,...), axis 0 for (B,...)) as the group's 2B."""
    return np.concatenate([v, v], axis=1 if v.ndim == 3 else 0)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_two_equal_ranks_are_the_spec_on_the_doubled_batch(cell):
    a, run, dy = bn_problem(np.random.default_rng(24), cell, T, B, I, H, TS)
    run_r, run_s = [r.copy() for r in run], [r.copy() for r in run]
    fwd_r, bwd_r = REF[cell]
    fwd_s, bwd_s = SYNC[cell]
    a2 = {k: doubled(v) if k in ("x", "h0", "c0") else v for k, v in a.items()}
    out_r = fwd_r(*a2.values(), *run_r, True, MOM, EPS, doubled(LENGTHS))
    out_s = fwd_s(two_equal_ranks, *a.values(), *run_s, True, MOM, EPS, lengths=LENGTHS)
    close("y", out_s[0], out_r[0][:, :B])
    for k, (g, w, r0) in enumerate(zip(run_s, run_r, run)):
        assert not np.array_equal(w, r0), k
        close(f"running statistics {k}", g, w)
    bargs_r = [a2[k] for k in ARGS[cell]]
    g_r = bwd_r(doubled(dy), out_r[-1], *bargs_r)
    g_s = bwd_s(two_equal_ranks, dy, out_s[-1], *[a[k] for k in ARGS[cell]])
    nstate = 2 if cell == "lstm" else 1
    for k in range(1 + nstate):                                  # dx, dh0 (, dc0): the rank's rows
        w = g_r[k][:, :B] if k == 0 else g_r[k][:B]
        close(f"input gradient {k}", g_s[k], w)
    for k in range(1 + nstate, len(g_r)):                        # parameters: this rank's half
        assert np.abs(g_r[k]).max() > 0, k
        close(f"parameter gradient {k}", g_s[k], 0.5 * g_r[k])
