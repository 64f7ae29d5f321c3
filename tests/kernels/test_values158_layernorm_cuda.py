"""lnrnn/kernels/layernorm_cuda.py's forward and backward against lnrnn/reference.py (the NumPy spec) and central
differences, float64, rows of 13 features over blocks of 8 threads (two strides), under Numba's CUDA simulator (or
on a GPU with NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from gradcheck_util import numeric_grad  # noqa: E402
from lnrnn import reference as ref  # noqa: E402
from lnrnn.kernels import layernorm_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import close, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)

N, F, EPS = 3, 13, 0.1


def test_forward_and_backward_equal_the_spec_and_central_differences():
    rng = np.random.default_rng(15810)
    x = rng.standard_normal((N, F)) * np.array([0.5, 1.0, 3.0])[:, None] + 0.7
    g, b, dy = rng.uniform(0.5, 1.5, F), rng.standard_normal(F), rng.standard_normal((N, F))
    y, m, r = arrays_cuda.to_host(layernorm_cuda.layernorm_forward(x, g, b, EPS))
    y_r, m_r, r_r = ref.layernorm_forward(x, g, b, EPS)
    for got, want in ((y, y_r), (m, m_r), (r, r_r)):
        assert close(got, np.reshape(want, got.shape)) < 1e-13
    dx, dg, db = arrays_cuda.to_host(layernorm_cuda.layernorm_backward(dy, x, m, r, g))
    z = x.copy()
    num = numeric_grad(lambda: np.sum(dy * ref.layernorm_forward(z, g, b, EPS)[0]), z, eps=1e-6, order=2)
    assert close(dx, num) < 1e-7
    xhat = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + EPS)
    assert close(dg, (dy * xhat).sum(0)) < 1e-13
    assert close(db, dy.sum(0)) < 1e-13
