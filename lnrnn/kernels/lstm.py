"""LSTM and LN-LSTM over a whole sequence, forward and backpropagation through time (CPU twin).

Equations, gate order [i|f|g|o] and shape letters: see ``lnrnn.kernels``. ``norm`` is NORM_NONE or
NORM_LN (the BN-LSTM couples the batch at every step and lives in bn_lstm.py).

Layout of the work
    1. x_t @ Wx for the chunk's rows at every step (blas.rows_mul, into a (rows,G) scratch that stays
       in cache), unless the input is narrow (I <= config.FOLD_MAX_I: pixel MNIST has I=1, strokes
       I=3): then each row's x Wx is computed inside the row loop, where a product call would cost more
       than the I*G multiply-adds. (One GEMM over all T*B rows first wrote a (T,B,G) array that the
       time loop read back: S2, T28 B128 I28 H256, 15 MB each way, the GEMM bound by memory.)
       With LN the products are taken with the centered weights Wc, Whc (``ln_weights``): rows with
       mean zero by construction, so each G-wide LayerNorm needs one pass for its variance (a narrow
       input's has a closed form and needs none) and no pass for its mean.
    2. Time loop, with the batch split into ``nchunks`` chunks run in parallel, the batch's fixed row
       blocks (threads.batch_blocks: by B alone; threads take whole blocks, threads.run_chunks):
       per step one GEMM h_{t-1} @ Wh (Whc with LN) for the chunk, then per row: the variances of the
       two G-wide LayerNorms, one pass that writes hhat (and a wide input's xhat_x) and the activated
       gates (preactivation and sigmoid in one expression, ``_sigmoid``), the cell update with the sum
       for its mean, its variance, and one pass for LN of the cell, tanh and the output.
       (A separate sigmoid pass over the preactivation, and separate passes for the g block's tanh
       and the cell's LN, tanh and output, cost S1 (T784 B64 I1 H128) 15% of the forward's CPU time.)
    3. Backward runs the same chunks in reverse time; per step one GEMM dHW_t @ Wh^T. A wide input's
       dx and dWx are two GEMMs per block of steps: each chunk gathers its rows of dL/d(x_t Wx) and x_t
       over config.DWX_BLOCK_ROWS rows, then dWx += Xb^T dXb and dx = dXb Wx^T (two GEMMs per step
       made the backward of the synthesis network's upper layers, 4 rows a chunk, 2.8x as long). A
       narrow input does them in the row loop, with LN in closed form from x_t, Wc and rstd_x, never
       forming xhat_x (_backward_rows). Per row,
       two H-wide passes (dL/d(cell output) with the cell LayerNorm's gain gradients and row sums; then
       its LayerNorm backward, dL/dc_t and the i, f, g gates' dL/da), and both G-wide LayerNorm
       backwards take two passes together: one summing the parameter gradients and the four row sums
       they need, one writing dL/d(h Wh) and dL/d(x Wx). (dL/d(h Wh) has zero row mean, so
       dHW Wh^T = dHW Whc^T: the backward uses Wh itself.)
       The parameter gradients are per-chunk partials; dWh too, one GEMM per block of gathered
       rows of dL/d(h_{t-1} Wh) and h_{t-1} (blas.dwh_blocks; dHW (T,B,G) is never stored). The
       partials are added in chunk order, so that every result is the same bits for any thread count.

Threads and compilation: a thread's whole chunk is one compiled function (``_forward_rows``,
``_backward_rows``, nogil), and ``lstm_forward``/``lstm_backward`` are Python: they allocate, run the
chunks on threads (``threads.run_chunks``) and call the threaded GEMMs. Numba compiles a prange body
three times over; this way each chunk function is compiled once (see run_chunks).

Graves's gate clip (``clip`` of lstm_backward; Graves 2013, sec. 4): at every step of BPTT the
derivative of the loss with respect to the gate preactivations, dL/da (G,) per row, is clipped
element-wise to [-clip, clip] before anything reads it: the bias gradient, the two LayerNorm
backwards, dL/d(h_{t-1} Wh) (so dh_{t-1} and dWh) and dL/d(x_t Wx) (so dx and dWx). The carried
dL/dc_{t-1} is not clipped. 0 or inf is off, and off is the unclipped arithmetic bit for bit (the
clip pass sits behind one test per row). A clipped gradient is not the gradient of any loss, so it
cannot be checked by finite differences: reference.lstm_backward with the same clip is its spec.

saved (the tuple forward returns and backward takes back):
    gates (T,B,G)  activated gates [i|f|g|o]
    c     (T,B,H)  cell state c_t (the carried, unnormalized one)
    tc    (T,B,H)  tanh of the cell output, tanh(c_t) or tanh(LN(c_t))
    y     (T,B,H)  hidden state h_t (also the layer output)
    xp    (T,B,G)  LN-normalized x_t Wx (xhat_x): norm LN unless the input is narrow (0 < I <= FOLD_MAX_I);
                   shape (0,0,0) otherwise (the plain LSTM's backward never reads x Wx; a narrow
                   input's backward works from x, Wx and rstd_x: 100 MB less to write at S1)
    hhat  (T,B,G)  LN-normalized h_{t-1} Wh     (norm LN; shape (0,0,0) otherwise)
    chat  (T,B,H)  LN-normalized c_t            (norm LN; shape (0,0,0) otherwise)
    rstd  (3,T,B)  1/std of the x, h and c LayerNorms (norm LN; shape (3,0,0) otherwise)
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from lnrnn.config import CHUNK_GAP as GAP, DWX_BLOCK_ROWS, FASTMATH, FOLD_MAX_I, JIT, ROWS
from lnrnn.kernels.cpu.blas import (DWH, GRAD, REC, dwh_blocks, gemm_add, grad_t_add, rec_mul_fetch, rec_pack,
                                rec_pack_once, rows_mul_fetch, rows_pack)
from lnrnn.kernels.codes import NORM_LN, NORM_NONE, centered, clip_bound  # noqa: F401  (re-exported)
from lnrnn.kernels.cpu.gemm import transposed
from lnrnn.kernels.cpu.rows import (_E2, _E3, _E4, _E5, _E6, _E7, _EXP_MAX, _EXP_MIN, _LN2_HI, _LN2_LO, _LOG2E,
                                copy_rows, input_row_grads)
from lnrnn.kernels.cpu.threads import chunk_bounds, clamp_chunks, readonly, run_chunks, unowned


def lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks):
    """x (T,B,I), h0 (B,H), c0 (B,H), Wx (I,G), Wh (H,G), b (G,), gx/bx/gh/bh (G,), gc/bc (H,)
    -> y (T,B,H), hT (B,H), cT (B,H), saved."""
    y, c, saved = _run_forward(x, h0, c0, Wx, Wh, (b, gx, bx, gh, bh, gc, bc), norm, eps, nchunks, True)
    T = x.shape[0]
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


def lstm_infer(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps, nchunks):
    """The forward without BPTT's saved tuple, for evaluation and prediction: the same arguments and
    arithmetic as lstm_forward (the same compiled chunk function: y, hT and cT are bit for bit its
    own), but the per-step arrays it saves go to buffers of one step (two for c, whose previous step
    each step reads) that every step overwrites: at S1 (T784 B64 I1 H128) the LN-LSTM's saved arrays
    besides y are 0.28 GB (gates and hhat (T,B,G); c, tc, chat (T,B,H)), these buffers 0.4 MB.
    x (T,B,I), h0 (B,H), c0 (B,H), Wx (I,G), Wh (H,G), b (G,), gx/bx/gh/bh (G,), gc/bc (H,)
    -> y (T,B,H), hT (B,H), cT (B,H)."""
    y, c, _ = _run_forward(x, h0, c0, Wx, Wh, (b, gx, bx, gh, bh, gc, bc), norm, eps, nchunks, False)
    T = x.shape[0]
    return y, y[T - 1].copy(), c[(T - 1) % c.shape[0]].copy()


def _run_forward(x, h0, c0, Wx, Wh, p, norm, eps, nchunks, keep):
    """lstm_forward (keep: the per-step arrays of the saved tuple for all T steps) and lstm_infer (not
    kept: one step of each, two of c) -> y (T,B,H), c (T or min(T,2),B,H), the saved tuple (or buffers).
    p = (b, gx, bx, gh, bh) (G,) each, then (gc, bc) (H,)."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    ln = norm == NORM_LN
    fold = 0 < I <= FOLD_MAX_I
    dt = x.dtype
    x, h0 = np.ascontiguousarray(x), np.ascontiguousarray(h0)  # the products read their rows as one block
    if ln:
        Wc, Rx, Whc = ln_weights(Wx, Wh, fold)
    else:
        Wc, Rx, Whc = Wx, np.empty((0, 0), dt), Wh
    S = T if keep else 1  # rows of each per-step array
    # saved: only xhat_x of a wide input (module docstring)
    xp = np.empty((S, B, G), dt) if ln and not fold else np.empty((0, 0, 0), dt)
    if ln:
        hhat, chat, rstd = np.empty((S, B, G), dt), np.empty((S, B, H), dt), np.empty((3, S, B), dt)
    else:
        hhat, chat, rstd = np.empty((0, 0, 0), dt), np.empty((0, 0, 0), dt), np.empty((3, 0, 0), dt)
    gates = np.empty((S, B, G), dtype=dt)
    c = np.empty((T if keep else min(T, 2), B, H), dtype=dt)  # without keep: c_t and c_{t-1}, in turns
    tc = np.empty((S, B, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    saved = (gates, c, tc, y, xp, hhat, chat, rstd)
    nch = clamp_chunks(nchunks, B)
    m = -(-B // nch)  # rows of the largest chunk
    packs = (rec_pack_once(Whc, m),  # Whc (Wh) packed for every chunk's per-step product (blas.rec_pack_once)
             fetch_table((gates, xp, hhat, c, tc, chat, y), (0,) * 7))  # what the step's rows write
    # each chunk's scratch, owned here (the chunks take unowned views of it: threads.unowned)
    # (each chunk's part padded by config.CHUNK_GAP: no cache line holds two chunks' parts)
    work = (np.empty((nch, m + 1, G), dt),             # its recurrent product h_{t-1} Wh (Whc with LN)
            np.empty((nch, 4, G + GAP), dt),           # one row's x_t Wx; every bias the preactivation adds;
                                                       # the g block's factors gm, gd (_forward_rows)
            np.empty((nch, m + 1 if not fold else 1, G), dt))  # its x_t Wx (Wc with LN; wide input)
    run_chunks(_forward_rows, B, nch, *readonly(x, h0, c0, (Wc, Rx, Whc)), packs, *readonly(p), ln, fold,
               dt.type(eps), saved, work)
    return y, c, saved


def ln_weights(Wx, Wh, fold):
    """The weights the LN-LSTM multiplies by, from Wx (I,G) and Wh (H,G) -> Wc (I,G), Rx (I,I), Whc (H,G).

    LayerNorm subtracts a row's mean over its G features, and mean_j(x Wx) = x m with m (I,) the row
    means of Wx: so x Wx - mean_j(x Wx) = x Wc with Wc = Wx - m (centered rows), and likewise h Whc.
    Multiplying by the centered weights gives rows whose mean is zero by construction: the variance is
    one pass (mean of squares) with the accuracy of the two-pass formula (the mean is taken out before
    any float32 rounding of the products, not subtracted from them), and no mean pass is needed.
    For a narrow input (fold) the variance has a closed form: var_j(x Wc) = x^T S x with S = Wc Wc^T / G,
    evaluated as ||Rx x||^2 with Rx^T Rx = S (Rx the triangular factor of the QR of Wc^T / sqrt(G)):
    a sum of squares, so no cancellation either (x^T S x itself could lose digits when S is badly
    conditioned). The factors come from float64 and are rounded once to the working dtype. Rx is (0,0)
    for a wide input."""
    dt = Wx.dtype
    G = Wx.shape[1]
    Wc64 = Wx - Wx.mean(axis=1, keepdims=True, dtype=np.float64)  # float64 (I,G); centered(Wx) rounded
    Wc, Whc = Wc64.astype(dt), centered(Wh)
    if not fold:
        return Wc, np.empty((0, 0), dt), Whc
    Rx = np.linalg.qr(Wc64.T / np.sqrt(G), mode="r")  # (I,I) upper triangular: Rx^T Rx = Wc Wc^T / G
    return Wc, np.ascontiguousarray(Rx, dtype=dt), Whc


def _sigmoid(z):
    """1 / (1 + exp(-z)) of one number, for the cells' fused row passes (compiled: the overload below)."""
    return 1.0 / (1.0 + np.exp(-z))


@overload(_sigmoid, jit_options=dict(fastmath=FASTMATH, error_model="numpy"))
def _sigmoid_impl(z):
    """float32: rows.sigmoid_row's arithmetic (Cody-Waite reduced exp, degree-7 polynomial, 2^k from its
    IEEE bits; the same errors, tested there) for one element, with 2^k made by a bit cast (_f32_bits)
    instead of sigmoid_row's int32 scratch row: written this way the whole sigmoid is one expression
    that LLVM vectorises inside a loop that also computes its argument and uses its value, so a row is
    read and written once (the forward's gate pass: preactivation, sigmoid and hhat together).
    float64: libm's exp."""
    if isinstance(z, types.Float) and z.bitwidth == 32:
        def impl32(z):
            one = np.float32(1.0)
            v = min(max(-z, _EXP_MIN), _EXP_MAX)
            k = np.floor(v * _LOG2E + np.float32(0.5))
            r = v - k * _LN2_HI - k * _LN2_LO
            e = one + r * (one + r * (_E2 + r * (_E3 + r * (_E4 + r * (_E5 + r * (_E6 + r * _E7))))))
            return one / (one + e * _f32_bits((np.int32(k) + np.int32(127)) << np.int32(23)))
        return impl32

    def impl(z):
        return 1.0 / (1.0 + np.exp(-z))
    return impl


@intrinsic
def _f32_bits(typingctx, i):
    """The float32 whose IEEE bits are the low 32 bits of the integer i (a bit cast, no conversion;
    Numba computes int32 arithmetic in int64)."""
    if not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = args[0]
        if i.bitwidth > 32:
            v = builder.trunc(v, ir.IntType(32))
        return builder.bitcast(v, ir.FloatType())
    return types.float32(i), codegen


@intrinsic
def _prefetch(typingctx, arr, j):
    """Ask the CPU to bring the cache line of arr.flat[j] into its caches for reading, without waiting."""
    if not (isinstance(arr, types.Array) and isinstance(j, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [context.cast(builder, args[1], sig.args[1], types.intp)]),
                              ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer(), i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # read; locality 3 (all cache levels); data
        return context.get_dummy_value()
    return types.none(arr, j), codegen


@njit(**JIT)
def _fetch_row(a):
    """Prefetch every cache line of the contiguous row a (1-D): see _backward_rows."""
    for j in range(0, a.shape[0], 64 // a.itemsize):
        _prefetch(a, j)


def fetch_table(arrays, offsets):
    """The per-step arrays whose rows a chunk's per-step product asks for while it runs (blas.rec_mul_fetch),
    as plan_steps reads them: (len(arrays), 5) int64, for each array (T',B,X) its address, steps T', bytes
    per step and per row, and which step: offset + t for the product of step t (0 for the forward's rows of
    the step itself; -1 in the backward, the step before; -2 for c_{t-2}); no steps (never asked for) for
    an empty or not C-contiguous array."""
    tab = np.zeros((len(arrays), 5), np.int64)  # (n,5)
    for i, (a, off) in enumerate(zip(arrays, offsets)):
        if a.size and a.flags.c_contiguous:
            tab[i] = a.ctypes.data, a.shape[0], a.strides[0], a.strides[1], off
    return tab


@njit(**JIT)
def plan_steps(plan, tab, t, lo, hi):
    """Fill plan (R,2) int64 with one region (address, bytes) per array of tab (fetch_table): rows [lo, hi)
    of its step (t + offset) mod steps, from the cache line holding its first byte to its last byte; none
    for an array without steps or a step before 0 -> the regions' count."""
    n = 0
    for i in range(tab.shape[0]):
        s = t + tab[i, 4]
        if tab[i, 1] > 0 and s >= 0 and hi > lo:
            start = tab[i, 0] + (s % tab[i, 1]) * tab[i, 2] + lo * tab[i, 3]
            end = start + (hi - lo) * tab[i, 3]
            start -= start % 64
            plan[n, 0] = start
            plan[n, 1] = end - start
            n += 1
    return n


@njit(**ROWS)
def _forward_rows(q, lo, hi, x, h0, c0, w, packs, p, ln, fold, eps, saved, work):
    """The whole forward time loop for batch rows [lo, hi); writes their rows of the saved arrays.
    w = (Wc (I,G), Rx (I,I), Whc (H,G)): with LN the centered weights of ln_weights, else (Wx, -, Wh);
    packs: (Whc packed for the per-step products (blas.rec_pack_once; empty: this chunk packs its own),
    the arrays whose rows each step writes (fetch_table)); p = (b, gx, bx, gh, bh) (G,) each,
    then (gc, bc) (H,); saved: the tuple forward returns (written), or lstm_infer's buffers (one step
    of each per-step array, two of c; y whole); work: the chunks' scratch (see lstm_forward), of which
    this chunk uses row q.

    With LN a row's two G-wide LayerNorms are one pass each for the variances (the rows are centered
    by their weights; a narrow input's in closed form), then one pass that writes hhat (and xhat_x of a
    wide input) and the gates, sigmoid(gm z) gm - gd of the preactivation z = gx xhat_x + gh hhat +
    (b + bx + bh) (gm, gd: 2 and 1 on the g block, whose tanh(z) = 2 sigmoid(2z) - 1; else 1 and 0).

    No sum here runs in a loop that also stores: LLVM guards such a loop with a run-time check that
    the arrays do not overlap and falls back to a scalar loop when they might, which sums in another
    order; whether it does depends on where the arrays lie, so lstm_infer's small buffers gave other
    float64 results than lstm_forward's (1 ulp; test_infer_equals_training_forward), where lstm_infer
    must be the same bit for bit."""
    # every array here as an unowned view (threads.unowned): no shared reference counts between threads
    b, gx, bx, gh, bh, gc, bc = unowned(p[0]), unowned(p[1]), unowned(p[2]), unowned(p[3]), unowned(p[4]), \
        unowned(p[5]), unowned(p[6])
    Wc, Rx, Whc = unowned(w[0]), unowned(w[1]), unowned(w[2])
    gates, c, tc, y = unowned(saved[0]), unowned(saved[1]), unowned(saved[2]), unowned(saved[3])
    xp, hhat, chat, rstd = unowned(saved[4]), unowned(saved[5]), unowned(saved[6]), unowned(saved[7])
    x, h0, c0 = unowned(x), unowned(h0), unowned(c0)
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    zero = x.dtype.type(0.0)
    one = x.dtype.type(1.0)
    two = x.dtype.type(2.0)
    invG = one / x.dtype.type(G)  # means as products: dividing a float32 by an int gives a float64
    invH = one / x.dtype.type(H)
    hw = unowned(work[0])[q, :hi - lo]  # (Bc,G) recurrent product of this chunk (h Whc with LN)
    xs = unowned(work[1])[q, 0, :G]     # (G,) x_t Wx (x_t Wc with LN) of one row but its first column's share
    bs = unowned(work[1])[q, 1, :G]     # (G,) every bias the preactivation adds
    gm = unowned(work[1])[q, 2, :G]     # (G,) 2 on the g block, else 1: gate = sigmoid(gm z) gm - gd
    gd = unowned(work[1])[q, 3, :G]     # (G,) 1 on the g block, else 0
    xw = unowned(work[2])[q, :hi - lo]  # (Bc,G) x_t Wx of this chunk (x_t Wc with LN; wide input)
    wc0 = Wc[0] if fold else bs         # (G,) first row of Wc (a narrow input's x_t Wc: x_t[0] wc0 + xs)
    for j in range(G):
        bs[j] = b[j] + bx[j] + bh[j] if ln else b[j]
        xs[j] = zero
        gm[j] = two if 2 * H <= j < 3 * H else one
        gd[j] = one if 2 * H <= j < 3 * H else zero
    Ps = unowned(packs[0])
    P = Ps if Ps.size > 0 else rec_pack(Whc, hi - lo)  # Wh in the per-step product's layout, once per sequence
    PW = rows_pack(Wc)                                 # Wx (Wc) likewise, for the wide input's x_t Wx
    tab = unowned(packs[1])            # (7,5) the arrays whose rows each step writes (fetch_table)
    plan = np.empty((7, 2), np.int64)  # (7,2) their regions at step t (plan_steps)
    for t in range(T):
        ts = t % gates.shape[0]      # row of the per-step saved arrays: t, or 0 in lstm_infer's buffers
        tn = t % c.shape[0]          # c_t's row of c: t, or one of lstm_infer's two
        tp = (t - 1) % c.shape[0]    # c_{t-1}'s row: t - 1, or the other one
        # the rows this step writes come into the cache while its product runs (rgemm.rgemm_fetch)
        npl = plan_steps(plan, tab, t, lo, hi)
        if t == 0:
            rec_mul_fetch(h0[lo:hi], Whc, P, hw, plan[:npl])
        else:
            rec_mul_fetch(y[t - 1, lo:hi], Whc, P, hw, plan[:npl])
        if not fold:
            rows_mul_fetch(x[t, lo:hi], Wc, PW, xw, plan[:0])
        for r in range(hi - lo):
            bb = lo + r
            a = gates[ts, bb]  # (G,) activated gates
            hr = hw[r]
            sx = zero
            x0 = zero
            if fold:  # a narrow input's x_t Wx, here instead of a GEMM: x0 Wc[0] in the gate pass, the rest here
                xt = x[t, bb]
                x0 = xt[0]
                if I > 1:
                    for j in range(G):
                        xs[j] = xt[1] * Wc[1, j]
                for i in range(2, I):
                    for j in range(G):
                        xs[j] += xt[i] * Wc[i, j]
                if ln:  # var_j(x_t Wc) = ||Rx x_t||^2 (ln_weights)
                    v = zero
                    for k in range(I):
                        u = zero
                        for i in range(k, I):
                            u += Rx[k, i] * xt[i]
                        v += u * u
                    sx = one / np.sqrt(v + eps)
            elif ln:
                xr = xw[r]
                v = zero
                for j in range(G):
                    v += xr[j] * xr[j]
                sx = one / np.sqrt(v * invG + eps)
            # one pass over the row: preactivation, its gate (sigmoid; the g block tanh(z) = 2 sigmoid(2z) - 1,
            # through gm, gd) and, with LN, hhat (and a wide input's xhat_x, over x_t Wc in place)
            if ln:
                v = zero
                for j in range(G):
                    v += hr[j] * hr[j]
                sh = one / np.sqrt(v * invG + eps)
                rstd[0, ts, bb] = sx
                rstd[1, ts, bb] = sh
                hh = hhat[ts, bb]
                if fold:
                    for j in range(G):
                        u = (x0 * wc0[j] + xs[j]) * sx
                        v = hr[j] * sh
                        hh[j] = v
                        a[j] = _sigmoid((gx[j] * u + gh[j] * v + bs[j]) * gm[j]) * gm[j] - gd[j]
                else:
                    xr = xw[r]
                    xo = xp[ts, bb]
                    for j in range(G):
                        u = xr[j] * sx
                        v = hr[j] * sh
                        xo[j] = u
                        hh[j] = v
                        a[j] = _sigmoid((gx[j] * u + gh[j] * v + bs[j]) * gm[j]) * gm[j] - gd[j]
            elif fold:
                for j in range(G):
                    a[j] = _sigmoid((hr[j] + x0 * wc0[j] + xs[j] + bs[j]) * gm[j]) * gm[j] - gd[j]
            else:
                xr = xw[r]
                for j in range(G):
                    a[j] = _sigmoid((hr[j] + xr[j] + bs[j]) * gm[j]) * gm[j] - gd[j]
            ai, af, ag, ao = a[:H], a[H:2 * H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks
            cp = c0[bb] if t == 0 else c[tp, bb]
            ct = c[tn, bb]
            tct = tc[ts, bb]
            yr = y[t, bb]
            for k in range(H):
                ct[k] = af[k] * cp[k] + ai[k] * ag[k]
            if ln:  # LayerNorm of the cell: two passes (the mean, then the variance about it)
                mc = zero
                for k in range(H):  # not summed in the loop above: see the docstring
                    mc += ct[k]
                mc *= invH
                v = zero
                for k in range(H):
                    u = ct[k] - mc
                    v += u * u
                sc = one / np.sqrt(v * invH + eps)
                rstd[2, ts, bb] = sc
                ch = chat[ts, bb]
                for k in range(H):
                    u = (ct[k] - mc) * sc
                    ch[k] = u
                    w = two * _sigmoid(two * (gc[k] * u + bc[k])) - one
                    tct[k] = w
                    yr[k] = ao[k] * w
            else:
                for k in range(H):
                    w = two * _sigmoid(two * ct[k]) - one
                    tct[k] = w
                    yr[k] = ao[k] * w

def lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nchunks, clip=0.0, dcT=None):
    """dy (T,B,H) = dL/dh_t for every t -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G),
    db (G,), dgx (G,), dbx (G,), dgh (G,), dbh (G,), dgc (H,), dbc (H,). Gradients of parameters
    that the norm does not use are returned as zeros. clip: Graves's bound on dL/d(preactivation)
    (module docstring); 0 or inf: off. dcT (B,H) = dL/dc_{T-1} from outside the sequence (a loss on
    the final cell state; None: zeros): the seed of the carried dL/dc, as dy[T-1] is of dL/dh."""
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    ln = norm == NORM_LN
    fold = 0 < I <= FOLD_MAX_I
    dt = dy.dtype
    dx = np.empty((T, B, I), dtype=dt)
    dh0 = np.empty((B, H), dtype=dt)
    dc0 = np.empty((B, H), dtype=dt)
    WhT = transposed(Wh)  # (G,H)
    WxT = transposed(Wx)  # (G,I)
    Wc, Mc = Wx, np.empty((0, 0), dt)
    if ln and fold:  # a narrow input's xhat_x = (x Wc) rstd_x (ln_weights), and Mc = Wc Wc^T (I,I)
        Wc = centered(Wx)
        with np.errstate(over="ignore"):  # weights that blew up give inf here, as in the loop; the trainer says so
            Mc = (Wc.astype(np.float64) @ Wc.T.astype(np.float64)).astype(dt)
    nch = clamp_chunks(nchunks, B)
    # per-chunk partial sums (each chunk's padded by config.CHUNK_GAP, as lstm_forward's scratch)
    pG = np.zeros((3, nch, G + GAP), dtype=dt)     # of db, dgx, dgh
    pH = np.zeros((2, nch, H + GAP), dtype=dt)     # of dgc, dbc
    pWx = np.zeros((nch, I + 1, G), dtype=dt)      # of dWx (LN, narrow input: of Q, see _backward_rows)
    pX = np.zeros((nch, I, I + 1 + GAP), dtype=dt)  # of A, B (LN, narrow input: see _backward_rows)
    clip = dt.type(clip_bound(clip))  # 0: off
    m = -(-B // nch)  # rows of the largest chunk
    # nb: steps whose dL/d(h_{t-1} Wh) rows a chunk gathers per dWh product; tw: dWh^T on rgemm (_backward_rows)
    nb, tw = dwh_blocks(H, 0 if fold else I, m, T, dt.itemsize, REC, DWH, GRAD)
    pWh = np.empty((nch, 0 if tw else H + 1, G), dtype=dt)  # of dWh (zeroed by its chunk, on its thread)
    pWhT = np.empty((nch, G if tw else 0, H), dtype=dt)     # of dWh^T (tw; likewise)
    pWxT = np.empty((nch, G if tw and not fold else 0, I), dtype=dt)  # of a wide input's dWx^T (tw; likewise)
    nbx = max(1, min(nb, DWX_BLOCK_ROWS // m))  # steps whose dL/d(x_t Wx) rows it gathers for dWx and dx (wide input)
    nxg = nbx * m if ln and not fold else 0     # rows of the gathered dL/d(x_t Wx) (the plain cell's are dHb's)
    nxi = nbx * m if not fold else 0            # rows of the gathered x_t (a narrow input gathers none)
    # each chunk's scratch, owned here (the chunks take unowned views of it: threads.unowned)
    work = (np.empty((nch, nxg + 1, G), dt),    # dL/d(x_t Wx) of its rows over nbx steps (LN, wide input)
            np.empty((nch, nxi + 1, I), dt),    # the matching x_t, then their dx (wide input)
            np.zeros((nch, 2, m + 1, H), dt),   # dL/dh_t and dL/dc_t from step t+1
            np.empty((nch, G + GAP), dt),       # one row's dL/d(preactivation)
            np.empty((nch, H + GAP), dt),       # one row's dL/d(cell output)
            np.empty((nch, 2, I + GAP), dt),    # one row's x_t rstd_x and sum_j dL/da_j gx_j Wc_ij
            np.empty((nch, nb * m + 1, G), dt),  # dL/d(h_{t-1} Wh) of its rows over nb steps
            np.empty((nch, nb * m + 1, H), dt))  # the matching h_{t-1}
    if dcT is not None:  # each chunk's dL/dc_t from step t+1 starts at its rows of dcT
        for q in range(nch):
            lo, hi = chunk_bounds(B, nch, q)
            work[2][q, 1, :hi - lo] = dcT[lo:hi]
    gates, c, tc, y, xp, hhat, chat = saved[:7]
    packs = (rec_pack_once(WhT, m),  # Wh^T packed for every chunk (as lstm_forward's Wh)
             fetch_table((gates, tc, dy, c, hhat, chat, xp), (-1, -1, -1, -2, -1, -1, -1)))  # what step t-1 reads
    run_chunks(_backward_rows, B, nch, *readonly(dy, saved, x, h0, c0, (Wx, WxT, WhT, Wc, Mc)), packs,
               readonly(gx, gh, gc), ln, fold,
               clip, (dx, dh0, dc0), (pG, pH, pWx, pWh, pX, pWhT, pWxT), work)
    dWx = transposed(pWxT.sum(axis=0)) if pWxT.shape[1] > 0 else pWx[:, :I].sum(axis=0)
    if ln and fold:  # from the sums over rows Q (I,G), A (I,), B (I,I): _backward_rows
        Q = dWx.astype(np.float64)
        AB = pX[:, :, :I + 1].sum(axis=0).astype(np.float64)
        Wc64 = Wc.astype(np.float64)
        pG[1, 0, :G] = (Wc64 * Q).sum(axis=0)  # dgx_j = sum_k Wc_kj Q_kj
        pG[1, 1:] = 0
        dWx = (gx.astype(np.float64) * Q - AB[:, I:] - AB[:, :I] @ Wc64).astype(dt)
    dWh = transposed(pWhT.sum(axis=0)) if tw else pWh[:, :H].sum(axis=0)
    db, dgx, dgh = pG[:, :, :G].sum(axis=1)
    dgc, dbc = pH[:, :, :H].sum(axis=1)
    if not ln:  # parameters the plain LSTM does not use
        zG, zH = np.zeros(G, dtype=dt), np.zeros(H, dtype=dt)
        return dx, dh0, dc0, dWx, dWh, db, zG, zG.copy(), zG.copy(), zG.copy(), zH, zH.copy()
    return dx, dh0, dc0, dWx, dWh, db, dgx, db.copy(), dgh, db.copy(), dgc, dbc


@njit(**ROWS)
def _backward_rows(q, lo, hi, dy, saved, x, h0, c0, w, packs, p, ln, fold, clip, out, part, work):
    """BPTT for batch rows [lo, hi) (chunk q): w = (Wx (I,G), WxT (G,I), WhT (G,H), Wc (I,G) the centered
    Wx of ln_weights and Mc = Wc Wc^T (I,I) (LN with a narrow input; else Wx and (0,0))), packs = (WhT packed
    for the per-step products (as _forward_rows's), the saved arrays step t-1 reads (fetch_table)), p = (gx,
    gh (G,), gc (H,)); clip > 0: Graves's bound on dL/d(preactivation) (0: off); fills their rows of
    out = (dx (T,B,I), dh0, dc0 (B,H)), and adds this chunk's parameter gradients into its partials,
    part = (pG, pH, pWx, pWh, pX, pWhT, pWxT): pG[:, q] = db, dgx, dgh (G,), pH[:, q] = dgc, dbc (H,),
    pWx[q] = dWx (I,G) and pWh[q] = dWh (H,G) (LN with a narrow input: pWx[q] = Q, pX[q] = (B | A) (I,I+1)
    and no dgx; see below), or their transposes pWhT[q] (G,H), pWxT[q] (G,I) where the blocks run on rgemm
    (below; pWxT empty: a narrow input's dWx is pWx's, or the blocks are the BLAS's); work: the chunks' scratch (see lstm_backward), of which this chunk uses row q.

    Nor is dL/d(h_{t-1} Wh) (T,B,G) stored: the rows of nb steps gather in a block (with their h_{t-1}),
    which feeds each step's dh_{t-1} product and then one GEMM adding the block's share of dWh (at S1 a
    block of 4 steps, 256 KB per thread that stays in L2, where a 100 MB array was written and read
    back; blas.dwh_blocks). Each block adds its share into the chunk's partial
    pWh[q] (zeros at first) in the GEMM (blas.gemm_add), not through a product buffer and a pass adding
    it (in-process A/B, medians of 7-21: the step 0.98-1.00x at S1-S3, within the noise; 2.6 MB less
    scratch a chunk at S3).
    Where rgemm runs the per-step products and a block stays in L2 (S1: 128 rows x 512 float32,
    256 KB; S2: two steps, 64 rows x 1024), the block's product is rgemm's instead, transposed: dWh^T +=
    dHb^T Hb into pWhT[q] (G,H) (blas.grad_t_add: Hb's H columns packed, a quarter of dHb's bytes, and dHb
    read through its strides; lstm_backward sums and transposes the partials). In one process, in turns
    (medians of 15-21): the S1 step 0.95-0.97x its time with MKL's block product, the plain LSTM's 0.95x.
    Bit for bit MKL's dWh at S1 (both sum each element over the block's rows in order). At S2 (a 1 MB
    partial, blocks of two steps) the backward took 0.96x its time with 1792-row blocks on MKL, the plain
    LSTM's 0.94x (config.py).
    Larger blocks stay with the BLAS: rgemm has no blocking over k, and at S3's 4096-row blocks the
    transposed product took 1.4x MKL's time in the step. Where this host's measurement chose it
    (blas.DWH, rec_choice.py), partials up to config.DWH_BIG_BYTES (S3's 2.5 MB) are cut to L2-sized
    blocks on rgemm too (S3: 10 steps of 16 rows): the S3 step 0.78-0.83x its time on a Zen 5 host;
    with a wide input, where both its dWx partial and dWh's fit there (the synthesis network's upper
    layers, I 463 at H 400: 160-row blocks), and its x blocks' dWx goes to rgemm's transposed product
    with them (below).

    dL/d(x_t Wx) is never stored for the whole sequence either: a narrow input (fold) takes dx and dWx
    row by row; a wide one gathers this chunk's rows of dL/d(x_t Wx) (dXs with LN; the plain cell's
    are the dHb rows themselves) and of x_t (Xb) over nbx steps (config.DWX_BLOCK_ROWS rows, within
    one dWh block), then per block one GEMM adding Xb^T dXb into pWx and one GEMM dXb Wx^T, written over
    Xb and copied out to dx[t, lo:hi] for the block's steps. Same FLOPs as one GEMM over all T*B rows,
    without a (T,B,G) buffer (15 MB of the S2 step's 96 MB peak). Per chunk the block is nbx*m rows
    (config.DWX_BLOCK_ROWS, 256) x (G + I) with LN, x I without; in float32 with 2 chunks: S1 and S3
    (narrow) none; S2 (64 rows a chunk, 4 steps) 1.1 MB with LN, 29 KB without; the synthesis
    network's upper layers (I = 463, G = 1600, B = 8: 4 rows a chunk, 64 steps) 2.1 MB with LN,
    0.5 MB without. It was two GEMMs per step on the chunk's rows and an I x G partial added into
    pWx at every step, however few the rows. A/B of lstm_backward in one process (2 chunks, float32,
    medians of 5-31): synthesis upper layer T500 B8 I463 H400 0.36-0.37x the old time with LN
    (389 -> 140 ms) and without (404 -> 146 ms); at B32 0.69-0.73x with LN, 0.71x without; S2
    0.95-0.99x with LN, 0.98-1.00x without. 128 to 4096 rows per block gave the synthesis shapes the
    same within noise; S2 LN, whose G-wide block outgrows the L2 cache, took 1.01-1.14x the old time
    at 1024-4096 rows (config.DWX_BLOCK_ROWS). The whole synthesis training step (bench/synthesis_step.py,
    3 x 400 LN-LSTM, T500; two runs of 3, the old code in a copy of the same tree): B8 2.59, 2.40 ->
    1.44, 1.38 s (step/floor 2.85, 2.62 -> 1.56, 1.32), B32 4.26, 4.89 -> 3.78, 3.71 s.
    Where dWh's blocks run on rgemm (tw), a block's dWx does too, transposed: dWx^T += dXb^T Xb into
    pWxT[q] (G,I) (blas.grad_t_add). bench/ab_lstm.py, in turns, a Zen 5 host: S2 backward 0.95x (LN),
    0.97x (plain) its time with MKL's dWx; the synthesis upper layer (T500 B32 I463 H400, LN, with its
    dWh blocks on rgemm, blas.grad_budget) 631 -> 452 ms.

    A narrow input's LayerNorm backward (LN, fold) forms neither xhat_x (not saved: 100 MB less to write
    and read at S1) nor dL/d(x_t Wx) (G,) of a row: with d = dL/da (G,), xw = x_t rstd_x (I,),
    xhat_j = sum_k xw_k Wc_kj and dL/d(x_t Wx)_j = rstd_x (d_j gx_j - s1 - xhat_j s2),
    s1 = mean_j(d_j gx_j), s2 = mean_j(d_j gx_j xhat_j), everything it feeds follows from I sums per
    row, pc_i = sum_j d_j gx_j Wc_ij (s2 = xw.pc / G), and three sums over rows, Q_ij = sum xw_i d_j
    (in pWx), A_i = sum xw_i s1 and B_ik = sum xw_i xw_k s2 (in pX):
        dx_i = rstd_x (pc_i - s2 (xw Mc)_i)   (dL/d(x Wx) sums to zero over j, so Wx^T may be Wc^T)
        dWx  = gx * Q - A 1^T - B Wc,   dgx_j = sum_k Wc_kj Q_kj   (lstm_backward, after the loop)
    so the row's whole x side is one more stream (Q) in the pass that already reads d, where it was
    three passes (xhat_x, dL/d(x_t Wx), dx and dWx).

    Prefetch: the saved arrays are far larger than the caches (0.3 GB at S1), so every row of them
    the backward reads comes from memory, and the row passes waited on their first loads (perf, S1:
    the samples of _backward_rows piled up on the first load of each H-wide pass and on hhat's in
    the G-wide pass). Each row therefore asks for the saved rows of the row two ahead before its own
    work (_fetch_row: one prefetch per cache line): S1 LN-LSTM step 1.13x -> 1.06x its floor in CPU
    time (A/B in one process). The forward's writes did not gain from the same (their lines are read
    before they are written, but S1's forward time stayed within 1%). Two rows ahead is still late when
    the memory is busy: each step's product dL/d(h_{t-1} Wh) Wh^T also asks for this chunk's saved rows
    of step t-1 while it runs (blas.rec_mul_fetch, rgemm.rgemm_fetch; the regions from fetch_table and
    plan_steps), so that they come in under its FMA work: in one process in turns the backward took
    S1 84.3 -> 75.7 ms, S2 25.6 -> 23.7 (bench/results/performance-history.md); the forward's product asks likewise for
    the rows its step writes."""
    # every array here as an unowned view (threads.unowned): no shared reference counts between threads
    gates, c, tc, y = unowned(saved[0]), unowned(saved[1]), unowned(saved[2]), unowned(saved[3])
    xp, hhat, chat, rstd = unowned(saved[4]), unowned(saved[5]), unowned(saved[6]), unowned(saved[7])
    Wx, WxT, WhT, Wc, Mc = unowned(w[0]), unowned(w[1]), unowned(w[2]), unowned(w[3]), unowned(w[4])
    gx, gh, gc = unowned(p[0]), unowned(p[1]), unowned(p[2])
    dx, dh0, dc0 = unowned(out[0]), unowned(out[1]), unowned(out[2])
    pG, pH, pWx, pWh, pX = unowned(part[0]), unowned(part[1]), unowned(part[2]), unowned(part[3]), unowned(part[4])
    pWhT, pWxT = unowned(part[5]), unowned(part[6])
    dy, x, h0, c0 = unowned(dy), unowned(x), unowned(h0), unowned(c0)
    T, B, H = dy.shape
    I = x.shape[2]
    G = 4 * H
    one = dy.dtype.type(1.0)
    zero = dy.dtype.type(0.0)
    invH = one / dy.dtype.type(H)  # means as products: dividing a float32 by an int gives a float64
    invG = one / dy.dtype.type(G)
    pdb, pgx, pgh, pgc, pbc, pWx = pG[0, q], pG[1, q], pG[2, q], pH[0, q], pH[1, q], pWx[q]
    dXs = unowned(work[0])[q, :-1]    # (nbx*m,G) dL/d(x_t Wx) of this chunk's rows over the x block's steps
                                      # (LN, wide input; (0,G) otherwise: the plain cell's are rows of dHb)
    Xb = unowned(work[1])[q, :-1]     # (nbx*m,I) the matching x_t, then their dx (wide input; else (0,I))
    dh_next = unowned(work[2])[q, 0, :hi - lo]  # (Bc,H) dL/dh_t from step t+1 (zeros at first)
    dc_next = unowned(work[2])[q, 1, :hi - lo]  # (Bc,H) dL/dc_t from step t+1 (zeros at first)
    PTs = unowned(packs[0])
    PT = PTs if PTs.size > 0 else rec_pack(WhT, hi - lo)  # Wh^T packed once (blas.rec_pack_once)
    PxT = rows_pack(WxT)                                  # Wx^T packed once, for dx (wide input; blas.rows_pack)
    tab = unowned(packs[1])            # (7,5) the arrays whose rows step t-1 reads (fetch_table)
    plan = np.empty((7, 2), np.int64)  # (7,2) their regions (plan_steps)
    da = unowned(work[3])[q, :G]      # (G,) dL/d(preactivation), one row
    dcn = unowned(work[4])[q, :H]     # (H,) dL/d(cell output before tanh)
    xw = unowned(work[5])[q, 0, :I]   # (I,) x_t rstd_x of one row (LN, narrow input)
    pc = unowned(work[5])[q, 1, :I]   # (I,) its sum_j dL/da_j gx_j Wc_ij
    dHb = unowned(work[6])[q, :-1]    # (nb*m,G) dL/d(h_{t-1} Wh) of this chunk's rows over the block's steps
    Hb = unowned(work[7])[q, :-1]     # (nb*m,H) the matching h_{t-1}
    tw = pWhT.shape[1] > 0            # dWh^T += dHb^T Hb on rgemm (below), into pWhT[q] (G,H)
    pwh = pWh[q]
    pwhT = pWhT[q]
    pwxT = pWxT[q]                    # (G,I) dWx^T += Xb^T dXb's transpose on rgemm (a wide input's, with tw)
    for i in range(pwh.shape[0]):  # the partial of dWh starts at zero: set here, on the thread that adds
        for j in range(G):         # into it, not by np.zeros in lstm_backward (S2: 4 MB before the chunks ran)
            pwh[i, j] = zero
    for i in range(pwhT.shape[0]):
        for j in range(H):
            pwhT[i, j] = zero
    for i in range(pwxT.shape[0]):
        for j in range(I):
            pwxT[i, j] = zero
    pAB = pX[q]                   # (I,I+1) sums over rows of xw_i xw_k s2x (k < I) and xw_i s1x (k = I)
    q0 = pWx[0]                   # (G,) first row of pWx
    wc0 = Wc[0]                   # (G,)
    Bc = hi - lo
    nb = dHb.shape[0] // max(Bc, 1)  # steps per dWh block
    nbx = Xb.shape[0] // max(Bc, 1)  # steps per x block (wide input; it never straddles two dWh blocks)
    nk = 0                           # steps gathered in the current dWh block
    nkx = 0                          # of them, steps in the current x block (its last nkx)
    for t in range(T - 1, -1, -1):
        dhwt = dHb[nk * Bc:(nk + 1) * Bc]  # (Bc,G) this step's dL/d(h_{t-1} Wh)
        dxs = dXs[nkx * Bc:(nkx + 1) * Bc]  # (Bc,G) this step's dL/d(x_t Wx) (LN, wide input)
        copy_rows(Hb[nk * Bc:(nk + 1) * Bc], h0[lo:hi] if t == 0 else y[t - 1, lo:hi])
        if not fold:
            copy_rows(Xb[nkx * Bc:(nkx + 1) * Bc], x[t, lo:hi])
        for r in range(hi - lo):
            bb = lo + r
            # the saved rows of the row two ahead (in this step, or among the first of step t-1) come in
            # from memory while this one is worked on (see the docstring)
            tq, bq = (t, bb + 2) if r + 2 < hi - lo else (t - 1, lo + min(r + 2 - (hi - lo), hi - lo - 1))
            if tq >= 0:
                _fetch_row(gates[tq, bq])
                _fetch_row(tc[tq, bq])
                _fetch_row(dy[tq, bq])
                if tq > 0:
                    _fetch_row(c[tq - 1, bq])
                if ln:
                    _fetch_row(hhat[tq, bq])
                    _fetch_row(chat[tq, bq])
                    if not fold:
                        _fetch_row(xp[tq, bq])
            a = gates[t, bb]
            ai, af, ag, ao = a[:H], a[H:2 * H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks
            dai, daf, dag, dao = da[:H], da[H:2 * H], da[2 * H:3 * H], da[3 * H:]
            dyr, dhr, tcr, dcr = dy[t, bb], dh_next[r], tc[t, bb], dc_next[r]
            cp = c0[bb] if t == 0 else c[t - 1, bb]
            # two H-wide passes: dL/d(cell output) (with LN also the cell LayerNorm's gain gradients and
            # row sums), then dL/dc_t (with LN, the LayerNorm backward) and the i, f, g gates
            s1 = zero
            s2 = zero
            rc = zero
            ch = dcn  # (H,) chat (LN; not read otherwise)
            if ln:
                ch = chat[t, bb]
                rc = rstd[2, t, bb]
                for k in range(H):
                    dh = dyr[k] + dhr[k]
                    o = ao[k]
                    tk = tcr[k]
                    dao[k] = dh * tk * o * (one - o)
                    d = dh * o * (one - tk * tk)
                    dcn[k] = d
                    pgc[k] += d * ch[k]
                    pbc[k] += d
                    u = d * gc[k]
                    s1 += u
                    s2 += u * ch[k]
                s1 *= invH
                s2 *= invH
            else:
                for k in range(H):
                    dh = dyr[k] + dhr[k]
                    o = ao[k]
                    tk = tcr[k]
                    dao[k] = dh * tk * o * (one - o)
                    dcn[k] = dh * o * (one - tk * tk)
            for k in range(H):
                dc = (rc * (dcn[k] * gc[k] - s1 - ch[k] * s2) if ln else dcn[k]) + dcr[k]
                i = ai[k]
                f = af[k]
                g = ag[k]
                dai[k] = dc * g * i * (one - i)
                daf[k] = dc * cp[k] * f * (one - f)
                dag[k] = dc * i * (one - g * g)
                dcr[k] = dc * f
            if clip > zero:  # Graves: clip dL/da before anything reads it (dcr, carried on, stays unclipped)
                for j in range(G):
                    da[j] = min(max(da[j], -clip), clip)
            dhw = dhwt[r]
            if ln and fold:  # both G-wide LayerNorms, backward, the x side in closed form (below)
                hh = hhat[t, bb]
                rx = rstd[0, t, bb]
                for i in range(I):
                    xw[i] = x[t, bb, i] * rx
                xw0 = xw[0]
                s1h = zero
                s2h = zero
                s1x = zero
                pc0 = zero
                for j in range(G):
                    d = da[j]
                    pdb[j] += d
                    pgh[j] += d * hh[j]
                    q0[j] += xw0 * d
                    u = d * gh[j]
                    s1h += u
                    s2h += u * hh[j]
                    w = d * gx[j]
                    s1x += w
                    pc0 += w * wc0[j]
                pc[0] = pc0
                for i in range(1, I):
                    qi = pWx[i]
                    wci = Wc[i]
                    xi = xw[i]
                    s = zero
                    for j in range(G):
                        qi[j] += xi * da[j]
                        s += da[j] * gx[j] * wci[j]
                    pc[i] = s
                s1h *= invG
                s2h *= invG
                s1x *= invG
                s2x = zero
                for k in range(I):
                    s2x += xw[k] * pc[k]
                s2x *= invG
                for i in range(I):
                    s = zero
                    for k in range(I):
                        s += xw[k] * Mc[k, i]
                        pAB[i, k] += xw[i] * xw[k] * s2x
                    dx[t, bb, i] = rx * (pc[i] - s2x * s)
                    pAB[i, I] += xw[i] * s1x
                rh = rstd[1, t, bb]
                for j in range(G):
                    dhw[j] = rh * (da[j] * gh[j] - s1h - hh[j] * s2h)
            elif ln:  # both G-wide LayerNorms, backward: one pass for the parameter gradients and the
                      # four sums, one pass writing dL/d(h_{t-1} Wh) and dL/d(x_t Wx)
                rx = rstd[0, t, bb]
                xh = xp[t, bb]
                hh = hhat[t, bb]
                s1h = zero
                s2h = zero
                s1x = zero
                s2x = zero
                for j in range(G):
                    d = da[j]
                    pdb[j] += d
                    pgx[j] += d * xh[j]
                    pgh[j] += d * hh[j]
                    u = d * gh[j]
                    s1h += u
                    s2h += u * hh[j]
                    w = d * gx[j]
                    s1x += w
                    s2x += w * xh[j]
                s1h *= invG
                s2h *= invG
                s1x *= invG
                s2x *= invG
                rh = rstd[1, t, bb]
                dxr = dxs[r]  # dL/d(x_t Wx) of this row
                for j in range(G):
                    dhw[j] = rh * (da[j] * gh[j] - s1h - hh[j] * s2h)
                    dxr[j] = rx * (da[j] * gx[j] - s1x - xh[j] * s2x)
            else:
                for j in range(G):
                    pdb[j] += da[j]
                    dhw[j] = da[j]
                if fold:  # narrow input: dx = dhw Wx^T and dWx += x^T dhw, here while the row is in cache
                    input_row_grads(dx[t, bb], pWx, dhw, x[t, bb], Wx)
        # the saved rows of step t-1 come in from memory while dh_{t-1}'s product runs (rgemm.rgemm_fetch)
        npl = plan_steps(plan, tab, t, lo, hi)
        rec_mul_fetch(dhwt, WhT, PT, dh_next, plan[:npl])
        nk += 1
        nkx += 1
        if not fold and (nkx == nbx or nk == nb or t == 0):  # a wide input's x block: its share of dWx =
            n = nkx * Bc                                     # Xb^T dL/d(x Wx), then its dx = dL/d(x Wx) Wx^T
            dXb = dXs[:n] if ln else dHb[(nk - nkx) * Bc:nk * Bc]
            if pwxT.shape[0] > 0:  # on rgemm with dWh's blocks (tw): dWx^T += dXb^T Xb
                grad_t_add(Xb[:n], dXb, pwxT)
            else:
                gemm_add(Xb[:n], dXb, pWx[:I], True)
            rows_mul_fetch(dXb, WxT, PxT, Xb[:n], plan[:0])  # over the x_t rows, read above
            for k in range(nkx):  # rows [k Bc, (k+1) Bc) are step t + nkx - 1 - k's
                copy_rows(dx[t + nkx - 1 - k, lo:hi], Xb[k * Bc:(k + 1) * Bc])
            nkx = 0
        if nk == nb or t == 0:  # the block's share of dWh = Hprev^T dL/d(h_{t-1} Wh), added into pWh[q]
            if tw:              # (or its transpose into pWhT[q], the block in L2: see the docstring)
                grad_t_add(Hb[:nk * Bc], dHb[:nk * Bc], pwhT)
            else:
                gemm_add(Hb[:nk * Bc], dHb[:nk * Bc], pwh[:H], True)
            nk = 0
    copy_rows(dh0[lo:hi], dh_next)
    copy_rows(dc0[lo:hi], dc_next)
