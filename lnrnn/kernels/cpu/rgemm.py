"""A register-blocked GEMM for the recurrent product: C (b,G) = A (b,H) @ Wh (H,G), with Wh packed once.

The LN-LSTM step multiplies a thread's batch block (b = 16-64 rows) by the same Wh at every step.
This kernel keeps each MR x NR tile of C in vector registers while it sums over k. It runs the
kernels' per-step products where it is faster than the BLAS (blas.rec_pack/rec_mul: blas.REC says
where, from the CPU), and the cell's work on the tile (LayerNorm row statistics, gates) could run
before the tile leaves the registers: ``rgemm_rowstats`` shows the hook, each row's sum and sum of
squares over the columns, taken from the registers (not used by the cells: 1.01-1.27x rgemm's time,
bench/rgemm.py, where the LN pass it would spare costs less).

    Wp = pack(Wh)                    # once per sequence: Wh (H,G) -> Wp (P,H,NR), P = ceil(G/NR)
    rgemm(A, Wp, C, G)               # C (b,G) = A (b,H) @ Wh, every step
    rgemm_rowstats(A, Wp, C, G, s1, s2)   # ... and s1 (b,) = sum_j C[:,j], s2 (b,) = sum_j C[:,j]^2
    rgemm_add(A, Wp, C, G)           # C += A @ W, A of any strides (a transposed view): a weight gradient
    rgemm_fetch(A, Wp, C, G, plan)   # rgemm, asking meanwhile for the lines of plan's regions (address, bytes)

Layout (pack)
    Wp[p, k, jj] = Wh[k, p*NR + jj]: panels of NR columns, each K-major (H rows of NR contiguous
    values), the columns past G in the last panel zero. One panel (H*NR values; float32 with NR = 32:
    16 KB at H=128, 51 KB at H=400) stays in L1 (48 KB on an Emerald Rapids Xeon; L2 at H=400)
    while every row tile of A passes over it.

Tile (MR x NR accumulators), chosen from the host CPU at import
    NR is two vectors of VEC_BYTES: 64-byte zmm where the CPU has AVX-512 (32 float32 or 16 float64
    columns), 32-byte ymm on AVX2 (16 or 8). The accumulators are 2*MR vectors, and 2*MR independent
    FMA chains must cover the FMA latency (4 cycles) times its two ports: 8 chains at least.
    AVX2 (16 registers): MR = 6, 12 accumulators + 2 panel vectors + 1 broadcast of A = 15 registers
    (the classic 6 x 16 shape); 8 x 16 would need 16 accumulators and spill, 4 x 16 has only 8 chains.
    AVX-512 (32 registers): MR = 8, 16 accumulators + 3 = 19 registers, and 8 divides every batch block
    lnrnn uses (16, 32, 64 rows). Per k the tile does 2 vector loads of the panel, MR broadcasts of A and
    2*MR FMAs.

Row tiles (row_tiles): MR rows, then tiles of 4 (8 accumulator chains: still enough), then one tile of 4
for the 1-3 rows left. With MR = 6 the blocks of 16 and 32 rows took a last tile of 6 with 2 or 4 rows
clamped (18 and 36 rows computed, 12%); as 2 x 6 + 4 and 4 x 6 + 2 x 4 they compute none: the per-step
products of S1-S3's blocks and the synthesis network's 4 and 8 rows took 0.70-0.96x their time on a Zen 3
(bench/rgemm.py --against, bench/results/row-tiles-zen3.txt).

Edges: rows past b are clamped to row b-1 (the tile computes a copy of the last row and does not
store it); the zero columns of the last panel give zero sums. A tile that sticks out of C is written
to a (MR,NR) scratch tile and its valid part copied. So the k loop is the same for every tile, and each
element of C is summed over k in one order whatever tile it falls in.

Why an intrinsic and not Numba loops. Written as Numba loops (acc[i, j] += a[i, k] * w[k, j] on a
(MR,NR) array), the tile never reaches registers: a heap array may alias A and Wp, so every FMA loads
and stores its accumulator; a stack array is promoted to registers but LLVM fully unrolls the short
i, j loops first and Numba runs no SLP vectorizer (NUMBA_SLP_VECTORIZE defaults to 0), so the result
was scalar vfmadd231ss (or, with the reassoc flag, the k loop vectorised as 64 reductions that
spilled): 4-6 GFLOP/s against MKL's 130. The tile's k loop is therefore written in LLVM IR through a
Numba ``@intrinsic`` (``_tile_kernel``): explicit <L x T> vector loads, a broadcast (shufflevector
of the A value), llvm.fma calls on 2*MR accumulators that mem2reg keeps in registers. It compiles and
caches as any Numba function.

What the assembly shows (``rgemm.inspect_asm(sig)``, sig the float32 signature, on an Emerald
Rapids Xeon, AVX-512): the k loop, unrolled twice by LLVM, is per k 2 ``vmovups`` of the panel,
8 ``vbroadcastss`` of A and 16 ``vfmadd231ps zmm`` on 16 accumulators that never leave registers (no
loads or stores of them inside the loop); float64 the same with ``vfmadd231pd zmm``. Forced to 32-byte
vectors (VEC_BYTES = 32, MR = 6, the AVX2 path) it is 2 loads, 6 broadcasts and 12 ``vfmadd231ps
ymm``, again with no accumulator traffic; that path ran at about half of MKL's speed on that Xeon, the zmm path
at 0.8-1.0 of it (bench/rgemm.py, bench/results/rgemm.txt). LLVM's own vectorizers prefer 256-bit
vectors on these cores, but explicit <16 x float> IR is lowered to zmm.
"""
import numpy as np
from llvmlite import binding as ll
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from lnrnn.config import JIT

AVX512 = bool(ll.get_host_cpu_features().get("avx512f", False))
VEC_BYTES = 64 if AVX512 else 32  # one zmm / ymm register
MR = 8 if AVX512 else 6           # rows of a register tile (see the module docstring)


def nr_of(dtype):
    """Columns of a register tile (and of a packed panel) for a dtype: two vectors."""
    return 2 * VEC_BYTES // np.dtype(dtype).itemsize


def _tile_kernel(stats, strided=False, add=False, unit=False, fetch=False, mr=MR):
    """The mr x NR tile's k loop as an intrinsic (mr: MR unless said; stats: also its rows' sums, see
    _tile_stats below; strided: A read through its strides, any layout, and Wp's panels through Wp's first
    stride; add: the tile is added into D, not stored; unit: strided, with A's rows one element apart (a
    transposed C-contiguous block) and all MR of them inside A: the k loop then reads A's MR values of step k at constant offsets
    from one address, where the general strided loop keeps one address per row, and LLVM gave each its
    own induction variable and spilled them (2-3 stack loads and stores per k); fetch: three more arguments
    pa, pn, sh, and at every 2**sh-th step k with k >> sh < pn the cache line at address pa + (k >> sh) * 64
    is asked for from memory (llvm.prefetch; rgemm_fetch)."""

    def codegen(context, builder, sig, args):
        A_t, _, W_t, _, D_t, _, _, S_t = sig.args[:8]
        aA, i0v, aW, pv, aD, d0v, e0v, aS = args[:8]
        a = context.make_array(A_t)(context, builder, aA)
        w = context.make_array(W_t)(context, builder, aW)
        d = context.make_array(D_t)(context, builder, aD)
        T = context.get_data_type(A_t.dtype)
        item = context.get_abi_sizeof(T)
        L = VEC_BYTES // item
        nv = 2                                  # vectors per tile row: NR = 2*L
        nr = nv * L
        V = ir.VectorType(T, L)
        VP = V.as_pointer()
        intp = context.get_value_type(types.intp)
        b, H = cgutils.unpack_tuple(builder, a.shape, 2)
        ldd = cgutils.unpack_tuple(builder, d.shape, 2)[1]
        one = ir.Constant(intp, 1)
        isz = ir.Constant(intp, item)
        if strided:  # A[i, k] at i*si + k*sk elements, panel p at p*sp (byte strides over the itemsize)
            si, sk = [builder.sdiv(v, isz) for v in cgutils.unpack_tuple(builder, a.strides, 2)]
            sp = builder.sdiv(cgutils.unpack_tuple(builder, w.strides, 3)[0], isz)
        else:
            si, sk, sp = H, one, builder.mul(H, ir.Constant(intp, nr))
        # A's rows of this tile, clamped to b-1 (a copy of the last row fills a short tile); unit: their
        # offsets 0 .. MR-1 from the address of step k (all MR rows inside A: no clamp)
        rows = []
        for i in range(mr):
            if unit:
                rows.append(ir.Constant(intp, i))
                continue
            r = builder.add(i0v, ir.Constant(intp, i))
            last = builder.sub(b, one)
            r = builder.select(builder.icmp_signed("<", r, b), r, last)
            rows.append(builder.gep(a.data, [builder.mul(r, si)]))
        panel = builder.gep(w.data, [builder.mul(pv, sp)])  # Wp[p] (H,NR)
        acc = [[cgutils.alloca_once(builder, V) for _ in range(nv)] for _ in range(mr)]  # (mr,nv) of <L x T>
        zero = ir.Constant(V, None)
        for i in range(mr):
            for c in range(nv):
                builder.store(zero, acc[i][c])
        fma = cgutils.get_or_insert_function(builder.module, ir.FunctionType(V, [V, V, V]),
                                             f"llvm.fma.v{L}f{8 * item}")
        bmask = ir.Constant(ir.VectorType(ir.IntType(32), L), [0] * L)
        undef = ir.Constant(V, ir.Undefined)
        if fetch:  # the caller's stream of lines: pa, its count pn, one every 2**sh steps of k
            pa, pn, sh = [context.cast(builder, v, t, types.intp) for v, t in zip(args[8:], sig.args[8:])]
            i32 = ir.IntType(32)
            i8p = ir.IntType(8).as_pointer()
            pfn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                                 "llvm.prefetch.p0")
            every = builder.sub(builder.shl(one, sh), one)  # 2**sh - 1
        with cgutils.for_range(builder, H) as loop:
            k = loop.index
            if fetch:
                kq = builder.ashr(k, sh)
                go = builder.and_(builder.icmp_signed("==", builder.and_(k, every), ir.Constant(intp, 0)),
                                  builder.icmp_signed("<", kq, pn))
                with builder.if_then(go, likely=False):  # read; locality 3 (all cache levels); data
                    line = builder.add(pa, builder.mul(kq, ir.Constant(intp, 64)))
                    builder.call(pfn, [builder.inttoptr(line, i8p), i32(0), i32(3), i32(1)])
            wk = builder.gep(panel, [builder.mul(k, ir.Constant(intp, nr))])
            wv = [builder.load(builder.bitcast(builder.gep(wk, [ir.Constant(intp, c * L)]), VP), align=item)
                  for c in range(nv)]
            ka = builder.mul(k, sk) if strided else k
            ak = builder.gep(a.data, [builder.add(ka, i0v)]) if unit else None
            for i in range(mr):
                s = builder.load(builder.gep(ak, [rows[i]]) if unit else builder.gep(rows[i], [ka]))
                bv = builder.shuffle_vector(builder.insert_element(undef, s, ir.Constant(ir.IntType(32), 0)),
                                            undef, bmask)
                for c in range(nv):
                    builder.store(builder.call(fma, [bv, wv[c], builder.load(acc[i][c])]), acc[i][c])
        # the tile leaves the registers: D[d0+i, e0:e0+NR] = acc[i]
        for i in range(mr):
            drow = builder.gep(d.data, [builder.add(builder.mul(builder.add(d0v, ir.Constant(intp, i)), ldd),
                                                    e0v)])
            for c in range(nv):
                dst = builder.bitcast(builder.gep(drow, [ir.Constant(intp, c * L)]), VP)
                v = builder.load(acc[i][c])
                if add:
                    v = builder.fadd(builder.load(dst, align=item), v)
                builder.store(v, dst, align=item)
        if stats:  # epilogue on the registers: st[0, i] = sum_j acc[i, j], st[1, i] = sum_j acc[i, j]^2
            s = context.make_array(S_t)(context, builder, aS)
            for i in range(mr):
                v0, v1 = builder.load(acc[i][0]), builder.load(acc[i][1])
                sv = builder.fadd(v0, v1)
                qv = builder.call(fma, [v0, v0, builder.fmul(v1, v1)])
                tot, sq = ir.Constant(T, 0.0), ir.Constant(T, 0.0)
                for j in range(L):
                    idx = ir.Constant(ir.IntType(32), j)
                    tot = builder.fadd(tot, builder.extract_element(sv, idx))
                    sq = builder.fadd(sq, builder.extract_element(qv, idx))
                builder.store(tot, builder.gep(s.data, [ir.Constant(intp, i)]))
                builder.store(sq, builder.gep(s.data, [ir.Constant(intp, mr + i)]))
        return context.get_dummy_value()

    if fetch:
        def typer(typingctx, A, i0, Wp, p, D, d0, e0, st, pa, pn, sh):
            return types.void(A, i0, Wp, p, D, d0, e0, st, pa, pn, sh), codegen
    else:
        def typer(typingctx, A, i0, Wp, p, D, d0, e0, st):
            return types.void(A, i0, Wp, p, D, d0, e0, st), codegen

    typer.__name__ = "_tile" + ("_stats" if stats else "") + ("_strided" if strided else "") + ("_add" if add else "") \
        + ("_unit" if unit else "") + ("_fetch" if fetch else "") + ("" if mr == MR else f"_{mr}")
    return intrinsic(typer)


_tile_fetch = _tile_kernel(False, fetch=True)
"""_tile_fetch(A (b,H), i0, Wp (P,H,NR), p, D (., >=NR), d0, e0, st, pa, pn, sh): D[d0:d0+MR, e0:e0+NR] =
A[i0:i0+MR] @ Wp[p] (rows past b clamped to b-1; st unused), asking for pn cache lines from address pa, one
every 2**sh steps of k, while it runs (rgemm_fetch's full tiles; its column edges with pn = 0)."""
_tile_4 = _tile_kernel(False, mr=4)
"""_tile_4(A, i0, Wp, p, D, d0, e0, st): the same product on a tile of 4 rows (rows past b clamped to b-1):
rgemm_fetch's row tiles of 4 (row_tiles) and its edge tiles of fewer rows."""
_tile_stats = _tile_kernel(True)
"""_tile_stats(...): as _tile, and st (2,MR) = per-row sum and sum of squares of the tile's columns."""
_tile_strided_add = _tile_kernel(False, strided=True, add=True)
"""_tile_strided_add(...): D[d0:d0+MR, e0:e0+NR] += A[i0:i0+MR] @ Wp[p], A and Wp's panels of any strides."""
_tile_unit_add = _tile_kernel(False, strided=True, add=True, unit=True)
"""_tile_unit_add(...): as _tile_strided_add, for A.strides[0] == A.itemsize and i0 + MR <= A.shape[0]."""


def pack(Wh, nr=None):
    """Wh (H,G) -> Wp (P,H,nr), P = ceil(G/nr): Wp[p, k, jj] = Wh[k, p*nr + jj], zero past column G.
    nr defaults to the kernel's tile width for Wh's dtype (nr_of); rgemm accepts no other. Once per
    sequence; checks its argument, then packs with ``packed``."""
    Wh = np.asarray(Wh)
    if Wh.ndim != 2 or Wh.dtype not in (np.float32, np.float64):
        raise ValueError(f"pack takes a 2-D float32 or float64 Wh, not {Wh.dtype} of shape {Wh.shape}")
    return packed(Wh, nr_of(Wh.dtype) if nr is None else int(nr))


@njit(**JIT)
def packed(Wh, nr):
    """pack's layout, compiled (what blas.rec_pack calls inside the kernels): Wh (H,G) -> Wp (P,H,nr)."""
    H, G = Wh.shape
    P = -(-G // nr)
    Wp = np.empty((P, H, nr), Wh.dtype)  # (P,H,nr)
    for p in range(P):
        j0 = p * nr
        nc = min(nr, G - j0)
        for k in range(H):
            dst = Wp[p, k]
            src = Wh[k, j0:j0 + nc]
            for jj in range(nc):
                dst[jj] = src[jj]
            for jj in range(nc, nr):  # the columns past G: zero
                dst[jj] = 0
    return Wp


@njit(**JIT)
def rgemm_add(A, Wp, C, G):
    """C (b,G) += A (b,K) @ W (K,G), Wp = W's panels (P,>=K,NR) of which the first K rows of each are read
    (pack's layout; a view of a longer panel buffer will do), A of any strides (a weight gradient's
    dL/d(h Wh) rows read as their transpose: blas.grad_t_add). C C-contiguous; each element summed over
    k in one fixed order, as rgemm's, so its bits depend on neither b nor the rows around it."""
    b, K = A.shape
    NR = Wp.shape[2]
    if Wp.shape[1] < K or Wp.shape[2] != 2 * VEC_BYTES // A.itemsize or C.shape[0] != b or C.shape[1] != G \
            or Wp.shape[0] * NR < G or Wp.strides[2] != A.itemsize or Wp.strides[1] != NR * A.itemsize \
            or not C.flags.c_contiguous:
        raise ValueError("rgemm_add: shapes disagree (A (b,K), Wp (P,>=K,NR) with contiguous panel rows, C (b,G))")
    if b == 0 or K == 0:
        return
    edge = np.empty((MR, NR), A.dtype)  # (MR,NR) a tile that sticks out of C
    st = np.empty((2, MR), A.dtype)     # (2,MR) unused here
    for p in range(Wp.shape[0]):        # panel-major: Wp[p] stays in L1/L2 while the row tiles pass
        j0 = p * NR
        nc = min(NR, G - j0)
        for i0 in range(0, b, MR):
            mr = min(MR, b - i0)
            if mr == MR and nc == NR and A.strides[0] == A.itemsize:  # a transposed block (grad_t_add)
                _tile_unit_add(A, i0, Wp, p, C, i0, j0, st)
            elif mr == MR and nc == NR:
                _tile_strided_add(A, i0, Wp, p, C, i0, j0, st)
            else:  # into a zeroed scratch tile (one compiled tile for both: cold start), then its valid part
                for i in range(MR):  # (loops, not a slice assignment: compile time, see rows.copy_row)
                    for j in range(NR):
                        edge[i, j] = 0
                _tile_strided_add(A, i0, Wp, p, edge, 0, 0, st)
                for i in range(mr):
                    for j in range(nc):
                        C[i0 + i, j0 + j] += edge[i, j]


@njit(**JIT)
def _check(A, Wp, C, G):
    b, H = A.shape
    if not (A.flags.c_contiguous and Wp.flags.c_contiguous and C.flags.c_contiguous):
        raise ValueError("rgemm takes C-contiguous A, Wp and C")
    if Wp.shape[1] != H or Wp.shape[2] != 2 * VEC_BYTES // A.itemsize or C.shape[0] != b or C.shape[1] != G \
            or Wp.shape[0] * Wp.shape[2] < G:
        raise ValueError("rgemm: shapes disagree (A (b,H), Wp = pack(Wh (H,G)), C (b,G))")


@njit(**JIT)
def rgemm(A, Wp, C, G):
    """C (b,G) = A (b,H) @ Wh (H,G), with Wp = pack(Wh) (P,H,NR). A, Wp, C C-contiguous, one dtype.
    rgemm_fetch with nothing to fetch: one compiled product for both (a cold start compiles it once)."""
    rgemm_fetch(A, Wp, C, G, np.empty((0, 2), np.int64))


@njit(**JIT)
def _tiles_for(plan, per):
    """Tiles fetch_schedule's walk takes for plan's regions at per lines a tile at most."""
    n = 0
    for r in range(plan.shape[0]):
        n += -(-((plan[r, 1] + 63) // 64) // per)
    return n


@njit(**JIT)
def fetch_schedule(plan, ntiles, K):
    """How rgemm_fetch spreads the cache lines of plan over its ntiles full tiles, whose k loops run K steps:
    plan (R,2) int64, each row a region (address, bytes) -> sh, pa (ntiles,), pn (ntiles,): tile f asks for
    the pn[f] lines from address pa[f] on, one every 2**sh steps of k. The regions are walked in order,
    each tile taking the next lines of one region, at most per of them: sh is the largest of 2, 1, 0 (one
    line every 4, 2 or 1 steps of k) and per the smallest share at which the walk has a tile for every
    line; where even sh = 0 has not, the walk stops when the tiles run out (a prefetch is a hint: the
    results never depend on it)."""
    R = plan.shape[0]
    lines = _tiles_for(plan, 1)  # the plan's cache lines: one a tile
    sh = 2
    per = 1
    while sh >= 0:  # the widest spacing whose tiles have room for every line
        per = max(1, (K + (1 << sh) - 1) >> sh)  # a tile's k steps that ask for a line: its most lines
        if _tiles_for(plan, per) <= ntiles or sh == 0:
            break
        sh -= 1
    p = max(1, -(-lines // max(ntiles, 1)))  # then the smallest share that still has room
    while p < per and _tiles_for(plan, p) > ntiles:
        p += 1
    per = min(per, p)
    pa = np.zeros(ntiles, np.int64)  # (ntiles,)
    pn = np.zeros(ntiles, np.int64)  # (ntiles,)
    r = 0    # the walk's region
    off = 0  # and byte offset in it
    for f in range(ntiles):
        if r == R:
            break
        n = min(per, (plan[r, 1] - off + 63) // 64)
        pa[f] = plan[r, 0] + off
        pn[f] = n
        off += n * 64
        if off >= plan[r, 1]:
            r += 1
            off = 0
    return sh, pa, pn


@njit(**JIT)
def row_tiles(b):
    """How rgemm_fetch covers b rows: (n, m, e), n tiles of MR rows, then m of 4, then e < 4 rows left (one
    clamped tile of 4). With MR = 6 (AVX2) the batch blocks of 16 and 32 rows would take a last tile with
    4 or 2 rows of 6 (18 and 36 rows computed): 16 is 2 x 6 + 4, 32 is 4 x 6 + 2 x 4, exact."""
    n = b // MR
    r = b - n * MR
    if MR == 6 and r == 2 and n > 0:  # the last tile of 6 and the two rows left: 2 x 4
        return n - 1, 2, 0
    return n, r // 4, r % 4


@njit(**JIT)
def rgemm_fetch(A, Wp, C, G, plan):
    """rgemm, which meanwhile asks for the cache lines of plan (R,2) int64 (address, bytes of each region)
    from memory, a few in every full tile's k loop (fetch_schedule): the regions a caller's passes read or
    write right after the product (the LSTM's saved rows of the next step, lstm.py). The product keeps the
    FMA units busy and leaves memory idle, the passes after it wait on memory: their lines now come in
    under the product. C is the same bits as rgemm's. Row tiles: row_tiles (MR rows, then 4); every element
    is summed over k in one order whatever its tile, so C's bits depend on neither b nor the tiling."""
    _check(A, Wp, C, G)
    b, K = A.shape
    NR = Wp.shape[2]
    edge = np.empty((MR, NR), A.dtype)  # (MR,NR) a tile that sticks out of C
    st = np.empty((2, MR), A.dtype)     # (2,MR) unused here
    n, m, e = row_tiles(b)
    sh, pa, pn = fetch_schedule(plan, n * (G // NR), K)
    f = 0  # full tiles of MR rows so far
    for p in range(Wp.shape[0]):        # panel-major: Wp[p] stays in L1 while the row tiles pass
        j0 = p * NR
        nc = min(NR, G - j0)
        for t in range(n + m + (e > 0)):
            i0 = t * MR if t < n else n * MR + (t - n) * 4
            mr = min(MR if t < n else 4, b - i0)
            if t < n and nc == NR:  # mr == MR here
                _tile_fetch(A, i0, Wp, p, C, i0, j0, st, pa[f], pn[f], sh)
                f += 1
            elif t < n:  # a column edge of a tile of MR rows, asking for nothing
                _tile_fetch(A, i0, Wp, p, edge, 0, 0, st, 0, 0, 0)
            elif mr == 4 and nc == NR:
                _tile_4(A, i0, Wp, p, C, i0, j0, st)
            else:
                _tile_4(A, i0, Wp, p, edge, 0, 0, st)
            if nc < NR or mr < 4:
                for i in range(mr):
                    for j in range(nc):
                        C[i0 + i, j0 + j] = edge[i, j]


@njit(**JIT)
def rgemm_rowstats(A, Wp, C, G, s1, s2):
    """rgemm, and s1 (b,) = sum over j < G of C[:, j], s2 (b,) = sum of C[:, j]^2 (the LayerNorm row
    moments of A @ Wh before division by G), each tile's share summed while it is in registers."""
    _check(A, Wp, C, G)
    b = A.shape[0]
    NR = Wp.shape[2]
    edge = np.empty((MR, NR), A.dtype)  # (MR,NR) a tile that sticks out of C
    st = np.empty((2, MR), A.dtype)     # (2,MR) the tile's row sums and sums of squares
    s1[:] = 0
    s2[:] = 0
    for p in range(Wp.shape[0]):
        j0 = p * NR
        nc = min(NR, G - j0)
        for i0 in range(0, b, MR):
            mr = min(MR, b - i0)
            if mr == MR and nc == NR:
                _tile_stats(A, i0, Wp, p, C, i0, j0, st)
            else:
                _tile_stats(A, i0, Wp, p, edge, 0, 0, st)
                for i in range(mr):
                    for j in range(nc):
                        C[i0 + i, j0 + j] = edge[i, j]
            for i in range(mr):  # the zero columns of the last panel add nothing; clamped rows are skipped
                s1[i0 + i] += st[0, i]
                s2[i0 + i] += st[1, i]
