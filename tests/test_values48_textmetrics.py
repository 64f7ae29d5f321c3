"""Edit distances and error rates (lnrnn/textmetrics.py) against a Levenshtein distance written here as the
textbook recursion (memoized): d(i, 0) = i, d(0, j) = j, d(i, j) = min(d(i-1, j) + 1, d(i, j-1) + 1,
d(i-1, j-1) + [a_i != b_j]). Short strings over a small alphabet, the empty ones included, and padded label
arrays whose rows are shorter than the padded width on either side."""
import functools

import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer


def levenshtein(a, b):
    a, b = tuple(a), tuple(b)

    @functools.lru_cache(maxsize=None)
    def d(i, j):
        if i == 0:
            return j
        if j == 0:
            return i
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return d(len(a), len(b))


def words(rng, n):
    return ["".join(rng.choice(list("abc"), rng.integers(0, 5))) for _ in range(n)]


def test_by_hand():
    assert edit_distance("ab", "") == 2
    assert edit_distance("", "abc") == 3
    assert edit_distance("abc", "c") == 2
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance(["a", "b"], ["b"]) == 1
    assert cer("abcd", "") == 1.0
    assert wer("the cat sat", "the sat") == pytest.approx(1 / 3)


def test_edit_distance_equals_the_recursion():
    rng = np.random.default_rng(4850)
    a, b = words(rng, 200), words(rng, 200)
    for r, h in zip(a, b):
        assert edit_distance(r, h) == levenshtein(r, h), (r, h)
    refs, hyps = a[:20], b[:20]
    ce = sum(levenshtein(r, h) for r, h in zip(refs, hyps))
    assert error_rates(refs, hyps)["cer"] == pytest.approx(ce / sum(map(len, refs)))


def test_label_distances_read_each_rows_own_lengths():
    """Rows padded with -1 to widths 6 (ref) and 7 (hyp); each row's lengths below the widths, one of them 0."""
    rng = np.random.default_rng(4860)
    B = 40
    rl = rng.integers(0, 7, B)
    hl = rng.integers(0, 8, B)
    hl[:3] = [0, 2, 7]
    rl[:3] = [3, 0, 6]
    ref = np.full((B, 6), -1, np.int64)
    hyp = np.full((B, 7), -1, np.int64)
    for b in range(B):
        ref[b, :rl[b]] = rng.integers(1, 4, rl[b])
        hyp[b, :hl[b]] = rng.integers(1, 4, hl[b])
    got = label_edit_distances(ref, rl, hyp, hl)
    want = [levenshtein(ref[b, :rl[b]].tolist(), hyp[b, :hl[b]].tolist()) for b in range(B)]
    assert got.tolist() == want
