"""lnrnn/kernels/cuda/rows_cuda.py's dot_col over ranges long enough for its eight unrolled accumulators (two
and three passes of eight, strides 1 and 2), each column of W against the sum of v[i] W[i, col] taken here.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from numba import cuda  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda, rows_cuda  # noqa: E402

dev = arrays_cuda.to_device
host = arrays_cuda.to_host


@cuda.jit
def _dot_cols_kernel(v, W, ranges, out):
    """One thread: out[c, r] = dot_col(v, W, c, *ranges[r]) for every column c and range r (start, stop, step)."""
    if cuda.grid(1) == 0:
        for c in range(W.shape[1]):
            for r in range(ranges.shape[0]):
                out[c, r] = rows_cuda.dot_col(v, W, c, ranges[r, 0], ranges[r, 1], ranges[r, 2], 0.0)


def test_dot_col_over_whole_passes_of_eight():
    N = 24
    rng = np.random.default_rng(17903)
    v, W = rng.standard_normal(N), rng.standard_normal((N, 3))
    ranges = np.array([(0, 16, 1), (0, N, 1), (1, N, 2)], np.int64)
    out = dev(np.zeros((3, len(ranges))))
    _dot_cols_kernel[1, 1](dev(v), dev(W), dev(ranges), out)
    want = np.array([[sum(v[i] * W[i, c] for i in range(*r)) for r in ranges] for c in range(3)])
    np.testing.assert_allclose(host(out), want, rtol=1e-13, atol=1e-13)
