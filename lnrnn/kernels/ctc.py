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

Recursion, in log space (Graves 2006 eqs. 5-10; log-sum-exp of two terms at a time):
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

Precision: alpha, beta and log p are kept in the row's dtype (as PyTorch's CPU and CUDA losses do).
In float32 the log values grow to |T log C| (about 1300 at T = 300, C = 80), where a float32 ulp is
6e-5 to 1.2e-4, so a posterior exp(alpha + beta - log p) carries a relative error of a few 1e-4 (3.4e-4
of the largest gradient at T 200, C 30, labels of 40), well below the gradient noise of a minibatch;
tests/test_ctc.py bounds the float32 kernel against float64 at 1e-3.

saved (forward returns it, backward takes it back): (logp (T,B,C), alpha (B,T,S), logz (B,)).
Rows are independent: the prange over rows writes only its own row of every buffer.
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import JIT, PJIT
from lnrnn.kernels.codes import CTC_BLANK


@njit(**JIT)
def _lse(a, b):
    """log(exp(a) + exp(b)) without overflow; -inf when both are -inf."""
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    if a > b:
        return a + np.log1p(np.exp(b - a))
    return b + np.log1p(np.exp(a - b))


@njit(**JIT)
def _ext(lab, s):
    """Class at position s of the extended label of lab (Lmax,)."""
    return CTC_BLANK if s % 2 == 0 else lab[s // 2]


@njit(**JIT)
def _skip(lab, s):
    """Whether position s may be entered from s-2 (skipping a blank): s is a label unlike the one before."""
    return s % 2 == 1 and s >= 3 and lab[s // 2] != lab[s // 2 - 1]


@njit(**JIT)
def _row_forward(lp, lab, Tb, Sb, al):
    """One row: lp (T,C) logits in, log-softmax out (t < Tb); al (T,S) alpha -> log p."""
    dt = lp.dtype.type
    ninf = dt(-np.inf)
    C = lp.shape[1]
    for t in range(Tb):
        m = lp[t, 0]
        for c in range(1, C):
            m = max(m, lp[t, c])
        z = dt(0.0)
        for c in range(C):
            z += np.exp(lp[t, c] - m)
        lz = m + np.log(z)
        for c in range(C):
            lp[t, c] -= lz
    if Tb == 0:
        return dt(0.0) if Sb == 1 else ninf
    for s in range(Sb):
        al[0, s] = lp[0, _ext(lab, s)] if s < 2 else ninf
    for t in range(1, Tb):
        for s in range(Sb):
            a = al[t - 1, s]
            if s >= 1:
                a = _lse(a, al[t - 1, s - 1])
            if _skip(lab, s):
                a = _lse(a, al[t - 1, s - 2])
            al[t, s] = a + lp[t, _ext(lab, s)]
    last = al[Tb - 1, Sb - 1]
    return _lse(last, al[Tb - 1, Sb - 2]) if Sb > 1 else last


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
    for b in prange(B):
        for t in range(input_lengths[b], T):
            for c in range(C):
                logp[t, b, c] = 0.0
        logz[b] = _row_forward(logp[:, b, :], labels[b], input_lengths[b], 2 * label_lengths[b] + 1, alpha[b])
        if logz[b] != -np.inf:
            loss[b] = -logz[b]
    return loss, (logp, alpha, logz)


@njit(**JIT)
def _row_backward(g, lp, al, lz, lab, Tb, Sb, be, d):
    """One row: d (T,C) = g * dL/dlogits from lp (T,C), alpha al (T,S), log p lz; be (T,S) scratch for beta."""
    dt = lp.dtype.type
    ninf = dt(-np.inf)
    C = lp.shape[1]
    for s in range(Sb):
        be[Tb - 1, s] = dt(0.0) if s >= Sb - 2 else ninf
    for t in range(Tb - 2, -1, -1):
        for s in range(Sb):
            a = be[t + 1, s] + lp[t + 1, _ext(lab, s)]
            if s + 1 < Sb:
                a = _lse(a, be[t + 1, s + 1] + lp[t + 1, _ext(lab, s + 1)])
            if s + 2 < Sb and _skip(lab, s + 2):
                a = _lse(a, be[t + 1, s + 2] + lp[t + 1, _ext(lab, s + 2)])
            be[t, s] = a
    for t in range(Tb):
        for c in range(C):
            d[t, c] = g * np.exp(lp[t, c])
        for s in range(Sb):
            q = al[t, s] + be[t, s]
            if q != ninf:
                d[t, _ext(lab, s)] -= g * np.exp(q - lz)


@njit(**PJIT)
def ctc_backward(dloss, saved, labels, input_lengths, label_lengths):
    """dloss (B,) = dL/dloss, saved from ctc_forward -> dlogits (T,B,C) (0 past input_lengths[b] and on rows
    with p = 0)."""
    logp, alpha, logz = saved
    T, B, C = logp.shape
    d = np.zeros((T, B, C), dtype=logp.dtype)
    beta = np.empty_like(alpha)                                  # (B,T,S)
    for b in prange(B):
        if input_lengths[b] > 0 and logz[b] != -np.inf:
            _row_backward(dloss[b], logp[:, b, :], alpha[b], logz[b], labels[b], input_lengths[b],
                          2 * label_lengths[b] + 1, beta[b], d[:, b, :])
    return d
