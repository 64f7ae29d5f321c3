"""The CUDA RNN (lnrnn/kernels/rnn_cuda.py) off the default eps, against the CPU twin: an LN-RNN with eps 0.3 (not
the configured 1e-5) on the sequence kernel and on the per-step launches, forward outputs, saved tuple and
gradients, at H below and above the block (5 on 8 threads, 9 on 4: the strided path) and a narrow input (I = 1);
a large eps visibly changes the output, so a twin that runs at the default eps fails.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from test_cuda_kernels import (TOL64, assert_twins, problem, run_rnn, set_geometry,  # noqa: E402,F401
                               small_blocks)  # small_blocks: the autouse geometry fixture
import test_cuda_kernels  # noqa: E402


@pytest.mark.parametrize("shape", [(3, 3, 2, 5, 8), (2, 3, 1, 9, 4)], ids=["H5-on-8", "H9-on-4-I1"])
@pytest.mark.parametrize("path", ["sequence", "per-step"])
def test_ln_rnn_with_a_large_eps_matches_the_cpu_twin(path, shape, monkeypatch):
    T, B, I, H, tpb = shape
    set_geometry(monkeypatch, tpb, path)
    assert rnn_cuda.rnn_path(H, np.float64, T=T) == {"sequence": "seq", "per-step": "step"}[path]
    p, dy = problem(np.random.default_rng(3801), "rnn", T, B, I, H)
    monkeypatch.setattr(test_cuda_kernels, "EPS", 0.3)              # run_rnn's eps
    want = run_rnn(rnn, p, dy, "ln")
    assert_twins(run_rnn(rnn_cuda, p, dy, "ln"), want, TOL64)
    monkeypatch.setattr(test_cuda_kernels, "EPS", 1e-5)
    assert np.abs(run_rnn(rnn, p, dy, "ln")[0][0] - want[0][0]).max() > 1e-3  # eps 0.3 is felt
