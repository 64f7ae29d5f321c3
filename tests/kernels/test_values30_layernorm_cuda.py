"""lnrnn/kernels/layernorm_cuda.py with an eps that float32 cannot hold (0.1) and rows of every spread: the CUDA
twin's y, mean and 1/std equal the CPU twin's and the formula written here in float64, constant rows (variance 0:
1/std is 1/sqrt(eps) itself) among them, and the backward equals the CPU twin's. Blocks of 6 threads over rows of
11 features, under Numba's CUDA simulator (or on a GPU with NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import layernorm, layernorm_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)


@pytest.mark.parametrize("eps", [0.1, 1e-5])
def test_eps_is_added_in_the_working_precision(eps, monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 6)
    rng = np.random.default_rng(3020)
    N, F = 5, 11
    x = rng.standard_normal((N, F)) * np.array([1e-3, 0.3, 1.0, 4.0, 1.0])[:, None]
    x[4] = 2.5                                                   # a constant row
    g, b, dy = rng.standard_normal(F), rng.standard_normal(F), rng.standard_normal((N, F))
    y, m, r = arrays_cuda.to_host(layernorm_cuda.layernorm_forward(x, g, b, eps))
    mean = x.mean(1)
    rstd = 1.0 / np.sqrt(((x - mean[:, None]) ** 2).mean(1) + eps)
    assert r[4] == pytest.approx(1.0 / np.sqrt(eps), rel=1e-15)
    assert close(r, rstd) < 1e-14
    assert close(y, (x - mean[:, None]) * rstd[:, None] * g + b) < 1e-14
    for a, e in zip((y, m, r), layernorm.layernorm_forward(x, g, b, eps, 2)):
        assert close(a, e) < TOL64
    got = arrays_cuda.to_host(layernorm_cuda.layernorm_backward(dy, x, m, r, g))
    for a, e in zip(got, layernorm.layernorm_backward(dy, x, m, r, g, 2)):
        assert close(a, e, floor=1.0) < TOL64
