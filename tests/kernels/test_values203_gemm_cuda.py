"""lnrnn/kernels/cuda/gemm_cuda.py against definitions worked out here: matmul (numba's tiled kernel, tiles of 4)
on sides of 1, 7 and 33 (none a whole tile; K of 33 ends in a slab of one) against np.dot in float64, plain into an
out that held other values and then accumulating, with no transpose and with both; matmul under the stand-in
provider (LNRNN_CUDA_BLAS=eager, a library without BLAS) against np.dot; the column sums colsum, colsum_prod and
colsum_ln over 38 rows (three row ranges of 12, 13 and 13: not equal parts) against NumPy's sums; call_plan's
choice between a fresh per-step plan and graphs_cuda's cached plan, and a plan of 10 steps serving a call of 9.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import types
from collections import OrderedDict

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda, graphs_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: tiles of 4, a race-free simulator)
from test_values82_gemm_cuda import dev, host, numba_gemm  # noqa: E402,F401  (numba_gemm: autouse, numba's kernel)


def operands(rng, M, K, N, trans_a, trans_b):
    A = rng.standard_normal((K, M) if trans_a else (M, K))
    B = rng.standard_normal((N, K) if trans_b else (K, N))
    return A, B, np.dot(A.T if trans_a else A, B.T if trans_b else B)


# (M, K, N): a row against 33 columns, K of 33 (nine slabs, the last of one row) into one column, K of 1
SHAPES = [(1, 7, 33), (7, 33, 1), (33, 1, 7)]


@pytest.mark.parametrize("trans", [(False, False), (True, True)], ids=["nn", "tt"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matmul_on_sides_of_1_7_33_against_np_dot(shape, trans):
    M, K, N = shape
    rng = np.random.default_rng(20300 + M + 10 * K + 100 * N)
    A, B, want = operands(rng, M, K, N, *trans)
    out = dev(np.full((M, N), -5.0))
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1])
    np.testing.assert_allclose(host(out), want, rtol=1e-12, atol=1e-12)
    C0 = rng.standard_normal((M, N))
    out = dev(C0)
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1], accumulate=True)
    np.testing.assert_allclose(host(out), C0 + want, rtol=1e-12, atol=1e-12)


def test_matmul_under_a_provider_without_blas_runs_the_tiled_kernel(monkeypatch):
    """The stand-in provider has no gemm of its own: matmul must still give np.dot (op(A) = A.T)."""
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    assert graphs_cuda.provider() is not None and not graphs_cuda.provider().blas
    rng = np.random.default_rng(2031)
    A, B, want = operands(rng, 7, 7, 1, True, False)
    np.testing.assert_allclose(host(gemm_cuda.matmul(dev(A), dev(B), trans_a=True)), want, rtol=1e-12, atol=1e-12)


def test_column_sums_over_unequal_row_ranges_against_numpy():
    """38 rows: colsum_parts gives three ranges [0, 12), [12, 25), [25, 38) (floor(p N / P)), each row once."""
    N, M = 38, 5
    assert gemm_cuda.colsum_parts(N) == 3  # ceil(38 / (4 * tile 4))
    rng = np.random.default_rng(2032)
    D, X = rng.standard_normal((N, M)), rng.standard_normal((N, M))
    mean, rstd = rng.standard_normal(N), rng.uniform(0.5, 2.0, N)
    np.testing.assert_allclose(host(gemm_cuda.colsum(dev(D))), D.sum(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(host(gemm_cuda.colsum_prod(dev(D), dev(X))), (D * X).sum(axis=0),
                               rtol=1e-12, atol=1e-12)
    xhat = (X - mean[:, None]) * rstd[:, None]
    np.testing.assert_allclose(host(gemm_cuda.colsum_ln(dev(D), dev(X), dev(mean), dev(rstd))),
                               (D * xhat).sum(axis=0), rtol=1e-12, atol=1e-12)


def test_call_plan_fresh_for_short_calls_and_a_cached_plan_reused(monkeypatch):
    """With graphs from 8 steps on: 3 steps get a fresh per-step plan of exactly 3 (the direct provider); 10 steps a
    graph plan of 10 (the first of its key: not bucketed) that a call of 9 (9 <= 10 <= bucket(9) = 10) and a second
    call of 10 reuse, none of them fresh."""
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "auto")
    monkeypatch.setattr(config, "CUDA_GRAPH_MIN_STEPS", 8)
    monkeypatch.setattr(graphs_cuda, "PLANS", OrderedDict())
    made = []

    def make(prov, S):
        made.append((prov.name, S))
        return types.SimpleNamespace(steps=S)

    plan, fresh = gemm_cuda.call_plan("cell forward", 3, ("k",), make)
    assert fresh and plan.steps == 3 and made == [("direct", 3)]
    p10, fresh = gemm_cuda.call_plan("cell forward", 10, ("k",), make)
    assert not fresh and p10.steps == 10 and made == [("direct", 3), ("eager", 10)]
    for T in (9, 10):
        plan, fresh = gemm_cuda.call_plan("cell forward", T, ("k",), make)
        assert plan is p10 and not fresh
    assert made == [("direct", 3), ("eager", 10)]
