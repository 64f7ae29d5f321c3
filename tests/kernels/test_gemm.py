"""lnrnn/kernels/cpu/gemm.py's weight gradients over all T*B rows (recurrent_weight_grad, the RNN and BN
cells' dWh; matmul_tn, their dWx) on either of their products, and the rule that picks the product
(blas.grad_blocks, the LSTM backward's dWh rule for any K x N partial)."""
import numpy as np
import pytest

from lnrnn.config import DWH_BLOCK_ROWS, DWH_L2_BYTES
from lnrnn.kernels.cpu import blas, gemm


def definition(dHW, h0, y):
    """Hprev^T dHW in float64, Hprev = (h0, y_0, ..., y_{T-2}) stacked over all T*B rows."""
    T, B, G = dHW.shape
    hprev = np.concatenate([h0[None], y[:T - 1]]).reshape(T * B, -1).astype(np.float64)
    return hprev.T @ dHW.reshape(T * B, G).astype(np.float64)


@pytest.mark.parametrize("tw", [False, True])
@pytest.mark.parametrize("T,B,H,G,nch,rows", [
    (5, 7, 3, 12, 3, 4),     # 28 rows after step 0 in 3 chunks (10, 9, 9): blocks of 4, 4, 2
    (9, 13, 33, 33, 4, 5),   # G == H (an RNN): the transposed partial has the same shape as the plain one
    (1, 3, 4, 16, 2, 8),     # one step: h0^T dHW_0 alone
    (6, 5, 40, 160, 3, 1),   # blocks of one row
    (4, 3, 5, 5, 8, 64),     # more chunks than rows, a block longer than a chunk
])
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-13), (np.float32, 2e-6)])
def test_recurrent_weight_grad_is_hprev_t_dhw(monkeypatch, tw, T, B, H, G, nch, rows, dtype, tol):
    """Both products (one GEMM per chunk; blocks of rows on rgemm's transposed product into dWh^T) give the
    definition, called three times in a row on new values: a partial left from the call before (np.empty
    reuses freed memory) would show."""
    monkeypatch.setattr(gemm, "grad_blocks", lambda K, N, itemsize: (rows, tw))
    rng = np.random.default_rng(T * 100 + G)
    for _ in range(3):
        dHW = rng.standard_normal((T, B, G)).astype(dtype)
        h0 = rng.standard_normal((B, H)).astype(dtype)
        y = rng.standard_normal((T, B, H)).astype(dtype)
        want = definition(dHW, h0, y)
        got = gemm.recurrent_weight_grad(dHW, h0, y, nch)
        assert got.shape == (H, G) and got.dtype == dtype
        assert np.abs(got - want).max() <= tol * max(1.0, np.abs(want).max())


@pytest.mark.parametrize("tw", [False, True])
@pytest.mark.parametrize("N,K,M,nch,rows", [
    (35, 3, 12, 3, 4),      # chunks of 11, 12, 12 rows: blocks of 4, 4, 3 / 4, 4, 4
    (29, 28, 28, 4, 5),     # K == M: the transposed partial has the same shape as the plain one
    (6, 40, 9, 2, 1),       # blocks of one row
    (3, 5, 7, 8, 64),       # more chunks than rows, a block longer than a chunk
    (0, 4, 6, 2, 8),        # no rows: zeros
])
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-13), (np.float32, 2e-6)])
def test_matmul_tn_is_a_t_d(monkeypatch, tw, N, K, M, nch, rows, dtype, tol):
    """matmul_tn (the RNN and BN cells' dWx over all T*B rows) on both products: A^T D in float64, three
    calls in a row on new values."""
    monkeypatch.setattr(gemm, "grad_blocks", lambda K_, N_, itemsize: (rows, tw))
    rng = np.random.default_rng(N * 10 + K)
    for _ in range(3):
        A = rng.standard_normal((N, K)).astype(dtype)
        D = rng.standard_normal((N, M)).astype(dtype)
        want = A.astype(np.float64).T @ D.astype(np.float64)
        got = gemm.matmul_tn(A, D, nch)
        assert got.shape == (K, M) and got.dtype == dtype
        assert np.abs(got - want).max() <= tol * max(1.0, np.abs(want).max())


def test_the_two_products_are_chosen_by_the_lstm_rule(monkeypatch):
    """grad_blocks(K, N, itemsize) -> (rows, tw): rows fill a quarter of the L2 budget with D's N-wide rows;
    rgemm's transposed product only where rgemm runs the per-step products and a block fills at most half
    the budget (config.DWH_L2_BYTES; config.DWH_BIG_BYTES for a larger partial where this host measured
    rgemm's blocks faster, DWH)."""
    mb = 1 << 20
    assert DWH_L2_BYTES == mb and DWH_BLOCK_ROWS == 4096  # the figures below are worked out for these
    for dwh in ("rgemm", "blas"):
        monkeypatch.setattr(blas, "REC", "rgemm")
        monkeypatch.setattr(blas, "DWH", dwh)
        monkeypatch.setattr(blas, "GRAD", "rgemm")
        assert blas.grad_blocks(128, 512, 4) == (mb // 4 // (512 * 4), True)  # S1 LSTM: 256 KB partial, 128 rows
        assert blas.grad_blocks(128, 128, 4) == (mb // 4 // (128 * 4), True)  # S1 RNN: 512 rows of 512 bytes
        assert blas.grad_blocks(256, 1024, 4) == (64, True)                  # S2 LSTM: the partial is all of L2
        # ... in float64 (2 MB) L2 holds it no more: 4 MB blocks where rgemm's were measured faster
        assert blas.grad_blocks(256, 1024, 8) == ((128, True) if dwh == "rgemm" else (4096, False))
        monkeypatch.setattr(blas, "REC", "blas")
        assert blas.grad_blocks(128, 512, 4) == (128, False)  # the per-step products on the BLAS: its GEMM
    monkeypatch.setattr(blas, "REC", "rgemm")
    monkeypatch.setattr(blas, "DWH", "rgemm")
    assert blas.grad_blocks(400, 1600, 4) == (4 * mb // 4 // (1600 * 4), True)  # S3: 2.5 MB, 163 rows
    monkeypatch.setattr(blas, "DWH", "blas")
    assert blas.grad_blocks(400, 1600, 4) == (4096, False)


def test_lstm_rule_is_the_general_rule_at_k_h_n_4h():
    """The LSTM backward's dWh functions are the general ones at K = H, N = 4H, with its input's dWx."""
    for H in (4, 128, 160, 256, 400, 513):
        for I in (0, 28, 64, 65, 319):
            for size in (4, 8):
                for big in (False, True):
                    assert blas.dwh_budget(H, I, size, big) == blas.grad_budget(H, 4 * H, I, size, big)
                    assert blas.dwh_block_rows(H, I, size, big) == blas.grad_block_rows(H, 4 * H, I, size, big)
