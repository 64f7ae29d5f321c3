"""Edit distance and the error rates of a recognizer's transcriptions.

    edit_distance("kitten", "sitting")      # 3: insertions, deletions and substitutions cost 1 each
    cer(ref, hyp)                           # character error rate of one line: edits / len(ref)
    wer(ref, hyp)                           # word error rate: the same over whitespace-split words
    error_rates(refs, hyps)                 # {'cer', 'wer'} of many lines: total edits / total length
    label_edit_distances(ref, rl, hyp, hl)  # compiled, per row of padded int label arrays (the CTC head's)

A line's rate is undefined for an empty reference (ValueError); ``error_rates`` sums edits and reference
lengths first, as papers report them (Graves et al. 2009: label error rate over a test set), and counts
an empty reference line by its hypothesis' insertions.
"""
import numpy as np
from numba import njit

from lnrnn.config import JIT


def edit_distance(ref, hyp):
    """Levenshtein distance between two sequences (strings, lists of labels or of words): the fewest
    insertions, deletions and substitutions that turn ref into hyp. O(len(ref) len(hyp)) time, one row."""
    prev = list(range(len(hyp) + 1))                 # distances of ref[:0] to each prefix of hyp
    for i, r in enumerate(ref, 1):
        cur = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            cur[j] = min(prev[j] + 1,                  # delete r
                         cur[j - 1] + 1,               # insert h
                         prev[j - 1] + (r != h))       # substitute (free when equal)
        prev = cur
    return prev[-1]


def _rate(ref, hyp):
    if len(ref) == 0:
        raise ValueError("the error rate of an empty reference is undefined; use error_rates over several lines")
    return edit_distance(ref, hyp) / len(ref)


def cer(ref, hyp):
    """Character error rate of one line: edit distance / reference characters."""
    return _rate(ref, hyp)


def wer(ref, hyp):
    """Word error rate of one line: edit distance over whitespace-split words / reference words."""
    return _rate(ref.split(), hyp.split())


def error_rates(refs, hyps):
    """{'cer': total character edits / total reference characters, 'wer': the same for words} of paired
    lines; 0 edits over 0 characters is 0, edits over 0 characters infinite."""
    refs, hyps = list(refs), list(hyps)
    if len(refs) != len(hyps):
        raise ValueError(f"{len(refs)} reference line{'s' * (len(refs) != 1)} but {len(hyps)} "
                         f"{'hypothesis' if len(hyps) == 1 else 'hypotheses'}")
    ce = sum(edit_distance(r, h) for r, h in zip(refs, hyps))
    we = sum(edit_distance(r.split(), h.split()) for r, h in zip(refs, hyps))
    nc, nw = sum(len(r) for r in refs), sum(len(r.split()) for r in refs)
    return {"cer": _ratio(ce, nc), "wer": _ratio(we, nw)}


def _ratio(edits, n):
    """edits / n; over an empty total, 0 without edits and infinite with some."""
    return edits / n if n else (0.0 if edits == 0 else float("inf"))


@njit(**JIT)
def label_edit_distances(ref, ref_lengths, hyp, hyp_lengths):
    """ref (B,Lr), hyp (B,Lh) int labels padded at the end, their lengths (B,) -> edits (B,) int64: the
    Levenshtein distance of each row's first ref_lengths[b] and hyp_lengths[b] labels (``edit_distance``
    compiled, for a head that scores every batch)."""
    B = ref.shape[0]
    out = np.zeros(B, np.int64)
    prev = np.empty(hyp.shape[1] + 1, np.int64)
    cur = np.empty(hyp.shape[1] + 1, np.int64)
    for b in range(B):
        n = hyp_lengths[b]
        for j in range(n + 1):
            prev[j] = j
        for i in range(1, ref_lengths[b] + 1):
            cur[0] = i
            for j in range(1, n + 1):
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ref[b, i - 1] != hyp[b, j - 1]))
            prev, cur = cur, prev
        out[b] = prev[n]
    return out
