"""The compiled prefix beam search (lnrnn/model/beam.py) at widths 1, 2 and 3 against searches worked out
here. An exhaustive sum over every one of the C^T paths, collapsed by hand (blanks drop, repeats merge),
gives each labelling's log p; a search as wide as every prefix must list them all. A plain prefix beam
search written in tests/model/test_values198_beam.py (keep the `width` best prefixes after each step, ties
by their labels) gives what each narrow width keeps. Rows are built from a few probabilities shared by
whole columns, so that swapped classes tie exactly and the cut of a width-2 or width-3 beam falls inside a
tie; a one-label row of three steps is summed path by path in the test (blank/repeat merging by hand)."""
import itertools
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from test_values198_beam import check_list, every_labelling, plain_beam
from test_values250_beam import log_rows


def tied_row(T, C, seed):
    """(T,C) log-probabilities: each step's blank and labels drawn from four probabilities, the labels of a
    step sharing them in pairs so that prefixes differing by a swap tie exactly."""
    rng = np.random.default_rng(seed)
    levels = np.array([1.0, 2.0, 3.0, 5.0])
    out = np.empty((T, C))
    for t in range(T):
        w = levels[rng.integers(0, 4, C)]
        w[2::2] = w[1:C - 1:2][:len(w[2::2])]          # class 2 repeats class 1, class 4 repeats class 3
        out[t] = np.log(w / w.sum())
    return out


def sorted_every(logp):
    every = every_labelling(logp)
    return sorted(every.items(), key=lambda kv: (-kv[1], kv[0]))


@pytest.mark.parametrize("T,C,seed", [(3, 3, 1), (4, 3, 2), (3, 4, 3), (4, 4, 4), (5, 3, 5)])
def test_widths_one_two_three_keep_the_plain_beams_list_among_exact_ties(T, C, seed):
    logp = tied_row(T, C, seed)
    for width in (1, 2, 3):
        check_list(prefix_beams(logp, width), plain_beam(logp, width))


@pytest.mark.parametrize("T,C,seed", [(3, 3, 11), (4, 3, 12), (4, 4, 13), (5, 3, 14)])
def test_widths_one_two_three_on_random_rows(T, C, seed):
    logp = log_rows(seed, T, 1, C, 1.6)[:, 0]
    for width in (1, 2, 3):
        check_list(prefix_beams(logp, width), plain_beam(logp, width))


@pytest.mark.parametrize("T,C", [(3, 3), (4, 3), (3, 4)])
def test_a_beam_of_every_prefix_lists_every_labelling_with_its_sum_over_paths(T, C):
    """Random rows: the list in order; tied rows: the same labellings and sums (swapped classes tie in
    truth, and the two sums' roundings may order them either way)."""
    prefixes = sum((C - 1) ** k for k in range(T + 1))
    logp = log_rows(T * 10 + C, T, 1, C, 1.3)[:, 0]
    check_list(prefix_beams(logp, prefixes), sorted_every(logp))
    logp = tied_row(T, C, 20 + T + C)
    got, want = dict(prefix_beams(logp, prefixes)), every_labelling(logp)
    assert sorted(got) == sorted(want)
    np.testing.assert_allclose([got[k] for k in sorted(want)], [want[k] for k in sorted(want)], rtol=1e-12)


def test_a_batch_of_rows_each_find_their_own_best_at_every_width():
    T, B, C = 4, 4, 3
    logp = log_rows(337, T, B, C, 1.4)
    logp[:, 2] = tied_row(T, C, 9)
    for width in (1, 2, 3, 15):
        labels, n, logq = beam_search_array(logp, width)
        for b in range(B):
            want = plain_beam(logp[:, b], width) if width < 15 else sorted_every(logp[:, b])
            assert tuple(labels[b, :n[b]]) == want[0][0], (width, b)
            assert (labels[b, n[b]:] == -1).all()
            np.testing.assert_allclose(logq[b], want[0][1], rtol=1e-12)


def test_one_label_three_steps_merged_by_hand():
    """C = 2 (blank, 'a'), T = 3: the 8 paths collapse to (), (a,) and (a, a) (only a-blank-a)."""
    p = np.array([[0.6, 0.4], [0.3, 0.7], [0.55, 0.45]])     # p[t, k]
    logp = np.log(p)
    prob = {(): 0.0, (1,): 0.0, (1, 1): 0.0}
    for path in itertools.product((0, 1), repeat=3):
        v = p[0, path[0]] * p[1, path[1]] * p[2, path[2]]
        key = {(0, 0, 0): (), (1, 0, 1): (1, 1)}.get(path, (1,))
        prob[key] += v
    # written out: (a,) = 001 + 010 + 011 + 100 + 110 + 111
    a = (.6 * .3 * .45 + .6 * .7 * .55 + .6 * .7 * .45 + .4 * .3 * .55 + .4 * .7 * .55 + .4 * .7 * .45)
    assert math.isclose(prob[(1,)], a, rel_tol=1e-14)
    assert math.isclose(prob[(1, 1)], .4 * .3 * .45, rel_tol=1e-14)
    want = sorted(((k, math.log(v)) for k, v in prob.items()), key=lambda kv: (-kv[1], kv[0]))
    check_list(prefix_beams(logp, 3), want)
    assert [k for k, _ in prefix_beams(logp, 2)] == [(1,), ()]
    labels, n, logq = beam_search_array(logp[:, None, :], 3)
    assert tuple(labels[0, :n[0]]) == (1,) and math.isclose(logq[0], math.log(a), rel_tol=1e-13)


def test_a_repeated_label_needs_a_blank_between_at_widths_two_and_three():
    """C = 3, T = 4, 'a' likely at steps 1, 2 and 4 and the blank at 3: (a, a) against (a,) and (a, b)."""
    p = np.array([[0.1, 0.8, 0.1], [0.2, 0.7, 0.1], [0.8, 0.1, 0.1], [0.2, 0.6, 0.2]])
    logp = np.log(p)
    every = sorted_every(logp)
    check_list(prefix_beams(logp, 15), every)
    for width in (1, 2, 3):
        check_list(prefix_beams(logp, width), plain_beam(logp, width))
