"""CTC prefix beam search, compiled: the rules of ``decode.prefix_beam_search`` (the readable spec) run by
Numba over a trie of prefixes, one row per thread. Host code only (decoding reads the head's log-probabilities
on the host; there is no CUDA twin).

    beam_search_array(logp, width, lengths)   # (B,T) labels padded with -1, (B,) their lengths, (B,) log p
    search_bytes(steps, classes, width)       # what one row's search allocates (checked before a search)
    prefix_beams(logp_row, width)             # one row (T,C): [(labels tuple, log p), ...] best first, as the spec

Shapes: T steps, B rows, C classes (the blank is class ``CTC_BLANK`` = 0), W = width (capped at the number
of prefixes T steps can spell), N = 1 + T_b W trie nodes of a row of T_b steps.

How a row runs:
  * Every prefix is one node of a trie: parent, label, depth, first child, next sibling (N,), so a prefix
    reached again later (dropped, then rebuilt from its parent) is the same node. Node 0 is the empty prefix.
  * The kept prefixes (beam slots, (W,)) hold log pb, log pnb and their log-sum; slot (N,) maps a node to its
    beam slot, -1 when it is not kept.
  * A step offers every candidate of the spec to a heap of W on log tot alone (the worst kept at its root):
      - a kept prefix again: pb = tot + logp[blank], pnb = pnb + logp[last] (a repeat collapses), plus,
        when its parent is kept too, the parent's extension by its last label (two routes meet: the only
        log-add-exp of pnb; that extension is then not offered again);
      - a kept prefix + c, c not blank: (pb if c is its last label else tot) + logp[c], pb = -inf.
    Extensions come from the step's K = 2W most probable label classes, sorted (a kept prefix has at most W
    whose candidate is lowered or merged, so W plain ones beat every class past the K), and only those that
    could lift the best kept prefix past the worst after the "again" candidates; kept prefixes are scanned
    most probable first, classes likewise, each scan stopping at the first bound tot + logp[c] under the
    heap's worst. No exp or log runs outside the log-add-exps of the "again" candidates (about 2W a step).
  * Log space, as the spec, with NumPy's logaddexp rewritten operation for operation: the kernel's sums equal
    the spec's (to the bit where libm's exp and log1p are NumPy's; no fastmath: config.EXACT_JIT), and exact ties
    at the heap's cut are broken as the spec breaks them, labels in lexicographic order (a prefix before its
    extensions), by walking the two nodes up the trie.
    So the search is the spec's, whatever the width: a width at least the number of prefixes is exact.
  * A row whose every candidate has probability 0 at some step (a step of -inf everywhere) ends with no prefix:
    its label is empty and its log p -inf (the spec has no prefix to return there).
"""
import math

import numpy as np
from numba import njit, prange

from lnrnn.config import EXACT_JIT, EXACT_PJIT
from lnrnn.kernels.codes import CTC_BLANK

NINF = -np.inf
LOG2 = math.log(2.0)


@njit(**EXACT_JIT)
def _logaddexp(x, y):
    """log(exp(x) + exp(y)), NumPy's npy_logaddexp step by step (the spec's sums, bit for bit)."""
    if x == y:
        return x + LOG2
    d = x - y
    if d > 0:
        return x + math.log1p(math.exp(-d))
    return y + math.log1p(math.exp(d))


@njit(**EXACT_JIT)
def _order(p1, l1, p2, l2, tree):
    """-1, 0 or 1 as the labels of node p1 then l1 come before, are, or come after those of node p2 then l2
    in the spec's tie order (lexicographic; a prefix before its extensions). p = l = -1: the empty label.
    tree: (parent, label, depth, ...) (N,) each."""
    parent, label, depth = tree[0], tree[1], tree[2]
    d1 = 0 if p1 < 0 else depth[p1] + 1
    d2 = 0 if p2 < 0 else depth[p2] + 1
    e1, e2 = d1, d2
    while e1 > e2:                      # the longer climbs to the other's depth
        l1, p1, e1 = label[p1], parent[p1], e1 - 1
    while e2 > e1:
        l2, p2, e2 = label[p2], parent[p2], e2 - 1
    if p1 == p2 and l1 == l2:           # one begins the other: the shorter first
        return 0 if d1 == d2 else (-1 if d1 < d2 else 1)
    while p1 != p2:                     # up to the last common prefix; the labels below it differ
        l1, p1 = label[p1], parent[p1]
        l2, p2 = label[p2], parent[p2]
    return -1 if l1 < l2 else 1


@njit(**EXACT_JIT)
def _worse(s1, p1, l1, s2, p2, l2, tree):
    """Does candidate 1 (log p s1, labels: node p1 then l1) rank after candidate 2? More probable first
    (the pick of the best at the end; the heap compares log tots and breaks ties only at its cut)."""
    if s1 != s2:
        return s1 < s2
    return _order(p1, l1, p2, l2, tree) > 0


@njit(**EXACT_JIT)
def _put(heap, keys, i, s, b, nb, p, lab, node):
    heap[0, i], heap[1, i], heap[2, i] = s, b, nb
    keys[0, i], keys[1, i], keys[2, i] = p, lab, node


@njit(**EXACT_JIT)
def _offer(heap, keys, s, b, nb, p, lab, node, tree):
    """Offer a candidate (log tot s, log pb b, log pnb nb; labels: node p then lab; its node, -1 if not built)
    to the W best so far: heap (3,W) log tot, pb, pnb and keys (3,W) parent node, label, node, a min-heap on
    log tot alone (empty places: log tot -inf), so the root is a worst. Where log tots tie at the cut, the
    tied entry whose labels come last is the worst (the spec's order) and is the one replaced."""
    W = heap.shape[1]
    low = heap[0, 0]
    if s < low:
        return
    if low != NINF and (s == low or (W > 1 and heap[0, 1] == low) or (W > 2 and heap[0, 2] == low)):
        w = 0                                             # a tie at the cut (rare): find the worst of the tied
        for k in range(1, W):
            if heap[0, k] == low and _order(keys[0, k], keys[1, k], keys[0, w], keys[1, w], tree) > 0:
                w = k
        if s == low:                                      # the same log tot: replaced in place, still a heap
            if _order(p, lab, keys[0, w], keys[1, w], tree) < 0:
                _put(heap, keys, w, s, b, nb, p, lab, node)
            return
        _put(heap, keys, w, heap[0, 0], heap[1, 0], heap[2, 0], keys[0, 0], keys[1, 0], keys[2, 0])
    i = 0                                                 # the root leaves: sift the newcomer down
    while True:
        k = 2 * i + 1
        if k >= W:
            break
        if k + 1 < W and heap[0, k + 1] < heap[0, k]:
            k += 1
        if heap[0, k] >= s:
            break
        _put(heap, keys, i, heap[0, k], heap[1, k], heap[2, k], keys[0, k], keys[1, k], keys[2, k])
        i = k
    _put(heap, keys, i, s, b, nb, p, lab, node)


@njit(**EXACT_JIT)
def _search_row(logp, row, steps, W):
    """logp (T,B,C) float64 log-probabilities, row b, its steps T_b, width W -> nodes (n,) of the kept
    prefixes at the end, their log p (n,), and the trie tree (6,N): parent, label, depth, child, sibling,
    slot (n = 0 only where a step gave every candidate probability 0)."""
    C = logp.shape[2]
    N = 1 + steps * W
    tree = np.empty((6, N), np.int64)                     # (6,N)
    parent, label, depth, child, sibling, slot = tree[0], tree[1], tree[2], tree[3], tree[4], tree[5]
    parent[0], label[0], depth[0], child[0], sibling[0], slot[0] = -1, -1, 0, -1, -1, 0
    nodes = 1
    bnode = np.zeros(W, np.int64)                         # (W,) kept prefixes: node
    bval = np.empty((3, W))                               # (3,W) their log tot, log pb, log pnb
    bval[0, 0], bval[1, 0], bval[2, 0] = 0.0, 0.0, NINF
    nb = 1
    heap = np.empty((3, W))                               # (3,W) candidates: log tot, log pb, log pnb
    keys = np.empty((3, W), np.int64)                     # (3,W) their parent node, label, node (-1: new)
    order = np.empty(W, np.int64)                         # (W,) heap entries by their log tot, descending
    merged = np.zeros((W, C), np.int64)                   # (W,C) t + 1 where slot j + c is a kept prefix at t
    K = min(C - 1, 2 * W)                                 # classes a step's extensions are drawn from
    top = np.empty(max(K, 1), np.int64)                   # (K,) the step's most probable, by logp then class
    topv = np.empty(max(K, 1))                            # (K,) their logp
    for t in range(steps):
        lp = logp[t, row]                                 # (C,)
        blank = lp[CTC_BLANK]
        heap[0, :] = NINF                                 # empty
        keys[:2, :] = -1
        for k in range(nb):                               # each kept prefix again
            n = bnode[k]
            b = bval[0, k] + blank
            nbl = NINF
            if n != 0:
                c = label[n]
                nbl = bval[2, k] + lp[c]                  # a repeat of its last label collapses
                j = slot[parent[n]]
                if j >= 0:                                # its parent is kept: parent + c is this prefix
                    e = (bval[1, j] if c == label[bnode[j]] else bval[0, j]) + lp[c]
                    nbl = _logaddexp(nbl, e)
                    merged[j, c] = t + 1                  # not offered again as an extension
            s = _logaddexp(b, nbl)
            if s != NINF:
                _offer(heap, keys, s, b, nbl, parent[n], label[n], n, tree)
        worst = heap[0, 0]
        tot0 = bval[0, 0]                                 # the most probable kept prefix's
        nk, cut = 0, NINF                                 # the step's most probable label classes, at most K,
        for c in range(C):                                # those that can extend even tot0 past the worst
            v = lp[c]
            if c == CTC_BLANK or tot0 + v < worst or (nk == K and not v > cut):
                continue
            i = min(nk, K - 1)
            while i > 0 and topv[i - 1] < v:              # an equal class before c stays before it
                top[i], topv[i] = top[i - 1], topv[i - 1]
                i -= 1
            top[i], topv[i] = c, v
            nk = min(nk + 1, K)
            cut = topv[K - 1]
        for j in range(nb):                               # each kept prefix + a label, most probable first
            n = bnode[j]
            tot = bval[0, j]
            if nk == 0 or tot + topv[0] < worst:          # nor can any later one (tot descends)
                break
            last = label[n]
            for i in range(nk):
                c = top[i]
                if tot + lp[c] < worst:                   # a bound (a repeat reads pb <= tot): nor the rest
                    break
                e = (bval[1, j] if c == last else tot) + lp[c]
                if e < worst or e == NINF:
                    continue
                if merged[j, c] == t + 1:                 # kept: merged into its own candidate above
                    continue
                _offer(heap, keys, e, NINF, e, n, c, -1, tree)
                worst = heap[0, 0]
        for k in range(nb):
            slot[bnode[k]] = -1
        h = 0
        for k in range(W):                                # the heap's entries, most probable first (the
            v = heap[0, k]                                # next step scans them in this order: its worst
            if v == NINF:                                 # rises soonest)
                continue
            i = h
            while i > 0 and heap[0, order[i - 1]] < v:
                order[i] = order[i - 1]
                i -= 1
            order[i] = k
            h += 1
        for i in range(h):                                # the heap's prefixes are kept
            k = order[i]
            n = keys[2, k]
            if n < 0:                                     # an extension: its node, built if new
                p, c = keys[0, k], keys[1, k]
                n = child[p]
                while n >= 0 and label[n] != c:
                    n = sibling[n]
                if n < 0:
                    n = nodes
                    nodes += 1
                    parent[n], label[n], depth[n] = p, c, depth[p] + 1
                    child[n], sibling[n] = -1, child[p]
                    child[p] = n
            bnode[i] = n
            bval[0, i], bval[1, i], bval[2, i] = heap[0, k], heap[1, k], heap[2, k]
            slot[n] = i
        nb = h
    return bnode[:nb].copy(), bval[0, :nb].copy(), tree


@njit(**EXACT_JIT)
def _best(nodes, tots, tree):
    """Index of the best of the kept prefixes nodes (n,) with log p tots (n,), in the spec's order; -1 if n = 0."""
    parent, label = tree[0], tree[1]
    best = -1
    for k in range(nodes.shape[0]):
        n = nodes[k]
        if best < 0 or _worse(tots[best], parent[nodes[best]], label[nodes[best]], tots[k], parent[n], label[n], tree):
            best = k
    return best


@njit(**EXACT_PJIT)
def _search_rows(labels, label_lengths, logq, logp, lengths, W):
    """labels (B,T) int64 (padded with -1), label_lengths (B,), logq (B,) <- each row's most probable prefix
    and its log p; logp (T,B,C) float64, lengths (B,), width W. Rows are independent: any thread count gives
    the same output."""
    B = logp.shape[1]
    for b in prange(B):
        nodes, tots, tree = _search_row(logp, b, lengths[b], W)
        k = _best(nodes, tots, tree)
        if k < 0:
            label_lengths[b], logq[b] = 0, NINF
            continue
        n = nodes[k]
        d = tree[2, n]
        label_lengths[b], logq[b] = d, tots[k]
        for i in range(d - 1, -1, -1):
            labels[b, i] = tree[1, n]
            n = tree[0, n]


def _width(width, steps, classes):
    """The beam width the search needs: width, or the number of prefixes steps steps can spell if fewer."""
    if width < 1:
        raise ValueError(f"the beam width must be at least 1, got {width}")
    total, level = 1, 1
    for _ in range(steps):
        level *= max(classes - 1, 0)
        total += level
        if total >= width or level == 0:
            break
    return int(min(width, total))


def search_bytes(steps, classes, width):
    """Bytes one row's search of ``steps`` steps over ``classes`` classes allocates at ``width`` (as the search
    caps it): the trie (6,N) and the beam's slots, heap, keys and order (11 W) and merges (W,C), 8 bytes each."""
    W = _width(width, steps, classes)
    return 8 * (6 * (1 + steps * W) + W * (11 + classes))


def beam_search_array(logp, width, lengths=None):
    """logp (T,B,C) log-probabilities (any float dtype; the search runs in float64), lengths (B,) steps per
    row (None: all T) -> labels (B,T) int64 padded with -1, label_lengths (B,) int64, logq (B,) float64:
    each row's most probable prefix found by a prefix beam search of ``width`` and its log-probability."""
    logp = np.ascontiguousarray(logp, dtype=np.float64)
    T, B, C = logp.shape
    lengths = np.full(B, T, np.int64) if lengths is None else np.ascontiguousarray(lengths, dtype=np.int64)
    if lengths.shape != (B,) or (B and (lengths.min() < 0 or lengths.max() > T)):
        raise ValueError(f"lengths must be {B} step counts between 0 and {T}")
    labels = np.full((B, T), -1, np.int64)
    label_lengths = np.zeros(B, np.int64)
    logq = np.zeros(B)
    _search_rows(labels, label_lengths, logq, logp, lengths, _width(width, T, C))
    return labels, label_lengths, logq


def prefix_beams(logp, width):
    """logp (T,C) log-probabilities of one row -> the kept prefixes at the end, [(labels tuple, log p), ...]
    most probable first (ties in the order of the labels): ``decode.prefix_beam_search``'s answer, compiled."""
    row = np.ascontiguousarray(np.asarray(logp, dtype=np.float64)[:, None, :])   # (T,1,C)
    T, _, C = row.shape
    nodes, tots, tree = _search_row(row, 0, T, _width(width, T, C))
    out = []
    for n, s in zip(nodes.tolist(), tots.tolist()):
        lab = []
        while n > 0:
            lab.append(int(tree[1, n]))
            n = int(tree[0, n])
        out.append((tuple(lab[::-1]), float(s)))
    return sorted(out, key=lambda kv: (-kv[1], kv[0]))
