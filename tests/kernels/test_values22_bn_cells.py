"""The recurrent BN cells (lnrnn/kernels/bn_lstm.py, bn_rnn.py) when the x side, the h side and the cell hold
different numbers of running rows (Tsx, Tsh, Tsc): training folds step t into each side's row t while t is below
that side's own count, inference reads each side's row min(t, Ts-1). Narrow input (x Wx folded into the row loop,
bn_cell_x) and wide, float64, against the NumPy reference (lnrnn/reference.py): outputs, running rows, and in
training the gradients."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm, bn_rnn
from bn_problems import bn_problem

T, B, H = 5, 4, 3
EPS, MOM = 1e-5, 0.1
KERNEL = {"lstm": (bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward),
          "rnn": (bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)}
REF = {"lstm": (ref.bn_lstm_forward, ref.bn_lstm_backward), "rnn": (ref.bn_rnn_forward, ref.bn_rnn_backward)}
BWD = {"lstm": ["x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"], "rnn": ["x", "h0", "Wx", "Wh", "gx", "gh"]}
# (Tsx, Tsh[, Tsc]): fewer x-side rows than steps and more h-side rows, and the other way round
ROWS = [(2, 7, 4), (7, 2, 3)]


def close(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape
    return float(np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), 1.0))


def problem(rng, cell, I, rows):
    """Arguments up to the running rows (a dict in argument order), the running rows [rmx, rvx, rmh, rvh(, rmc,
    rvc)] with their own row counts, and dy."""
    return bn_problem(rng, cell, T, B, I, H, rows)


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize("I", [2, FOLD_MAX_I + 2])  # narrow (fold) and wide
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_sides_with_their_own_running_rows(cell, I, rows):
    rows = rows if cell == "lstm" else rows[:2]
    a, run, dy = problem(np.random.default_rng(2201), cell, I, rows)
    fwd_k, bwd_k = KERNEL[cell]
    fwd_r, bwd_r = REF[cell]
    lengths = np.array([T, 3, T, 1])
    for training in (True, False):
        run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
        out_k = fwd_k(*a.values(), *run_k, training, MOM, EPS, lengths=lengths)
        out_r = fwd_r(*a.values(), *run_r, training, MOM, EPS, lengths=lengths)
        for k, (g, w) in enumerate(zip(out_k[:-1], out_r[:-1])):
            assert close(g, w) < 1e-12, (training, f"output {k}")
        for k, (g, w, r0) in enumerate(zip(run_k, run_r, run)):
            assert close(g, w) < 1e-12, (training, f"running rows {k}")
            if training:  # rows below min(T, Ts) folded, the rest as they were
                m = min(T, r0.shape[0])
                assert not np.allclose(g[:m], r0[:m]) and np.array_equal(g[m:], r0[m:]), f"running rows {k}"
            else:
                assert np.array_equal(g, r0), f"running rows {k} changed in inference"
        if training:
            bargs = [a[k] for k in BWD[cell]]
            for k, (g, w) in enumerate(zip(bwd_k(dy, out_k[-1], *bargs), bwd_r(dy, out_r[-1], *bargs))):
                assert close(g, w) < 1e-10, f"gradient {k}"
