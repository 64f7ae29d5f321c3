"""lnrnn/kernels/cpu/blas.py in numbers: the np.dot fallback of gemm and gemm_add (operands that are not
C-contiguous, or no MKL), products over zero rows, and /proc/cpuinfo's fields as the per-step rule reads them."""
import io

import numpy as np
import pytest

from lnrnn.kernels.cpu import blas


@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("add", [False, True])
def test_dot_fallback_by_hand(trans_a, add):
    rng = np.random.default_rng(0)
    A, W = rng.standard_normal((3, 3)), rng.standard_normal((3, 2))
    out = rng.standard_normal((3, 2))
    want = (out if add else 0.0) + (A.T if trans_a else A) @ W
    blas._gemm_dot(A, W, out, trans_a, add)
    np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-12)


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaPerformanceWarning")  # np.dot on a strided view: meant
def test_strided_operands_take_the_fallback_and_agree():
    """A view with a column stride (not C-contiguous) goes through np.dot, whatever the BLAS."""
    rng = np.random.default_rng(1)
    A = rng.standard_normal((4, 6))[:, ::2]          # (4,3), strided
    W = rng.standard_normal((4, 5))
    out = np.full((3, 5), 2.0)
    blas.gemm_add(A, W, out, True)
    np.testing.assert_allclose(out, 2.0 + A.T @ W, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_product_over_zero_rows_writes_zeros_and_adds_nothing(dtype):
    A, W = np.ones((3, 0), dtype), np.ones((0, 4), dtype)
    out = np.full((3, 4), 7.0, dtype)
    blas.gemm(A, W, out, False)
    np.testing.assert_array_equal(out, np.zeros((3, 4)))
    out[...] = 7.0
    blas.gemm_add(A, W, out, False)
    np.testing.assert_array_equal(out, np.full((3, 4), 7.0))
    out[...] = 7.0
    blas.gemm(np.ones((0, 3), dtype), W, out, True)   # A^T (3,0) @ W (0,4): K = 0 rows of A
    np.testing.assert_array_equal(out, np.zeros((3, 4)))


CPUINFO = ("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Example CPU @ 2.0GHz\n"
           "flags\t\t: fpu sse avx2 avx512f\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\n")


def test_cpuinfo_reads_the_first_value_trimmed(monkeypatch):
    monkeypatch.setattr(blas, "open", lambda path, *a, **k: io.StringIO(CPUINFO), raising=False)
    assert blas.cpuinfo("vendor_id") == "GenuineIntel"
    assert blas.cpuinfo("model name") == "Example CPU @ 2.0GHz"
    assert blas.cpuinfo("flags") == "fpu sse avx2 avx512f"
    assert blas.cpuinfo("microcode") == ""


def test_cpuinfo_unreadable_is_empty(monkeypatch):
    def refuse(path, *a, **k):
        raise FileNotFoundError(path)

    monkeypatch.setattr(blas, "open", refuse, raising=False)
    assert blas.cpuinfo("vendor_id") == ""
