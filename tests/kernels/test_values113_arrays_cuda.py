"""The device-array helpers of lnrnn/kernels/cuda/arrays_cuda.py against NumPy on shapes that no block divides
(B 3, H 5, T 1-3, blocks of 4 threads): mask_steps, take_steps, put_steps (rev columns too), reverse_valid,
final_rows, add_into, transpose, rows2d, copy of a strided view, head, take_row, fill_zeros; and graphs_cuda's
c_strides against NumPy's strides of C-ordered arrays.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda as ac  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402

B, H = 3, 5
dev, host = ac.to_device, ac.to_host


@pytest.fixture(autouse=True)
def four_threads(monkeypatch):
    """Blocks of 4 threads: none of the sizes below is a multiple of the block."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def seq(T, rng, F=H):
    return rng.standard_normal((T, B, F))


@pytest.mark.parametrize("T", [1, 2, 3])
def test_row_gathers_and_scatters_equal_numpy(T):
    """mask_steps, take_steps, put_steps, reverse_valid and final_rows of rows of lengths (T, 1, T-1 or 0),
    each element against a NumPy loop over rows and steps."""
    rng = np.random.default_rng(113 + T)
    a = seq(T, rng)
    L = np.array([T, 1, max(T - 1, 0)], np.int64)
    got = host(ac.mask_steps(dev(a), dev(L)))
    want = a * (np.arange(T)[:, None] < L[None, :])[:, :, None]
    assert np.array_equal(got, want)
    steps = np.maximum(L - 1, 0)
    rev = np.array([0, 1, 0, 0, 1], np.int64)
    for r in (None, rev):
        col_step = lambda b, j: 0 if r is not None and r[j] else steps[b]  # noqa: E731
        got = host(ac.take_steps(dev(a), dev(steps), None if r is None else dev(r)))
        want = np.array([[a[col_step(b, j), b, j] for j in range(H)] for b in range(B)])
        assert np.array_equal(got, want)
        rows = rng.standard_normal((B, H))
        got = host(ac.put_steps(dev(rows), dev(steps), T, None if r is None else dev(r)))
        want = np.zeros((T, B, H))
        for b in range(B):
            for j in range(H):
                want[col_step(b, j), b, j] = rows[b, j]
        assert np.array_equal(got, want)
    F = 2
    a2 = seq(T, rng, F)
    want = a2.copy()
    for b in range(B):
        want[:L[b], b] = a2[:L[b], b][::-1]
    assert np.array_equal(host(ac.reverse_valid(dev(a2), dev(L))), want)
    sT, s0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    want = np.array([sT[b] if L[b] >= T else (a[L[b] - 1, b] if L[b] > 0 else s0[b]) for b in range(B)])
    assert np.array_equal(host(ac.final_rows(dev(sT), dev(a), dev(s0), dev(L))), want)


def test_add_transpose_rows2d_and_copies_equal_numpy():
    """add_into adds (twice: 2a + b), transpose of a 3x5, rows2d of (2,3,5) is (6,5), copy of a strided view,
    head and take_row, fill_zeros of two arrays: each against NumPy."""
    rng = np.random.default_rng(1131)
    a, b = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    out = dev(b)
    ac.add_into(out, dev(a))
    ac.add_into(out, dev(a))
    assert np.allclose(host(out), b + 2 * a, rtol=0, atol=1e-15)
    assert np.array_equal(host(ac.transpose(dev(a))), a.T)
    s = seq(2, rng)
    r2 = ac.rows2d(dev(s))
    assert r2.shape == (2 * B, H) and np.array_equal(host(r2), s.reshape(2 * B, H))
    s3 = seq(3, rng)
    d3 = dev(s3)
    assert np.array_equal(host(ac.copy(d3[:, 1:, ::2])), s3[:, 1:, ::2])
    assert np.array_equal(host(ac.head(d3, 2)), s3[:2])
    for t in range(3):
        assert np.array_equal(host(ac.take_row(d3, t)), s3[t])
    z1, z2 = dev(a), dev(s3)
    ac.fill_zeros(z1, z2)
    assert not host(z1).any() and not host(z2).any()


@pytest.mark.parametrize("shape", [(3,), (3, 5), (2, 3, 5), (1, 3, 1, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_c_strides_equal_numpys(shape, dtype):
    """c_strides (the caching allocator's device arrays) are NumPy's byte strides of a C-ordered array."""
    assert graphs_cuda.c_strides(shape, np.dtype(dtype).itemsize) == np.empty(shape, dtype).strides
