"""lnrnn/kernels/cuda/gemm_cuda.py's host side (under the simulator, or on a GPU): matmul refuses an out of the wrong
width and an accumulate without out, and column sums over widths that are not a multiple of the tile equal NumPy's
sums."""
import numpy as np
import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda  # noqa: E402


@pytest.fixture(autouse=True)
def tile_of_4(monkeypatch):
    monkeypatch.setattr(gemm_cuda, "TILE", 4)


def test_matmul_refuses_an_out_of_another_shape():
    rng = np.random.default_rng(0)
    A, B = arrays_cuda.to_device(rng.standard_normal((3, 2))), arrays_cuda.to_device(rng.standard_normal((2, 5)))
    for shape in ((3, 6), (3, 4), (4, 5), (2, 5)):
        out = arrays_cuda.to_device(np.zeros(shape))
        with pytest.raises(ValueError, match="expected \\(3, 5\\)"):
            gemm_cuda.matmul(A, B, out=out)
    with pytest.raises(ValueError, match="accumulate=True needs out"):
        gemm_cuda.matmul(A, B, accumulate=True)
    np.testing.assert_allclose(arrays_cuda.to_host(gemm_cuda.matmul(A, B)), arrays_cuda.to_host(A) @ arrays_cuda.to_host(B),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("M", [1, 5, 7, 9])
def test_column_sums_of_every_width(M):
    rng = np.random.default_rng(M)
    D, X = rng.standard_normal((6, M)), rng.standard_normal((6, M))
    dD, dX = arrays_cuda.to_device(D), arrays_cuda.to_device(X)
    np.testing.assert_allclose(arrays_cuda.to_host(gemm_cuda.colsum(dD)), D.sum(0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(arrays_cuda.to_host(gemm_cuda.colsum_prod(dD, dX)), (D * X).sum(0), rtol=1e-12,
                               atol=1e-12)
