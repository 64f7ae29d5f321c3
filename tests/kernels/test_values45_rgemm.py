"""rgemm (lnrnn/kernels/cpu/rgemm.py) and the BLAS wrappers (lnrnn/kernels/cpu/blas.py) at their edges, against
sums by hand in float64: products whose last panel is partial (G not a multiple of NR) with full row tiles
(b a multiple of MR) and ragged ones, C a view with guard values right after it that must stay untouched;
fetch_schedule's lines of regions ending inside a cache line; float64 gemm of a transposed A with K != M."""
import numpy as np
import pytest

from lnrnn.kernels.cpu import blas
from lnrnn.kernels.cpu.rgemm import MR, fetch_schedule, nr_of, pack, rgemm, rgemm_fetch


def by_hand(A, W):
    b, K = A.shape
    C = np.zeros((b, W.shape[1]))
    for k in range(K):
        C += np.outer(A[:, k].astype(np.float64), W[k].astype(np.float64))
    return C


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("b", [MR, 2 * MR, MR + 3])
def test_partial_last_panel_with_full_row_tiles_stays_inside_c(dtype, b):
    """G = NR + 3 and 2 NR + 1: C the product, and the 2 NR guard values after C in its buffer untouched, with
    rgemm and with rgemm_fetch asking for a region meanwhile."""
    NR = nr_of(dtype)
    rng = np.random.default_rng(4570 + b)
    for G in (NR + 3, 2 * NR + 1):
        H = 5
        A = rng.standard_normal((b, H)).astype(dtype)
        W = rng.standard_normal((H, G)).astype(dtype)
        want = by_hand(A, W)
        for fetch in (False, True):
            buf = np.full(b * G + 2 * NR, 7.5, dtype)
            C = buf[:b * G].reshape(b, G)
            if fetch:
                plan = np.array([[A.ctypes.data, A.nbytes]], np.int64)
                rgemm_fetch(A, pack(W), C, G, plan)
            else:
                rgemm(A, pack(W), C, G)
            tol = 1e-12 if dtype == np.float64 else 1e-5 * max(1.0, np.abs(want).max())
            np.testing.assert_allclose(C, want, rtol=0, atol=tol)
            assert (buf[b * G:] == 7.5).all(), "written past C"


def test_fetch_schedule_covers_the_last_partial_line_of_each_region():
    """Regions starting on a cache line (as plan_steps gives them) of 1, 63, 65, 130 and 200 bytes: with tiles
    enough, the lines asked for are exactly those from each region's first line to the line of its last byte,
    by hand."""
    regions = np.array([[64 * 100, 1], [64 * 200, 63], [64 * 300, 65], [64 * 400, 130], [64 * 500, 200]], np.int64)
    want = set()
    for a, n in regions:
        want |= set(range(a // 64, (a + n - 1) // 64 + 1))
    sh, pa, pn = fetch_schedule(regions, 64, 64)
    got = set()
    for f in range(64):
        for j in range(pn[f]):
            got.add((pa[f] + 64 * j) // 64)
    assert got == want, sorted(want - got)


@pytest.mark.parametrize("add", [False, True])
def test_float64_gemm_of_a_transposed_a_with_k_not_m(add):
    """gemm / gemm_add with trans_a: out (M,N) (+)= A^T W for A (K,M), K = 5, M = 3, N = 4, C-contiguous
    (the BLAS's own path where MKL is loaded), against sums by hand."""
    rng = np.random.default_rng(4571)
    A, W = rng.standard_normal((5, 3)), rng.standard_normal((5, 4))
    out = rng.standard_normal((3, 4))
    start = out.copy()
    (blas.gemm_add if add else blas.gemm)(A, W, out, True)
    want = by_hand(A.T.copy(), W) + (start if add else 0.0)
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-12)
