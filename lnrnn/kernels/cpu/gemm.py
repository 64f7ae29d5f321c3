"""Threaded GEMMs over row chunks and the sums of their per-thread partials.

Every GEMM here splits the rows of the big operand into chunks (a fixed count, whatever the threads) and
calls a single-threaded product on each: the per-step products' choice for A @ W (blas.rows_mul), and for
the weight gradients A^T D the BLAS (``np.dot``, or MKL through ``blas.gemm``) or, where blas.grad_blocks
says so, rgemm's transposed product in blocks of rows (blas.grad_t_add); reductions over rows write
per-chunk partial sums and add them afterwards in chunk order (no shared ``+=`` between threads). The CUDA
twin is gemm_cuda.py.
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import JIT, PJIT, ROWS
from lnrnn.kernels.cpu.blas import gemm, grad_blocks, grad_t_add, rows_mul, rows_pack
from lnrnn.kernels.cpu.threads import chunk_bounds, clamp_chunks, readonly, run_chunks


@njit(**PJIT)
def matmul(A, W, nchunks):
    """A (N,K) @ W (K,M) -> (N,M), rows split over threads (blas.rows_mul: rgemm where it runs the
    per-step products, W packed once here for every chunk; the BLAS otherwise)."""
    N = A.shape[0]
    out = np.empty((N, W.shape[1]), dtype=A.dtype)
    nch = clamp_chunks(nchunks, N)
    P = rows_pack(W)
    for k in prange(nch):
        lo, hi = chunk_bounds(N, nch, k)
        if hi > lo:
            rows_mul(A[lo:hi], W, P, out[lo:hi])
    return out


@njit(**JIT)
def transposed(W):
    """W (K,N) -> W^T (N,K), C-contiguous, in tiles of 8 x 32: np.ascontiguousarray(W.T) reads a column
    of W at a stride that, at N = 1024 floats, lands every row in the same L1 set (256 x 1024
    float32: 0.77 ms, against 0.19 ms in tiles)."""
    K, N = W.shape
    out = np.empty((N, K), W.dtype)  # (N,K)
    for k0 in range(0, K, 8):
        k1 = min(K, k0 + 8)
        for j0 in range(0, N, 32):
            for j in range(j0, min(N, j0 + 32)):
                for k in range(k0, k1):
                    out[j, k] = W[k, j]
    return out


def matmul_tn(A, D, nchunks):
    """A (N,K)^T @ D (N,M) -> (K,M): a weight gradient over all N = T*B rows (the RNN and BN cells' dWx, and
    their dWh through recurrent_weight_grad). Each chunk of rows (threads.run_chunks) reduces into a private
    partial (weight_grad: one GEMM, or blocks of rows on rgemm's transposed product where blas.grad_blocks
    says so); partials are summed after, in chunk order. Python, not a prange kernel: Numba compiles one
    three times over, and one with np.dot inside cost a BN cell's cold start about 2 s of compiling."""
    N, K = A.shape
    M = D.shape[1]
    nch = clamp_chunks(nchunks, N)
    rows, tw = grad_blocks(K, M, A.dtype.itemsize)
    part = np.empty((nch, M, K) if tw else (nch, K, M), dtype=A.dtype)  # per-chunk partials (of A^T D's transpose: tw)
    run_chunks(_tn_rows, N, nch, *readonly(np.ascontiguousarray(A), np.ascontiguousarray(D)), part, rows, tw)
    total = sum_rows(part.reshape(nch, K * M))
    return transposed(total.reshape(M, K)) if tw else total.reshape(K, M)


@njit(**JIT)
def weight_grad(A, D, out, rows, tw):
    """out (K,M) = A^T D for A (n,K), D (n,M) in one GEMM; or, with tw, out (M,K) = its transpose D^T A,
    added block by block of rows rows on rgemm's transposed product into zeros (blas.grad_t_add; each
    block's rows still in cache when the product reads them). No rows: zeros either way. (rows, tw):
    blas.grad_blocks."""
    if not tw:
        gemm(A, D, out, True)  # beta = 0: zeros over no rows too
        return
    for r in range(out.shape[0]):  # a partial that no GEMM overwrites starts at zero
        o = out[r]
        for k in range(out.shape[1]):
            o[k] = 0
    for a in range(0, A.shape[0], rows):
        grad_t_add(A[a:a + rows], D[a:a + rows], out)


@njit(**ROWS)
def _tn_rows(q, lo, hi, A, D, part, rows, tw):
    """Chunk q of matmul_tn's product (threads.run_chunks): part[q] = A[lo:hi]^T D[lo:hi] (K,M), or its
    transpose (M,K) with tw (weight_grad)."""
    weight_grad(A[lo:hi], D[lo:hi], part[q], rows, tw)


def recurrent_weight_grad(dHW, h0, y, nchunks):
    """dWh = Hprev^T dHW over all T*B rows, with Hprev = (h0, y_0, ..., y_{T-2}).
    dHW (T,B,G) = dL/d(h_{t-1} Wh); h0 (B,H); y (T,B,H) -> dWh (H,G).

    Python: h0^T dHW_0, plus the other (T-1)*B rows' product by matmul_tn (chunks on run_chunks' threads,
    in one GEMM each or, where blas.grad_blocks says so, in blocks on rgemm's transposed product: MKL's
    GEMM over all rows took 68 ms at S1 (T784 B64 H128, float32, one thread of an AMD EPYC Zen 5) against
    31 ms in blocks of 128 rows on rgemm)."""
    T, B, G = dHW.shape
    H = h0.shape[1]
    dWh = np.empty((H, G), dtype=dHW.dtype)
    gemm(np.ascontiguousarray(h0), np.ascontiguousarray(dHW[0]), dWh, True)  # h0^T dHW_0
    if T > 1:
        n = (T - 1) * B
        dWh += matmul_tn(y[:T - 1].reshape(n, H), dHW[1:].reshape(n, G), nchunks)
    return dWh


def projection_grads(dXW, dHW, x, h0, y, Wx, nchunks):
    """The GEMMs after a BPTT time loop, each one over all T*B rows:
        dx = dXW Wx^T,  dWx = X^T dXW,  dWh = Hprev^T dHW  with Hprev = (h0, y_0, ..., y_{T-2}).
    dXW, dHW (T,B,G): dL/d(x_t Wx) and dL/d(h_{t-1} Wh); x (T,B,I); h0 (B,H); y (T,B,H); Wx (I,G)
    -> dx (T,B,I), dWx (I,G), dWh (H,G). (Python: it calls recurrent_weight_grad.)"""
    T, B, G = dXW.shape
    I = x.shape[2]
    dX2 = np.ascontiguousarray(dXW).reshape(T * B, G)
    dx = matmul(dX2, transposed(Wx), nchunks).reshape(T, B, I)
    dWx = matmul_tn(np.ascontiguousarray(x).reshape(T * B, I), dX2, nchunks)
    return dx, dWx, recurrent_weight_grad(dHW, h0, y, nchunks)


@njit(**JIT)
def sum_rows(part):
    """part (n,M) -> (M,): the sum of per-chunk partials (a loop: ``part.sum(axis=0)`` costs seconds
    of compile time in every kernel that uses it)."""
    out = part[0].copy()
    for k in range(1, part.shape[0]):
        for j in range(part.shape[1]):
            out[j] += part[k, j]
    return out
