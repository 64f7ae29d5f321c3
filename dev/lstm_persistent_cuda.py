"""A kernel variant kept outside the package: the LN-LSTM forward recurrence and its BPTT as persistent grids
of cooperating blocks (Diamos et al. 2016, "Persistent RNNs"), in place of the time loops of
``lnrnn.kernels.lstm_cuda`` (one block per batch row). Correct, and measured 1.5-8x slower than the package's
kernels on an H200 (docs/performance.md, On a GPU), so the package does not ship it.

    python dev/lstm_persistent_cuda.py            # check against lstm_cuda (float64), then time S1 on a GPU
    NUMBA_ENABLE_CUDASIM=1 python dev/lstm_persistent_cuda.py --tiny   # the check alone, no GPU

Tests: tests/dev/test_cuda_persistent.py (forward), tests/dev/test_cuda_persistent_bwd.py (BPTT); the GPU compile
check of tests/kernels/test_cuda_backend.py lists its kernels.

Equations, gate order [i|f|g|o] and shape letters: ``lnrnn.kernels``. ``lstm_forward`` and ``lstm_backward``
are ``lstm_cuda``'s for norm LN with this module's time loop: the forward computes x Wx and its LayerNorm
over all T*B rows first with the package's ops, and ``run`` fills the saved tensors in ``lstm_cuda``'s layout
(its docstring: gates, c, tc, y, hhat, chat and rows 1, 2 of rstd), so ``lstm_cuda.lstm_backward`` runs
unchanged on them, and the other way round. Masks (lengths) are out of scope: the LN-LSTM's CUDA twin takes
none (plain and LN cells never mix rows).

Why: ``lstm_cuda``'s sequence kernel runs one block per batch row, and every block reads all of Wh
(H,G) from L2 at every step; a step then costs the latency of H*G/threads dependent loads. Here each of
NB blocks owns a contiguous range of hidden units [u0,u1) (``units``: balanced, so widths differ by at
most one) and so the four gate columns q*H + k, k in [u0,u1), of every batch row; it keeps its slice of
Wh, Ws (H, 4U), U = max units of a block, in shared memory for the whole sequence.

One time step t, block j, all B rows (two phases, each followed by a grid-wide barrier)
    phase H  (1) the statistics of c_{t-1}'s LayerNorm for every row: the NB blocks' partials of
             step t-1 combined in block order; block j writes chat, tc, y of step t-1 for its own
             units (block 0 writes rstd[2, t-1]).
             (2) h_{t-1}, all H units of a chunk of R rows, recomputed into shared memory from the
             published c_{t-1} and o_{t-1}: h = o * tanh(gc * (c - mean) * rstd + bc) (h0 at t = 0).
             (3) hw = h_{t-1} Ws for the chunk's rows and the block's 4*(u1-u0) columns (dot_col,
             the same sum as lstm_cuda's sequence kernel).
             (4) per row, partials of hw over the block's columns: (sum, sum of squared deviations
             from the block's own mean) -> PH (NB,B,2).
    -- grid barrier --
    phase C  (1) the LayerNorm statistics of hw for every row: PH combined in block order (Chan's
             parallel variance: M2 = sum_j M2_j + n_j (mean_j - mean)^2; no atomics, so the result
             is the same bits whatever the order in which blocks arrive); block 0 writes rstd[1, t].
             (2) for its units: hhat, the gates and c_t (published in the saved gates and c).
             (3) per row, partials of c_t over the block's units -> PC (NB,B,2).
    -- grid barrier --
    After the last step one more phase H (its part (1) alone) writes chat, tc, y of step T-1.
Two barriers per step, because nobody publishes h_t: a third phase (every block writes its units' h_t,
barrier, everyone reads h_t) would cost one more grid barrier per step, and here each block instead
recomputes the B*H values of h_{t-1} it needs (B*H tanh per block per step) from what phase C already
published. The same recomputation also writes the block's own units' saved values, so every block uses
bit for bit the h that the saved y holds. Measured on an H200 (docs/performance.md, On a GPU): a grid
barrier costs 1.4-1.5 us, yet a step costs ~120 us at S1, so the time goes to the phases (the serial
combination of NB partials per row, the redundant tanh), not to the barriers. Each partials buffer is written
once per step and read after the next barrier, and its next write comes after the barrier that
follows, so one buffer each suffices.

Backward (``run_backward``, the time loop of ``lstm_backward``). It takes what lstm_cuda's bwd_seq takes
(dy, the saved tensors, c0, rstd, (gx, gh, gc), Wh, clip) and writes what bwd_seq writes: per step DA,
DCN, dHW, dXW (lstm_cuda.bwd_row's outputs, clip applied as there) and dh0, dc0; ``lstm_backward`` then runs
lstm_cuda's weight GEMMs and reductions. The recurrent product is dh_t = dHW_{t+1} Wh^T; block j keeps its
units' rows of Wh, transposed, WsT (G,U), in shared memory and computes dh_t[:, u0:u1] for all B rows.
One time step t (t = T-1 .. 0), block j, all B rows (two phases, each followed by a grid-wide barrier)
    phase A  (1) step t+1's two LayerNorm backward sums per row (h1, h2 of the hw LayerNorm, x1, x2 of
             the xw one: sums over G): the NB blocks' partials P2 combined in block order; block j
             writes dHW and dXW of step t+1 for its own 4*(u1-u0) columns.
             (2) dHW_{t+1}, all G columns of a chunk of R rows, recomputed into shared memory from the
             published DA_{t+1}: r_h * (da * gh - h1 - hhat * h2), the same expression (and bits) as
             its owner's (zero at t = T-1).
             (3) dh_t for the block's units: four partial products, one per gate's H columns (dot_col,
             so 4*(u1-u0) dot products of length H run in parallel per row, as in the forward), added.
             (4) for its units: dL/da of the output gate and DCN = dL/d(cell output) (published).
             (5) per row, partials of the cell LayerNorm's sums over the block's units:
             (sum dcn*gc, sum dcn*gc*chat) -> P1 (NB,B,4).
    -- grid barrier --
    phase B  (1) P1 combined in block order (sums over H).
             (2) for its units: the cell LayerNorm backward, dL/dc_t (+ the carried dL/dc from step t+1,
             held in dc0, each block its own units), dL/da of the input, forget, candidate gates,
             Graves's clip of all four (after the carry dc_{t-1} = dc_t * f is taken unclipped), DA
             published.
             (3) per row, partials of (h1, h2, x1, x2) over the block's 4*(u1-u0) columns -> P2.
    -- grid barrier --
    After the last step one more phase A with t = -1: step 0's dHW, dXW, and dh0 = dHW_0 Wh^T.
Two barriers per step for the same reason as the forward: nobody publishes dHW_{t+1} before it is used.
A third phase (owners write dHW, barrier, everyone reads it) would cost one more grid barrier per step;
instead every block recomputes the B*G values from DA and hhat (two reads instead of one, an
elementwise expression) after the barrier that follows phase B. P1 is written in A(t), read in B(t),
written again in A(t-1) after the barrier that follows B(t); P2 likewise one phase later: one buffer each.

Drivers over the same phase device functions (``run_phase``)
    persistent  one cooperative launch for the whole sequence, the phases separated by
                ``cuda.cg.this_grid().sync()``; Ws stays in shared memory throughout.
    stepped     one ordinary launch per phase per step on the same NB blocks: the kernel boundaries
                are the grid barriers (Ws is reloaded by every launch; hw lives in a global
                (NB,B,4U) scratch instead of shared memory). Numba's simulator runs a grid sync with
                one block only, so the stepped driver is how several blocks are tested on the CPU.

Shared memory per block (static, at most config.CUDA_SHARED_BYTES; ``plan``): forward Ws (H,4U), hw
(B,4U), the row statistics (B,2) and the staging rows of h_{t-1} (R,H+1); backward WsT (G,U), the row
sums (B,4) and per staged row dHW (G+1,) and its per-gate partial products (4U,). R = as many rows as the
rest leaves (at least one, at most B; a row padded by one element, so that the threads of a warp, which
read element i of several rows at once, meet in different banks). Threads per block: B*4U or R*H
(backward R*G) rounded up to a warp, at most MAX_THREADS and config.CUDA_SEQ_MAX_THREADS. With 132
blocks and 48 KB (bytes used as planned, float32 / float64): S1 (B64 H128) forward 36.6 / 48.4 KB,
backward 48.6 / 47.5 KB; S2 (B128 H256) 48.3 / 47.2 and 47.4 / 45.3; S3 (B32 H400) 48.8 / - and
45.5 / - (float64: Wh's slice alone exceeds 48 KB). Dynamic shared memory (up to 227 KB on an H100) would admit wider layers;
the static limit keeps the kernels runnable under the simulator.
"""
import argparse
import math
import os
import sys
import time
from functools import lru_cache

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # run as a script from a checkout
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

from lnrnn import config  # noqa: E402
from lnrnn.config import FOLD_MAX_I  # noqa: E402
from lnrnn.kernels import lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import bounded, copy, empty, nbtype, to_device, to_host, zeros  # noqa: E402
from lnrnn.kernels.codes import NORM_LN, clip_bound  # noqa: E402
from lnrnn.kernels.cuda.cuda_env import simulator_enabled  # noqa: E402
from lnrnn.kernels.cuda.gemm_cuda import colsum, colsum_prod, matmul, projection_grads  # noqa: E402
from lnrnn.kernels.layernorm_cuda import ln_rows  # noqa: E402
from lnrnn.kernels.cuda.rows_cuda import dot_col, sigmoid  # noqa: E402

PHASES = 2  # grid barriers per time step, forward and backward alike: one after each phase (module docstring)
# Threads per block at most: 256 threads of at most 255 registers each fit one SM's 64K registers, so a
# block always launches and the cooperative grid holds one block per SM whatever the compiler does.
MAX_THREADS = 256


def units(j, nb, H):
    """Hidden units [u0, u1) of block j of nb (balanced: widths differ by at most one)."""
    return j * H // nb, (j + 1) * H // nb


def sm_count():
    """Streaming multiprocessors of the current device (1 under the simulator)."""
    if simulator_enabled():
        return 1
    return int(cuda.get_current_device().MULTIPROCESSOR_COUNT)


def _layout(B, H, U, backward):
    """Shared elements of a block: (fixed, per staged row, threads' work per staged row). Forward: Ws
    (H,4U), hw (B,4U), st (B,2), and a staged row (H+1,) of h_{t-1}; backward: WsT (G,U), st (B,4), and a
    staged row (G+1,) of dL/d(h Wh) with its four per-gate partial products (4U,)."""
    G = 4 * H
    if backward:
        return G * U + 4 * B, G + 1 + 4 * U, G
    return H * 4 * U + B * 4 * U + 2 * B, H + 1, H


def plan(B, H, dtype, nblocks=None, backward=False):
    """(NB, U, R, threads) for B rows of H units, or None when a block's shared arrays do not fit:
    NB blocks (nblocks, else one per SM; at most H), U = max units of a block, R = rows staged at once
    (h_{t-1} forward, dL/d(h_t Wh) backward), threads per block."""
    nb = min(int(nblocks or sm_count()), H)
    U = -(-H // nb)
    fixed, per_row, row_work = _layout(B, H, U, backward)
    R = min(B, (config.CUDA_SHARED_BYTES // np.dtype(dtype).itemsize - fixed) // per_row)
    if R < 1:
        return None
    work = (max(B * 4 * U, R * row_work) + 31) // 32 * 32  # a warp multiple
    tpb = int(min(config.CUDA_SEQ_MAX_THREADS, MAX_THREADS, work))
    return nb, U, R, tpb


def shared_bytes(B, H, dtype, nblocks=None, backward=False):
    """(bytes of static shared memory a block needs at least (one staged row, R = 1), bytes it uses as
    planned (R rows)), or None when even the least does not fit."""
    pl = plan(B, H, dtype, nblocks, backward)
    if pl is None:
        return None
    _, U, R, _ = pl
    fixed, per_row, _ = _layout(B, H, U, backward)
    return (fixed + per_row) * np.dtype(dtype).itemsize, (fixed + R * per_row) * np.dtype(dtype).itemsize


def fits(T, B, H, dtype, nblocks=None, backward=False):
    """Whether the persistent recurrence (the forward, or with backward the BPTT) serves these sizes on
    this device: T >= 1, a block's shared arrays fit (``plan``), and NB <= the SM count. The cooperative
    grid limit of the compiled kernel is checked again at launch (``run`` returns False when it is lower)."""
    pl = plan(B, H, dtype, nblocks, backward)
    return T >= 1 and B >= 1 and pl is not None and pl[0] <= sm_count()


@cuda.jit(device=True)
def block_units(j, nb, H):
    """``units`` on the device."""
    return j * H // nb, (j + 1) * H // nb


@lru_cache(maxsize=None)
def _kernels(dtype, tpb, H, B, U, R):
    """(persistent, stepped) kernels for H units, B rows, U units per block at most, R staged rows:
    the shared arrays' sizes must be compile-time constants."""
    dt = nbtype(dtype)
    G = 4 * H
    W4 = 4 * U
    H1, G1 = H + 1, G + 1  # padded row lengths: a shared array's shape takes names, not sums (GPU typing)

    @cuda.jit(device=True)
    def combine(P, b, nb, per_unit, inv_n, e, one):
        """Row b's mean and 1/sqrt(biased var + eps) from P (NB,B,2): block jj's (sum, M2 about its own
        mean) of per_unit * (its units) values; blocks added in order 0..nb-1."""
        s = one - one
        for jj in range(nb):
            s += P[jj, b, 0]
        m = s * inv_n
        m2 = one - one
        for jj in range(nb):
            v0, v1 = block_units(jj, nb, H)
            nj = dt(per_unit * (v1 - v0))
            d = P[jj, b, 0] / nj - m
            m2 += P[jj, b, 1] + nj * d * d
        return m, one / math.sqrt(m2 * inv_n + e)

    @cuda.jit(device=True)
    def h_unit(c, gates, st, gc, bc, t1, b, i):
        """(chat, tanh, h) of unit i of row b at step t1 from the published c_t1, o_t1 and the row's cell
        statistics st[b] = (mean, rstd): the expression of lstm_cuda.fwd_row."""
        ch = (c[t1, b, i] - st[b, 0]) * st[b, 1]
        tk = math.tanh(gc[i] * ch + bc[i])
        return ch, tk, gates[t1, b, 3 * H + i] * tk

    @cuda.jit(device=True)
    def phase_h(t, sm, io, j, nb):
        """Phase H of step t (module docstring); t = T: only step T-1's outputs of the block's units."""
        Ws, hs, hw, st = sm
        xp, h0, c0, p, e, out, rstd, PH, PC = io
        b_, gx, bx, gh, bh, gc, bc = p
        gates, c, tc, y, hhat, chat = out
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        T = xp.shape[0]
        one = dt(1.0)
        zero = one - one
        u0, u1 = block_units(j, nb, H)
        nu = u1 - u0
        if t > 0:  # (1) c_{t-1}'s statistics
            for b in range(tid, B, n):
                m, r = combine(PC, b, nb, 1, one / dt(H), e, one)
                st[b, 0] = m
                st[b, 1] = r
                if j == 0:
                    rstd[2, t - 1, b] = r
            cuda.syncthreads()
        if t == T:
            for q in range(tid, B * nu, n):
                b = q // nu
                i = u0 + q - b * nu
                ch, tk, h = h_unit(c, gates, st, gc, bc, t - 1, b, i)
                chat[t - 1, b, i] = ch
                tc[t - 1, b, i] = tk
                y[t - 1, b, i] = h
            return
        for b0 in range(0, B, R):
            nr = min(R, B - b0)
            for q in range(tid, nr * H, n):  # (2) h_{t-1} of rows b0 .. b0+nr-1
                r = q // H
                i = q - r * H
                b = b0 + r
                if t == 0:
                    hs[r, i] = h0[b, i]
                else:
                    ch, tk, h = h_unit(c, gates, st, gc, bc, t - 1, b, i)
                    hs[r, i] = h
                    if u0 <= i and i < u1:
                        chat[t - 1, b, i] = ch
                        tc[t - 1, b, i] = tk
                        y[t - 1, b, i] = h
            cuda.syncthreads()
            for q in range(tid, nr * 4 * nu, n):  # (3) hw = h_{t-1} Ws, the block's columns
                r = q // (4 * nu)
                cc = q - r * 4 * nu
                g = cc // nu
                col = g * U + cc - g * nu
                hw[b0 + r, col] = dot_col(hs[r], Ws, col, 0, H, 1, zero)
            cuda.syncthreads()  # hw complete; hs free for the next chunk
        inv = one / dt(4 * nu)
        for b in range(tid, B, n):  # (4) partials of hw
            s = zero
            for g in range(4):
                for kk in range(nu):
                    s += hw[b, g * U + kk]
            m = s * inv
            m2 = zero
            for g in range(4):
                for kk in range(nu):
                    d = hw[b, g * U + kk] - m
                    m2 += d * d
            PH[j, b, 0] = s
            PH[j, b, 1] = m2

    @cuda.jit(device=True)
    def phase_c(t, sm, io, j, nb):
        """Phase C of step t (module docstring)."""
        Ws, hs, hw, st = sm
        xp, h0, c0, p, e, out, rstd, PH, PC = io
        b_, gx, bx, gh, bh, gc, bc = p
        gates, c, tc, y, hhat, chat = out
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        one = dt(1.0)
        zero = one - one
        u0, u1 = block_units(j, nb, H)
        nu = u1 - u0
        for b in range(tid, B, n):  # (1) hw's statistics
            m, r = combine(PH, b, nb, 4, one / dt(G), e, one)
            st[b, 0] = m
            st[b, 1] = r
            if j == 0:
                rstd[1, t, b] = r
        cuda.syncthreads()
        for q in range(tid, B * nu, n):  # (2) gates and c_t of the block's units
            b = q // nu
            kk = q - b * nu
            k = u0 + kk
            m = st[b, 0]
            r = st[b, 1]
            for g in range(4):
                jc = g * H + k
                hh = (hw[b, g * U + kk] - m) * r
                hhat[t, b, jc] = hh
                a = gh[jc] * hh + bh[jc] + gx[jc] * xp[t, b, jc] + bx[jc] + b_[jc]
                gates[t, b, jc] = math.tanh(a) if g == 2 else sigmoid(a, one)
            cp = c0[b, k] if t == 0 else c[t - 1, b, k]
            c[t, b, k] = gates[t, b, H + k] * cp + gates[t, b, k] * gates[t, b, 2 * H + k]
        cuda.syncthreads()
        inv = one / dt(nu)
        for b in range(tid, B, n):  # (3) partials of c_t
            s = zero
            for k in range(u0, u1):
                s += c[t, b, k]
            m = s * inv
            m2 = zero
            for k in range(u0, u1):
                d = c[t, b, k] - m
                m2 += d * d
            PC[j, b, 0] = s
            PC[j, b, 1] = m2

    @cuda.jit(device=True)
    def run_phase(ph, t, sm, io, j, nb):
        if ph == 0:
            phase_h(t, sm, io, j, nb)
        else:
            phase_c(t, sm, io, j, nb)

    @cuda.jit(device=True)
    def load_w(Wh, Ws, j, nb):
        """Ws (H,4U) <- the block's columns of Wh (H,G): Ws[i, g*U + kk] = Wh[i, g*H + u0 + kk]."""
        u0, u1 = block_units(j, nb, H)
        nu = u1 - u0
        for q in range(cuda.threadIdx.x, H * 4 * nu, cuda.blockDim.x):
            i = q // (4 * nu)
            cc = q - i * 4 * nu
            g = cc // nu
            kk = cc - g * nu
            Ws[i, g * U + kk] = Wh[i, g * H + u0 + kk]

    @bounded(tpb)
    def persistent(xp, h0, c0, Wh, p, eps, out, rstd, parts):
        """The whole sequence in one cooperative launch of NB blocks.
            xp (T,B,G) xhat_x, h0, c0 (B,H), Wh (H,G)
            p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,) each
            out = (gates (T,B,G), c, tc, y (T,B,H), hhat (T,B,G), chat (T,B,H)); rstd (3,T,B): rows 1, 2
            parts = (PH, PC) (NB,B,2) each: per-block row partials (sum, M2)."""
        Ws = cuda.shared.array((H, W4), dt)  # the block's columns of Wh
        hs = cuda.shared.array((R, H1), dt)  # h_{t-1} of R rows (padded: rows start in different banks)
        hw = cuda.shared.array((B, W4), dt)  # h_{t-1} Wh, the block's columns
        st = cuda.shared.array((B, 2), dt)   # row statistics (mean, rstd) of the phase
        grid = cuda.cg.this_grid()
        j = cuda.blockIdx.x
        nb = cuda.gridDim.x
        load_w(Wh, Ws, j, nb)
        cuda.syncthreads()
        io = (xp, h0, c0, p, dt(eps), out, rstd, parts[0], parts[1])
        sm = (Ws, hs, hw, st)
        T = xp.shape[0]
        for t in range(T):
            for ph in range(PHASES):
                run_phase(ph, t, sm, io, j, nb)
                grid.sync()
        run_phase(0, T, sm, io, j, nb)

    @bounded(tpb)
    def stepped(t, ph0, ph1, xp, h0, c0, Wh, p, eps, out, rstd, parts, hwg):
        """Phases ph0 .. ph1-1 of step t on NB blocks, block-synchronized only (so one phase per launch
        when NB > 1); arguments as ``persistent``, and hwg (NB,B,4U) holding each block's hw between
        launches."""
        Ws = cuda.shared.array((H, W4), dt)
        hs = cuda.shared.array((R, H1), dt)
        st = cuda.shared.array((B, 2), dt)
        j = cuda.blockIdx.x
        nb = cuda.gridDim.x
        load_w(Wh, Ws, j, nb)
        cuda.syncthreads()
        io = (xp, h0, c0, p, dt(eps), out, rstd, parts[0], parts[1])
        for ph in range(ph0, ph1):
            run_phase(ph, t, (Ws, hs, hwg[j], st), io, j, nb)
            cuda.syncthreads()

    return persistent, stepped


def _cooperative_limit(kernel, args, tpb):
    """Blocks a cooperative launch of kernel with these arguments may have (1 under the simulator)."""
    if simulator_enabled():
        return kernel.overloads[None].max_cooperative_grid_blocks(tpb)
    sig = tuple(kernel.typeof_pyval(a) for a in args)
    return kernel.compile(sig).max_cooperative_grid_blocks(tpb)


def run(xp, h0, c0, Wh, p, eps, out, rstd, driver="persistent", nblocks=None):
    """The recurrence with this driver and number of blocks (device arrays; shapes as ``persistent``):
    out and rows 1, 2 of rstd are written. Returns False, having run nothing, when it cannot run here
    (shared arrays too large, or a cooperative grid smaller than NB)."""
    T, B, G = xp.shape
    H = G // 4
    dt = xp.dtype
    pl = plan(B, H, dt, nblocks)
    if pl is None or T < 1:
        return False
    nb, U, R, tpb = pl
    parts = (empty((nb, B, 2), dt), empty((nb, B, 2), dt))  # PH, PC (NB,B,2): (sum, M2) per block and row
    persistent, stepped = _kernels(np.dtype(dt), tpb, H, B, U, R)
    eps = float(eps)
    if driver == "persistent":
        args = (xp, h0, c0, Wh, p, eps, out, rstd, parts)
        if _cooperative_limit(persistent, args, tpb) < nb:
            return False
        persistent[nb, tpb](*args)
        return True
    if driver != "stepped":
        raise ValueError(f"driver must be 'persistent' or 'stepped', got {driver!r}")
    hwg = empty((nb, B, 4 * U), dt)  # (NB,B,4U) each block's hw between its two launches
    for t in range(T):
        for ph in range(PHASES):  # the kernel boundary after each phase is the grid barrier
            stepped[nb, tpb](t, ph, ph + 1, xp, h0, c0, Wh, p, eps, out, rstd, parts, hwg)
    stepped[nb, tpb](T, 0, 1, xp, h0, c0, Wh, p, eps, out, rstd, parts, hwg)
    return True


def _cannot_run(B, H, dtype, driver, nblocks):
    """The error of a recurrence that cannot run here, in one sentence."""
    return RuntimeError(f"the persistent LN-LSTM cannot run B={B} H={H} {np.dtype(dtype).name} with "
                        f"driver {driver!r} and {nblocks or 'one per SM'} blocks here (shared memory or "
                        "cooperative grid size); check fits() first, or use lnrnn.kernels.lstm_cuda")


def lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, eps, driver="persistent", nblocks=None):
    """lstm_cuda.lstm_forward(..., NORM_LN, eps) with this module's time loop: the same arguments (norm LN
    implied) -> y (T,B,H), hT (B,H), cT (B,H), saved in lstm_cuda's layout (device arrays). RuntimeError when
    it cannot run here (``fits``)."""
    x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc = (to_device(a) for a in (x, h0, c0, Wx, Wh, b, gx, bx, gh,
                                                                           bh, gc, bc))
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    xp = matmul(x.reshape(T * B, I), Wx).reshape(T, B, G)
    rstd = empty((3, T, B), dt)
    xp2 = xp.reshape(T * B, G)
    ln_rows(xp2, empty(0, dt), empty(0, dt), float(eps), False, xp2, empty(T * B, dt), rstd[0].reshape(T * B))
    out = (empty((T, B, G), dt), empty((T, B, H), dt), empty((T, B, H), dt), empty((T, B, H), dt),
           empty((T, B, G), dt), empty((T, B, H), dt))  # gates, c, tc, y, hhat, chat
    if not run(xp, h0, c0, Wh, (b, gx, bx, gh, bh, gc, bc), eps, out, rstd, driver, nblocks):
        raise _cannot_run(B, H, dt, driver, nblocks)
    gates, c, tc, y, hhat, chat = out
    keep = I > FOLD_MAX_I  # lstm_cuda's layout: only a wide input's xhat_x is saved
    saved = (gates, c, tc, y, xp if keep else empty((0, 0, 0), dt), hhat, chat, rstd)
    return y, copy(y[T - 1]), copy(c[T - 1]), saved


# ------------------------------------------------------------------------------------------------
# BPTT (module docstring, "Backward")
# ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _bwd_kernels(dtype, tpb, H, B, U, R):
    """(persistent, stepped) BPTT kernels for H units, B rows, U units per block at most, R staged rows."""
    dt = nbtype(dtype)
    G = 4 * H
    W4 = 4 * U
    H1, G1 = H + 1, G + 1  # padded row lengths: a shared array's shape takes names, not sums (GPU typing)

    @cuda.jit(device=True)
    def sum_parts(P, b, nb, c):
        """Row b's column c of P (NB,B,4), blocks added in order 0..nb-1."""
        s = P[0, b, c]
        for jj in range(1, nb):
            s += P[jj, b, c]
        return s

    @cuda.jit(device=True)
    def dhw_col(DA, hhat, gh, st, r_h, s, b, jc):
        """dL/d(h_{s-1} Wh) of row b, column jc at step s (lstm_cuda.bwd_row's step 3) from the published
        DA, the saved hhat and the row's combined sums st[b] = (h1, h2, x1, x2)."""
        return r_h * (DA[s, b, jc] * gh[jc] - st[b, 0] - hhat[s, b, jc] * st[b, 1])

    @cuda.jit(device=True)
    def phase_a(t, sm, io, j, nb):
        """Phase A of step t (module docstring); t = -1: step 0's dHW, dXW and dh0 only."""
        WsT, ds, red, st = sm
        dy, sv, c0, rstd, p, cl, grads, dh0, dc0, P1, P2 = io
        gates, xp, hhat, c, tc, chat = sv
        gx, gh, gc = p
        DA, DCN, dHW, dXW = grads
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        T = dy.shape[0]
        one = dt(1.0)
        zero = one - one
        u0, u1 = block_units(j, nb, H)
        nu = u1 - u0
        s = t + 1  # the step whose dL/d(h Wh) makes dh_t (none at t = T-1)
        if s < T:
            inv = one / dt(G)
            for b in range(tid, B, n):  # (1) step s's LayerNorm sums of both products
                for q in range(4):
                    st[b, q] = sum_parts(P2, b, nb, q) * inv
            cuda.syncthreads()
            for q in range(tid, B * 4 * nu, n):  # the block's columns of dHW, dXW of step s
                b = q // (4 * nu)
                cc = q - b * 4 * nu
                g = cc // nu
                jc = g * H + u0 + cc - g * nu
                dHW[s, b, jc] = dhw_col(DA, hhat, gh, st, rstd[1, s, b], s, b, jc)
                dXW[s, b, jc] = rstd[0, s, b] * (DA[s, b, jc] * gx[jc] - st[b, 2] - xp[s, b, jc] * st[b, 3])
        for b0 in range(0, B, R):
            nr = min(R, B - b0)
            if s < T:
                for q in range(tid, nr * G, n):  # (2) all G columns of dL/d(h Wh) of rows b0 .. b0+nr-1
                    r = q // G
                    jc = q - r * G
                    b = b0 + r
                    ds[r, jc] = dhw_col(DA, hhat, gh, st, rstd[1, s, b], s, b, jc)
                cuda.syncthreads()
                for q in range(tid, nr * 4 * nu, n):  # (3) dh_t = ds WsT^T per gate block of columns
                    r = q // (4 * nu)
                    cc = q - r * 4 * nu
                    g = cc // nu
                    kk = cc - g * nu
                    red[r, g * U + kk] = dot_col(ds[r], WsT, kk, g * H, (g + 1) * H, 1, zero)
                cuda.syncthreads()
            for q in range(tid, nr * nu, n):  # (4) the output gate and dL/d(cell output) of the units
                r = q // nu
                kk = q - r * nu
                b = b0 + r
                k = u0 + kk
                dh = zero
                if s < T:
                    dh = red[r, kk] + red[r, U + kk] + red[r, 2 * U + kk] + red[r, 3 * U + kk]
                if t < 0:
                    dh0[b, k] = dh
                else:
                    dhk = dy[t, b, k] + dh
                    o = gates[t, b, 3 * H + k]
                    tk = tc[t, b, k]
                    DA[t, b, 3 * H + k] = dhk * tk * o * (one - o)
                    DCN[t, b, k] = dhk * o * (one - tk * tk)
            cuda.syncthreads()  # ds, red free for the next chunk; DCN of the block's units complete
        if t < 0:
            return
        for b in range(tid, B, n):  # (5) partials of the cell LayerNorm's sums
            a0 = zero
            a1 = zero
            for k in range(u0, u1):
                d = DCN[t, b, k] * gc[k]
                a0 += d
                a1 += d * chat[t, b, k]
            P1[j, b, 0] = a0
            P1[j, b, 1] = a1

    @cuda.jit(device=True)
    def phase_b(t, sm, io, j, nb):
        """Phase B of step t (module docstring)."""
        WsT, ds, red, st = sm
        dy, sv, c0, rstd, p, cl, grads, dh0, dc0, P1, P2 = io
        gates, xp, hhat, c, tc, chat = sv
        gx, gh, gc = p
        DA, DCN, dHW, dXW = grads
        tid = cuda.threadIdx.x
        n = cuda.blockDim.x
        T = dy.shape[0]
        one = dt(1.0)
        zero = one - one
        u0, u1 = block_units(j, nb, H)
        nu = u1 - u0
        inv = one / dt(H)
        for b in range(tid, B, n):  # (1) the cell LayerNorm's sums
            st[b, 0] = sum_parts(P1, b, nb, 0) * inv
            st[b, 1] = sum_parts(P1, b, nb, 1) * inv
        cuda.syncthreads()
        for q in range(tid, B * nu, n):  # (2) cell recurrence, input/forget/candidate gates, clip
            b = q // nu
            k = u0 + q - b * nu
            d = rstd[2, t, b] * (DCN[t, b, k] * gc[k] - st[b, 0] - chat[t, b, k] * st[b, 1])
            dck = d + (zero if t == T - 1 else dc0[b, k])
            i = gates[t, b, k]
            f = gates[t, b, H + k]
            g = gates[t, b, 2 * H + k]
            DA[t, b, k] = dck * g * i * (one - i)
            DA[t, b, H + k] = dck * (c0[b, k] if t == 0 else c[t - 1, b, k]) * f * (one - f)
            DA[t, b, 2 * H + k] = dck * i * (one - g * g)
            dc0[b, k] = dck * f
            if cl > zero:  # Graves, as bwd_row: every gate of the unit (the carried dc stays unclipped)
                for g4 in range(4):
                    DA[t, b, g4 * H + k] = min(max(DA[t, b, g4 * H + k], -cl), cl)
        cuda.syncthreads()
        for b in range(tid, B, n):  # (3) partials of both products' LayerNorm sums
            a0 = zero
            a1 = zero
            a2 = zero
            a3 = zero
            for g in range(4):
                for k in range(u0, u1):
                    jc = g * H + k
                    d = DA[t, b, jc]
                    a0 += d * gh[jc]
                    a1 += d * gh[jc] * hhat[t, b, jc]
                    a2 += d * gx[jc]
                    a3 += d * gx[jc] * xp[t, b, jc]
            P2[j, b, 0] = a0
            P2[j, b, 1] = a1
            P2[j, b, 2] = a2
            P2[j, b, 3] = a3

    @cuda.jit(device=True)
    def run_phase(ph, t, sm, io, j, nb):
        if ph == 0:
            phase_a(t, sm, io, j, nb)
        else:
            phase_b(t, sm, io, j, nb)

    @cuda.jit(device=True)
    def load_wt(Wh, WsT, j, nb):
        """WsT (G,U) <- the block's rows of Wh (H,G), transposed: WsT[jc, kk] = Wh[u0 + kk, jc]."""
        u0, u1 = block_units(j, nb, H)
        nu = u1 - u0
        for q in range(cuda.threadIdx.x, G * nu, cuda.blockDim.x):
            kk = q // G
            jc = q - kk * G
            WsT[jc, kk] = Wh[u0 + kk, jc]

    @bounded(tpb)
    def persistent(dy, sv, c0, rstd, p, Wh, clip, grads, dh0, dc0, parts):
        """The whole BPTT in one cooperative launch of NB blocks.
            dy (T,B,H); sv = (gates (T,B,G), xp (T,B,G) xhat_x, hhat (T,B,G), c (T,B,H), tc (T,B,H),
            chat (T,B,H)) as saved; c0 (B,H); rstd (3,T,B); p = (gx, gh (G,), gc (H,)); Wh (H,G);
            clip: Graves's bound on dL/d(preactivation), 0: off
            grads = (DA, DCN (T,B,H), dHW, dXW) (T,B,G except DCN), lstm_cuda.bwd_row's per-step outputs
            -> dh0, dc0 (B,H) (dc0 carries dL/dc_t between steps, each block its own units)
            parts = (P1 (NB,B,4), P2 (NB,B,4)): per-block row partials of the two LayerNorm sums."""
        WsT = cuda.shared.array((G, U), dt)     # the block's rows of Wh, transposed
        ds = cuda.shared.array((R, G1), dt)  # dL/d(h Wh) of R rows (padded: rows start in different banks)
        red = cuda.shared.array((R, W4), dt)    # per-gate partial products of dh, R rows
        st = cuda.shared.array((B, 4), dt)      # row sums of the phase
        grid = cuda.cg.this_grid()
        j = cuda.blockIdx.x
        nb = cuda.gridDim.x
        load_wt(Wh, WsT, j, nb)
        cuda.syncthreads()
        io = (dy, sv, c0, rstd, p, dt(clip), grads, dh0, dc0, parts[0], parts[1])
        sm = (WsT, ds, red, st)
        T = dy.shape[0]
        for t in range(T - 1, -1, -1):
            for ph in range(PHASES):
                run_phase(ph, t, sm, io, j, nb)
                grid.sync()
        run_phase(0, -1, sm, io, j, nb)

    @bounded(tpb)
    def stepped(t, ph0, ph1, dy, sv, c0, rstd, p, Wh, clip, grads, dh0, dc0, parts):
        """Phases ph0 .. ph1-1 of step t on NB blocks, block-synchronized only (so one phase per launch
        when NB > 1); arguments as ``persistent`` (nothing lives in shared memory between phases)."""
        WsT = cuda.shared.array((G, U), dt)
        ds = cuda.shared.array((R, G1), dt)
        red = cuda.shared.array((R, W4), dt)
        st = cuda.shared.array((B, 4), dt)
        j = cuda.blockIdx.x
        nb = cuda.gridDim.x
        load_wt(Wh, WsT, j, nb)
        cuda.syncthreads()
        io = (dy, sv, c0, rstd, p, dt(clip), grads, dh0, dc0, parts[0], parts[1])
        for ph in range(ph0, ph1):
            run_phase(ph, t, (WsT, ds, red, st), io, j, nb)
            cuda.syncthreads()

    return persistent, stepped


def run_backward(dy, sv, c0, rstd, p, Wh, clip, grads, dh0, dc0, driver="persistent", nblocks=None):
    """BPTT with this driver and number of blocks (device arrays; shapes as ``_bwd_kernels``'
    persistent): grads, dh0 and dc0 are written. Returns False, having run nothing, when it cannot run
    here (shared arrays too large, or a cooperative grid smaller than NB)."""
    T, B, H = dy.shape
    dt = dy.dtype
    pl = plan(B, H, dt, nblocks, backward=True)
    if pl is None or T < 1:
        return False
    nb, U, R, tpb = pl
    parts = (empty((nb, B, 4), dt), empty((nb, B, 4), dt))  # P1, P2 (NB,B,4): row partials per block
    persistent, stepped = _bwd_kernels(np.dtype(dt), tpb, H, B, U, R)
    clip = float(clip)
    if driver == "persistent":
        args = (dy, sv, c0, rstd, p, Wh, clip, grads, dh0, dc0, parts)
        if _cooperative_limit(persistent, args, tpb) < nb:
            return False
        persistent[nb, tpb](*args)
        return True
    if driver != "stepped":
        raise ValueError(f"driver must be 'persistent' or 'stepped', got {driver!r}")
    for t in range(T - 1, -1, -1):
        for ph in range(PHASES):  # one launch per phase: each kernel boundary is a grid barrier
            stepped[nb, tpb](t, ph, ph + 1, dy, sv, c0, rstd, p, Wh, clip, grads, dh0, dc0, parts)
    stepped[nb, tpb](-1, 0, 1, dy, sv, c0, rstd, p, Wh, clip, grads, dh0, dc0, parts)
    return True


def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, clip=0.0, driver="persistent", nblocks=None):
    """lstm_cuda.lstm_backward(..., NORM_LN, clip=clip) with this module's BPTT time loop: the same arguments
    (norm LN implied) -> the same gradients (device arrays). RuntimeError when it cannot run here."""
    dy, x, h0, c0, Wx, Wh, gx, gh, gc = (to_device(a) for a in (dy, x, h0, c0, Wx, Wh, gx, gh, gc))
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    T, B, H = dy.shape
    dt = dy.dtype
    if x.shape[2] <= FOLD_MAX_I:  # not saved (lstm_cuda's layout): recomputed as lstm_cuda does
        xp = lstm_cuda._xhat(x, Wx, rstd[0])
    G = 4 * H
    DA, dHW, dXW = (empty((T, B, G), dt) for _ in range(3))  # dL/da, dL/d(h_{t-1} Wh), dL/d(x_t Wx)
    DCN = empty((T, B, H), dt)                                 # dL/d(gc * chat + bc)
    dh0, dc0 = zeros((B, H), dt), zeros((B, H), dt)
    if not run_backward(dy, (gates, xp, hhat, c, tc, chat), c0, rstd, (gx, gh, gc), Wh,
                        clip_bound(clip), (DA, DCN, dHW, dXW), dh0, dc0, driver, nblocks):
        raise _cannot_run(B, H, dt, driver, nblocks)
    dx, dWx, dWh = projection_grads(dXW, dHW, x, h0, y, Wx)  # lstm_cuda.lstm_backward's, after its time loop
    db = colsum(DA)
    return (dx, dh0, dc0, dWx, dWh, db, colsum_prod(DA, xp), copy(db), colsum_prod(DA, hhat), copy(db),
            colsum_prod(DCN, chat), colsum(DCN))


# ------------------------------------------------------------------------------------------------
# Run as a script: check against the package's kernels, then time both
# ------------------------------------------------------------------------------------------------
FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")


def problem(rng, T, B, I, H, dtype):
    """Parameters of an LN-LSTM layer and a dL/dy, gains near 1: {name: array}, dy (T,B,H)."""
    G = 4 * H
    shapes = dict(x=(T, B, I), h0=(B, H), c0=(B, H), Wx=(I, G), Wh=(H, G), b=(G,), gx=(G,), bx=(G,), gh=(G,),
                  bh=(G,), gc=(H,), bc=(H,))
    p = {k: (rng.standard_normal(s) * (0.5 if k.startswith("W") else 1.0)).astype(dtype) for k, s in shapes.items()}
    for k in ("gx", "gh", "gc"):
        p[k] = (1 + 0.3 * p[k]).astype(dtype)
    return p, rng.standard_normal((T, B, H)).astype(dtype)


def step(p, dy, persistent, driver="persistent", nblocks=None):
    """One forward and backward on device arrays: this module's (persistent) or lstm_cuda's -> (y, grads)."""
    d = {k: to_device(v) for k, v in p.items()}
    args = [d[k] for k in FWD]
    bargs = (d["x"], d["h0"], d["c0"], d["Wx"], d["Wh"], d["gx"], d["gh"], d["gc"])
    if persistent:
        y, _, _, saved = lstm_forward(*args, 1e-5, driver, nblocks)
        return y, lstm_backward(to_device(dy), saved, *bargs, 0.0, driver, nblocks)
    y, _, _, saved = lstm_cuda.lstm_forward(*args, NORM_LN, 1e-5)
    return y, lstm_cuda.lstm_backward(to_device(dy), saved, *bargs, NORM_LN)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tiny", action="store_true", help="the check alone (runs under NUMBA_ENABLE_CUDASIM=1)")
    ap.add_argument("--shape", default="784,64,1,128", help="T,B,I,H of the timing (S1 of bench/gpu_step.py)")
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    # the check: float64, H = 7 over 3 blocks (the stepped driver under the simulator, which runs a grid
    # sync with one block only), against lstm_cuda's forward and backward
    driver, nb = ("stepped", 3) if simulator_enabled() else ("persistent", 3)
    p, dy = problem(np.random.default_rng(0), 5, 3, 2, 7, np.float64)
    (y1, g1), (y0, g0) = to_host(step(p, dy, True, driver, nb)), to_host(step(p, dy, False))
    err = max(float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30)) for a, b in zip((y1,) + g1, (y0,) + g0))
    print(f"check vs lnrnn.kernels.lstm_cuda (float64, {driver} driver, {nb} blocks): worst relative error "
          f"{err:.1e} {'ok' if err < 1e-10 else 'FAILED'}")
    if err >= 1e-10:
        return 1
    if args.tiny:
        return 0
    T, B, I, H = (int(v) for v in args.shape.split(","))
    if not (fits(T, B, H, np.float32) and fits(T, B, H, np.float32, backward=True)):
        print(f"T={T} B={B} H={H} float32 does not fit this device (fits): no timing")
        return 0
    p, dy = problem(np.random.default_rng(1), T, B, I, H, np.float32)
    for name, persistent in (("lstm_cuda", False), ("persistent", True)):
        step(p, dy, persistent)  # compile, warm up
        times = []
        for _ in range(args.reps):
            cuda.synchronize()
            t0 = time.perf_counter()
            step(p, dy, persistent)
            cuda.synchronize()
            times.append(time.perf_counter() - t0)
        print(f"T={T} B={B} I={I} H={H} float32 forward + backward, {name}: {1e3 * sorted(times)[len(times) // 2]:.2f} ms "
              f"(median of {args.reps}, host arrays in)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
