"""A tiled shared-memory GEMM and column reductions for the ``*_cuda`` kernels (the CUDA twin of gemm.py).

Why a hand-written GEMM beside cuBLAS
    numba.cuda has no BLAS. Where PyTorch or CuPy is installed, ``matmul`` runs cuBLAS through it
    (graphs_cuda.py); this tiled shared-memory GEMM serves everywhere else (the ``cuda`` extra stays
    ``numba-cuda`` alone) and runs under the simulator, so CI checks every caller without a GPU.

Blocks of TILE x TILE threads (read at call time: tests shrink it); kernels compiled once per (dtype,
tile) by ``lru_cache``d factories.
"""
from functools import lru_cache

import numpy as np

from lnrnn import config
from lnrnn.kernels.cuda.arrays_cuda import empty, fill, nbtype, rows2d
from lnrnn.kernels.cuda.cuda_env import numpy_compat
from lnrnn.kernels.cuda.graphs_cuda import loop_path, plan_for, provider

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)

from numba import cuda, float32, float64  # noqa: E402

# GEMM and column-reduction tile edge: blocks of TILE x TILE threads (tests shrink it).
TILE = config.CUDA_TILE
# A column reduction over N rows is split into at most this many row ranges (grid.y), whose partial
# sums are added by a second launch: enough blocks to fill a GPU when the output has few columns.
REDUCE_PARTS = 64


def tile():
    return int(TILE)


# ------------------------------------------------------------------------------------------------
# GEMM: C (M,N) = op(A) @ op(B)  [+ C]
# ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _gemm_kernel(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def gemm(A, B, C, trans_a, trans_b, accumulate):
        """op(A) (M,K) = A or A^T, op(B) (K,N) = B or B^T; C (M,N). Block (t,t) computes one t x t tile
        of C, walking K in t-wide slabs staged in shared memory. Loads of transposed operands swap
        the thread roles so that consecutive threadIdx.x still read consecutive addresses."""
        sA = cuda.shared.array((t, t), dt)  # sA[m, k] of the current slab
        sB = cuda.shared.array((t, t), dt)  # sB[k, n]
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        m0 = cuda.blockIdx.y * t
        n0 = cuda.blockIdx.x * t
        M, N = C.shape
        K = A.shape[0] if trans_a else A.shape[1]
        s = dt(0.0)
        for k0 in range(0, K, t):
            if trans_a:  # A (K,M): thread reads A[k0+ty, m0+tx]
                k = k0 + ty
                m = m0 + tx
                sA[tx, ty] = A[k, m] if (k < K and m < M) else dt(0.0)
            else:        # A (M,K): thread reads A[m0+ty, k0+tx]
                k = k0 + tx
                m = m0 + ty
                sA[ty, tx] = A[m, k] if (k < K and m < M) else dt(0.0)
            if trans_b:  # B (N,K): thread reads B[n0+ty, k0+tx]
                k = k0 + tx
                n = n0 + ty
                sB[tx, ty] = B[n, k] if (k < K and n < N) else dt(0.0)
            else:        # B (K,N): thread reads B[k0+ty, n0+tx]
                k = k0 + ty
                n = n0 + tx
                sB[ty, tx] = B[k, n] if (k < K and n < N) else dt(0.0)
            cuda.syncthreads()
            for q in range(t):
                s += sA[ty, q] * sB[q, tx]
            cuda.syncthreads()
        m = m0 + ty
        n = n0 + tx
        if m < M and n < N:
            if accumulate:
                C[m, n] += s
            else:
                C[m, n] = s

    return gemm


def matmul(A, B, out=None, trans_a=False, trans_b=False, accumulate=False):
    """Device GEMM: out (M,N) = op(A) @ op(B), or out += ... with accumulate=True (out required).
    op(X) is X, or X^T when trans_x. A, B, out: 2-D C-contiguous device arrays of one dtype. On cuBLAS
    where a library serves it (graphs_cuda.provider), else on the tiled kernel below."""
    M, K = (A.shape[1], A.shape[0]) if trans_a else A.shape
    K2, N = (B.shape[1], B.shape[0]) if trans_b else B.shape
    if K != K2:
        raise ValueError(f"matmul: inner dimensions differ, op(A) is {(M, K)} and op(B) is {(K2, N)}")
    if out is None:
        if accumulate:
            raise ValueError("matmul: accumulate=True needs out")
        out = empty((M, N), A.dtype)
    elif out.shape != (M, N):
        raise ValueError(f"matmul: out has shape {out.shape}, expected {(M, N)}")
    if M and N and K == 0:  # no products: C = 0, or C unchanged (nothing for a library to view)
        if not accumulate:
            fill(out, 0.0)
    elif M and N:
        prov = provider()
        if prov is None or not prov.blas:
            tiled_matmul(A, B, out, trans_a, trans_b, accumulate)
        else:
            prov.gemm(prov.view(A), prov.view(B), prov.view(out), trans_a, trans_b, accumulate)
    return out


def product(prov):
    """gemm(A, B, C, trans_a=False, trans_b=False, accumulate=False) on a provider's views (graphs_cuda): its
    cuBLAS, or the tiled kernel where it has none (the simulator's stand-in, whose views are numba's arrays)."""
    if prov.blas:
        return prov.gemm
    return lambda A, B, C, trans_a=False, trans_b=False, accumulate=False: tiled_matmul(A, B, C, trans_a, trans_b,
                                                                                         accumulate)


class Direct:
    """The per-step path in a plan's clothes: a plan built on it (the BN cells' ``_ForwardPlan``/``_BackwardPlan``)
    owns fresh buffers of a call's own length, its products are ``matmul`` on the arrays themselves (cuBLAS where a
    library serves it, the tiled kernel otherwise) and a replay launches the loop from the host at once, nothing
    captured. So the graph path and the per-step launches run one copy of each step."""
    name = "direct"
    blas = True  # product(Direct()) is its gemm, matmul
    graphs = False

    def view(self, a):
        return a

    def gemm(self, A, B, C, trans_a=False, trans_b=False, accumulate=False):
        matmul(A, B, out=C, trans_a=trans_a, trans_b=trans_b, accumulate=accumulate)

    def capture(self, record, warm):
        return lambda: record(0)


def call_plan(kind, T, key, make):
    """The plan that runs a call of T steps of a cell with no sequence kernels (the BN cells): graphs_cuda's cached
    one on the graph path (loop_path), else make(Direct(), T), fresh, of exactly T steps (the per-step path)
    -> (plan, fresh). make(provider, steps) builds a plan; a fresh plan's buffers can be handed to the caller."""
    if loop_path(False, T) == "graph":
        return plan_for(kind, T, key, make), False
    return make(Direct(), T), True


def tiled_matmul(A, B, out, trans_a, trans_b, accumulate):
    """``matmul``'s numba kernel (shapes checked by the caller; M, N > 0)."""
    M, N = out.shape
    t = tile()
    grid = ((N + t - 1) // t, (M + t - 1) // t)
    _gemm_kernel(np.dtype(A.dtype), t)[grid, (t, t)](A, B, out, bool(trans_a), bool(trans_b), bool(accumulate))


def projection_grads(dXW, dHW, x, h0, y, Wx):
    """The GEMMs after a BPTT time loop, each over all T*B rows (twin of gemm.projection_grads):
        dx = dXW Wx^T,  dWx = X^T dXW,  dWh = Hprev^T dHW  with Hprev = (h0, y_0, ..., y_{T-2}).
    dXW, dHW (T,B,G): dL/d(x_t Wx) and dL/d(h_{t-1} Wh); x (T,B,I); h0 (B,H); y (T,B,H); Wx (I,G)
    -> dx (T,B,I), dWx (I,G), dWh (H,G)   (device arrays)."""
    T, B, I = x.shape
    H, G = h0.shape[1], Wx.shape[1]
    dx, dWx, dWh = empty((T * B, I), x.dtype), empty((I, G), x.dtype), empty((H, G), x.dtype)
    projection_into(matmul, x.reshape(T * B, I), rows2d(dXW), rows2d(dHW), h0, rows2d(y), Wx, dx, dWx, dWh)
    return dx.reshape(T, B, I), dWx, dWh


def input_product(prov, gemm, X, Wx, XW):
    """A graph plan's launch of XW = X Wx over all rows (X (N,I), Wx (I,G), XW (N,G)) on the provider's views, made
    now, before a capture begins -> launch(). Without input columns (I = 0) launch() does nothing and XW keeps the
    zeros a plan starts it at (no views of arrays with no columns)."""
    if not X.shape[1]:
        return lambda: None
    vX, vWx, vXW = (prov.view(a) for a in (X, Wx, XW))
    return lambda: gemm(vX, vWx, vXW)


def projection_views(prov, X, dXW, dHW, h0, Y, Wx, dx, dWx, dWh):
    """projection_into's operands after gemm (same names and order), as a graph plan's product takes them: the
    provider's views, made now, before a capture begins; without input columns (I = 0) X, Wx, dx and dWx as they
    are (no product reads them, only their shapes)."""
    ins = (X, Wx, dx, dWx)
    vX, vWx, vdx, vdWx = (prov.view(a) for a in ins) if X.shape[1] else ins
    vdXW, vdHW, vh0, vY, vdWh = (prov.view(a) for a in (dXW, dHW, h0, Y, dWh))
    return vX, vdXW, vdHW, vh0, vY, vWx, vdx, vdWx, vdWh


def projection_into(gemm, X, dXW, dHW, h0, Y, Wx, dx, dWx, dWh):
    """projection_grads's products into arrays given, through gemm(A, B, C, trans_a, trans_b, accumulate)
    (matmul on device arrays, or a graph plan's product on its views: lstm_cuda's and rnn_cuda's plans run it
    inside their graphs). X (N,I), dXW, dHW (N,G), Y (N,H): the rows of x, dL/d(x_t Wx), dL/d(h_{t-1} Wh) and y,
    N = T*B; h0 (B,H); Wx (I,G) -> dx (N,I), dWx (I,G), dWh (H,G)."""
    N, I = X.shape
    B = h0.shape[0]
    if I:  # else dx and dWx hold nothing
        gemm(X, dXW, dWx, trans_a=True)
        gemm(dXW, Wx, dx, trans_b=True)
    gemm(h0, dHW[:B], dWh, trans_a=True)
    if N > B:
        gemm(Y[:N - B], dHW[B:], dWh, trans_a=True, accumulate=True)


# ------------------------------------------------------------------------------------------------
# Column reductions: out (M,) = sum over the N rows of D, D*X, or D*xhat(X)
# ------------------------------------------------------------------------------------------------
SUM, SUM_PROD, SUM_LN = 0, 1, 2


@lru_cache(maxsize=None)
def _colsum_kernel(dtype, t):
    dt = nbtype(dtype)

    @cuda.jit
    def colsum(D, X, mean, rstd, mode, part):
        """D, X (N,M); mean, rstd (N,) (mode SUM_LN only) -> part (P,M), P = gridDim.y row ranges.
        Block (t,t): threadIdx.x picks a column (coalesced reads along a row), threadIdx.y one of t
        lanes striding over this block's row range; lanes are added through shared memory.
        mode SUM: D; SUM_PROD: D*X; SUM_LN: D*(X - mean[r])*rstd[r] (the LayerNorm gain gradient)."""
        sh = cuda.shared.array((t, t), dt)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        N, M = D.shape
        j = cuda.blockIdx.x * t + tx
        p = cuda.blockIdx.y
        P = cuda.gridDim.y
        lo = (p * N) // P
        hi = ((p + 1) * N) // P
        s = dt(0.0)
        if j < M:
            for r in range(lo + ty, hi, t):
                d = D[r, j]
                if mode == 1:
                    d *= X[r, j]
                elif mode == 2:
                    d *= (X[r, j] - mean[r]) * rstd[r]
                s += d
        sh[ty, tx] = s
        cuda.syncthreads()
        if ty == 0 and j < M:
            for q in range(1, t):
                s += sh[q, tx]
            part[p, j] = s

    return colsum


def colsum_parts(N):
    """Row ranges (P) a column sum over N rows is split into: at least 4 rows per lane, at most REDUCE_PARTS."""
    t = tile()
    return max(1, min(REDUCE_PARTS, (N + 4 * t - 1) // (4 * t)))


def colsum_launch(D, X, mean, rstd, mode, out, part, stream=0):
    """The launches of a column sum, into arrays given: D, X (N,M) -> out (1,M) (mode as _colsum_kernel's), part
    (P,M) scratch with P = colsum_parts(N) (None when P is 1). No allocation: a captured loop's tail (the
    backward plans of lstm_cuda and rnn_cuda) runs it inside a graph."""
    M = D.shape[1]
    t = tile()
    kern = _colsum_kernel(np.dtype(D.dtype), t)
    P = 1 if part is None else part.shape[0]
    gx = (M + t - 1) // t
    if P == 1:
        kern[(gx, 1), (t, t), stream](D, X, mean, rstd, mode, out)
    else:
        kern[(gx, P), (t, t), stream](D, X, mean, rstd, mode, part)
        kern[(gx, 1), (t, t), stream](part, part, mean, rstd, SUM, out)


def _colsum(D, X, mean, rstd, mode):
    D = rows2d(D)
    X = rows2d(X)
    N, M = D.shape
    out = empty((1, M), D.dtype)
    if M == 0:
        return out.reshape(M)
    P = colsum_parts(N)
    colsum_launch(D, X, mean, rstd, mode, out, empty((P, M), D.dtype) if P > 1 else None)
    return out.reshape(M)


def colsum(D):
    """(..., M) -> (M,): sum over all leading indices."""
    dummy = empty(1, D.dtype)
    return _colsum(D, D, dummy, dummy, SUM)


def colsum_prod(D, X):
    """(..., M), (..., M) -> (M,): sum of D*X over all leading indices (gain gradients)."""
    dummy = empty(1, D.dtype)
    return _colsum(D, X, dummy, dummy, SUM_PROD)


def colsum_ln(D, X, mean, rstd):
    """D, X (N,M); mean, rstd (N,) -> (M,): sum_r D[r]*(X[r]-mean[r])*rstd[r] (LayerNorm dgain)."""
    return _colsum(D, X, mean, rstd, SUM_LN)
