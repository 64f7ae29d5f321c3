"""Decoding (lnrnn/model/decode.py, lnrnn/model/beam.py) against decisions made here on tiny alphabets: a prefix
beam search written out in probabilities (each prefix's mass of paths ending in a blank and in its last label,
the four rules of Graves 2006 sec. 3.2, the ``width`` most probable kept, ties in the order of the labels), the
sum over every path of each labelling (itertools: each path collapsed by hand), and best path by hand. The spec
(decode.prefix_beam_search) and the compiled search (beam.prefix_beams, beam.beam_search_array) must keep the
same prefixes with the same probabilities at every width, from 1 to the number of prefixes the steps can spell
(where the search is exact: every labelling with its summed probability); width 1 reads as best path on
confident steps; exact ties (uniform steps) keep the empty label before its extensions and class 1 before
class 2; a row without steps or with blanks only reads the empty label; a width below 1 is refused."""
import itertools
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import beam_search, best_path, best_path_array, prefix_beam_search


def beam_by_hand(p, width):
    """p (T,C) probabilities -> [(labels, p), ...] kept after the last step, most probable first."""
    T, C = p.shape
    beams = {(): (1.0, 0.0)}                                    # prefix -> (paths ending in a blank, in its last)
    for t in range(T):
        new = {}

        def add(prefix, b, nb):
            ob, onb = new.get(prefix, (0.0, 0.0))
            new[prefix] = (ob + b, onb + nb)

        for prefix, (pb, pnb) in beams.items():
            add(prefix, (pb + pnb) * p[t, 0], 0.0)
            for c in range(1, C):
                if prefix and c == prefix[-1]:
                    add(prefix, 0.0, pnb * p[t, c])           # the repeat collapses
                    add(prefix + (c,), 0.0, pb * p[t, c])     # a blank between: a new label
                else:
                    add(prefix + (c,), 0.0, (pb + pnb) * p[t, c])
        ranked = sorted(((k, v) for k, v in new.items() if sum(v) > 0), key=lambda kv: (-sum(kv[1]), kv[0]))
        beams = dict(ranked[:width])
    return sorted(((k, sum(v)) for k, v in beams.items()), key=lambda kv: (-kv[1], kv[0]))


def every_path(p):
    """p (T,C) -> {labelling: p} summed over all C^T paths, each collapsed by hand."""
    T, C = p.shape
    out = {}
    for path in itertools.product(range(C), repeat=T):
        lab = tuple(k for i, k in enumerate(path) if k != 0 and (i == 0 or k != path[i - 1]))
        out[lab] = out.get(lab, 0.0) + math.prod(p[t, k] for t, k in enumerate(path))
    return out


def greedy(p):
    best = p.argmax(axis=1)
    return [int(c) for t, c in enumerate(best) if c != 0 and (t == 0 or c != best[t - 1])]


def spelled(T, C):
    """How many label sequences of at most T labels over C - 1 classes there are (the empty one included): the
    count the compiled search caps its width at (those with a repeat need more steps than labels)."""
    return sum((C - 1) ** k for k in range(T + 1))


def random_steps(rng, T, C, scale=1.5):
    x = scale * rng.standard_normal((T, C))
    return np.exp(x) / np.exp(x).sum(axis=1, keepdims=True)


def same(got, want):
    assert [k for k, _ in got] == [k for k, _ in want]
    np.testing.assert_allclose([v for _, v in got], [math.log(v) for _, v in want], rtol=1e-11)


@pytest.mark.parametrize("T, C, seed", [(4, 3, 1), (5, 3, 2), (4, 4, 3), (3, 5, 4), (1, 4, 5), (1, 3, 6)])
def test_spec_and_compiled_search_keep_what_a_beam_written_here_keeps_at_every_width(T, C, seed):
    rng = np.random.default_rng(6200 + seed)
    p = random_steps(rng, T, C)
    n = spelled(T, C)
    for width in sorted({1, 2, 3, 4, 6, 9, n - 1, n, n + 5}):
        want = beam_by_hand(p, width)
        same(prefix_beam_search(np.log(p), width), want)
        same(prefix_beams(np.log(p), width), want)
        labels, lengths, logq = beam_search_array(np.log(p)[:, None, :], width)
        assert labels[0, :lengths[0]].tolist() == list(want[0][0]) and np.all(labels[0, lengths[0]:] == -1)
        np.testing.assert_allclose(logq[0], math.log(want[0][1]), rtol=1e-11)
    exact = {k: v for k, v in every_path(p).items() if v > 0}   # as wide as the prefixes: every labelling
    assert len(exact) == n if T == 1 else len(exact) < n        # a repeat needs a blank: not all can be spelled
    got = prefix_beams(np.log(p), n)
    assert sorted(k for k, _ in got) == sorted(exact)
    for k, v in got:
        np.testing.assert_allclose(v, math.log(exact[k]), rtol=1e-11)


def test_rows_of_a_batch_each_searched_over_their_own_steps():
    rng = np.random.default_rng(6210)
    T, B, C = 5, 4, 4
    p = np.stack([random_steps(rng, T, C, 2.0) for _ in range(B)], axis=1)      # (T,B,C)
    lengths = np.array([5, 2, 0, 4])
    for width in (1, 2, 4):
        labels, n, logq = beam_search_array(np.log(p), width, lengths)
        got = beam_search(np.log(p), width, lengths)
        for b in range(B):
            want = beam_by_hand(p[:lengths[b], b], width)[0]
            assert got[b] == list(want[0]) == labels[b, :n[b]].tolist()
            assert np.all(labels[b, n[b]:] == -1)
            np.testing.assert_allclose(logq[b], math.log(want[1]), rtol=1e-11, atol=1e-15)


def test_width_one_reads_as_best_path_on_confident_steps():
    """Each step gives 0.9 to one class: the most probable path carries the labelling, and a width of 1, best
    path and the exact search's best labelling all read the collapse of the steps' argmax (repeats and
    blank-separated repeats included)."""
    rng = np.random.default_rng(6211)
    C = 4
    for seq in ([1, 1, 0, 1, 2, 2], [0, 0, 3, 0, 0], [2, 0, 2, 3, 3, 0], [0, 0, 0, 0], [1, 2, 3, 1, 2, 3]):
        T = len(seq)
        p = np.full((T, C), 0.0)
        p[np.arange(T), seq] = 0.9
        for t in range(T):                                      # the other 0.1 spread at random
            rest = rng.dirichlet(np.ones(C - 1)) * 0.1
            p[t, [c for c in range(C) if c != seq[t]]] = rest
        want = greedy(p)
        exact = every_path(p)
        assert max(exact, key=exact.get) == tuple(want)
        assert beam_search(np.log(p)[:, None, :], 1) == [want]
        assert best_path(np.log(p)[:, None, :]) == [want]
        assert prefix_beam_search(np.log(p), 1)[0][0] == tuple(want)


def test_exact_ties_keep_the_empty_label_before_its_extensions_and_lower_classes_first():
    """One step, blank and class 1 at 1/2: width 1 keeps the empty label (it comes before '1'); width 2 keeps both,
    empty first. Three uniform classes: the empty label is the best of three equals. Classes 1 and 2 tied above
    the blank: width 1 keeps '1'."""
    half = np.log([[0.5, 0.5]])
    for search in (prefix_beam_search, prefix_beams):
        assert search(half, 1) == [((), math.log(0.5))]
        assert [k for k, _ in search(half, 2)] == [(), (1,)]
        assert [k for k, _ in search(np.log(np.full((1, 3), 1 / 3)), 3)] == [(), (1,), (2,)]
        assert [k for k, _ in search(np.log([[0.2, 0.4, 0.4]]), 1)] == [(1,)]
    for w in (1, 2, 3):
        labels, n, logq = beam_search_array(np.log(np.full((1, 1, 3), 1 / 3)), w)
        assert n[0] == 0 and np.all(labels == -1)
        np.testing.assert_allclose(logq[0], math.log(1 / 3), rtol=1e-15)
        assert beam_search(half[:, None, :], w) == [[]]


def test_rows_without_steps_or_with_only_blanks_read_the_empty_label():
    """No steps: the empty label with p = 1 (log p 0); blanks all along: the empty label with p the product of
    the blanks' probabilities plus nothing else, by best path and by the search at any width."""
    T, C = 3, 3
    p = np.tile([[0.8, 0.15, 0.05]], (T, 1))
    logp = np.log(np.stack([p, p], axis=1))                     # (T,2,C)
    for w in (1, 2, 5):
        labels, n, logq = beam_search_array(logp, w, np.array([0, T]))
        assert n.tolist() == [0, 0] and np.all(labels == -1)
        assert logq[0] == 0.0
        np.testing.assert_allclose(logq[1], math.log(every_path(p)[()]), rtol=1e-12)
    assert best_path(logp, np.array([0, T])) == [[], []]
    labels, n = best_path_array(logp, np.array([0, T]))
    assert n.tolist() == [0, 0] and np.all(labels == -1)


def test_a_width_below_one_is_refused():
    logp = np.log(np.full((2, 3), 1 / 3))
    for w in (0, -1):
        with pytest.raises(ValueError, match="at least 1"):
            prefix_beam_search(logp, w)
        with pytest.raises(ValueError, match="at least 1"):
            beam_search(logp[:, None, :], w)


def test_best_path_by_hand_with_rows_of_their_own_lengths():
    """Each row's argmax over its own steps, repeats merged, blanks dropped (a blank between two equal classes
    keeps both), padded with -1."""
    seqs = [[1, 1, 0, 1, 2, 2], [2, 0, 0, 2, 1, 1], [0, 1, 2, 1, 0, 0]]
    lengths = np.array([6, 4, 1])
    T, C = 6, 3
    logp = np.full((T, len(seqs), C), np.log(0.1))
    for b, s in enumerate(seqs):
        logp[np.arange(T), b, s] = np.log(0.8)
    want = [[1, 1, 2], [2, 2], []]
    assert best_path(logp, lengths) == want
    labels, n = best_path_array(logp, lengths)
    assert n.tolist() == [3, 2, 0]
    for b in range(3):
        assert labels[b, :n[b]].tolist() == want[b] and np.all(labels[b, n[b]:] == -1)
