"""The compiled prefix beam search (lnrnn/model/beam.py) against exhaustive search and a plain prefix beam
written out by hand (test_values198_beam: every one of the C^T paths collapsed by hand into each labelling's
log p; a beam that keeps the `width` best prefixes by log p, ties by their labels, a prefix before its
extensions). A width at least the number of prefixes must list every labelling with its sum over paths (a
prefix reached by two routes, its parent extended and itself again, merged into one entry), and its best row
by row must be the exhaustive best even where a narrower beam loses it. Widths 1, 2 and the alphabet must keep
exactly the plain beam's list, on random rows and on steps where labels tie exactly (the cut then decided by
the labels' order)."""
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from test_values198_beam import check_list, every_labelling, plain_beam


def log_rows(seed, T, B, C, scale):
    x = scale * np.random.default_rng(seed).standard_normal((T, B, C))
    return x - np.log(np.exp(x).sum(axis=-1, keepdims=True))


def check_widths(logp, widths):
    """beam_search_array at each width against the plain beam of every row (its list, best labelling and
    score) over logp (T,B,C)."""
    for width in widths:
        labels, n, logq = beam_search_array(logp, width)
        for b in range(logp.shape[1]):
            want = plain_beam(logp[:, b], width)
            check_list(prefix_beams(logp[:, b], width), want)
            assert tuple(labels[b, :n[b]]) == want[0][0], (width, b)
            np.testing.assert_allclose(logq[b], want[0][1], rtol=1e-12)


def exhaustive_best(logp):
    every = every_labelling(logp)
    best = min(every, key=lambda k: (-every[k], k))
    return best, every[best]


@pytest.mark.parametrize("T,C", [(4, 3), (3, 4)])
def test_a_wide_search_lists_every_labelling_with_its_sum_over_paths(T, C):
    logp = log_rows(25010 + C, T, 3, C, 1.2)
    for b in range(3):
        every = every_labelling(logp[:, b])
        got = prefix_beams(logp[:, b], 10 ** 4)
        assert len(got) == len(every) == len(set(p for p, _ in got))
        want = sorted(every.items(), key=lambda kv: (-kv[1], kv[0]))
        check_list(got, want)


def test_a_wide_search_finds_each_rows_exhaustive_best():
    """60 flat rows of 5 steps over a blank and 2 labels (63 prefixes): a beam of every prefix is exact."""
    T, B, C = 5, 60, 3
    logp = log_rows(25020, T, B, C, 0.6)
    labels, n, logq = beam_search_array(logp, 63)
    for b in range(B):
        best, v = exhaustive_best(logp[:, b])
        assert tuple(labels[b, :n[b]]) == best, b
        assert np.all(labels[b, n[b]:] == -1)
        np.testing.assert_allclose(logq[b], v, rtol=1e-12, atol=0)


TIED = [
    np.log(np.array([0.2, 0.3, 0.3, 0.2])),          # two labels tie, a third ties the blank
    np.log(np.array([0.1, 0.3, 0.3, 0.3])),          # three labels tie above the blank
    np.log(np.array([0.4, 0.2, 0.2, 0.2])),          # the blank above three tied labels
]


@pytest.mark.parametrize("k", range(len(TIED)))
def test_widths_one_two_and_the_alphabet_keep_the_plain_beams_list_among_ties(k):
    for T in (2, 3):
        logp = np.tile(TIED[k], (T, 1))
        for width in (1, 2, 4):
            want = plain_beam(logp, width)
            check_list(prefix_beams(logp, width), want)
            labels, n, logq = beam_search_array(logp[:, None, :], width)
            assert tuple(labels[0, :n[0]]) == want[0][0], (T, width)
            np.testing.assert_allclose(logq[0], want[0][1], rtol=1e-12)


def test_widths_one_two_and_the_alphabet_on_random_rows():
    T, B, C = 4, 6, 4
    logp = log_rows(25030, T, B, C, 1.0)
    check_widths(logp, (1, 2, C))


def test_one_step_lists_the_empty_labelling_and_each_class():
    """One step: () has the blank's log p, (c,) class c's; every labelling by hand."""
    lp = np.log(np.array([0.5, 0.2, 0.3]))
    got = prefix_beams(lp[None, :], 3)
    assert [p for p, _ in got] == [(), (2,), (1,)]
    np.testing.assert_allclose([v for _, v in got], [math.log(0.5), math.log(0.3), math.log(0.2)], rtol=1e-15)
