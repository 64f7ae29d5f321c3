"""Edit distances and error rates (lnrnn/textmetrics.py) against the Levenshtein recursion, memoized here:
d(i, j) = i if j = 0, j if i = 0, else min(d(i-1, j) + 1, d(i, j-1) + 1, d(i-1, j-1) + [a_i != b_j]).
cer and wer divide by the reference's length (characters, words), whatever the hypothesis' length; error_rates
sums edits and lengths over the lines first; label_edit_distances reads each padded row to its own lengths."""
import itertools
from functools import lru_cache

import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer


def lev(a, b):
    a, b = tuple(a), tuple(b)

    @lru_cache(maxsize=None)
    def d(i, j):
        if i == 0 or j == 0:
            return i + j
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return d(len(a), len(b))


WORDS = ["", "a", "ab", "ba", "abc", "aabb", "acab", "bbbb", "cabba"]


def test_edit_distance_of_every_pair_of_short_strings_is_the_recursions():
    for r, h in itertools.product(WORDS, repeat=2):
        assert edit_distance(r, h) == lev(r, h), (r, h)
        assert edit_distance(list(r), list(h)) == lev(r, h)


def test_dropped_and_added_characters_each_cost_one():
    assert edit_distance("abcde", "ace") == 2 == lev("abcde", "ace")     # two deletions
    assert edit_distance("ace", "abcde") == 2                            # two insertions
    assert edit_distance("abc", "") == 3 and edit_distance("", "abc") == 3


def test_cer_and_wer_divide_by_the_references_length():
    pairs = [("abcd", "ab"), ("ab", "abcd"), ("kitten", "sitting"), ("aaa", "a"), ("abc", "abc")]
    for r, h in pairs:
        assert cer(r, h) == pytest.approx(lev(r, h) / len(r))
    lines = [("the cat sat", "the cat"), ("a b", "a b c d"), ("one two three four", "one too three")]
    for r, h in lines:
        assert wer(r, h) == pytest.approx(lev(r.split(), h.split()) / len(r.split()))


def test_error_rates_sum_edits_and_reference_lengths_over_lines():
    refs = ["the cat sat", "a b", "", "xyz"]
    hyps = ["the bat", "a b c", "q", "xyz"]
    ce = sum(lev(r, h) for r, h in zip(refs, hyps))
    we = sum(lev(r.split(), h.split()) for r, h in zip(refs, hyps))
    got = error_rates(refs, hyps)
    assert got["cer"] == pytest.approx(ce / sum(len(r) for r in refs))
    assert got["wer"] == pytest.approx(we / sum(len(r.split()) for r in refs))


def test_label_edit_distances_of_padded_rows_read_each_rows_own_lengths():
    rng = np.random.default_rng(3)
    B, Lr, Lh = 12, 5, 6
    ref = rng.integers(1, 4, (B, Lr))
    hyp = rng.integers(1, 4, (B, Lh))
    rl = rng.integers(0, Lr + 1, B)
    hl = rng.integers(0, Lh + 1, B)
    rl[0], hl[0] = Lr, 0
    ref[np.arange(Lr)[None, :] >= rl[:, None]] = -1
    hyp[np.arange(Lh)[None, :] >= hl[:, None]] = -1
    got = label_edit_distances(ref, rl, hyp, hl)
    want = [lev(ref[b, :rl[b]].tolist(), hyp[b, :hl[b]].tolist()) for b in range(B)]
    assert got.tolist() == want
