"""lnrnn/model/beam.py against a brute-force search: every one of the C^T paths of a few steps, collapsed by
hand (repeats merged, blanks dropped), its probability summed into its labelling. A width at least the number
of prefixes finds them all, each with its log p; a narrower search at one step (where every prefix is a
candidate) keeps the width's best, exact ties broken by labels in lexicographic order (a prefix before its
extensions), widths 1, 2, 3 and past the alphabet. beam_search_array returns each row's most probable labelling,
the lexicographically first of tied ones, padded with -1 past its length."""
import itertools
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams


def collapse(path):
    out, prev = [], 0
    for c in path:
        if c != 0 and c != prev:
            out.append(c)
        prev = c
    return tuple(out)


def brute(logp):
    """logp (T,C) -> {labelling: log p}, summed over every path."""
    T, C = logp.shape
    p = {}
    for path in itertools.product(range(C), repeat=T):
        q = math.exp(sum(logp[t, c] for t, c in enumerate(path)))
        lab = collapse(path)
        p[lab] = p.get(lab, 0.0) + q
    return {k: math.log(v) for k, v in p.items() if v > 0}


def ranked(scores, tol=1e-12):
    """Best first; scores within tol are a tie, broken by labels (a shorter prefix first)."""
    return sorted(scores.items(), key=lambda kv: (-round(kv[1] / tol), kv[0]))


def uniform(T, C):
    return np.full((T, C), -math.log(C))


def random_logp(T, C, seed):
    z = np.random.default_rng(seed).normal(0.0, 1.5, (T, C))
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


@pytest.mark.parametrize("T,C,seed", [(1, 3, 0), (2, 3, 1), (3, 3, 2), (3, 4, 3), (2, 5, None)])
def test_a_wide_search_finds_every_labelling_with_its_probability(T, C, seed):
    logp = uniform(T, C) if seed is None else random_logp(T, C, seed)
    want = brute(logp)
    got = prefix_beams(logp, 10 ** 4)
    assert sorted(lab for lab, _ in got) == sorted(want)
    for lab, s in got:
        assert s == pytest.approx(want[lab], abs=1e-12)


@pytest.mark.parametrize("C", [3, 4, 5])
@pytest.mark.parametrize("W", [1, 2, 3, 7])
def test_one_step_keeps_the_widths_best_ties_by_labels(C, W):
    logp = uniform(1, C)                                  # every prefix () (1,) ... (C-1,) equally probable
    want = ranked(brute(logp))[:W]
    got = prefix_beams(logp, W)
    assert [lab for lab, _ in got] == [lab for lab, _ in want]
    # the blank half as likely: the labels tie among themselves, () is last
    lp = np.log(np.array([[1.0] + [2.0] * (C - 1)]) / (2.0 * C - 1.0))
    want = ranked(brute(lp))[:W]
    assert [lab for lab, _ in prefix_beams(lp, W)] == [lab for lab, _ in want]


@pytest.mark.parametrize("T,C", [(2, 3), (3, 3), (2, 4)])
def test_best_of_tied_labellings_is_the_first_by_labels(T, C):
    logp = uniform(T, C)
    want_lab, want_s = ranked(brute(logp))[0]
    labels, L, logq = beam_search_array(logp[:, None, :], 10 ** 4)
    assert tuple(labels[0, :L[0]]) == want_lab
    assert logq[0] == pytest.approx(want_s, abs=1e-12)


def test_rows_of_their_own_lengths_padded_with_minus_one():
    T, C = 4, 3
    rows = [random_logp(T, C, s) for s in (5, 6, 7)]
    lengths = np.array([4, 2, 0])
    logp = np.stack(rows, axis=1)                         # (T,B,C)
    labels, L, logq = beam_search_array(logp, 50, lengths)
    for b, n in enumerate(lengths):
        if n == 0:
            assert L[b] == 0 and logq[b] == 0.0
        else:
            lab, s = ranked(brute(rows[b][:n]))[0]
            assert tuple(labels[b, :L[b]]) == lab
            assert logq[b] == pytest.approx(s, abs=1e-12)
        assert (labels[b, L[b]:] == -1).all()

