"""The synchronized BN-LSTM (lnrnn/kernels/bn_sync.py, one process: reduce is the identity) with Graves's gate
clip, in training and in inference (where it hands the step to the fused kernel), against the NumPy spec with
the same clip, float64, rows ending early: every gradient, with a bound that really bites (asserted: the spec's
clipped gradients differ from its unclipped ones)."""
import numpy as np
import pytest

from bn_problems import bn_problem
from lnrnn import reference as ref
from lnrnn.kernels import bn_sync

T, B, I, H, TS = 4, 5, 3, 3, 5
LENGTHS = np.array([4, 2, 4, 1, 3])
MOM, EPS = 0.1, 1e-5
CLIP = 0.05
ARGS = ["x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"]


def identity(buf):
    pass


def close(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_clipped_sync_bn_lstm_equals_the_clipped_spec(training):
    a, run, dy = bn_problem(np.random.default_rng(3101), "lstm", T, B, I, H, TS)
    dy = 20.0 * dy  # dL/da well beyond CLIP at every step
    run_r, run_s = [r.copy() for r in run], [r.copy() for r in run]
    out_r = ref.bn_lstm_forward(*a.values(), *run_r, training, MOM, EPS, LENGTHS)
    out_s = bn_sync.bn_lstm_forward(identity, *a.values(), *run_s, training, MOM, EPS, lengths=LENGTHS)
    assert close(out_s[0], out_r[0]) < 1e-12
    bargs = [a[k] for k in ARGS]
    want = ref.bn_lstm_backward(dy, out_r[-1], *bargs, clip=CLIP)
    free = ref.bn_lstm_backward(dy, out_r[-1], *bargs)
    got = bn_sync.bn_lstm_backward(identity, dy, out_s[-1], *bargs, clip=CLIP)
    assert len(got) == len(want)
    assert max(close(w, f) for w, f in zip(want, free)) > 1e-2, "the clip did not bite"
    errors = {k: close(g, w) for k, (g, w) in enumerate(zip(got, want))}
    assert max(errors.values()) < 1e-10, errors
