"""lnrnn/model/decode.py's prefix beam search (the Python spec) and lnrnn/model/beam.py (the compiled search)
against label probabilities summed over every path by brute force (tiny T and C, a width keeping every
prefix), against a hand computation where two routes into one prefix carry equal sums (log 3/4 on two
uniform steps), against hand-spelled confident rows (the label, its length, log p, ragged steps and a row of
no steps), and against the spec's answers where mirrored classes make exact ties at the top."""
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import beam_search, prefix_beam_search
from test_beam import exact_label_probs, log_softmax


def random_row(seed, T=4, C=3):
    """(T,C) log-probabilities of a flat random row (every label gets a sizable share)."""
    return log_softmax(np.random.default_rng(seed).standard_normal((T, C)))


def as_dict(beams):
    return {lab: q for lab, q in beams}


@pytest.mark.parametrize("search, seed", [("spec", 0), ("spec", 1), ("compiled", 2), ("compiled", 3)])
def test_every_prefix_kept_equals_the_sum_over_paths(search, seed):
    """decode.prefix_beam_search (the spec) and beam.prefix_beams (compiled) with a width past the number of
    prefixes: every label the paths spell, with log of its probability summed over every path (repeats such as
    (1, 1) and (2, 2, 1) included)."""
    logp = random_row(seed)
    want = exact_label_probs(np.exp(logp))
    got = as_dict((prefix_beam_search if search == "spec" else prefix_beams)(logp, 1000))
    assert sorted(got) == sorted(want)
    for lab, p in want.items():
        assert got[lab] == pytest.approx(math.log(p), rel=1e-12, abs=1e-12)


def test_two_equal_routes_into_one_prefix_by_hand():
    """Two steps of blank and class 1 at 1/2 each: () is the path 0 0 (1/4); (1,) is 1 1, 0 1, 1 0 (3/4). At
    step 2 the repeat 1 1 and the extension 0 1 reach (1,) with the same sum (1/4 each): log-add-exp of two
    equal terms adds log 2."""
    logp = np.log(np.full((2, 2), 0.5))
    got = prefix_beams(logp, 5)
    assert [lab for lab, _ in got] == [(1,), ()]
    np.testing.assert_allclose([q for _, q in got], [math.log(0.75), math.log(0.25)], rtol=1e-15)
    labels, n, logq = beam_search_array(logp[:, None, :], 3)
    assert labels.tolist() == [[1, -1]] and n.tolist() == [1]
    assert logq[0] == pytest.approx(math.log(0.75), rel=1e-15)


def spelled(path, C, margin=6.0):
    """(T,C) log-probabilities where each step favours its class in path by margin nats."""
    z = np.zeros((len(path), C))
    z[np.arange(len(path)), path] = margin
    return log_softmax(z)


def test_confident_rows_give_their_spelled_labels_lengths_and_log_p():
    """Three rows of T 5, C 3, ragged: row 0 spells 2 2 0 1 0 -> (2, 1) over 5 steps; row 1 spells 0 1 1 over
    its 3 steps (its last two steps, spelling 2 2, are past its length) -> (1,); row 2 has no steps -> the
    empty label with log p 0. log p against the brute-force sum over the row's own steps' paths."""
    T, C = 5, 3
    logp = np.empty((T, 3, C))
    logp[:, 0] = spelled([2, 2, 0, 1, 0], C)
    logp[:, 1] = spelled([0, 1, 1, 2, 2], C)
    logp[:, 2] = spelled([1, 2, 1, 2, 1], C)
    lengths = np.array([5, 3, 0])
    labels, n, logq = beam_search_array(logp, 100, lengths)
    assert n.tolist() == [2, 1, 0]
    assert labels.tolist() == [[2, 1, -1, -1, -1], [1, -1, -1, -1, -1], [-1] * 5]
    p0 = exact_label_probs(np.exp(logp[:5, 0]))
    p1 = exact_label_probs(np.exp(logp[:3, 1]))
    assert max(p0, key=p0.get) == (2, 1) and max(p1, key=p1.get) == (1,)
    np.testing.assert_allclose(logq, [math.log(p0[(2, 1)]), math.log(p1[(1,)]), 0.0], rtol=1e-12, atol=1e-12)
    assert beam_search(logp, 100, lengths) == [[2, 1], [1], []]


def mirrored_rows(seed, T, B, C=4):
    """(T,B,C) log-probabilities where classes 1 and 2 have the same probability at every step: a label and
    its mirror (1 <-> 2) have bit-equal sums, so the most probable labels tie in pairs."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.2, 1.0, (T, B, C))
    p[:, :, 2] = p[:, :, 1]
    return np.log(p / p.sum(axis=2, keepdims=True))


@pytest.mark.parametrize("width", [1, 2, 3, 5])
def test_exact_ties_at_the_top_are_broken_as_the_spec_breaks_them(width):
    """On mirrored rows (T 3, B 6, C 4) each row's answer is the spec's first prefix (of a tie, the label
    that comes first: 1 before 2), and the compiled kept prefixes are the spec's, in its order."""
    logp = mirrored_rows(7, 3, 6)
    want = [prefix_beam_search(logp[:, b], width) for b in range(logp.shape[1])]
    assert beam_search(logp, width) == [list(w[0][0]) for w in want]
    for b in range(logp.shape[1]):
        got = prefix_beams(logp[:, b], width)
        assert [lab for lab, _ in got] == [lab for lab, _ in want[b]]
