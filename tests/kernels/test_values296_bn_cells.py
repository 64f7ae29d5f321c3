"""The fused BatchNorm cells (lnrnn/kernels/bn_rnn.py, bn_lstm.py, with the input side of bn_cell_x.py) against
lnrnn.reference: B = 5, H = 3, T = 4, I = 2 (the fold path), FOLD_MAX_I and FOLD_MAX_I + 1 (the wide path),
lengths [4, 0, 1, 4, 2] (0, 1 and T in one batch) and [3, 0, 1, 2, 1] (a last step with no active row); training
and inference, the inference reading fewer running rows than steps (the last row reused). y, hT, cT and every
running row against the reference; every gradient in float64 against central differences of the reference's
loss over the active (row, step)s. The problems are test_values296_bn_sync's."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm, bn_rnn
from gradcheck_util import numeric_grad
from test_values296_bn_sync import KEYS, LENGTHS, MOM, EPS, T, problem, ref_forward

SIZES = (2, FOLD_MAX_I, FOLD_MAX_I + 1)
MODES = ("training", "inference")


def fused_forward(cell, p, run, training, lengths):
    f = bn_lstm.bn_lstm_forward if cell == "lstm" else bn_rnn.bn_rnn_forward
    return f(*[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=lengths)


def fused_backward(cell, dy, saved, p):
    f = bn_lstm.bn_lstm_backward if cell == "lstm" else bn_rnn.bn_rnn_backward
    return f(dy, saved, *[p[k] for k in KEYS[cell] if k not in ("b", "bc")])


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("which", sorted(LENGTHS))
@pytest.mark.parametrize("cell", sorted(KEYS))
def test_forward_and_running_rows_against_the_reference(cell, which, mode, I):
    lengths, training = LENGTHS[which], mode == "training"
    ts = (T, 2, 3) if training else (2, 2, 3)   # inference: x as well reads fewer rows than steps
    p, run, _ = problem(cell, I, 40 + I, ts=ts)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    out = fused_forward(cell, p, run_k, training, lengths)
    want = ref_forward(cell, p, run_r, training, lengths)
    nout = 3 if cell == "lstm" else 2
    for name, a, b_ in zip(("y", "hT", "cT"), out[:nout], want[:nout]):
        np.testing.assert_allclose(a, b_, rtol=1e-10, atol=1e-11, err_msg=name)
    for k, (a, b_, r0) in enumerate(zip(run_k, run_r, run)):
        np.testing.assert_allclose(a, b_, rtol=1e-10, atol=1e-11, err_msg=f"running row set {k}")
        if not training:
            np.testing.assert_array_equal(a, r0)


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cell", sorted(KEYS))
def test_backward_against_central_differences_of_the_reference(cell, mode, I):
    lengths, training = LENGTHS["full"], mode == "training"
    p, run, dy = problem(cell, I, 60 + I, ts=(T, 2, 3) if training else (2, 2, 3))
    q = {k: v.copy() for k, v in p.items()}
    out = fused_forward(cell, q, [r.copy() for r in run], training, lengths)
    grads = fused_backward(cell, dy, out[-1], q)
    active = np.arange(T)[:, None] < lengths[None, :]

    def loss():
        y = ref_forward(cell, q, [r.copy() for r in run], training, lengths)[0]
        return float((dy * y)[active].sum())

    for name, g in zip(KEYS[cell], grads):
        num = numeric_grad(loss, q[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")
