"""CTC decoding by value (round 300 of the planted bugs, tests/mutants/mutants_values300.py): the readable
prefix beam search (lnrnn/model/decode.py) and the compiled one (lnrnn/model/beam.py) against brute force over
every path of tiny rows (test_values198_beam's every_labelling: all C^T paths collapsed and summed), and
against a hand-worked row where best path, width 1, width 3 and the full width disagree:
    p(step) = (blank .5, a .3, b .2) twice
    best path: blank, blank -> ()                       width 1 keeps () alone: () = .25
    width 3 keeps every one-step prefix: (a) = .5*.3 + .3*.5 + .3*.3 = .39, () = .25, (b) = .1 + .1 + .04 = .24
Exact ties (uniform steps, probabilities as fractions) are ordered shortest, then smallest labels first."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import best_path_array, prefix_beam_search
from test_values198_beam import check_list, every_labelling
from test_values250_beam import exhaustive_best, log_rows

WIDE = 10 ** 4


def by_rank(every):
    """{labels: log p} -> [(labels, log p)], most probable first, ties by labels; unreachable labels left out."""
    return sorted(((k, v) for k, v in every.items() if v > -np.inf), key=lambda kv: (-kv[1], kv[0]))


@pytest.mark.parametrize("T,C,seed", [(3, 3, 30001), (4, 2, 30002), (2, 4, 30003)])
def test_full_width_lists_every_reachable_label_with_its_sum_over_paths(T, C, seed):
    """Both searches, every prefix kept: exactly the labels some path spells (a repeat needs a blank
    between, so (1, 1) is missing at T 2), each with its brute-force log p; never a blank as a label."""
    logp = log_rows(seed, T, 1, C, 1.1)[:, 0]                       # (T,C) steps all different
    want = by_rank(every_labelling(logp))
    check_list(prefix_beam_search(logp, WIDE), want)
    check_list(prefix_beams(logp, WIDE), want)
    for labels, _ in prefix_beam_search(logp, WIDE) + prefix_beams(logp, WIDE):
        assert 0 not in labels


def test_rows_of_their_own_lengths_give_the_brute_force_best_and_its_log_p():
    """Three rows of 4, 3 and 0 steps; the first's best spells two labels (a, blank, b, b)."""
    T, C = 4, 3
    logp = log_rows(30011, T, 3, C, 0.7)
    logp[:, 0] = np.log([[0.1, 0.8, 0.1], [0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.2, 0.1, 0.7]])
    lengths = np.array([4, 3, 0])
    labels, n, logq = beam_search_array(logp, WIDE, lengths)
    for b in range(3):
        best, v = exhaustive_best(logp[:lengths[b], b]) if lengths[b] else ((), 0.0)
        assert tuple(labels[b, :n[b]]) == best, b
        assert np.all(labels[b, n[b]:] == -1)
        np.testing.assert_allclose(logq[b], v, rtol=1e-12, atol=1e-15)
    assert tuple(labels[0, :n[0]]) == (1, 2)
    assert n.tolist()[2] == 0 and logq[2] == 0.0                    # no step: the empty label, log 1


def test_float32_scores_are_searched_in_float64():
    logp = log_rows(30021, 3, 2, 3, 1.3).astype(np.float32)
    labels, n, logq = beam_search_array(logp, WIDE)
    for b in range(2):
        best, v = exhaustive_best(logp[:, b].astype(np.float64))
        assert tuple(labels[b, :n[b]]) == best
        np.testing.assert_allclose(logq[b], v, rtol=1e-13)


HAND = np.log(np.array([[0.5, 0.3, 0.2], [0.5, 0.3, 0.2]]))


def test_hand_row_best_path_width_one_width_three_and_full_width_disagree():
    labels, n = best_path_array(HAND[:, None, :])
    assert n.tolist() == [0] and labels.tolist() == [[-1, -1]]
    for search in (prefix_beam_search, prefix_beams):
        check_list(search(HAND, 1), [((), math.log(0.25))])
        check_list(search(HAND, 3), [((1,), math.log(0.39)), ((), math.log(0.25)), ((2,), math.log(0.24))])
    got, k, q = beam_search_array(HAND[:, None, :], 1)
    assert k.tolist() == [0]
    np.testing.assert_allclose(q, [math.log(0.25)], rtol=1e-12)
    got, k, q = beam_search_array(HAND[:, None, :], 3)
    assert got[0, :k[0]].tolist() == [1]
    np.testing.assert_allclose(q, [math.log(0.39)], rtol=1e-12)


def exact_labelling(probs):
    """probs: T rows of C Fractions -> {labels: exact probability} over every path (groupby merges repeats)."""
    out = {}
    for path in itertools.product(range(len(probs[0])), repeat=len(probs)):
        lab = tuple(k for k, _ in itertools.groupby(path) if k != 0)
        p = Fraction(1)
        for t, k in enumerate(path):
            p *= probs[t][k]
        out[lab] = out.get(lab, 0) + p
    return out


def test_exact_ties_are_ranked_shortest_then_smallest_labels():
    """Uniform steps of 3 classes, T 2: (1,) and (2,) 3/9 each; (), (1, 2), (2, 1) 1/9 each; (1, 1) cannot be
    spelt. Width 3 keeps (1,), (2,) and (), the shortest of the three tied at the cut."""
    probs = [[Fraction(1, 3)] * 3] * 2
    exact = exact_labelling(probs)
    assert exact[(1,)] == exact[(2,)] == Fraction(3, 9) and exact[()] == exact[(1, 2)] == Fraction(1, 9)
    want = [(k, math.log(v)) for k, v in sorted(((k, v) for k, v in exact.items() if v), key=lambda kv: (-kv[1], kv[0]))]
    assert [k for k, _ in want] == [(1,), (2,), (), (1, 2), (2, 1)]
    logp = np.full((2, 3), -math.log(3))
    for search in (prefix_beam_search, prefix_beams):
        check_list(search(logp, WIDE), want)
        check_list(search(logp, 3), want[:3])
        check_list(search(logp, 1), [((), 2 * -math.log(3))])
    for width in (2, 3, WIDE):
        labels, n, logq = beam_search_array(logp[:, None, :], width)
        assert labels[0, :n[0]].tolist() == [1], width
        np.testing.assert_allclose(logq, [math.log(3 / 9)], rtol=1e-12)


def test_one_step_tie_of_two_labels_keeps_the_smaller_at_width_one():
    logp = np.log(np.array([[0.2, 0.4, 0.4]]))
    for search in (prefix_beam_search, prefix_beams):
        check_list(search(logp, 1), [((1,), math.log(0.4))])
        check_list(search(logp, 2), [((1,), math.log(0.4)), ((2,), math.log(0.4))])
    labels, n, logq = beam_search_array(np.stack([logp, logp[:, ::-1]], axis=1), 1)   # row 2: (0.4, 0.4, 0.2)
    assert labels[0, :n[0]].tolist() == [1] and n[1] == 0
