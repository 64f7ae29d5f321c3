"""The synchronized BN cells (lnrnn/kernels/bn_sync.py, one process: reduce is the identity) against the NumPy
spec directly, float64, in training with rows ending early, running means far from zero (the shift of the
single-pass variance matters), T > Ts (the last steps record no running row) and a large eps (1/sqrt(var +
eps) and 1/(std + eps) differ by far more than rounding): outputs, running statistics and every gradient."""
import numpy as np
import pytest

from bn_problems import bn_problem
from lnrnn import reference as ref
from lnrnn.kernels import bn_sync

T, B, I, H, TS = 4, 5, 3, 3, 3
LENGTHS = np.array([4, 2, 4, 1, 3])
MOM, EPS = 0.1, 1e-2
TOL = 1e-10
ARGS = {"lstm": ["x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"], "rnn": ["x", "h0", "Wx", "Wh", "gx", "gh"]}
REF = {"lstm": (ref.bn_lstm_forward, ref.bn_lstm_backward), "rnn": (ref.bn_rnn_forward, ref.bn_rnn_backward)}
SYNC = {"lstm": (bn_sync.bn_lstm_forward, bn_sync.bn_lstm_backward),
        "rnn": (bn_sync.bn_rnn_forward, bn_sync.bn_rnn_backward)}


def identity(buf):
    pass


def close(name, got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, name
    err = np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0)
    assert err <= TOL, f"{name}: error {err:.3g}"


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_sync_cells_equal_the_spec(cell):
    a, run, dy = bn_problem(np.random.default_rng(18), cell, T, B, I, H, TS)
    run = [r + 2.0 if k % 2 == 0 else r for k, r in enumerate(run)]  # running means near 2: the shift is felt
    run_r, run_s = [r.copy() for r in run], [r.copy() for r in run]
    fwd_r, bwd_r = REF[cell]
    fwd_s, bwd_s = SYNC[cell]
    out_r = fwd_r(*a.values(), *run_r, True, MOM, EPS, LENGTHS)
    out_s = fwd_s(identity, *a.values(), *run_s, True, MOM, EPS, lengths=LENGTHS)
    for k, (g, w) in enumerate(zip(out_s[:-1], out_r[:-1])):
        close(f"output {k}", g, w)
    for k, (g, w, r0) in enumerate(zip(run_s, run_r, run)):
        assert not np.array_equal(w, r0), "the spec updated no running row"
        close(f"running statistics {k}", g, w)
    bargs = [a[k] for k in ARGS[cell]]
    g_r = bwd_r(dy, out_r[-1], *bargs)
    g_s = bwd_s(identity, dy, out_s[-1], *bargs)
    assert len(g_r) == len(g_s)
    for k, (g, w) in enumerate(zip(g_s, g_r)):
        close(f"gradient {k}", g, w)
