"""lnrnn/kernels/cuda/gemm_cuda.py: matmul's two refusal sentences (unequal inner dimensions under every
transpose, an out of the wrong shape) against the shapes worked out here; numba's tiled product (tiles of 4) of
M 5 by N 9 (two row tiles, three column tiles) against np.dot in float64 with each operand transposed; colsum
and colsum_prod over 37 rows (three parts of the column sums, none a multiple of the tile) against NumPy's sums.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: tiles of 4, a race-free simulator)
from test_values82_gemm_cuda import dev, host, numba_gemm  # noqa: E402,F401  (numba_gemm: autouse, numba's kernel)


@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, True)], ids=["nn", "tt"])
def test_refusal_sentences_name_both_operands_and_the_expected_out(trans_a, trans_b):
    """op(A) is (2, 3) and op(B) is (4, 5) whichever way round each is stored."""
    A = dev(np.zeros((3, 2) if trans_a else (2, 3)))
    B = dev(np.zeros((5, 4) if trans_b else (4, 5)))
    with pytest.raises(ValueError) as e:
        gemm_cuda.matmul(A, B, trans_a=trans_a, trans_b=trans_b)
    assert str(e.value) == "matmul: inner dimensions differ, op(A) is (2, 3) and op(B) is (4, 5)"
    B = dev(np.zeros((5, 3) if trans_b else (3, 5)))  # op(A) op(B) is now (2, 5)
    with pytest.raises(ValueError) as e:
        gemm_cuda.matmul(A, B, out=dev(np.zeros((5, 2))), trans_a=trans_a, trans_b=trans_b)
    assert str(e.value) == "matmul: out has shape (5, 2), expected (2, 5)"


@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, False), (False, True)], ids=["nn", "tn", "nt"])
def test_tiled_product_over_unequal_tile_counts_against_np_dot(trans_a, trans_b):
    M, K, N = 5, 3, 9
    rng = np.random.default_rng(17901)
    A = rng.standard_normal((K, M) if trans_a else (M, K))
    B = rng.standard_normal((N, K) if trans_b else (K, N))
    want = np.dot(A.T if trans_a else A, B.T if trans_b else B)
    out = dev(np.full((M, N), 7.0))
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans_a, trans_b=trans_b)
    np.testing.assert_allclose(host(out), want, rtol=1e-12, atol=1e-12)


def test_column_sums_over_several_parts_against_numpy():
    N, M = 37, 3
    assert gemm_cuda.colsum_parts(N) > 1  # the parts' sums are summed again
    rng = np.random.default_rng(17902)
    D, X = rng.standard_normal((N, M)), rng.standard_normal((N, M)) + 2.0
    np.testing.assert_allclose(host(gemm_cuda.colsum(dev(D))), D.sum(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(host(gemm_cuda.colsum_prod(dev(D), dev(X))), (D * X).sum(axis=0),
                               rtol=1e-12, atol=1e-12)
