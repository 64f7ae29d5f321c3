"""lnrnn/kernels/cuda/gemm_cuda.py's tiled GEMM against np.dot in float64 on sides that are not multiples of the
tile (4): 1, 5, 17 and 33, every transpose, into an out that held other values (a plain product overwrites it,
an accumulating one adds to it); the stand-in provider's product (product(Eager()), what a graph plan's GEMMs
run under the simulator) and the per-step plans' product (Direct().gemm) with every transpose and accumulate.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda, graphs_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: tiles of 4, a race-free simulator)

dev = arrays_cuda.to_device
host = arrays_cuda.to_host


@pytest.fixture(autouse=True)
def numba_gemm(monkeypatch):
    """numba's tiled kernel for matmul, whatever library is installed."""
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "off")


def operands(rng, M, K, N, trans_a, trans_b):
    A = rng.standard_normal((K, M) if trans_a else (M, K))
    B = rng.standard_normal((N, K) if trans_b else (K, N))
    return A, B, np.dot(A.T if trans_a else A, B.T if trans_b else B)


# (M, K, N): a row, a column, K over nine slabs, each side 1, 5, 17 or 33, none a multiple of the tile
SHAPES = [(1, 5, 17), (17, 33, 1), (5, 1, 5), (5, 17, 1)]


@pytest.mark.parametrize("trans", [(False, False), (True, False), (False, True), (True, True)],
                         ids=["nn", "tn", "nt", "tt"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matmul_against_np_dot_over_an_out_that_held_values(shape, trans):
    M, K, N = shape
    rng = np.random.default_rng(8200 + M * 100 + K + N)
    A, B, want = operands(rng, M, K, N, *trans)
    C0 = rng.standard_normal((M, N)) + 3.0
    out = dev(C0)
    got = gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1])
    assert got is out
    np.testing.assert_allclose(host(out), want, rtol=1e-12, atol=1e-12)
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1], accumulate=True)
    np.testing.assert_allclose(host(out), 2 * want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("gemm", ["eager", "direct"])
@pytest.mark.parametrize("trans", [(True, False), (False, True)], ids=["tn", "nt"])
def test_the_plans_products_transpose_and_accumulate(gemm, trans):
    """M 5, K 17, N 3: op(A) op(B) into C, then added to it; one operand transposed and the other not, so that
    the two flags passed the other way round give no product of these shapes."""
    M, K, N = 5, 17, 3
    rng = np.random.default_rng(8210)
    A, B, want = operands(rng, M, K, N, *trans)
    C0 = rng.standard_normal((M, N))
    prov = graphs_cuda.Eager() if gemm == "eager" else gemm_cuda.Direct()
    run = gemm_cuda.product(prov)
    vA, vB, out = (prov.view(dev(a)) for a in (A, B, C0))
    run(vA, vB, out, trans_a=trans[0], trans_b=trans[1])
    np.testing.assert_allclose(host(out), want, rtol=1e-12, atol=1e-12)
    run(vA, vB, out, trans_a=trans[0], trans_b=trans[1], accumulate=True)
    np.testing.assert_allclose(host(out), 2 * want, rtol=1e-12, atol=1e-12)
