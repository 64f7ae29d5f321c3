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

Recursion, in log space (Graves 2006 eqs. 5-10; lse = log-sum-exp):
    logp[t]      = log-softmax(logits[t]) over C
    alpha[0,s]   = logp[0, ext[s]] for s < 2, else -inf
    alpha[t,s]   = lse(alpha[t-1,s], alpha[t-1,s-1], alpha[t-1,s-2] if ext[s] is a label != ext[s-2]) + logp[t, ext[s]]
    log p        = lse(alpha[Tb-1, S_b-1], alpha[Tb-1, S_b-2])            loss[b] = -log p
    beta[Tb-1,s] = 0 for s >= S_b - 2, else -inf      (emission at t excluded)
    beta[t,s]    = lse over s' in {s, s+1, s+2 if ext[s+2] is a label != ext[s]} of beta[t+1,s'] + logp[t+1, ext[s']]
    dL/dlogits[t,c] = softmax[t,c] - sum over s with ext[s] = c of exp(alpha[t,s] + beta[t,s] - log p)
The skip over a blank (s-2 -> s) is barred between two equal labels: "a a" needs a blank between them.
A row whose label cannot fit (p = 0: fewer steps than labels plus repeats) gets loss 0 and gradient 0,
as PyTorch's ``ctc_loss(..., zero_infinity=True)``; logz[b] = -inf marks it. A row with no steps and an
empty label has p = 1 (loss 0); steps t >= input_lengths[b] get gradient 0.

How it runs fast: each step's s-loop is branch-free and vectorized (AVX2: 4 positions at a time).
    * The row's extended label is made once (_row_classes): ext (S,) its classes, skip (S+2,) 0 where a
      skip into s is allowed and -inf where not, added to the s-2 term, so no position tests its class.
    * One three-term lse per (t,s) (_lse3): one max, three exps, one log, the max's exp being 1 so the
      log's argument is in [1, 3]; no test on -inf: when all three terms are -inf the shift is the
      dtype's lowest finite value and a select gives -inf (an unreachable position stays -inf, exactly).
    * exp and log are polynomials in float64 arithmetic (_exp, _log13: about 1 ulp near 0, a few ulp far
      below), which LLVM vectorizes; libm's exp and log1p are a call per element (Numba's SVML path
      needs an SVML-patched llvmlite, which the PyPI wheels are not).
    * alpha[t-1] and alpha[t] live in two scratch rows padded with two -inf entries in front (position s
      reads s+2, s+1, s: no negative index); step t's emissions are gathered once into a row (S,).
    * The backward never stores beta: it makes beta[t] from beta[t+1] in a row and takes step t's
      posteriors from it at once (one pass, no (B,T,S) scratch).
    * Every per-row scratch array is allocated before the prange over rows.

Precision: alpha, beta and log p are stored in the row's dtype (as PyTorch's CPU and CUDA losses do); each
lse is evaluated in float64 and rounded once. In float32 the log values grow to |T log C| (about 1300 at
T = 300, C = 80), where a float32 ulp is 6e-5 to 1.2e-4, so a posterior exp(alpha + beta - log p) carries a
relative error of a few 1e-4 (3.4e-4 of the largest gradient at T 200, C 30, labels of 40), well below the
gradient noise of a minibatch; tests/test_ctc.py bounds the float32 kernel against float64 at 1e-3.

Speed (bench/ctc_step.py; bench/results/ctc-step-epyc.txt): at T 300, B 32, C 80, labels of 60, float32,
one thread of an AMD EPYC (Zen 3), forward + backward take 0.43x the CPU time of the earlier kernel (two
two-term lse per (t,s), each with exp, log1p and tests on -inf, scalar).

saved (forward returns it, backward takes it back): (logp (T,B,C), alpha (B,T,S), logz (B,)).
Rows are independent: the prange over rows writes only its own row of every buffer.
"""
import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from lnrnn.config import JIT, PJIT
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


@njit(**JIT)
def _skip(lab, s):
    """Whether position s may be entered from s-2 (skipping a blank): s is a label unlike the one before."""
    return s % 2 == 1 and s >= 3 and lab[s // 2] != lab[s // 2 - 1]


@njit(**JIT)
def _row_classes(lab, Sb, ext, skip):
    """The row's extended label once, so the recursions' s-loops carry no test: ext[:Sb] (S,) its classes,
    skip[:Sb+2] (S+2,) 0 where s may be entered from s-2, -inf where not (added to that term) and past Sb."""
    ninf = skip.dtype.type(-np.inf)
    for s in range(skip.shape[0]):
        skip[s] = ninf
    for s in range(Sb):
        ext[s] = CTC_BLANK if s % 2 == 0 else lab[s // 2]
        if _skip(lab, s):
            skip[s] = 0.0


@njit(**JIT)
def _log_softmax(lp, Tb):
    """lp (T,C): logits in, log-softmax out over C at steps t < Tb."""
    dt = lp.dtype.type
    C = lp.shape[1]
    for t in range(Tb):
        m = lp[t, 0]
        for c in range(1, C):
            m = max(m, lp[t, c])
        z = dt(0.0)
        for c in range(C):
            z += _exp(lp[t, c] - m)
        lz = m + np.log(z)
        for c in range(C):
            lp[t, c] -= lz


@njit(**JIT)
def _row_forward(lp, ext, skip, Tb, Sb, al, em, pa, pb):
    """One row: lp (T,C) log-softmax, ext (S,) and skip (S+2,) from _row_classes; al (T,S) alpha (-inf
    where no path reaches, kept so) -> log p. Scratch: em (S,) step t's emissions gathered; pa, pb (S+2,)
    alpha[t-1] and alpha[t] behind two -inf entries, so that position s reads pa[s+2], pa[s+1], pa[s]."""
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


@njit(**PJIT)
def ctc_forward(logits, labels, input_lengths, label_lengths):
    """logits (T,B,C), labels (B,Lmax), input_lengths (B,), label_lengths (B,) -> loss (B,) (-log p; 0 where
    p = 0), saved = (logp (T,B,C), alpha (B,T,S), logz (B,))."""
    T, B, C = logits.shape
    S = 2 * labels.shape[1] + 1
    dt = logits.dtype
    logp = logits.copy()                   # made log-softmax row by row (steps t < input_lengths[b])
    alpha = np.full((B, T, S), -np.inf, dtype=dt)
    logz = np.zeros(B, dtype=dt)
    loss = np.zeros(B, dtype=dt)
    ext = np.zeros((B, S), dtype=np.int64)       # scratch per row, made before the row loop
    skip = np.empty((B, S + 2), dtype=dt)
    em = np.empty((B, S), dtype=dt)
    pa = np.empty((B, S + 2), dtype=dt)
    pb = np.empty((B, S + 2), dtype=dt)
    for b in prange(B):
        Tb, Sb = input_lengths[b], 2 * label_lengths[b] + 1
        for t in range(Tb, T):
            for c in range(C):
                logp[t, b, c] = 0.0
        _log_softmax(logp[:, b, :], Tb)
        _row_classes(labels[b], Sb, ext[b], skip[b])
        logz[b] = _row_forward(logp[:, b, :], ext[b], skip[b], Tb, Sb, alpha[b], em[b], pa[b], pb[b])
        if logz[b] != -np.inf:
            loss[b] = -logz[b]
    return loss, (logp, alpha, logz)


@njit(**JIT)
def _row_backward(g, lp, al, lz, ext, skip, Tb, Sb, d, bn, bt, q):
    """One row: d (T,C) = g * dL/dlogits from lp (T,C), alpha al (T,S), log p lz, ext (S,), skip (S+2,).
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
            d[t, c] = g * _exp(lp[t, c])
        for s in range(Sb):                      # posterior of position s (vectorized exps)
            q[s] = _exp(al[t, s] + bn[s] - lz)
        for s in range(Sb):                      # ... subtracted from its class
            d[t, ext[s]] -= g * q[s]


@njit(**PJIT)
def ctc_backward(dloss, saved, labels, input_lengths, label_lengths):
    """dloss (B,) = dL/dloss, saved from ctc_forward -> dlogits (T,B,C) (0 past input_lengths[b] and on rows
    with p = 0)."""
    logp, alpha, logz = saved
    T, B, C = logp.shape
    S = alpha.shape[2]
    d = np.zeros((T, B, C), dtype=logp.dtype)
    ext = np.zeros((B, S), dtype=np.int64)       # scratch per row, made before the row loop
    skip = np.empty((B, S + 2), dtype=logp.dtype)
    bn = np.empty((B, S), dtype=logp.dtype)
    bt = np.empty((B, S + 2), dtype=logp.dtype)
    q = np.empty((B, S), dtype=logp.dtype)
    for b in prange(B):
        Tb, Sb = input_lengths[b], 2 * label_lengths[b] + 1
        if Tb > 0 and logz[b] != -np.inf:
            _row_classes(labels[b], Sb, ext[b], skip[b])
            _row_backward(dloss[b], logp[:, b, :], alpha[b], logz[b], ext[b], skip[b], Tb, Sb, d[:, b, :],
                          bn[b], bt[b], q[b])
    return d
