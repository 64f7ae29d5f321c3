"""Edit distance and the error rates of a recognizer's transcriptions.

    edit_distance("kitten", "sitting")      # 3: insertions, deletions and substitutions cost 1 each
    cer(ref, hyp)                           # character error rate of one line: edits / len(ref)
    wer(ref, hyp)                           # word error rate: the same over whitespace-split words
    error_rates(refs, hyps)                 # {'cer', 'wer'} of many lines: total edits / total length

A line's rate is undefined for an empty reference (ValueError); ``error_rates`` sums edits and reference
lengths first, as papers report them (Graves et al. 2009: label error rate over a test set), and counts
an empty reference line by its hypothesis' insertions.
"""


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
        raise ValueError(f"{len(refs)} reference lines but {len(hyps)} hypotheses")
    ce = sum(edit_distance(r, h) for r, h in zip(refs, hyps))
    we = sum(edit_distance(r.split(), h.split()) for r, h in zip(refs, hyps))
    nc, nw = sum(len(r) for r in refs), sum(len(r.split()) for r in refs)
    return {"cer": _ratio(ce, nc), "wer": _ratio(we, nw)}


def _ratio(edits, n):
    """edits / n; over an empty total, 0 without edits and infinite with some."""
    return edits / n if n else (0.0 if edits == 0 else float("inf"))
