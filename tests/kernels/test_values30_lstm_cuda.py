"""The CUDA LSTM (lnrnn/kernels/lstm_cuda.py) off the default eps and in float32's rounding, against the CPU twin:
an LN-LSTM with eps 0.3 (not the configured 1e-5) on the sequence kernels and on the per-step launches, forward
outputs, saved tuple and gradients, where a large eps visibly changes the output; and the device's centered weights
(centered_device, which the narrow-input LN backward uses) equal to the host's codes.centered: bit for bit in
float32, on rows whose float32 sum rounds differently from their float64 sum, and within an ulp of each row's
scale in float64 times the row's length (codes.centered is compiled with reassociation: its float64 sum runs in
another order than the device's, a few ulps of the row's scale apart).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from lnrnn.kernels.codes import centered  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import (TOL64, assert_twins, problem, run_lstm, set_geometry,  # noqa: E402,F401
                               small_blocks)  # small_blocks: the autouse geometry fixture
import test_cuda_kernels  # noqa: E402


@pytest.mark.parametrize("path", ["sequence", "per-step"])
def test_ln_lstm_with_a_large_eps_matches_the_cpu_twin(path, monkeypatch):
    """T 3, B 3, I 2 (narrow: the backward recomputes xhat_x), H 5 on blocks of 8 threads; eps 0.3 reaches the
    input's LayerNorm, the recurrent one and the cell's."""
    T, B, I, H = 3, 3, 2, 5
    set_geometry(monkeypatch, 8, path)
    assert lstm_cuda.lstm_path(H, np.float64, T=T) == {"sequence": "seq", "per-step": "step"}[path]
    p, dy = problem(np.random.default_rng(3001), "lstm", T, B, I, H)
    monkeypatch.setattr(test_cuda_kernels, "EPS", 0.3)              # run_lstm's eps
    want = run_lstm(lstm, p, dy, "ln")
    assert_twins(run_lstm(lstm_cuda, p, dy, "ln"), want, TOL64)
    monkeypatch.setattr(test_cuda_kernels, "EPS", 1e-5)
    assert np.abs(run_lstm(lstm, p, dy, "ln")[0][0] - want[0][0]).max() > 1e-3  # eps 0.3 is felt


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_centered_weights_on_the_device_are_the_hosts(dtype):
    """Rows of 20 (G of H 5) and 7 columns, values of many magnitudes, so that a row's mean summed in the
    working dtype is not its float64 mean rounded; 5 rows over blocks of 8 threads."""
    rng = np.random.default_rng(3002)
    W = (rng.standard_normal((5, 20)) * 10.0 ** rng.integers(-3, 4, (5, 20))).astype(dtype)
    W[4] = (np.float32(1) + np.float32(2) ** -20 * np.arange(20)).astype(dtype)  # a sum that float32 rounds
    W7 = rng.standard_normal((3, 7)).astype(dtype) + dtype(1000.0)
    for w in (W, W7):
        got = arrays_cuda.to_host(lstm_cuda.centered_device(arrays_cuda.to_device(w)))
        want = centered(w)
        assert got.dtype == dtype
        if dtype == np.float32:
            np.testing.assert_array_equal(got, want)
        else:
            ulp = np.spacing(np.abs(w).max(axis=1, keepdims=True))
            assert (np.abs(got - want) <= w.shape[1] * ulp).all()
