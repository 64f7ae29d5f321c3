"""The BLAS behind the kernels' matrix products: Intel MKL where it is installed (packed GEMM for the
per-step recurrent products, sgemm/dgemm for the rest), np.dot (the BLAS NumPy/SciPy ship, OpenBLAS)
everywhere else.

    P = rec_pack(W, m)          # W (K,N), once per sequence and chunk of m rows
    rec_mul(A, W, P, out)       # out (m,N) = A (m,K) @ W (K,N), every time step
    P = rows_pack(W)            # W (K,N), once per call of a product over many rows
    rows_mul(A, W, P, out)      # out = A @ W over T*B rows or a block of them (x Wx, dx)
    gemm(A, W, out, trans_a)    # out = A @ W or A^T @ W: the products over all T*B rows
    gemm_add(A, W, out, trans_a)  # out += the same (weight gradients summed over blocks of rows)

The per-step products (rec_pack, rec_mul) run either on that BLAS or on lnrnn's own register-blocked
GEMM (rgemm.py), chosen once at import (``REC``, ``REC_WHY``; ``lnrnn info`` prints it):
    LNRNN_REC_GEMM=rgemm / blas   that one
    LNRNN_BLAS=numpy              np.dot, as for every other product
    otherwise                     whichever ran faster on this host: both timed once on the per-step
                                  shapes, the result kept beside the compiled kernels (rec_choice.py);
                                  where the two are level within noise, or nothing could be measured,
                                  the rule by CPU kind (``_rule``):
    no AVX-512                    the BLAS (rgemm's 256-bit tile ran at half of MKL's speed on a Xeon)
    MKL on an Intel CPU           the BLAS: MKL's packed GEMM ran as fast as rgemm or faster (0.8-1.0x
                                  rgemm's time, Emerald Rapids)
    otherwise (AVX-512 on AMD, or no MKL)   rgemm: on an AMD EPYC (Zen 4) it took 0.54-0.87x of MKL's
                                  packed GEMM's time at every per-step shape of S1-S3 and the synthesis
                                  network (bench/rgemm.py; docs/performance.md)
Both are exact to float rounding; rgemm sums each element over k in one fixed order, whatever the rows
around it, so its results do not depend on how the batch is split either. Where rgemm runs the per-step
products it also runs the other products of the form A @ W (rows_pack, rows_mul: the input projection
x Wx and the input gradient dL/d(x Wx) Wx^T over all T*B rows or blocks of them; W packed once per call,
K*N values against K*N*rows multiply-adds): on the Zen 4 it ran those at 1.2-1.7x MKL sgemm's speed
(S2: 896 x 28 by 28 x 1024 104 against 75 GFLOP/s, 256 x 1024 by 1024 x 28 101 against 60). The
products A^T @ D (dWx, dWh) over many rows go to rgemm's transposed product D^T @ A in blocks of rows
whose partial stays in L2 (grad_t_add; the rule grad_budget, for the LSTM backward's blocks dwh_blocks and
for the products after a time loop grad_blocks: 0.95-0.97x the S1 LSTM step's time, 0.78-0.87x the RNN
and BN cells'), else to the BLAS (gemm, gemm_add). Where a partial outgrows L2 (S3's dWh), its blocks
stay on the BLAS unless the same measurement found rgemm's L2-sized blocks faster on this host (``DWH``,
``DWH_WHY``: rec_choice.py; LNRNN_DWH_GEMM=rgemm / blas chooses outright where rgemm runs the per-step
products). Where the same measurement found rgemm's transposed product slower than the BLAS's GEMM on
blocks within L2 (``GRAD``, ``GRAD_WHY``: an AVX2 host), every weight gradient's blocks go to the BLAS, in
the BLAS's own blocks (LNRNN_GRAD_GEMM=rgemm / blas chooses outright where rgemm runs per step).

Why packed MKL: a recurrent step multiplies a few batch rows by the same weight matrix T times. MKL
can reorder that matrix once into its kernel's layout (cblas_?gemm_pack) and reuse it at every step
(cblas_?gemm_compute). Measured on the 2-core development machine (bench/blas_packed.py), the
recurrent products of forward + backward ran 1.44x / 1.26x / 1.78x faster than np.dot on OpenBLAS at
S1 / S2 / S3.

How Numba reaches it, cacheably: llvmlite loads libmkl_rt for the JIT and ``ExternalFunction``
declares each CBLAS function by symbol name, so compiled code (and Numba's on-disk cache) refers to
the symbol, not to a process-specific ctypes address. Arrays go in as addresses (``a.ctypes.data``);
they are arguments of these helpers, so they stay referenced for the whole call.

Choice (once, at import; ``BLAS`` names it and ``lnrnn info`` prints it): MKL where ``lnrnn.mkl`` found
and loaded a libmkl_rt (its docstring: LNRNN_BLAS=numpy, LNRNN_MKL_LIB), else np.dot.
Kernels that call these helpers are compiled against one choice, which Numba's cache key does not see;
``BLAS_TAG`` ("mkl" or "numpy") is therefore part of the name of every cached lnrnn kernel
(lnrnn.compiling.use_kernel_cache, called below before the first kernel here is decorated): a process
only ever reads kernels compiled against its own choice, whatever the cache directory.
"""
import os

import numpy as np
from numba import njit, types
from numba.extending import overload

from lnrnn.compiling import use_kernel_cache
from lnrnn.config import DWH_BIG_BYTES, DWH_BLAS_MIN_ROWS, DWH_BLOCK_ROWS, DWH_L2_BYTES, JIT
from lnrnn.mkl import BLAS_WHY, MKL_PATH
import lnrnn.kernels.cpu.rgemm as rg
from lnrnn.kernels.cpu import rec_choice

ROW_MAJOR, NO_TRANS, TRANS, PACKED, B_MATRIX = 101, 111, 112, 151, 162  # CBLAS enumerations (mkl_cblas.h)
ALIGN = 64  # bytes: MKL's packed buffers want 64-byte alignment


def cpuinfo(field):
    """The first value of a /proc/cpuinfo field ("vendor_id": "GenuineIntel", "AuthenticAMD", ...;
    "model name", "cpu MHz"), or "" where it cannot be read (not Linux)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.split(":", 1)[0].strip() == field:
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def _blas_name(have_mkl):
    """The BLAS as the product choice's record names it: MKL's library file, or numpy."""
    return os.path.basename(MKL_PATH) if have_mkl else "numpy"


def _cpu_key():
    """The CPU as the product choice's record names it (rec_choice.host_key): its model and flags."""
    return cpuinfo("model name") + " | " + cpuinfo("flags")


def _rule(have_mkl):
    """("rgemm" or "blas", why in words): the choice by CPU kind, where no measurement decides."""
    if not rg.AVX512:
        return "blas", "the CPU has no AVX-512, where rgemm's 256-bit tile is slower than a BLAS"
    vendor = cpuinfo("vendor_id")
    if have_mkl and vendor in ("GenuineIntel", ""):
        return "blas", (f"MKL on a CPU of vendor {vendor or 'unidentified'}: its packed GEMM is as fast as rgemm or "
                        "faster")
    if have_mkl:
        return "rgemm", f"AVX-512 on a CPU of vendor {vendor}, where rgemm outruns MKL's packed GEMM"
    return "rgemm", "AVX-512 without MKL: rgemm outruns np.dot on the per-step shapes"


def _choose_rec(have_mkl):
    """("rgemm" or "blas", why in words, "rgemm" or "blas", why): what runs the per-step recurrent products
    (module docstring), and where the LSTM backward's large dWh partials take their blocks (``DWH``)."""
    asked = os.environ.get("LNRNN_REC_GEMM", "").strip().lower()
    if asked in ("rgemm", "blas"):
        return _asked_dwh(asked, f"LNRNN_REC_GEMM={asked} asks for it", "blas",
                          "not measured: LNRNN_REC_GEMM chose the per-step product")
    note = f" (LNRNN_REC_GEMM={asked} is neither rgemm nor blas: ignored)" if asked else ""
    if os.environ.get("LNRNN_BLAS", "").lower() == "numpy":
        return _asked_dwh("blas", "LNRNN_BLAS=numpy asks for np.dot" + note, "blas", "")
    rec, why, dwh, dwh_why = rec_choice.choose(_blas_name(have_mkl), _cpu_key(), _rule(have_mkl))
    return _asked_dwh(rec, why + note, dwh, dwh_why)


def _asked_dwh(rec, why, dwh, dwh_why):
    """(rec, why, dwh, dwh_why) with LNRNN_DWH_GEMM=rgemm / blas choosing dWh's blocks outright where the
    per-step products run on rgemm (on the BLAS, dWh's blocks do too)."""
    asked = os.environ.get("LNRNN_DWH_GEMM", "").strip().lower()
    if rec != "rgemm":
        return rec, why, *rec_choice.decide_dwh(None, rec)
    if asked in ("rgemm", "blas"):
        return rec, why, asked, f"LNRNN_DWH_GEMM={asked} asks for it"
    return rec, why, dwh, dwh_why


def _choose_grad(have_mkl, rec):
    """("rgemm" or "blas", why): where the weight gradients' blocks within L2 go, for rec the per-step product
    chosen (rec_choice.decide_grad): LNRNN_GRAD_GEMM=rgemm / blas chooses outright where rgemm runs per step;
    a per-step product chosen by the environment measured nothing, so rgemm's blocks, as before it was
    measured; else this host's record."""
    if rec != "rgemm":
        return rec_choice.decide_grad(None, rec, rg.AVX512)
    asked = os.environ.get("LNRNN_GRAD_GEMM", "").strip().lower()
    if asked in ("rgemm", "blas"):
        return asked, f"LNRNN_GRAD_GEMM={asked} asks for it"
    if os.environ.get("LNRNN_REC_GEMM", "").strip().lower() in ("rgemm", "blas"):
        return rec_choice.decide_grad(None, rec, rg.AVX512)
    return rec_choice.recorded_grad(_blas_name(have_mkl), _cpu_key(), rec, rg.AVX512)


HAVE_MKL = MKL_PATH is not None
# REC: the per-step products' GEMM; DWH: that of the LSTM backward's dWh blocks where the partial outgrows L2
REC, REC_WHY, DWH, DWH_WHY = _choose_rec(HAVE_MKL)
# GRAD: whether weight gradients' blocks may go to rgemm's transposed product at all ("blas": never)
GRAD, GRAD_WHY = _choose_grad(HAVE_MKL, REC)
# Whether a kernel keeps its bits when the batch's rows are split another way (1, 2 or 3 chunks, batches of
# 3 rather than 500): with rgemm per step it does (module docstring); the BLAS's packed GEMM and np.dot
# choose their code by the rows they get, and the last bits may move (the layers keep the same bits on any
# thread count all the same: their split is fixed by B alone, threads.batch_blocks)
REC_SPLIT_EXACT = REC == "rgemm"
_MKL_NAME = os.path.basename(MKL_PATH) if HAVE_MKL else None  # the library, not the folder (benches print BLAS)
if REC == "blas":
    BLAS = f"MKL, packed GEMM per time step and sgemm/dgemm ({_MKL_NAME})" if HAVE_MKL else "np.dot (NumPy/SciPy BLAS)"
else:
    BLAS = "rgemm (lnrnn's own) per time step, " + (f"MKL sgemm/dgemm for the rest ({_MKL_NAME})" if HAVE_MKL
                                                    else "np.dot for the rest")
BLAS_TAG = ("mkl" if HAVE_MKL else "numpy") + ("-rgemm" if REC == "rgemm" else "")
use_kernel_cache(BLAS_TAG)  # before the first @njit below: every cached kernel is named with the choice


_i32, _addr = types.int32, types.intp
_s_size = types.ExternalFunction("cblas_sgemm_pack_get_size", types.uint64(_i32, _i32, _i32, _i32))
_d_size = types.ExternalFunction("cblas_dgemm_pack_get_size", types.uint64(_i32, _i32, _i32, _i32))
_s_pack = types.ExternalFunction("cblas_sgemm_pack", types.void(_i32, _i32, _i32, _i32, _i32, _i32, types.float32,
                                                                _addr, _i32, _addr))
_d_pack = types.ExternalFunction("cblas_dgemm_pack", types.void(_i32, _i32, _i32, _i32, _i32, _i32, types.float64,
                                                                _addr, _i32, _addr))
_s_compute = types.ExternalFunction("cblas_sgemm_compute", types.void(_i32, _i32, _i32, _i32, _i32, _i32, _addr,
                                                                      _i32, _addr, _i32, types.float32, _addr, _i32))
_d_compute = types.ExternalFunction("cblas_dgemm_compute", types.void(_i32, _i32, _i32, _i32, _i32, _i32, _addr,
                                                                      _i32, _addr, _i32, types.float64, _addr, _i32))

_s_gemm = types.ExternalFunction("cblas_sgemm", types.void(_i32, _i32, _i32, _i32, _i32, _i32, types.float32, _addr,
                                                           _i32, _addr, _i32, types.float32, _addr, _i32))
_d_gemm = types.ExternalFunction("cblas_dgemm", types.void(_i32, _i32, _i32, _i32, _i32, _i32, types.float64, _addr,
                                                           _i32, _addr, _i32, types.float64, _addr, _i32))


@njit(**JIT)
def _contiguous(A, W, out):
    return A.flags.c_contiguous and W.flags.c_contiguous and out.flags.c_contiguous


@njit(**JIT)
def gemm(A, W, out, trans_a):
    """out (M,N) = A (M,K) @ W (K,N), or A^T @ W for A (K,M) when trans_a: the GEMMs over all T*B rows
    (x Wx, dx, dWx, dWh). MKL's sgemm/dgemm when it is loaded and the operands are C-contiguous,
    np.dot otherwise. ``out`` must be C-contiguous (every kernel passes a fresh or a C-ordered buffer): A and W
    may be strided views, but np.dot writes only into a contiguous ``out`` (Numba refuses another at compile
    time)."""
    _gemm(A, W, out, trans_a, False)


@njit(**JIT)
def gemm_add(A, W, out, trans_a):
    """out (M,N) += A @ W, or A^T @ W when trans_a (gemm's operands, ``out`` C-contiguous): a weight gradient
    summed over blocks of rows without a product buffer and a pass adding it (MKL: beta = 1)."""
    _gemm(A, W, out, trans_a, True)


def _gemm(A, W, out, trans_a, add):
    """out = A @ W, or A^T @ W when trans_a (+= when add): MKL's sgemm/dgemm where MKL is loaded and the
    operands are C-contiguous, np.dot otherwise (this Python body: _gemm_dot; ``out`` C-contiguous either way).
    Compiled through the overload below, which picks the code from the operands' types: arrays typed
    C-contiguous ('C' layout, what the kernels pass) with MKL loaded get the MKL call alone, without the
    np.dot fallback, whose np.dot variants took about 0.5 s of every such kernel's compiling (the LSTM
    backward's first call)."""
    _gemm_dot(A, W, out, trans_a, add)


# the overloads' compile options: JIT's (their code is compiled, and cached, inside the kernels that call them)
_OVERLOAD_JIT = {k: v for k, v in JIT.items() if k != "cache"}


def _c_layout(*arrays):
    """Whether Numba types every one of these arguments as a C-contiguous array (at compile time)."""
    return all(isinstance(a, types.Array) and a.layout == "C" for a in arrays)


@overload(_gemm, jit_options=_OVERLOAD_JIT)
def _gemm_overload(A, W, out, trans_a, add):
    if HAVE_MKL and _c_layout(A, W, out):
        def mkl_only(A, W, out, trans_a, add):
            _gemm_mkl(A, W, out, trans_a, add)
        return mkl_only

    def any_layout(A, W, out, trans_a, add):
        if not HAVE_MKL or not _contiguous(A, W, out):
            _gemm_dot(A, W, out, trans_a, add)
        else:
            _gemm_mkl(A, W, out, trans_a, add)
    return any_layout


@njit(**JIT)
def _gemm_dot(A, W, out, trans_a, add):
    """_gemm by np.dot (no MKL, or operands that are not C-contiguous)."""
    if add:
        out += np.dot(A.T, W) if trans_a else np.dot(A, W)
    elif trans_a:
        np.dot(A.T, W, out)
    else:
        np.dot(A, W, out)


@njit(**JIT)
def _gemm_mkl(A, W, out, trans_a, add):
    """_gemm by MKL's sgemm/dgemm, for C-contiguous operands."""
    K = A.shape[0] if trans_a else A.shape[1]
    M, N = out.shape
    if M == 0 or N == 0:
        return
    if K == 0:
        if not add:
            out[:] = 0
        return
    ta = TRANS if trans_a else NO_TRANS
    if A.itemsize == 4:
        _s_gemm(ROW_MAJOR, ta, NO_TRANS, M, N, K, np.float32(1.0), A.ctypes.data, A.shape[1], W.ctypes.data, N,
                np.float32(1.0 if add else 0.0), out.ctypes.data, N)
    else:
        _d_gemm(ROW_MAJOR, ta, NO_TRANS, M, N, K, 1.0, A.ctypes.data, A.shape[1], W.ctypes.data, N,
                1.0 if add else 0.0, out.ctypes.data, N)


@njit(**JIT)
def _aligned(buf):
    return (buf.ctypes.data + ALIGN - 1) // ALIGN * ALIGN


@njit(**JIT)
def blas_pack(W, m):
    """W (K,N) C-contiguous, packed as the right operand of (m,K) @ (K,N) products: a uint8 buffer
    (empty without MKL: blas_mul then calls np.dot)."""
    K, N = W.shape
    if not HAVE_MKL:  # a constant: Numba drops the MKL calls below when it is False
        return np.empty(0, np.uint8)
    if m == 0:
        return np.empty(0, np.uint8)
    if W.itemsize == 4:  # float32 (sgemm); float64 otherwise (dgemm)
        n = _s_size(B_MATRIX, m, N, K)
    else:
        n = _d_size(B_MATRIX, m, N, K)
    buf = np.empty(n + ALIGN, np.uint8)
    if W.itemsize == 4:  # float32 (sgemm); float64 otherwise (dgemm)
        _s_pack(ROW_MAJOR, B_MATRIX, NO_TRANS, m, N, K, np.float32(1.0), W.ctypes.data, N, _aligned(buf))
    else:
        _d_pack(ROW_MAJOR, B_MATRIX, NO_TRANS, m, N, K, 1.0, W.ctypes.data, N, _aligned(buf))
    return buf


@njit(**JIT)
def blas_mul(A, W, P, out):
    """out (m,N) = A (m,K) @ W (K,N), with P = blas_pack(W, m). A and out: C-contiguous row blocks."""
    m, K = A.shape
    N = W.shape[1]
    if not HAVE_MKL:
        np.dot(A, W, out)
    elif P.size == 0 or not _contiguous(A, W, out):
        np.dot(A, W, out)
    elif A.itemsize == 4:
        _s_compute(ROW_MAJOR, NO_TRANS, PACKED, m, N, K, A.ctypes.data, K, _aligned(P), N, np.float32(0.0),
                   out.ctypes.data, N)
    else:
        _d_compute(ROW_MAJOR, NO_TRANS, PACKED, m, N, K, A.ctypes.data, K, _aligned(P), N, 0.0, out.ctypes.data, N)


@njit(**JIT)
def rgemm_pack(W, m):
    """W (K,N) as rgemm's panels (P,K,NR) (rgemm.pack's layout); the same panels serve any m rows."""
    return rg.packed(W, 2 * rg.VEC_BYTES // W.itemsize)


@njit(**JIT)
def rgemm_mul(A, W, P, out):
    """out (m,N) = A (m,K) @ W (K,N) by rgemm, with P = rgemm_pack(W, m); np.dot for strided rows."""
    _rgemm_or_dot(A, W, P, out)


def _rgemm_or_dot(A, W, P, out):
    """rgemm_mul's product (this Python body: np.dot). Compiled through the overload below: A and out typed
    C-contiguous get rgemm alone, without the np.dot fallback for strided rows (its compiling, as _gemm's)."""
    np.dot(A, W, out)


@overload(_rgemm_or_dot, jit_options=_OVERLOAD_JIT)
def _rgemm_or_dot_overload(A, W, P, out):
    if _c_layout(A, out):
        def rgemm_only(A, W, P, out):
            rg.rgemm_fetch(A, P, out, W.shape[1], np.empty((0, 2), np.int64))  # rgemm, one call less to compile
        return rgemm_only

    def any_layout(A, W, P, out):
        if A.flags.c_contiguous and out.flags.c_contiguous:
            rg.rgemm_fetch(A, P, out, W.shape[1], np.empty((0, 2), np.int64))
        else:
            np.dot(A, W, out)
    return any_layout


@njit(**JIT)
def gemm_pack(W):
    """Nothing to pack: the BLAS's sgemm/dgemm take W as it is (rows_pack without rgemm)."""
    return np.empty(0, np.uint8)


@njit(**JIT)
def gemm_mul(A, W, P, out):
    """out (M,N) = A (M,K) @ W (K,N) by gemm (rows_mul without rgemm); P unused."""
    gemm(A, W, out, False)


@njit(**JIT)
def rgemm_rows_pack(W):
    """W (K,N) as rgemm's panels, for products over any number of rows (rgemm_pack's: m plays no part)."""
    return rgemm_pack(W, 0)


@njit(**JIT)
def grad_t_add(A, D, CT):
    """CT (N,M) += (A^T @ D)^T = D^T @ A over a block of K gathered rows, A (K,M), D (K,N), on rgemm: A's
    M columns packed as rgemm's right operand (rgemm.packed, the per-step products' own packing; M is
    the narrow side, H of dWh) and D read as D.T through its strides (rgemm.rgemm_add). The LSTM
    backward's dWh^T where its blocks of rows stay in L2 (lstm.py); a transposed product gemm_add does
    not offer."""
    rg.rgemm_add(D.T, rg.packed(A, 2 * rg.VEC_BYTES // A.itemsize), CT, A.shape[1])


@njit(**JIT)
def rgemm_mul_fetch(A, W, P, out, plan):
    """rgemm_mul, asking meanwhile for the cache lines of plan's regions (rgemm.rgemm_fetch; plan (R,2)
    int64, address and bytes of each). A and out C-contiguous (the LSTM's row blocks): no np.dot fallback,
    whose compiling the per-step product of every cold start would pay."""
    rg.rgemm_fetch(A, P, out, W.shape[1], plan)


@njit(**JIT)
def blas_mul_fetch(A, W, P, out, plan):
    """blas_mul: MKL's product has no place for the plan's prefetches, which are left out."""
    blas_mul(A, W, P, out)


@njit(**JIT)
def gemm_mul_fetch(A, W, P, out, plan):
    """gemm_mul (rows_mul without rgemm); the plan's prefetches left out."""
    gemm(A, W, out, False)


def grad_budget(K, N, I, itemsize, big):
    """Bytes of L2 that blocks of rows of a weight gradient's product A^T D (A (n,K), D (n,N): a K x N
    partial; the LSTM's dWh: K = H, N = 4H) are cut to, for I the width of an input whose dWx (I x N) is
    taken per block of rows too (0 for none), the dtype's itemsize and big (DWH == "rgemm": this host's
    measurement chose rgemm's blocks for large partials): config.DWH_L2_BYTES where the K x N partial fits
    in it and the I x N one in a quarter of it; config.DWH_BIG_BYTES where big and both partials fit in
    that; else 0 (blocks of config.DWH_BLOCK_ROWS rows). config.py says why."""
    if K * N * itemsize <= DWH_L2_BYTES and I * N * itemsize <= DWH_L2_BYTES // 4:
        return DWH_L2_BYTES
    if big and max(K, I) * N * itemsize <= DWH_BIG_BYTES:
        return DWH_BIG_BYTES
    return 0


def grad_block_rows(K, N, I, itemsize, big=False):
    """Rows of A and D (grad_budget's product) per block: as few as fill a quarter of grad_budget with D's
    rows (at least one), or config.DWH_BLOCK_ROWS where it is 0; never more than DWH_BLOCK_ROWS."""
    budget = grad_budget(K, N, I, itemsize, big)
    if budget == 0:
        return DWH_BLOCK_ROWS
    return min(DWH_BLOCK_ROWS, max(1, budget // 4 // (N * itemsize)))


def dwh_budget(H, I, itemsize, big):
    """grad_budget of the LSTM backward's dWh (H,4H), with a wide input's dWx (I,4H) per block (0: narrow)."""
    return grad_budget(H, 4 * H, I, itemsize, big)


def dwh_block_rows(H, I, itemsize, big=False):
    """Rows of dL/d(h_{t-1} Wh) a chunk of the LSTM backward gathers for one dWh product (grad_block_rows
    of dWh (H,4H), dwh_budget's arguments)."""
    return grad_block_rows(H, 4 * H, I, itemsize, big)


def dwh_blocks(H, I, m, T, itemsize, rec, dwh, grad="rgemm"):
    """(nb, tw) for the LSTM backward (lstm.py) with chunks of at most m rows over T steps, per-step products
    on rec and large dWh partials on dwh ("rgemm" or "blas"): nb steps' rows per dWh block
    (dwh_block_rows), and tw: whether a block's product is rgemm's transposed one (grad_t_add into dWh^T)
    (grad_on_rgemm). Blocks for the BLAS's GEMM that the L2 rule makes shorter than config.DWH_BLAS_MIN_ROWS
    rows are made as many as blocks of that many rows would be, the steps spread evenly over them (S2, 32-row
    chunks: 4 blocks of 7 steps, not 14 of 2; config.py says why). grad: GRAD (grad_products)."""
    rec, big = grad_products(rec, dwh, grad)
    nb = max(1, min(T, dwh_block_rows(H, I, itemsize, big) // m))
    tw = grad_on_rgemm(H, 4 * H, I, nb * m, itemsize, rec, big)
    if not tw and nb * m < DWH_BLAS_MIN_ROWS:
        steps = -(-DWH_BLAS_MIN_ROWS // m)  # the steps of m rows a block of DWH_BLAS_MIN_ROWS rows takes
        n = -(-T // steps)                 # as many blocks as such blocks would be (one where T is short)
        nb = -(-T // n)                    # ... the steps spread evenly over them
    return nb, tw


def grad_products(rec, dwh, grad):
    """(rec, big) of a weight gradient's blocks, for the per-step products on rec, large dWh partials on dwh and
    the blocks within L2 on grad (this process's REC, DWH, GRAD): the product the blocks may take, rec, or the
    BLAS where grad is "blas" (its blocks, as where the BLAS runs per step); and big, whether large partials
    take rgemm's blocks (grad_budget): where both rec and dwh are rgemm."""
    rec = rec if grad == "rgemm" else "blas"
    return rec, rec == "rgemm" and dwh == "rgemm"


def grad_on_rgemm(K, N, I, rows, itemsize, rec, big):
    """Whether blocks of this many rows of grad_budget's product go to rgemm's transposed product
    (grad_t_add): where rgemm runs the per-step products (rec) and a block of D's rows fills at most half
    of the L2 budget (of config.DWH_L2_BYTES where the budget is 0)."""
    budget = max(grad_budget(K, N, I, itemsize, big), DWH_L2_BYTES)
    return rec == "rgemm" and rows * N * itemsize <= budget // 2


def grad_blocks(K, N, itemsize):
    """(rows, tw) of a weight gradient A^T D (A (n,K), D (n,N)) taken after a time loop over all T*B rows
    (gemm.recurrent_weight_grad: the RNN and BN cells' dWh): rows per block (grad_block_rows, no input beside it) and
    tw, whether the blocks go to rgemm's transposed product (grad_on_rgemm, this process's REC, DWH and GRAD),
    the LSTM backward's rule for its dWh blocks."""
    rec, big = grad_products(REC, DWH, GRAD)
    rows = grad_block_rows(K, N, 0, itemsize, big)
    return rows, grad_on_rgemm(K, N, 0, rows, itemsize, rec, big)


def rec_pack_once(W, m):
    """W (K,N) packed once for the per-step products of every chunk of a sequence, where the packing does
    not depend on the rows (rgemm's panels); else (MKL's packed format is made for a number of rows) an
    empty buffer, and each chunk packs its own with rec_pack. A chunk takes ``P if P.size else
    rec_pack(W, rows)``: at S2 (T28 B128 I28 H256; 4 chunks on 2 threads) every chunk packed its own 1 MB."""
    if REC == "rgemm":
        return rgemm_pack(W, m)
    return np.empty(0, np.uint8)


# the per-step products the kernels call (REC; a process compiles its kernels against one of them)
rec_pack, rec_mul = (rgemm_pack, rgemm_mul) if REC == "rgemm" else (blas_pack, blas_mul)
# ... and the same product asking meanwhile for the lines its caller's next passes use (rgemm only)
rec_mul_fetch = rgemm_mul_fetch if REC == "rgemm" else blas_mul_fetch
# rows_mul with a plan too: on rgemm the very function above, so that a kernel calling both compiles one
# product (each compiled caller of rgemm's tiles generates their code again: 0.5-1 s of a cold start each)
rows_mul_fetch = rgemm_mul_fetch if REC == "rgemm" else gemm_mul_fetch
# the A @ W products over many rows (x Wx, dx): with the per-step products on rgemm, rgemm too
rows_pack, rows_mul = (rgemm_rows_pack, rgemm_mul) if REC == "rgemm" else (gemm_pack, gemm_mul)
