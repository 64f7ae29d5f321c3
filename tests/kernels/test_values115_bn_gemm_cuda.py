"""BatchNorm's CUDA twin, the tiled GEMM with LayerNorm's column sums, and the block-row helpers of rows_cuda under
the simulator, float64, against NumPy written here.

BatchNorm: B = 4 rows of lengths 3, 1, 0, 3 over T = 3 steps and H = 5 features (tiles of 4), padded entries
holding values; training's y, mean, rstd, running rows (biased variance to normalize, n / (n - 1) into the running
variance) and gradients against the per-step batch-statistics definition; gains and biases away from 1 and 0.
GEMM: every transpose with K = 7 and M, N of 3 and 5 (none a multiple of the tile), accumulating into an output
holding values; colsum, colsum_prod and colsum_ln over N = 21 rows (several partial blocks) of M = 5 columns.
rows_cuda: block_sum2 over 7 lanes, dot_col with a start and stride whose tail runs fewer than 8 terms.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from numba import cuda, float64  # noqa: E402

from lnrnn.kernels import batchnorm_cuda  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda, rows_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device  # noqa: E402
from test_cuda_kernels import host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)

T, B, H = 3, 4, 5
LENGTHS = np.array([3, 1, 0, 3], np.int64)
EPS, MOM = 0.05, 0.3
TOL = 1e-12


def bn_arrays(seed):
    rng = np.random.default_rng(seed)
    x = 1.3 * rng.standard_normal((T, B, H)) + 0.5          # padded entries hold values too
    gain, bias = rng.uniform(0.5, 2.0, H), 0.4 * rng.standard_normal(H)
    rm, rv = 0.3 * rng.standard_normal((T, H)), rng.uniform(0.5, 2.0, (T, H))
    dy = rng.standard_normal((T, B, H)) * (np.arange(T)[:, None] < LENGTHS)[:, :, None]
    return x, gain, bias, rm, rv, dy


def test_batchnorm_training_by_definition():
    """Each step over its active rows only: y, mean, rstd, the running rows (momentum, unbiased variance) and
    dx, dgain, dbias of sum(dy * y)."""
    x, gain, bias, rm, rv, dy = bn_arrays(11501)
    rm_g, rv_g = rm.copy(), rv.copy()
    y, mean, rstd = (host(a) for a in batchnorm_cuda.bn_forward(x, gain, bias, rm_g, rv_g, True, MOM, EPS, LENGTHS))
    want_rm, want_rv = rm.copy(), rv.copy()
    dx_w, dg_w, db_w = np.zeros_like(x), np.zeros(H), np.zeros(H)
    for t in range(T):
        on = LENGTHS > t
        n = on.sum()
        xa = x[t][on]
        m, v = xa.mean(0), xa.var(0)                         # the biased variance normalizes
        r = 1 / np.sqrt(v + EPS)
        np.testing.assert_allclose(mean[t], m, rtol=0, atol=TOL, err_msg=f"mean, step {t}")
        np.testing.assert_allclose(rstd[t], r, rtol=0, atol=TOL, err_msg=f"rstd, step {t}")
        np.testing.assert_allclose(y[t][on], (xa - m) * r * gain + bias, rtol=0, atol=TOL, err_msg=f"y, step {t}")
        want_rm[t] = (1 - MOM) * rm[t] + MOM * m
        want_rv[t] = (1 - MOM) * rv[t] + MOM * v * n / max(n - 1, 1)
        xh = (xa - m) * r
        d = dy[t][on]
        dg_w += (d * xh).sum(0)
        db_w += d.sum(0)
        dxh = d * gain
        dx_w[t][on] = (dxh - dxh.mean(0) - xh * (dxh * xh).mean(0)) * r
    np.testing.assert_allclose(rm_g, want_rm, rtol=0, atol=TOL, err_msg="running mean")
    np.testing.assert_allclose(rv_g, want_rv, rtol=0, atol=TOL, err_msg="running variance")
    dx, dg, db = (host(a) for a in batchnorm_cuda.bn_backward(dy, x, mean, rstd, gain, True, LENGTHS))
    np.testing.assert_allclose(dx, dx_w, rtol=0, atol=1e-11, err_msg="dx")
    assert not np.any(dx[np.arange(T)[:, None] >= LENGTHS]), "dx on padded entries"
    np.testing.assert_allclose(dg, dg_w, rtol=0, atol=1e-11, err_msg="dgain")
    np.testing.assert_allclose(db, db_w, rtol=0, atol=1e-11, err_msg="dbias")


def test_tiled_gemm_every_transpose_accumulates():
    rng = np.random.default_rng(11502)
    M, K, N = 3, 7, 5
    A, Bm = rng.standard_normal((M, K)), rng.standard_normal((K, N))
    C0 = rng.standard_normal((M, N))
    for ta in (False, True):
        for tb in (False, True):
            a = A.T.copy() if ta else A
            b = Bm.T.copy() if tb else Bm
            for acc in (False, True):
                out = to_device(C0.copy())
                gemm_cuda.tiled_matmul(to_device(a), to_device(b), out, ta, tb, acc)
                want = A @ Bm + (C0 if acc else 0.0)
                np.testing.assert_allclose(host(out), want, rtol=0, atol=1e-12,
                                           err_msg=f"trans_a={ta} trans_b={tb} accumulate={acc}")


def test_column_sums_by_definition():
    """colsum, colsum_prod and colsum_ln (LayerNorm's dgain: rows centred and scaled by their own mean, rstd)."""
    rng = np.random.default_rng(11503)
    N, M = 21, 5
    D, X = rng.standard_normal((N, M)), rng.standard_normal((N, M)) + 0.7
    mean, rstd = rng.standard_normal(N), rng.uniform(0.5, 2.0, N)
    np.testing.assert_allclose(host(gemm_cuda.colsum(to_device(D))), D.sum(0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(host(gemm_cuda.colsum_prod(to_device(D), to_device(X))), (D * X).sum(0),
                               rtol=0, atol=1e-12)
    got = host(gemm_cuda.colsum_ln(to_device(D), to_device(X), to_device(mean), to_device(rstd)))
    np.testing.assert_allclose(got, (D * (X - mean[:, None]) * rstd[:, None]).sum(0), rtol=0, atol=1e-12)


LANES = 7  # not a power of two
SUMS2 = 2 * LANES  # the two sums' shared rows (a named constant: a GPU compiler types no expression here)


@cuda.jit
def _sums2(a, b, out):
    sh = cuda.shared.array(SUMS2, float64)
    tid = cuda.threadIdx.x
    s, q = rows_cuda.block_sum2(sh, a[tid], b[tid])
    out[0, tid] = s
    out[1, tid] = q


@cuda.jit
def _dots(v, W, start, step, out):
    col = cuda.threadIdx.x
    if col < W.shape[1]:
        out[col] = rows_cuda.dot_col(v, W, col, start, v.shape[0], step, 0.0)


def test_block_sum2_and_strided_dot_col():
    rng = np.random.default_rng(11504)
    a, b = rng.standard_normal(LANES), rng.standard_normal(LANES) + 3.0
    out = to_device(np.zeros((2, LANES)))
    _sums2[1, LANES](to_device(a), to_device(b), out)
    np.testing.assert_allclose(host(out), np.stack([np.full(LANES, a.sum()), np.full(LANES, b.sum())]),
                               rtol=0, atol=1e-12)
    n, cols = 21, 3
    v, W = rng.standard_normal(n), rng.standard_normal((n, cols))
    for start, step in ((1, 2), (0, 1), (2, 3)):
        got = to_device(np.zeros(cols))
        _dots[1, 4](to_device(v), to_device(W), start, step, got)
        idx = np.arange(start, n, step)
        np.testing.assert_allclose(host(got), v[idx] @ W[idx], rtol=0, atol=1e-12, err_msg=f"start {start} step {step}")
