"""The BN cells' CPU kernels (lnrnn/kernels/bn_lstm.py, bn_rnn.py) in float64 with every option on (rows of
their own lengths with an empty row and a one-step row, T past each side's running rows, momentum 0.3 and the
unbiased running variance, h0 and c0 given, x and h sides' gains and biases distinct), run two ways: through
the forward's default split (config.BN_PAR_MIN_WORK: a step of B*G < 8192 elements stays on one part, the
default row blocks) and on two parts over four row blocks of B = 7 (B not a multiple of the blocks). y, the
final states, the running rows and every gradient against lnrnn.reference; dh0 and dc0 against central
differences of the reference's loss. The problems, the reference call and the loss are those of
test_values154_bn_cells, with seeds of their own."""
import numpy as np
import pytest

from lnrnn.config import BN_PAR_MIN_WORK
from lnrnn.kernels import bn_lstm, bn_rnn
from gradcheck_util import numeric_grad
from test_values154_bn_cells import (BWD_ARGS, EPS, GRADS, I_NARROW, I_WIDE, KEYS, LENGTHS, MOM, B, H, err,
                                     kernel, loss, problem, reference)

CASES = [("lstm", I_NARROW), ("rnn", I_WIDE)]


def default_split(cell, p, run, dy):
    """The kernels as a layer calls them: par_min left at its default, the default row blocks."""
    fwd, bwd = (bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward) if cell == "lstm" else \
        (bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)
    out = fwd(*[p[k] for k in KEYS[cell]], *run, True, MOM, EPS, lengths=LENGTHS)
    return out, bwd(dy, out[-1], *[p[k] for k in BWD_ARGS[cell]])


@pytest.mark.parametrize("cell,I", CASES, ids=[c for c, _ in CASES])
def test_training_against_the_reference_both_splits(cell, I):
    p, run, dy = problem(cell, I, 17700 + I)
    G = 4 * H[cell] if cell == "lstm" else H[cell]
    assert B * G < BN_PAR_MIN_WORK  # the default split keeps one part
    run_r = [r.copy() for r in run]
    out_r, grads_r = reference(cell, p, run_r, True, dy)
    for how in ("default", "two parts"):
        run_k = [r.copy() for r in run]
        out, grads = default_split(cell, p, run_k, dy) if how == "default" else kernel(cell, p, run_k, True, dy, 2)
        assert err(out[0], out_r[0]) < 1e-10, f"y, {how}"
        for k in range(1, len(out) - 1):
            assert err(out[k], out_r[k]) < 1e-10, f"final state {k}, {how}"
        for name, g, w in zip(GRADS[cell], grads, grads_r):
            assert err(g, w) < 1e-9, f"d{name}, {how}: {err(g, w):.3g}"
        for k, (a, w) in enumerate(zip(run_k, run_r)):
            assert err(a, w) < 1e-12, f"running array {k}, {how}"


@pytest.mark.parametrize("cell,I", CASES, ids=[c for c, _ in CASES])
def test_initial_state_gradients_by_central_differences(cell, I):
    """dh0 (and dc0) in the backward's places, against central differences of the reference's loss."""
    p, run, dy = problem(cell, I, 17800 + I)
    _, grads = kernel(cell, p, [r.copy() for r in run], True, dy, 2)
    q = {k: v.copy() for k, v in p.items()}
    for name in ("h0", "c0") if cell == "lstm" else ("h0",):
        num = numeric_grad(lambda: loss(cell, q, run, True, dy), q[name], eps=1e-5, order=2)
        assert np.abs(num).max() > 1e-3, name
        g = grads[GRADS[cell].index(name)]
        assert err(g, num) < 1e-5, f"d{name}: {err(g, num):.3g}"
