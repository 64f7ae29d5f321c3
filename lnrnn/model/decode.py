"""Decoding a CTC head's per-step class scores into label sequences (Graves et al. 2006, sec. 3.2).

    best_path(logp, lengths)                  # the most probable path, collapsed: list of B label lists
    best_path_array(logp, lengths)            # the same as (B,T) labels padded with -1 and their lengths
    prefix_beam_search(logp_row, width)       # [(labels, log p), ...] best first, of one row (the spec: Python)
    beam_search(logp, width, lengths)         # each row's best prefix: the same search compiled (lnrnn.model.beam)

logp (T,B,C) or a row's (T,C): log-probabilities over C classes (log-softmax of the head's logits; best
path alone reads logits as well). The blank is class ``CTC_BLANK`` = 0 (lnrnn.kernels.codes).

A label sequence's probability is the sum over all the paths that collapse to it (merge repeats, then
drop blanks), so the best path's label need not be the most probable label. Prefix beam search keeps,
for each of ``width`` prefixes, the log-probabilities of its paths that end in a blank (pb) and in its
last label (pnb); at each step a prefix grows by one class:
    blank                   prefix           += (pb + pnb) * p(blank)
    c == prefix's last      prefix           += pnb * p(c)        (a repeat collapses)
                            prefix + c       += pb * p(c)         (a blank separates the two)
    c != prefix's last      prefix + c       += (pb + pnb) * p(c)
and the sums of the paths that reach one prefix by different routes are merged before the ``width``
most probable are kept. With a width at least the number of prefixes the probabilities are exact
(tests/kernels/test_ctc.py counts every path of small cases). Width 1 is not best path: its single prefix
gathers all its paths (a repeat or a blank may outweigh the step's argmax); on confident steps the two agree.
"""
import numpy as np

from lnrnn.kernels.codes import CTC_BLANK
from lnrnn.model.beam import beam_search_array


def collapse(path):
    """A path of classes -> its label: repeats merged, then blanks dropped."""
    out, prev = [], None
    for k in path:
        k = int(k)
        if k != prev and k != CTC_BLANK:
            out.append(k)
        prev = k
    return out


def best_path_array(logp, lengths=None):
    """logp (T,B,C), lengths (B,) steps per row (None: all T) -> labels (B,T) int64 padded with -1 and
    label_lengths (B,): each row's per-step argmax over its steps, repeats merged, blanks dropped."""
    T, B, _ = logp.shape
    lengths = np.full(B, T) if lengths is None else np.asarray(lengths)
    arg = np.asarray(logp).argmax(axis=2).T                        # (B,T)
    new = np.ones((B, T), bool)
    new[:, 1:] = arg[:, 1:] != arg[:, :-1]                         # not a repeat of the step before
    keep = new & (arg != CTC_BLANK) & (np.arange(T)[None, :] < lengths[:, None])
    n = keep.sum(axis=1)
    out = np.full((B, T), -1, np.int64)
    out[np.arange(T)[None, :] < n[:, None]] = arg[keep]           # row-major: each row's kept classes in order
    return out, n.astype(np.int64)


def best_path(logp, lengths=None):
    """logp (T,B,C), lengths (B,) steps per row (None: all T) -> B label lists (``best_path_array``'s rows)."""
    labels, n = best_path_array(logp, lengths)
    return [labels[b, :n[b]].tolist() for b in range(len(n))]


def prefix_beam_search(logp, width):
    """logp (T,C) log-probabilities of one row's T steps -> at most ``width`` (labels tuple, log p) pairs,
    most probable first (ties in the order of the labels)."""
    if width < 1:
        raise ValueError(f"the beam width must be at least 1, got {width}")
    logp = np.asarray(logp, dtype=np.float64)
    T, C = logp.shape
    ninf = -np.inf
    beams = {(): (0.0, ninf)}                                     # prefix -> (log pb, log pnb)
    for t in range(T):
        lp = logp[t]
        new = {}

        def add(prefix, b, nb):
            if b == ninf and nb == ninf:       # no path (a repeat right after its label): not a prefix
                return
            ob, onb = new.get(prefix, (ninf, ninf))
            new[prefix] = (np.logaddexp(ob, b), np.logaddexp(onb, nb))

        for prefix, (pb, pnb) in beams.items():
            tot = np.logaddexp(pb, pnb)
            add(prefix, tot + lp[CTC_BLANK], ninf)
            last = prefix[-1] if prefix else None
            for c in range(C):
                if c == CTC_BLANK:
                    continue
                if c == last:
                    add(prefix, ninf, pnb + lp[c])
                    add(prefix + (c,), ninf, pb + lp[c])
                else:
                    add(prefix + (c,), ninf, tot + lp[c])
        ranked = sorted(new.items(), key=lambda kv: (-np.logaddexp(*kv[1]), kv[0]))
        beams = dict(ranked[:width])
    return [(p, float(np.logaddexp(*v))) for p, v in sorted(beams.items(), key=lambda kv: (-np.logaddexp(*kv[1]), kv[0]))]


def beam_search(logp, width, lengths=None):
    """logp (T,B,C), lengths (B,) (None: all T) -> B label lists, each row's most probable prefix: the
    search of ``prefix_beam_search`` compiled (lnrnn.model.beam, tested against it), rows on threads."""
    labels, n, _ = beam_search_array(logp, width, lengths)
    return [labels[b, :n[b]].tolist() for b in range(len(n))]
