"""The BLAS glue (lnrnn/kernels/cpu/blas.py) against float64 np.dot and definitions worked out here: gemm and
gemm_add on strided and transposed views (beta 0 over old values, beta 1 accumulating), in float64 and float32
on ragged M, N, K; blas_pack/blas_mul and rgemm_pack/rgemm_mul with K != N, rgemm_mul on rows of A that are
not contiguous; grad_block_rows at and just past both budgets' edges by config's rule, big off unless asked;
/proc/cpuinfo's fields through tab-padded names; the rule by CPU kind, each case's sentence word for word."""
import io

import numpy as np
import pytest

from lnrnn.config import DWH_BIG_BYTES, DWH_BLOCK_ROWS, DWH_L2_BYTES
from lnrnn.kernels.cpu import blas

DTYPES = [np.float64, np.float32]


def tol(dtype, K, ref):
    return (1e-12 if dtype == np.float64 else 2e-6) * np.sqrt(max(K, 1)) * max(1.0, float(np.abs(ref).max()))


def f64dot(A, W):
    return np.dot(np.asarray(A, np.float64), np.asarray(W, np.float64))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_on_strided_and_transposed_views(dtype):
    """A every other column of a wider matrix (M, K, N of 1, 7, 33, 65); trans_a with A (K,M) every other row:
    gemm writes A @ W (or A^T @ W) over an out of 7.0, gemm_add adds it to that out."""
    rng = np.random.default_rng(197)
    for M, K, N in [(1, 7, 33), (7, 33, 1), (33, 1, 7), (65, 7, 33)]:
        W = rng.standard_normal((K, N)).astype(dtype)
        A = rng.standard_normal((M, 2 * K)).astype(dtype)[:, ::2]    # (M,K), column stride 2
        At = rng.standard_normal((2 * K, M)).astype(dtype)[::2]      # (K,M), row stride 2
        for a, trans, ref in [(A, False, f64dot(A, W)), (At, True, f64dot(At.T, W))]:
            out = np.full((M, N), 7.0, dtype)
            blas.gemm(a, W, out, trans)
            assert np.abs(out - ref).max() <= tol(dtype, K, ref), (M, K, N, trans)
            out = np.full((M, N), 7.0, dtype)
            blas.gemm_add(a, W, out, trans)
            assert np.abs(out - (ref + 7.0)).max() <= tol(dtype, K, ref + 7.0), (M, K, N, trans)


@pytest.mark.parametrize("dtype", DTYPES)
def test_packed_products_with_k_not_n(dtype):
    """blas_pack/blas_mul and rgemm_pack/rgemm_mul (K < N, K of 1 and 7) equal np.dot; rgemm_mul also on rows of
    A taken every other row of a taller matrix (np.dot's fallback)."""
    rng = np.random.default_rng(1970)
    for m, K, N in [(5, 7, 33), (9, 1, 65)]:
        W = rng.standard_normal((K, N)).astype(dtype)
        A = rng.standard_normal((m, K)).astype(dtype)
        ref = f64dot(A, W)
        out = np.full((m, N), 7.0, dtype)
        blas.blas_mul(A, W, blas.blas_pack(W, m), out)
        assert np.abs(out - ref).max() <= tol(dtype, K, ref), ("blas", m, K, N)
        out = np.full((m, N), 7.0, dtype)
        P = blas.rgemm_pack(W, m)
        blas.rgemm_mul(A, W, P, out)
        assert np.abs(out - ref).max() <= tol(dtype, K, ref), ("rgemm", m, K, N)
        As = rng.standard_normal((2 * m, K)).astype(dtype)[::2]   # (m,K), rows not contiguous
        ref = f64dot(As, W)
        out = np.full((m, N), 7.0, dtype)
        blas.rgemm_mul(As, W, P, out)
        assert np.abs(out - ref).max() <= tol(dtype, K, ref), ("rgemm strided", m, K, N)


def rows_by_rule(K, N, I, itemsize, big):
    """config's rule: the L2 budget where K x N fits in it and I x N in a quarter; the big one where asked and
    both fit in it; blocks of a quarter of the budget in rows of D (N values), at least 1, at most DWH_BLOCK_ROWS."""
    if K * N * itemsize <= DWH_L2_BYTES and I * N * itemsize <= DWH_L2_BYTES / 4:
        budget = DWH_L2_BYTES
    elif big and max(K, I) * N * itemsize <= DWH_BIG_BYTES:
        budget = DWH_BIG_BYTES
    else:
        return DWH_BLOCK_ROWS
    return min(DWH_BLOCK_ROWS, max(1, budget // 4 // (N * itemsize)))


def test_grad_block_rows_at_the_budgets_edges():
    """K x N exactly the L2 budget and one row past it, exactly the big budget and one row past it, each
    without big (the default) and with it."""
    N = 256
    for itemsize in (4, 8):
        k_l2 = DWH_L2_BYTES // (N * itemsize)
        k_big = DWH_BIG_BYTES // (N * itemsize)
        for K in (k_l2, k_l2 + 1, k_big, k_big + 1):
            assert blas.grad_block_rows(K, N, 0, itemsize) == rows_by_rule(K, N, 0, itemsize, False), (K, itemsize)
            for big in (False, True):
                assert blas.grad_block_rows(K, N, 0, itemsize, big) == rows_by_rule(K, N, 0, itemsize, big)
        assert blas.grad_block_rows(k_l2 + 1, N, 0, itemsize) == DWH_BLOCK_ROWS


def test_cpuinfo_reads_tab_padded_names(monkeypatch):
    text = "processor\t: 3\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9B45: x\nflags\t\t: fpu avx512f\n"
    monkeypatch.setattr(blas, "open", lambda path, *a, **k: io.StringIO(text), raising=False)
    assert blas.cpuinfo("vendor_id") == "AuthenticAMD"
    assert blas.cpuinfo("model name") == "AMD EPYC 9B45: x"
    assert blas.cpuinfo("flags") == "fpu avx512f"
    assert blas.cpuinfo("processor") == "3"
    assert blas.cpuinfo("cache size") == ""


@pytest.mark.parametrize("avx512,have_mkl,vendor,want", [
    (False, True, "GenuineIntel",
     ("blas", "the CPU has no AVX-512, where rgemm's 256-bit tile is slower than a BLAS")),
    (True, True, "GenuineIntel",
     ("blas", "MKL on a CPU of vendor GenuineIntel: its packed GEMM is as fast as rgemm or faster")),
    (True, True, "", ("blas", "MKL on a CPU of vendor unidentified: its packed GEMM is as fast as rgemm or faster")),
    (True, True, "AuthenticAMD",
     ("rgemm", "AVX-512 on a CPU of vendor AuthenticAMD, where rgemm outruns MKL's packed GEMM")),
    (True, False, "AuthenticAMD", ("rgemm", "AVX-512 without MKL: rgemm outruns np.dot on the per-step shapes")),
    (True, False, "GenuineIntel", ("rgemm", "AVX-512 without MKL: rgemm outruns np.dot on the per-step shapes")),
])
def test_the_rule_says_which_case_decided(monkeypatch, avx512, have_mkl, vendor, want):
    monkeypatch.setattr(blas.rg, "AVX512", avx512)
    monkeypatch.setattr(blas, "cpuinfo", lambda field: vendor if field == "vendor_id" else "")
    assert blas._rule(have_mkl) == want
