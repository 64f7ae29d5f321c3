"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) off the default eps and BatchNorm momentum, against
the NumPy spec (reference.window_lstm_*): eps 0.3 (not the configured 1e-5) reaches the LN-LSTM's three LayerNorms
and each BN_t (the x side, the h side, the cell) in training and in inference; momentum 0.35 (not 0.1) reaches
every running row folded in training. Each case runs with right-padded rows and texts (a row with no text, a text
of the full width), blocks of 4 threads and tiles of 3 (nothing a multiple of a block), and checks first that the
option is felt: the spec at the defaults gives other outputs or other running rows.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from test_cuda_kernels import close  # noqa: E402
from test_window_cuda import (SHAPE, TOL_BWD, TOL_FWD, assert_matches, problem, small_blocks,  # noqa: E402,F401
                              spec, twin)  # small_blocks: the autouse geometry fixture
import test_window_cuda  # noqa: E402

# (norm, training, lengths, ulen): a padded row and a row of one step; a text of the full width (U = 5) and none
CASES = {
    "ln": ("ln", True, [4, 2, 1], [5, 3, 0]),
    "bn-train": ("bn", True, [4, 1, 3], [0, 5, 2]),
    "bn-infer": ("bn", False, [2, 4, 3], [5, 0, 3]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_window_layer_off_the_default_eps_and_momentum(case, monkeypatch):
    norm, training, lengths, ulen = CASES[case]
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    a, run, lengths, dy, dw = problem(38, lengths, ulen, **SHAPE)
    default = spec(a, run, lengths, dy, dw, norm, training)
    monkeypatch.setattr(test_window_cuda, "EPS", 0.3)        # spec's and twin's eps
    monkeypatch.setattr(test_window_cuda, "MOMENTUM", 0.35)  # and momentum
    want = spec(a, run, lengths, dy, dw, norm, training)
    assert close(want[0][0], default[0][0]) > 1e-3, "eps 0.3 must change y"
    if norm == "bn" and training:
        for k, (r, r0) in enumerate(zip(want[1], default[1])):
            assert close(r, r0) > 1e-3, f"momentum 0.35 must change running row {k}"
    assert_matches(twin(a, run, lengths, dy, dw, norm, training), want, TOL_FWD, TOL_BWD)

