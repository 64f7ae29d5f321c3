"""The row device functions of lnrnn/kernels/cuda/rows_cuda.py, each launched here in a kernel of its own, against
NumPy in float64: block_sum, block_sum2 and block_sum4 over a block of 5 threads (not a power of two) to every
thread; dot_col for strided ranges shorter and longer than its eight accumulators; split_matvec for H below the
block (2, 3 and 4 thread groups, one group) and above it (each thread whole columns) against v @ W, and
split_groups by its definition (the whole copies of H units a block holds); local_stats of rows whose units a
thread owns one, two or none of, against the row's mean and 1 / sqrt(biased variance + eps); sigmoid and units.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import math

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from numba import cuda, float64  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda, rows_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: a race-free simulator)

dev = arrays_cuda.to_device
host = arrays_cuda.to_host
W5 = 5  # threads of the block-sum kernel
SH5 = 4 * W5  # its shared row: four values a thread (a name, so that a GPU's compiler types the shape)


@cuda.jit
def _sums_kernel(x, out):
    """x (4, W5): thread tid's four values; out (W5, 7): every thread's block_sum, block_sum2 and block_sum4."""
    sh = cuda.shared.array(SH5, float64)
    tid = cuda.threadIdx.x
    out[tid, 0] = rows_cuda.block_sum(sh, x[0, tid])
    a, b = rows_cuda.block_sum2(sh, x[0, tid], x[1, tid])
    out[tid, 1] = a
    out[tid, 2] = b
    a, b, c, d = rows_cuda.block_sum4(sh, x[0, tid], x[1, tid], x[2, tid], x[3, tid])
    out[tid, 3] = a
    out[tid, 4] = b
    out[tid, 5] = c
    out[tid, 6] = d


def test_block_sums_reach_every_thread():
    x = np.random.default_rng(8220).standard_normal((4, W5))
    out = dev(np.zeros((W5, 7)))
    _sums_kernel[1, W5](dev(x), out)
    s = x.sum(axis=1)
    want = np.array([s[0], s[0], s[1], s[0], s[1], s[2], s[3]])
    np.testing.assert_allclose(host(out), np.broadcast_to(want, (W5, 7)), rtol=1e-13, atol=1e-13)


@cuda.jit
def _dot_col_kernel(v, W, ranges, out):
    """One thread: out[c, r] = dot_col(v, W, c, *ranges[r]) for every column c and range r (start, stop, step)."""
    if cuda.grid(1) == 0:
        for c in range(W.shape[1]):
            for r in range(ranges.shape[0]):
                out[c, r] = rows_cuda.dot_col(v, W, c, ranges[r, 0], ranges[r, 1], ranges[r, 2], 0.0)


def test_dot_col_over_strided_ranges():
    N = 19
    rng = np.random.default_rng(8221)
    v, W = rng.standard_normal(N), rng.standard_normal((N, 2))
    ranges = np.array([(0, N, 1), (1, N, 2), (2, N, 3), (0, 7, 1), (0, 8, 1), (3, 12, 1), (0, 0, 1), (5, N, 8)],
                      np.int64)
    out = dev(np.zeros((2, len(ranges))))
    _dot_col_kernel[1, 1](dev(v), dev(W), dev(ranges), out)
    want = np.array([[sum(v[i] * W[i, c] for i in range(*r)) for r in ranges] for c in range(2)])
    np.testing.assert_allclose(host(out), want, rtol=1e-13, atol=1e-13)


def matvec_kernel(H, N, tpb):
    matvec = rows_cuda.split_matvec(H, N, tpb)
    red_size = (tpb + H) * H  # more than split_groups(H, tpb) * H

    @cuda.jit
    def kernel(v, W, out):
        vs = cuda.shared.array(N, float64)
        res = cuda.shared.array(H, float64)
        red = cuda.shared.array(red_size, float64)
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        for j in range(tid, N, n):
            vs[j] = v[j]
        cuda.syncthreads()
        matvec(vs, W, res, red, tid, n, 0.0)
        cuda.syncthreads()
        for k in range(tid, H, n):
            out[k] = res[k]
    return kernel


@pytest.mark.parametrize("H,N,tpb", [(3, 7, 8), (2, 9, 8), (4, 5, 8), (5, 6, 8), (9, 4, 4)],
                         ids=["two-groups", "four-groups", "two-whole-groups", "one-group", "wide"])
def test_split_matvec_is_v_times_W(H, N, tpb):
    rng = np.random.default_rng(8222 + H)
    v, W = rng.standard_normal(N), rng.standard_normal((N, H))
    out = dev(np.full(H, np.nan))
    matvec_kernel(H, N, tpb)[1, tpb](dev(v), dev(W), out)
    np.testing.assert_allclose(host(out), v @ W, rtol=1e-13, atol=1e-13)


def test_split_groups_and_units_by_definition():
    for H in (1, 2, 3, 4, 5, 8, 9, 16, 40):
        for tpb in (1, 4, 8, 32):
            assert rows_cuda.split_groups(H, tpb) == max(1, max(P for P in range(tpb + 1) if P * H <= tpb)), (H, tpb)
            assert rows_cuda.units(H, tpb) == max(1, min(u for u in range(H + 1) if u * tpb >= H)), (H, tpb)


def stats_kernel(per, H, tpb):
    U = rows_cuda.units(H, tpb)
    PU = per * U  # each thread's local values (a name in the factory: a GPU's compiler types the shape)

    @cuda.jit
    def kernel(x, e, out):
        """x (per*H,): unit k's values at x[per*k : per*(k+1)]; out (tpb, 2): each thread's (mean, rstd)."""
        sh = cuda.shared.array(tpb, float64)
        vals = cuda.local.array(PU, float64)
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        s = 0.0
        for u in range(U):
            k = tid + u * n
            if k < H:
                for q in range(per):
                    vals[per * u + q] = x[per * k + q]
                    s += x[per * k + q]
        m, r = rows_cuda.local_stats(sh, vals, per, s, H, 1.0 / (per * H), e, 1.0)
        out[tid, 0] = m
        out[tid, 1] = r
    return kernel


@pytest.mark.parametrize("per,H,tpb", [(4, 5, 4), (1, 7, 3), (1, 2, 4)],
                         ids=["lstm-two-units-a-thread", "rnn-three-units", "idle-threads"])
def test_local_stats_are_the_rows_mean_and_rstd(per, H, tpb):
    e = 0.3
    x = np.random.default_rng(8223 + H).standard_normal(per * H) * 0.4 + 1.5  # variance well below eps
    out = dev(np.zeros((tpb, 2)))
    stats_kernel(per, H, tpb)[1, tpb](dev(x), e, out)
    want = np.array([x.mean(), 1 / np.sqrt(((x - x.mean()) ** 2).mean() + e)])
    np.testing.assert_allclose(host(out), np.broadcast_to(want, (tpb, 2)), rtol=1e-13, atol=1e-13)


@cuda.jit
def _sigmoid_kernel(z, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        out[i] = rows_cuda.sigmoid(z[i], 1.0)


def test_sigmoid_by_its_formula_and_far_out():
    z = np.array([-200.0, -30.0, -1.5, 0.0, 0.7, 30.0, 200.0])
    out = dev(np.zeros_like(z))
    _sigmoid_kernel[1, 8](dev(z), out)
    want = np.array([1 / (1 + math.exp(min(-t, 80.0))) for t in z])
    np.testing.assert_allclose(host(out), want, rtol=1e-14, atol=0)
    assert host(out)[3] == 0.5 and host(out)[-1] == 1.0
