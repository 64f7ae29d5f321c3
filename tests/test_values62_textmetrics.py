"""Error rates (lnrnn/textmetrics.py) as edit distances against a Levenshtein written here as its definition (the
fewest single edits, by the recursion on the last characters, memoized) and against counts made by hand:
an insertion, a deletion and a substitution each cost 1 wherever they fall (at the front, the back, in the
middle), an empty side costs the other's length, words are split on runs of spaces (leading, trailing and
repeated spaces change no word), and the compiled distance of padded label rows reads each row's own lengths."""
import functools
import itertools

import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer


def levenshtein(a, b):
    a, b = tuple(a), tuple(b)

    @functools.lru_cache(maxsize=None)
    def d(i, j):                                     # distance of a[:i] to b[:j]
        if i == 0 or j == 0:
            return i + j
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return d(len(a), len(b))


# (ref, hyp, edits) counted by hand: one kind of edit at a time, at the front, the middle and the back
BY_HAND = [
    ("abc", "xabc", 1), ("abc", "abxc", 1), ("abc", "abcx", 1),          # insertions
    ("abc", "bc", 1), ("abc", "ac", 1), ("abc", "ab", 1),                # deletions
    ("abc", "xbc", 1), ("abc", "axc", 1), ("abc", "abx", 1),             # substitutions
    ("", "ab", 2), ("ab", "", 2), ("", "", 0), ("a", "ba", 1), ("ab", "b", 1),
    ("abcd", "badc", 3), ("kitten", "sitting", 3), ("aaa", "aa", 1), ("ab", "ba", 2),
]


@pytest.mark.parametrize("ref, hyp, edits", BY_HAND)
def test_edit_distance_counts_each_insertion_deletion_and_substitution_once(ref, hyp, edits):
    assert levenshtein(ref, hyp) == edits
    assert edit_distance(ref, hyp) == edits
    assert edit_distance(list(ref), list(hyp)) == edits
    if ref:
        assert cer(ref, hyp) == edits / len(ref)


def test_edit_distance_of_every_pair_of_short_strings_equals_the_recursion():
    words = ["".join(w) for n in range(4) for w in itertools.product("ab", repeat=n)]
    for a in words:
        for b in words:
            assert edit_distance(a, b) == levenshtein(a, b), (a, b)


def test_words_split_on_runs_of_spaces():
    """Leading, trailing and repeated spaces make no word: the same words score 0; one word inserted, dropped or
    changed is one edit over the reference's word count."""
    assert wer("a b c", "  a   b c ") == 0.0
    assert wer(" the  cat sat ", "the cat") == pytest.approx(1 / 3)              # one deletion
    assert wer("the cat", "the  black   cat") == pytest.approx(1 / 2)            # one insertion
    assert wer("the cat  sat", "the dog sat") == pytest.approx(1 / 3)            # one substitution
    assert wer("a b", "") == 1.0 and wer("a", "a b c") == 2.0
    with pytest.raises(ValueError):
        wer("   ", "a")
    with pytest.raises(ValueError):
        cer("", "a")


def test_error_rates_sum_edits_and_lengths_over_lines():
    refs = ["ab cd", "e", "  ", "fg h"]
    hyps = ["ab  xd", "", "z", "fg h i"]
    ce = sum(levenshtein(r, h) for r, h in zip(refs, hyps))
    we = sum(levenshtein(r.split(), h.split()) for r, h in zip(refs, hyps))
    assert (ce, we) == (2 + 1 + 2 + 2, 1 + 1 + 1 + 1)         # by hand, line by line
    got = error_rates(refs, hyps)
    assert got["cer"] == pytest.approx(ce / sum(map(len, refs)))
    assert got["wer"] == pytest.approx(we / sum(len(r.split()) for r in refs))
    assert error_rates([""], [""]) == {"cer": 0.0, "wer": 0.0}
    assert error_rates([" "], ["a"])["wer"] == float("inf")


def test_compiled_distances_of_padded_rows_read_their_own_lengths():
    rng = np.random.default_rng(6230)
    B, Lr, Lh = 40, 6, 7
    ref = rng.integers(1, 4, (B, Lr))
    hyp = rng.integers(1, 4, (B, Lh))
    rl = rng.integers(0, Lr + 1, B)
    hl = rng.integers(0, Lh + 1, B)
    rl[:3], hl[:3] = (0, Lr, 2), (Lh, 0, 0)                     # an empty side, both ways
    ref[rl[:, None] <= np.arange(Lr)] = 9                       # padding never read
    hyp[hl[:, None] <= np.arange(Lh)] = 8
    got = label_edit_distances(ref, rl, hyp, hl)
    want = [levenshtein(ref[b, :rl[b]], hyp[b, :hl[b]]) for b in range(B)]
    assert got.tolist() == want
    one = label_edit_distances(np.array([[1, 2, 3]]), np.array([3]), np.array([[2, 3, 0]]), np.array([2]))
    assert one.tolist() == [1]                                  # the front deletion alone
