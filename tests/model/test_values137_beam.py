"""Prefix beam search (lnrnn/model/beam.py compiled, lnrnn/model/decode.py the spec) against exhaustive search on
tiny vocabularies: a width as large as the number of labellings returns every labelling with its probability
summed over all C^T paths (test_values87_beam.enumerate_labellings, each path collapsed there); width 1 is the
greedy prefix search written here (one prefix, its blank-ending and label-ending sums, the most probable of its
extensions kept each step); each row of a batch reads only its own steps, and its padding cannot change it.
Repeats need a blank between them; a run of one label collapses."""
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import best_path, prefix_beam_search
from test_values87_beam import collapse, enumerate_labellings, random_probs

WIDE = 10_000


def greedy(p):
    """Width 1 in probabilities: -> (labelling, its pb + pnb)."""
    k, pb, pnb = (), 1.0, 0.0
    for t in range(p.shape[0]):
        cand = {k: [(pb + pnb) * p[t, 0], pnb * p[t, k[-1]] if k else 0.0]}
        for c in range(1, p.shape[1]):
            e = (pb if k and c == k[-1] else pb + pnb) * p[t, c]
            if k + (c,) in cand:
                cand[k + (c,)][1] += e
            else:
                cand[k + (c,)] = [0.0, e]
        k = max(sorted(cand), key=lambda q: sum(cand[q]))     # ties: the lexicographically first, as the search
        pb, pnb = cand[k]
    return k, pb + pnb


def assert_every_labelling(got, want):
    assert {k for k, _ in got} == {k for k, q in want.items() if q > 0.0}
    for k, lp in got:
        assert lp == pytest.approx(math.log(want[k]), abs=1e-11), k
    assert [lp for _, lp in got] == sorted((lp for _, lp in got), reverse=True)


@pytest.mark.parametrize("T,C,seed", [(3, 3, 0), (4, 3, 1), (3, 4, 2), (5, 2, 3)])
def test_a_wide_search_and_the_spec_are_exhaustive(T, C, seed):
    p = random_probs(np.random.default_rng(seed), T, C, scale=1.5)
    want = enumerate_labellings(p)
    assert_every_labelling(prefix_beams(np.log(p), WIDE), want)
    assert_every_labelling(prefix_beam_search(np.log(p), WIDE), want)
    best = max(want, key=want.get)
    labels, n, logq = beam_search_array(np.log(p)[:, None, :], WIDE)
    assert tuple(labels[0, :n[0]]) == best
    assert logq[0] == pytest.approx(math.log(want[best]), abs=1e-11)


def test_repeated_labels_and_a_run_of_one_label():
    """Steps a a blank a b b: 'a a b' needs the blank; 'a b' comes from the runs."""
    a, blank, b = [0.1, 0.8, 0.1], [0.8, 0.1, 0.1], [0.1, 0.1, 0.8]
    p = np.array([a, a, blank, a, b, b])
    want = enumerate_labellings(p)
    got = dict(prefix_beams(np.log(p), WIDE))
    for k in [(1, 1, 2), (1, 2), (1,), (2, 1)]:
        assert got[k] == pytest.approx(math.log(want[k]), abs=1e-11)
    spec = dict(prefix_beam_search(np.log(p), WIDE))
    assert spec[(1, 1, 2)] == pytest.approx(math.log(want[(1, 1, 2)]), abs=1e-11)
    assert best_path(np.log(p)[:, None, :]) == [list(collapse(np.argmax(p, axis=1)))] == [[1, 1, 2]]


@pytest.mark.parametrize("T,C,seed", [(4, 3, 5), (6, 3, 6), (5, 4, 7)])
def test_width_1_is_the_greedy_prefix_search(T, C, seed):
    p = random_probs(np.random.default_rng(seed), T, C)
    k, q = greedy(p)
    (got, lp), = prefix_beams(np.log(p), 1)
    assert got == k and lp == pytest.approx(math.log(q), abs=1e-11)
    (spec, slp), = prefix_beam_search(np.log(p), 1)
    assert spec == k and slp == pytest.approx(math.log(q), abs=1e-11)
    labels, n, logq = beam_search_array(np.log(p)[:, None, :], 1)
    assert tuple(labels[0, :n[0]]) == k and logq[0] == pytest.approx(math.log(q), abs=1e-11)


def test_rows_of_unequal_lengths_read_their_own_steps_whatever_the_padding():
    rng = np.random.default_rng(8)
    T, B, C = 5, 4, 3
    p = np.stack([random_probs(rng, T, C, scale=1.5) for _ in range(B)], axis=1)    # (T,B,C)
    lengths = np.array([5, 2, 3, 1])
    logp = np.log(p)
    for b in range(B):
        logp[lengths[b]:, b] = np.log([0.02, 0.49, 0.49])         # padding that would add labels if read
    for width in (1, 3, WIDE):
        labels, n, logq = beam_search_array(logp, width, lengths)
        for b in range(B):
            pr = p[:lengths[b], b]
            if width == WIDE:
                want = enumerate_labellings(pr)
                k = max(want, key=want.get)
                q = want[k]
            else:
                k, q = greedy(pr) if width == 1 else (prefix_beam_search(np.log(pr), width)[0][0],
                                                      math.exp(prefix_beam_search(np.log(pr), width)[0][1]))
            assert tuple(labels[b, :n[b]]) == k, (width, b)
            assert logq[b] == pytest.approx(math.log(q), abs=1e-11)
            assert np.all(labels[b, n[b]:] == -1)
