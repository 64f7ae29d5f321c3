"""Connectionist temporal classification (Graves et al. 2006, "Connectionist Temporal Classification:
Labelling Unsegmented Sequence Data with Recurrent Neural Networks"): the negative log-probability of
a label sequence under a head's per-step class scores, summed over every alignment, forward and
backward (CPU twin; ``ctc_cuda.py`` is the CUDA twin, ``reference.ctc_*`` the spec).

Shapes: T steps, B rows, C classes (the blank is class ``CTC_BLANK`` = 0, labels are 1..C-1),
Lmax the longest label, S = 2 Lmax + 1 positions of the extended label (a blank before, between and
after the labels: position s is a blank when s is even, label (s-1)/2 when s is odd; row b uses its
first S_b = 2 label_lengths[b] + 1).
    logits         (T,B,C)  the head's linear output (time-major, like h)
    labels         (B,Lmax) int64 classes; entries at or past label_lengths[b] are ignored (padding)
    input_lengths  (B,)     int64, 0 <= input_lengths[b] <= T: row b is scored at steps t < input_lengths[b]
    label_lengths  (B,)     int64, 0 <= label_lengths[b] <= Lmax

Recursion (Graves 2006 eqs. 5-10), y[t] = softmax(logits[t]) over C:
    alpha[0,s]   = y[0, ext[s]] for s < 2, else 0
    alpha[t,s]   = (alpha[t-1,s] + alpha[t-1,s-1] + alpha[t-1,s-2] if ext[s] is a label != ext[s-2]) y[t, ext[s]]
    p            = alpha[Tb-1, S_b-1] + alpha[Tb-1, S_b-2]                              loss[b] = -log p
    beta[Tb-1,s] = 1 for s >= S_b - 2, else 0            (emission at t excluded)
    beta[t,s]    = sum over s' in {s, s+1, s+2 if ext[s+2] is a label != ext[s]} of beta[t+1,s'] y[t+1, ext[s']]
    dL/dlogits[t,c] = y[t,c] - sum over s with ext[s] = c of alpha[t,s] beta[t,s] / p
The skip over a blank (s-2 -> s) is barred between two equal labels: "a a" needs a blank between them.
A row whose label cannot fit (p = 0: fewer steps than labels plus repeats) gets loss 0 and gradient 0,
as PyTorch's ``ctc_loss(..., zero_infinity=True)``; logz[b] = -inf marks it. A row with no steps and an
empty label has p = 1 (loss 0); steps t >= input_lengths[b] get gradient 0.

How it runs: Graves's rescaled recursion (sec. 4.1) in float64, whatever the logits' dtype.
    * The forward takes each row's gradient too (dloss enters only as a factor per row), while the row's
      softmax and alpha are still in cache: rows run one after another in CTC_ROW_CHUNKS fixed chunks
      (lnrnn/config.py; the prange), each with its own scratch (y (T,C) softmax, alpha (T,S+2)), so neither
      is written to memory and read back cold. The backward only scales the saved gradient by dloss.
    * The softmax is made once per (t, row) (y, float64, scratch) beside logp (the head's log-probabilities,
      saved); exp is a float64 polynomial LLVM vectorizes (_exp).
    * Step loops take arrays sliced at the band's first position, so every index is the loop counter plus a
      constant >= 0 and LLVM drops Numba's negative-index wraparound (with it the loops did not vectorize);
      ext is uint64 for the same reason. The emissions are gathered before each step's recursion.
    * Only the live band of positions is run: at step t, s < lo(t) = S_b - 2 (T_b - t) cannot reach the end
      and s >= hi(t) = 2t + 2 cannot be reached from the start (both at most two positions a step), so
      alpha and beta are 0 there and are not computed.
    * alpha[t] is divided by its sum over the band whenever that sum leaves [2^-100, 2^100] (RESCALE_LO,
      RESCALE_HI), and log p is the sum of the logs of those divisors and of the last step's sum (no exp or
      log per (t, s)); beta[t] likewise in the backward; the posterior of s at step t is alpha beta over
      the sum of alpha beta on the band, so neither scale enters it; the blank positions' posteriors are
      summed in that pass (all class 0) and only the labels' are added to their classes one by one.
    * The row's extended label is made once (_row_classes): ext (S,) its classes, skm (S+2,) 1 where a skip
      into s is allowed, 0 where not, a factor on the s-2 term, so no position tests its class.
    * Exactness: a float64 product below TINY = 1e-300 (at a scale within 2^100 of the step's mass: an
      emission about e^-620 below it, a logit gap near 620) is a dropped path. Its share of p is at most
      TINY x the scale of its step x S T / p,
      because a prefix's or a suffix's probability is at most 1. Where that bound passes 1e-17 (the
      forward compares the scale of its last dropping step with log p, the backward its own), or where a
      step's sum is 0 or its posteriors' sum below TINY, the row runs the exact log-space recursion below
      instead (_row_forward_log, _row_backward_log: one three-term log-sum-exp per (t, s), the backward
      redoing the row's log-space forward). Confident rows drop far positions harmlessly and stay rescaled;
      a row whose label fits the logits only through steps far below the best of the batch falls back.

Log-space path (the fallback; alpha in logs, lse = log-sum-exp): alpha[t,s] = lse(alpha[t-1,s],
alpha[t-1,s-1], alpha[t-1,s-2] + skip) + logp[t, ext[s]], with one three-term lse per (t,s) (_lse3: one
max, three exps, one log, no test on -inf: when all three terms are -inf the shift is the dtype's lowest
finite value and a select gives -inf); exp and log are polynomials in float64 (_exp, _log13: about 1 ulp
near 0), which LLVM vectorizes (libm's are a call per element: Numba's SVML path needs an SVML-patched
llvmlite, which the PyPI wheels are not). Its backward makes beta[t] from beta[t+1] in a row and takes step
t's posteriors from it at once.

Precision: the rescaled recursion runs in float64 from the float64 softmax, and loss, logp and logz are
rounded once to the logits' dtype (the gradient: y, then the labels' posteriors subtracted, then times dloss),
so float32 rows carry little more than that rounding (loss within 2e-7 relative of float64 at T 300, C 80; the log-space
kernel this replaced stored alpha and beta in float32, 5e-4 of the largest gradient element off). The
log-space path computes in float64 from logp in the logits' dtype. tests/kernels/test_ctc.py bounds float32
against float64.

Speed (bench/ctc_step.py --against REV; bench/results/ctc-step-epyc.txt): at T 300, B 32, C 80, labels of
60, one thread of an AMD EPYC (Zen 3), forward + backward take about half the CPU time of the previous
rescaled kernel (which saved y and alpha for a separate backward), a quarter of the log-space kernel's.

saved (forward returns it, backward takes it back): (logp (T,B,C) dtype, grad (T,B,C) dtype dloss[b]/dlogits
of each row's own loss (0 past input_lengths[b] and on rows with p = 0), logz (B,) dtype, logspace (B,) bool:
the row's forward ran in log space). grad is rounded to the logits' dtype once, and the backward's product
with dloss once more. Rows are independent: a chunk writes only its own rows of every output, and a row's
values do not depend on its chunk (so not on the thread count).
"""
import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from lnrnn.config import CTC_ROW_CHUNKS, JIT, PJIT
from lnrnn.kernels.cpu.threads import readonly
from lnrnn.kernels.codes import CTC_BLANK


@intrinsic
def _as_int(typingctx, x):
    """The bits of a float64 as an int64 (a bitcast, vectorizable; NumPy's .view for one scalar)."""
    sig = types.int64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return sig, codegen


@intrinsic
def _as_float(typingctx, i):
    """The float64 whose bits are the int64 i."""
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return sig, codegen


_LOG2E = 1.4426950408889634
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10     # fdlibm's split of log 2
_SHIFT = 6755399441055744.0                      # 1.5 * 2**52: adding it rounds to an integer in the low bits
_SQRT2 = 1.4142135623730951


@njit(inline="always", **JIT)
def _exp(y):
    """exp(y) in float64 for y <= 1 (or -inf), in arithmetic LLVM vectorizes (libm's exp is a call per
    element): y = k log 2 + r, |r| <= log(2)/2, exp(r) by its Taylor polynomial of degree 13 (remainder
    < 1e-17), 2^k made from its bits; 0 below -708 (exp(-708) = 3e-308, the smallest normal). Relative error
    1 ulp for |y| <= 1, 7 ulp at -40 (reassociation may join the two parts of log 2), tiny in absolute terms."""
    y = float(y)
    k = np.rint(y * _LOG2E)                      # y / log 2 rounded to an integer (a float)
    r = (y - k * _LN2_HI) - k * _LN2_LO
    p = ((((((1.6059043836821613e-10 * r + 2.08767569878681e-09) * r + 2.505210838544172e-08) * r
              + 2.755731922398589e-07) * r + 2.7557319223985893e-06) * r + 2.48015873015873e-05) * r
         + 1.984126984126984e-04)
    p = ((((((p * r + 1.388888888888889e-03) * r + 8.333333333333333e-03) * r + 4.1666666666666664e-02) * r
           + 0.16666666666666666) * r + 0.5) * r + 1.0) * r + 1.0
    scale = _as_float((_as_int(k + _SHIFT) + 1023) << 52)   # k + _SHIFT holds k in its low bits: 2^k's bits
    return p * scale if y > -708.0 else 0.0


@njit(inline="always", **JIT)
def _log13(z):
    """log(z) in float64 for 1 <= z <= 3, to about 1 ulp: z = 2^e u with u in [0.70, 1.5], log u =
    2 atanh(q) = 2 (q + q^3/3 + ... + q^25/25), q = (u - 1)/(u + 1), |q| <= 0.2 (remainder < 1e-19)."""
    e = 1.0 if z > _SQRT2 else 0.0
    u = z * 0.5 if z > _SQRT2 else z
    q = (u - 1.0) / (u + 1.0)
    q2 = q * q
    p = (((((1.0 / 25 * q2 + 1.0 / 23) * q2 + 1.0 / 21) * q2 + 1.0 / 19) * q2 + 1.0 / 17) * q2 + 1.0 / 15) * q2
    p = ((((((p + 1.0 / 13) * q2 + 1.0 / 11) * q2 + 1.0 / 9) * q2 + 1.0 / 7) * q2 + 1.0 / 5) * q2 + 1.0 / 3) * q2 + 1.0
    return e * _LN2_HI + (e * _LN2_LO + 2.0 * q * p)


@njit(inline="always", **JIT)
def _lse3(x0, x1, x2, low):
    """log(exp(x0) + exp(x1) + exp(x2)), in float64, with one max, three exps and no test on -inf: the
    shift m is the largest term (whose exp is 1, so the sum is in [1, 3]) or, when all three are -inf,
    low (the dtype's lowest finite value), which gives -inf by a select. x2 = -inf (a barred skip) adds 0."""
    m = float(max(max(x0, x1), max(x2, low)))
    z = _exp(x0 - m) + _exp(x1 - m) + _exp(x2 - m)
    return m + _log13(z) if m > low else -np.inf


TINY = 1e-300                                   # a float64 product below it is a dropped path (docstring)
_LOG_DROP = float(np.log(1e-17) - np.log(TINY))   # dropped paths may hold up to 1e-17 of p: log(1e-17 / TINY)
RESCALE_LO, RESCALE_HI = 2.0 ** -100, 2.0 ** 100  # a step's sum outside: alpha (beta) is divided by it


@njit(**JIT)
def _skip(lab, s):
    """Whether position s may be entered from s-2 (skipping a blank): s is a label unlike the one before."""
    return s % 2 == 1 and s >= 3 and lab[s // 2] != lab[s // 2 - 1]


@njit(**JIT)
def _row_classes(lab, Sb, ext, skm, skl, blk):
    """The row's extended label once, so the recursions' s-loops carry no test: ext[:Sb] (S,) its classes;
    skm (S+2,) 1 where s may be entered from s-2, 0 where not and past Sb (a factor on that term); skl (S+2,)
    the same as 0 / -inf (added to it in log space); blk[:Sb] (S,) 1 on a blank, 0 on a label."""
    for s in range(skm.shape[0]):
        skm[s] = 0.0
        skl[s] = -np.inf
    for s in range(Sb):
        ext[s] = CTC_BLANK if s % 2 == 0 else lab[s // 2]
        blk[s] = 1.0 if s % 2 == 0 else 0.0
        if _skip(lab, s):
            skm[s] = 1.0
            skl[s] = 0.0


@njit(inline="always", **JIT)
def _band(t, Tb, Sb):
    """The live positions lo <= s < hi at step t: below lo a path cannot reach the end by step Tb-1, at or
    above hi no path from step 0 arrives (a path moves at most two positions a step)."""
    return max(0, Sb - 2 * (Tb - t)), min(Sb, 2 * t + 2)


@njit(**JIT)
def _softmax_step(x, lp, y):
    """x (C,) one step's logits -> lp (C,) log-softmax (x's dtype) and y (C,) softmax (float64). One step of
    contiguous rows per call, so LLVM vectorizes the loops (a strided (T,C) view of (T,B,C) runs 1.5x slower)."""
    C = x.shape[0]
    m = float(x[0])
    for c in range(1, C):
        m = max(m, float(x[c]))
    z = 0.0
    for c in range(C):
        e = _exp(float(x[c]) - m)
        y[c] = e
        z += e
    r, lz = 1.0 / z, np.log(z)
    for c in range(C):
        y[c] *= r
        lp[c] = (float(x[c]) - m) - lz


@njit(**JIT)
def _alpha_step(ap, at, skm, yt, ext, em, n):
    """alpha[t] from alpha[t-1] on the band's n positions: ap and at (S+2,) are rows of alpha (T,S+2) from the
    band's first position on (so index i + 2 is position lo + i, i + 1 and i its two predecessors), skm and ext
    likewise, yt (C,) step t's softmax -> (alpha[t]'s sum, how many positions with paths arriving fell below
    TINY). Arrays start at the band (sliced by the caller) so every index is i plus a constant >= 0: LLVM then
    drops Numba's negative-index wraparound and vectorizes the loop."""
    for i in range(n):                           # the emissions gathered first: the recursion is then contiguous
        em[i] = yt[ext[i]]
    c, nd = 0.0, 0
    for i in range(n):                           # no branch: a barred skip is multiplied by 0
        inc = ap[i + 2] + ap[i + 1] + ap[i] * skm[i]
        v = inc * em[i]
        at[i + 2] = v
        c += v
        nd += (inc > 0.0) & (v < TINY)
    return c, nd


@njit(**JIT)
def _beta_emit(bn, bt, yt, ext, em, n):
    """bt = beta[t+1] times step t+1's emission, on step t+1's band (n positions; bn, bt, ext sliced at its
    first position, yt (C,) step t+1's softmax) -> how many of them fell below TINY."""
    for i in range(n):
        em[i] = yt[ext[i]]
    nd = 0
    for i in range(n):
        v = bn[i] * em[i]
        bt[i] = v
        nd += (bn[i] > 0.0) & (v < TINY)
    return nd


@njit(**JIT)
def _beta_sum(bn, bt, skm, at, q, blk, n):
    """beta[t] = bn on step t's band (n positions; every array sliced at its first position) from bt
    (_beta_emit), and at once the posteriors q = alpha[t] beta[t] (at: alpha[t]) -> (beta[t]'s sum, the
    posteriors' sum, their sum on blanks (blk: 1 on a blank, 0 on a label))."""
    c, z, zb = 0.0, 0.0, 0.0
    for i in range(n):                           # no branch: a barred skip is multiplied by 0
        v = bt[i] + bt[i + 1] + bt[i + 2] * skm[i + 2]
        bn[i] = v
        c += v
        w = at[i] * v
        q[i] = w
        z += w
        zb += w * blk[i]
    return c, z, zb


@njit(**JIT)
def _posteriors(bn, at, q, blk, n):
    """q = alpha[t] beta[t] on the band (after beta[t] was rescaled, or at the last step) -> (their sum, their
    sum on blanks)."""
    z, zb = 0.0, 0.0
    for i in range(n):
        w = at[i] * bn[i]
        q[i] = w
        z += w
        zb += w * blk[i]
    return z, zb


@njit(**JIT)
def _grad_step(dt, yt, q, ext, i0, n, z, zb):
    """Step t's gradient dt (C,) = yt - posteriors per class, from yt (C,) softmax and q, ext sliced at the
    band's first position (n of them); the blanks' share zb (all class 0) is taken from its sum, the labels'
    (positions i0, i0 + 2, ...) one by one. z: the posteriors' sum."""
    r = 1.0 / z
    for c in range(dt.shape[0]):
        dt[c] = yt[c]
    dt[CTC_BLANK] -= r * zb
    for i in range(i0, n, 2):                    # ... subtracted from its class
        dt[ext[i]] -= r * q[i]


@njit(**JIT)
def _row_forward(y, ext, skm, Tb, Sb, al, em):
    """One row, rescaled: y (T,C) softmax, ext (S,) and skm (S+2,) from _row_classes -> (log p, exact), al
    (T,S+2) alpha over a scale, position s at s + 2 (written on each step's band, 0 on the two positions below
    it and above it that the next step reads). exact is False where a dropped path may hold more than 1e-17 of
    p or a step's sum underflows (the caller then runs the log-space path). Scratch: em (S,)."""
    if Tb == 0:
        return (0.0 if Sb == 1 else -np.inf), True
    la, ldrop = 0.0, -np.inf        # log of alpha's scale; that scale at the last step that dropped a path
    lo, hi = _band(0, Tb, Sb)
    a0 = al[0]
    for s in range(a0.shape[0]):
        a0[s] = 0.0
    c, nd = 0.0, 0
    for s in range(lo, hi):
        v = y[0, ext[s]]
        a0[s + 2] = v
        c += v
        nd += v < TINY
    for t in range(Tb):
        at = al[t]
        if t > 0:
            lo, hi = _band(t, Tb, Sb)
            at[0] = 0.0
            at[1] = 0.0
            for s in range(hi, min(hi + 2, Sb)):     # read by step t+1 (its band reaches two higher)
                at[s + 2] = 0.0
            c, nd = _alpha_step(al[t - 1, lo:], at[lo:], skm[lo:], y[t], ext[lo:], em, hi - lo)
        if nd > 0:
            ldrop = la
        if c == 0.0 and ldrop == -np.inf:           # nothing arrives and nothing was dropped: p = 0
            return -np.inf, True
        if c < TINY:
            return 0.0, False
        if not RESCALE_LO <= c <= RESCALE_HI:      # keep the step's sum near 1 (not every step: one pass less)
            r = 1.0 / c
            for s in range(lo, hi):
                at[s + 2] *= r
            la += np.log(c)
            c = 1.0
    la += np.log(c)                              # p = the last band's sum at the scale
    return la, ldrop - la <= _LOG_DROP - np.log(Sb * Tb)


@njit(**JIT)
def _row_backward(y, al, lz, ext, skm, blk, Tb, Sb, d, b, bn, bt, q, em):
    """One row, rescaled: d[:Tb, b] (of d (T,B,C)) = dL/dlogits from y (T,C) softmax, al (T,S+2) alpha over a
    scale (_row_forward), log p lz, ext (S,), skm (S+2,), blk (S,) 1 on blanks -> exact (False: a dropped path
    may hold more than 1e-17 of p, or a sum underflows; the caller then runs the log-space path over the whole
    row). beta is never stored: bn (S,) holds beta[t] over a scale, bt (S+2,) beta[t+1] times its emission,
    and step t's posteriors q (S,) are taken with beta[t]: alpha beta over their sum on the band (neither
    scale enters). Scratch: em (S,)."""
    for s in range(bt.shape[0]):
        bt[s] = 0.0
    lb, limit = 0.0, lz + _LOG_DROP - np.log(Sb * Tb)    # lb: log of beta's scale
    for t in range(Tb - 1, -1, -1):
        lo, hi = _band(t, Tb, Sb)
        at = al[t, 2 + lo:]
        if t == Tb - 1:
            for s in range(lo, hi):
                bn[s] = 1.0
            z, zb = _posteriors(bn[lo:], at, q[lo:], blk[lo:], hi - lo)
        else:
            lo1, hi1 = _band(t + 1, Tb, Sb)
            nd = _beta_emit(bn[lo1:], bt[lo1:], y[t + 1], ext[lo1:], em, hi1 - lo1)
            if nd > 0 and lb > limit:
                return False
            c, z, zb = _beta_sum(bn[lo:], bt[lo:], skm[lo:], at, q[lo:], blk[lo:], hi - lo)
            if c < TINY:
                return False
            if not RESCALE_LO <= c <= RESCALE_HI:
                r = 1.0 / c
                for s in range(lo, hi):
                    bn[s] *= r
                lb += np.log(c)
                z, zb = _posteriors(bn[lo:], at, q[lo:], blk[lo:], hi - lo)
        if z < TINY:                             # the posteriors' sum underflows
            return False
        _grad_step(d[t, b], y[t], q[lo:], ext[lo:], 1 - lo % 2, hi - lo, z, zb)     # d[t, b]: contiguous (C,)
    return True


@njit(**JIT)
def _row_forward_log(lp, ext, skip, Tb, Sb, al, em, pa, pb):
    """One row in log space (the exact path): lp (T,C) log-softmax, ext (S,) and skip (S+2,) 0 / -inf from
    _row_classes; al (T,S) log alpha (-inf where no path reaches, kept so) -> log p. Scratch (float64): em (S,)
    step t's emissions gathered; pa, pb (S+2,) alpha[t-1] and alpha[t] behind two -inf entries, so that
    position s reads pa[s+2], pa[s+1], pa[s]."""
    dt = lp.dtype.type
    ninf, low = dt(-np.inf), dt(np.finfo(lp.dtype).min)
    if Tb == 0:
        return dt(0.0) if Sb == 1 else ninf
    for s in range(pa.shape[0]):
        pa[s] = ninf
        pb[s] = ninf
    pa[2] = lp[0, ext[0]]
    if Sb > 1:
        pa[3] = lp[0, ext[1]]
    for s in range(Sb):
        al[0, s] = pa[s + 2]
    for t in range(1, Tb):
        for s in range(Sb):
            em[s] = lp[t, ext[s]]
        for s in range(Sb):                      # no branch: a barred skip adds -inf
            pb[s + 2] = _lse3(pa[s + 2], pa[s + 1], pa[s] + skip[s], low) + em[s]
        for s in range(Sb):
            al[t, s] = pb[s + 2]
        pa, pb = pb, pa
    return _lse3(pa[Sb + 1], pa[Sb], ninf, low)



@njit(**JIT)
def _row_backward_log(lp, al, lz, ext, skip, Tb, Sb, d, bn, bt, q):
    """One row in log space (the exact path): d (T,C) = dL/dlogits from lp (T,C), log alpha al (T,S),
    log p lz, ext (S,), skip (S+2,) 0 / -inf.
    beta is never stored: bn (S,) holds beta[t+1], bt (S+2,) beta[t+1] + emission at t+1 (-inf past Sb), and
    step t's posteriors q (S,) are taken from beta[t] as soon as it is made (fused: no (T,S) beta, one pass)."""
    dt = lp.dtype.type
    ninf, low = dt(-np.inf), dt(np.finfo(lp.dtype).min)
    C = lp.shape[1]
    for s in range(bt.shape[0]):
        bt[s] = ninf
    for s in range(Sb):
        bn[s] = dt(0.0) if s >= Sb - 2 else ninf
    for t in range(Tb - 1, -1, -1):
        if t < Tb - 1:                           # beta[t] from beta[t+1]
            for s in range(Sb):
                bt[s] = bn[s] + lp[t + 1, ext[s]]
            for s in range(Sb):                  # no branch: a barred skip adds -inf, bt is -inf past Sb
                bn[s] = _lse3(bt[s], bt[s + 1], bt[s + 2] + skip[s + 2], low)
        for c in range(C):
            d[t, c] = _exp(lp[t, c])
        for s in range(Sb):                      # posterior of position s (vectorized exps)
            q[s] = _exp(al[t, s] + bn[s] - lz)
        for s in range(Sb):                      # ... subtracted from its class
            d[t, ext[s]] -= q[s]


def ctc_forward(logits, labels, input_lengths, label_lengths):
    """logits (T,B,C), labels (B,Lmax), input_lengths (B,), label_lengths (B,) -> loss (B,) (-log p; 0 where
    p = 0), saved = (logp (T,B,C), grad (T,B,C) dloss/dlogits of each row's own loss, logz (B,), logspace (B,)).

    The arguments reach the compiled loop C-contiguous (a copy only of one that is not) and read-only
    (``threads.readonly``): one compiled loop per dtype serves every caller, and a row's bits do not depend
    on the layout of the array it came in (a strided view compiles a loop that LLVM vectorizes differently:
    the softmax's sums then differ in their last bits on an AVX-512 host)."""
    return _forward(*readonly(*(np.ascontiguousarray(a) for a in (logits, labels, input_lengths, label_lengths))))


def ctc_backward(dloss, saved, labels, input_lengths, label_lengths):
    """dloss (B,) = dL/dloss, saved from ctc_forward -> dlogits (T,B,C) = dloss[b] grad[:, b] (0 past
    input_lengths[b] and on rows with p = 0). labels and lengths are not read (the forward took the gradient):
    they keep the twins' arguments. Arguments as ctc_forward's: contiguous and read-only."""
    return _backward(*readonly(np.ascontiguousarray(dloss), tuple(np.ascontiguousarray(a) for a in saved),
                               *(np.ascontiguousarray(a) for a in (labels, input_lengths, label_lengths))))


@njit(**PJIT)
def _forward(logits, labels, input_lengths, label_lengths):
    """ctc_forward's loop. Rows are run in CTC_ROW_CHUNKS fixed chunks (the prange), each with its own scratch,
    one row after another."""
    T, B, C = logits.shape
    S = 2 * labels.shape[1] + 1
    dt = logits.dtype
    logp = np.empty((T, B, C), dtype=dt)         # log-softmax at t < input_lengths[b], 0 after
    grad = np.empty((T, B, C), dtype=dt)         # dloss[b]/dlogits[:, b] at t < input_lengths[b], 0 after
    logz = np.zeros(B, dtype=dt)
    loss = np.zeros(B, dtype=dt)
    logspace = np.zeros(B, dtype=np.bool_)
    K = min(B, CTC_ROW_CHUNKS)
    y = np.empty((K, T, C))                      # scratch per chunk: the row's softmax, float64
    alpha = np.empty((K, T, S + 2))              # ... its alpha over a scale (position s at s + 2), or log alpha
    ext = np.zeros((K, S), dtype=np.uint64)      # ... (unsigned: an index Numba does not wrap)
    skm = np.empty((K, S + 2))
    skl = np.empty((K, S + 2))
    blk = np.empty((K, S))
    em = np.empty((K, S))
    pa = np.empty((K, S + 2))
    pb = np.empty((K, S + 2))
    bn = np.empty((K, S))
    bt = np.empty((K, S + 2))
    q = np.empty((K, S))
    for k in prange(K):
        for b in range(k * B // K, (k + 1) * B // K):
            Tb, Sb = input_lengths[b], 2 * label_lengths[b] + 1
            for t in range(Tb, T):
                for c in range(C):
                    logp[t, b, c] = 0.0
                    grad[t, b, c] = 0.0
            for t in range(Tb):
                _softmax_step(logits[t, b], logp[t, b], y[k, t])
            _row_classes(labels[b], Sb, ext[k], skm[k], skl[k], blk[k])
            lz, exact = _row_forward(y[k], ext[k], skm[k], Tb, Sb, alpha[k], em[k])
            al = alpha[k, :, 2:]                 # log alpha where the row runs in log space
            if not exact:
                logspace[b] = True
                lz = _row_forward_log(logp[:, b, :], ext[k], skl[k], Tb, Sb, al, em[k], pa[k], pb[k])
            logz[b] = lz
            if lz == -np.inf:                    # p = 0: loss 0, gradient 0
                for t in range(Tb):
                    for c in range(C):
                        grad[t, b, c] = 0.0
                continue
            loss[b] = -lz
            if exact:
                exact = _row_backward(y[k], alpha[k], lz, ext[k], skm[k], blk[k], Tb, Sb, grad, b, bn[k], bt[k], q[k],
                                      em[k])
                if not exact:                    # the forward ran rescaled: its log-space alpha, made again
                    _row_forward_log(logp[:, b, :], ext[k], skl[k], Tb, Sb, al, em[k], pa[k], pb[k])
            if not exact:
                _row_backward_log(logp[:, b, :], al, lz, ext[k], skl[k], Tb, Sb, grad[:, b, :], bn[k], bt[k], q[k])
    return loss, (logp, grad, logz, logspace)


@njit(**PJIT)
def _backward(dloss, saved, labels, input_lengths, label_lengths):
    """ctc_backward's loop."""
    grad = saved[1]
    T, B, C = grad.shape
    d = np.empty((T, B, C), dtype=grad.dtype)
    for t in prange(T):
        for b in range(B):
            g = dloss[b]
            for c in range(C):
                d[t, b, c] = g * grad[t, b, c]
    return d
