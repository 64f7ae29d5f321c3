"""The BN cells' CUDA twins (bn_lstm_cuda, bn_rnn_cuda) off the default eps and momentum, against the CPU twins
(bn_lstm, bn_rnn, whose x side runs bn_cell_x's fold path for a narrow input and whose h side and cell combine
their rows' moments in bn_parts): eps 0.3 and momentum 0.35, in training and in inference, with a narrow input
(I = 1: the CPU's fold path) and a wide one (I = 6: x Wx as one product), ragged lengths (a row of 0 steps, rows
ending early), and each side holding its own number of running rows (2, 7, 4: fewer and more than T = 5).
Outputs, saved tuple, gradients and the running rows folded in place, float64; eps and momentum are checked to be
felt (the CPU twin at the defaults gives other outputs and other running rows).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from test_cuda_kernels import BN_CPU, close, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from test_values22_bn_cells import problem as bn_problem_rows  # noqa: E402
from test_values22_bn_cells_cuda import assert_same, run_cell  # noqa: E402

EPS, MOM = 0.3, 0.35


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [1, 6], ids=["narrow", "wide"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_bn_cells_off_the_default_eps_and_momentum(cell, I, training):
    import test_values22_bn_cells as cpu
    rows = (2, 7, 4) if cell == "lstm" else (2, 7)
    a, run, dy = bn_problem_rows(np.random.default_rng(3802), cell, I, rows)
    lengths = np.array([cpu.T, 0, 3, 1], np.int64)
    run_d, run_o = [r.copy() for r in run], [r.copy() for r in run]
    default = run_cell(BN_CPU[cell], cell, a, run_d, dy, training, lengths=lengths)
    other = run_cell(BN_CPU[cell], cell, a, run_o, dy, training, lengths=lengths, momentum=MOM, eps=EPS)
    assert close(other[0][0], default[0][0]) > 1e-3, "eps 0.3 must change y"
    if training:
        for k, (r, r0) in enumerate(zip(run_o, run_d)):
            assert close(r, r0) > 1e-3, f"momentum 0.35 must change running row {k}"
    assert_same(cell, a, run, dy, training, lengths=lengths, momentum=MOM, eps=EPS)
