"""lnrnn/kernels/cuda/gemm_cuda.py's products after a time loop where the input has one column (I = 1, the
narrowest input that has any): projection_grads against the three products written out in NumPy for I = 0, 1
and 3, and the plain LSTM and RNN twins with I = 1 against their CPU twins (no LayerNorm: with LN a one-column
input's normalized projection does not depend on x). Tiles of 4, shapes not multiples of it, float64, under
Numba's CUDA simulator (or on a GPU with NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import lstm, lstm_cuda, rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda  # noqa: E402
from test_cuda_kernels import (TOL64, assert_twins, close, problem, run_lstm, run_rnn, set_geometry,  # noqa: E402,F401
                               small_blocks)  # small_blocks: the autouse geometry fixture


@pytest.mark.parametrize("I", [0, 1, 3])
def test_projection_grads_for_narrow_inputs_are_the_products(I):
    """T 3, B 2, H 3, G 5: dx = dXW Wx^T, dWx = X^T dXW, dWh = Hprev^T dHW over all 6 rows."""
    T, B, H, G = 3, 2, 3, 5
    rng = np.random.default_rng(3010 + I)
    dXW, dHW = rng.standard_normal((T, B, G)), rng.standard_normal((T, B, G))
    x, h0, y, Wx = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((T, B, H)), \
        rng.standard_normal((I, G))
    dx, dWx, dWh = arrays_cuda.to_host(gemm_cuda.projection_grads(*(arrays_cuda.to_device(a)
                                                                    for a in (dXW, dHW, x, h0, y, Wx))))
    hprev = np.concatenate([h0[None], y[:-1]]).reshape(T * B, H)
    assert dx.shape == (T, B, I) and dWx.shape == (I, G)
    if I:
        assert close(dx, (dXW.reshape(T * B, G) @ Wx.T).reshape(T, B, I)) < TOL64
        assert close(dWx, x.reshape(T * B, I).T @ dXW.reshape(T * B, G)) < TOL64
    assert close(dWh, hprev.T @ dHW.reshape(T * B, G)) < TOL64


@pytest.mark.parametrize("path", ["sequence", "per-step"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_cells_with_one_input_column_match_the_cpu_twin(cell, path, monkeypatch):
    T, B, I, H = 3, 3, 1, 5
    set_geometry(monkeypatch, 8, path)
    p, dy = problem(np.random.default_rng(3013), cell, T, B, I, H)
    if cell == "lstm":
        assert_twins(run_lstm(lstm_cuda, p, dy, "none"), run_lstm(lstm, p, dy, "none"), TOL64)
    else:
        assert_twins(run_rnn(rnn_cuda, p, dy, "none"), run_rnn(rnn, p, dy, "none"), TOL64)
