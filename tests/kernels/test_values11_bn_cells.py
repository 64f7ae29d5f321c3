"""The recurrent BN cells (lnrnn/kernels/bn_lstm.py, bn_rnn.py with bn_cell_x.py's x side and bn_parts.py's
statistics) in training on a batch whose last steps have no active row (every length shorter than T, one of
them 0), narrow (x Wx folded into the row loop) and wide input, in float64: a step without rows leaves its
running rows as they were, and outputs, running rows and gradients equal the NumPy reference's."""
import numpy as np
import pytest

from bn_problems import bn_problem
from lnrnn import reference as ref
from lnrnn.kernels import bn_lstm, bn_rnn

T, B, H, TS = 4, 5, 3, 4
LENGTHS = np.array([2, 0, 1, 2, 1])  # steps 2 and 3: no active row
EPS, MOM = 1e-5, 0.1
KERNEL = {"lstm": (bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward),
          "rnn": (bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)}
REF = {"lstm": (ref.bn_lstm_forward, ref.bn_lstm_backward), "rnn": (ref.bn_rnn_forward, ref.bn_rnn_backward)}
BWD = {"lstm": ["x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"], "rnn": ["x", "h0", "Wx", "Wh", "gx", "gh"]}


def close(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape
    return float(np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), 1.0))


@pytest.mark.parametrize("I", [2, 5])  # narrow (bn_cell_x's fold path) and wide
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_steps_without_an_active_row(cell, I):
    a, run, dy = bn_problem(np.random.default_rng(71), cell, T, B, I, H, TS)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    fwd_k, bwd_k = KERNEL[cell]
    fwd_r, bwd_r = REF[cell]
    out_k = fwd_k(*a.values(), *run_k, True, MOM, EPS, lengths=LENGTHS)
    out_r = fwd_r(*a.values(), *run_r, True, MOM, EPS, lengths=LENGTHS)
    for k, (r0, r) in enumerate(zip(run, run_k)):
        np.testing.assert_array_equal(r[2:], r0[2:], err_msg=f"running statistics {k}: steps 2, 3 changed")
        assert not np.array_equal(r[:2], r0[:2]), f"running statistics {k}: steps 0, 1 not updated"
    for k, (g, w) in enumerate(zip(run_k, run_r)):
        assert close(g, w) < 1e-12, f"running statistics {k}"
    for k, (g, w) in enumerate(zip(out_k[:-1], out_r[:-1])):
        assert close(g, w) < 1e-12, f"output {k}"
    bargs = [a[k] for k in BWD[cell]]
    grads_k = bwd_k(dy, out_k[-1], *bargs)
    grads_r = bwd_r(dy, out_r[-1], *bargs)
    for k, (g, w) in enumerate(zip(grads_k, grads_r)):
        assert close(g, w) < 1e-10, f"gradient {k}"
