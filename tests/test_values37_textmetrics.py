"""lnrnn/textmetrics.py against a hand-written Levenshtein (the full table, no shortcuts) on edge cases: empty
strings, repeated characters, hypotheses longer than their reference (a line's rate is edits over the
reference's length, so it exceeds 1 when the reader inserts more than the line holds), and paired lines only:
error_rates refuses references and hypotheses of different counts either way."""
import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer


def levenshtein(a, b):
    """The textbook table D[i][j]: the distance of a[:i] and b[:j]."""
    D = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        D[i][0] = i
    for j in range(len(b) + 1):
        D[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            D[i][j] = min(D[i - 1][j] + 1, D[i][j - 1] + 1, D[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return D[len(a)][len(b)]


PAIRS = [("", ""), ("", "a"), ("a", ""), ("aaa", "aa"), ("aa", "aaaa"), ("aaab", "abbb"), ("abab", "baba"),
         ("ab", "abcdef"), ("x", "yyyy"), ("mississippi", "misisipi"), ("aaaa", "bbbb")]


@pytest.mark.parametrize("ref,hyp", PAIRS)
def test_edit_distance_is_the_textbook_table(ref, hyp):
    assert edit_distance(ref, hyp) == levenshtein(ref, hyp)
    assert edit_distance(list(ref), list(hyp)) == levenshtein(ref, hyp)


@pytest.mark.parametrize("ref,hyp", [p for p in PAIRS if p[0]])
def test_a_lines_rate_is_over_its_reference_alone(ref, hyp):
    assert cer(ref, hyp) == pytest.approx(levenshtein(ref, hyp) / len(ref))


def test_insertions_beyond_the_reference_give_a_rate_above_one():
    assert cer("ab", "abcdef") == pytest.approx(4 / 2)
    assert cer("x", "yyyy") == pytest.approx(4 / 1)
    assert cer("aa", "aaaa") == pytest.approx(2 / 2)
    assert wer("a", "a b c") == pytest.approx(2 / 1)
    assert wer("the cat", "the the cat cat") == pytest.approx(2 / 2)


def test_test_set_rates_are_total_edits_over_total_reference_length():
    refs, hyps = ["ab", "aaa", "x y"], ["abcdef", "a", "x x y y"]
    r = error_rates(refs, hyps)
    assert r["cer"] == pytest.approx(sum(levenshtein(a, b) for a, b in zip(refs, hyps)) / sum(map(len, refs)))
    assert r["wer"] == pytest.approx(sum(levenshtein(a.split(), b.split()) for a, b in zip(refs, hyps))
                                     / sum(len(a.split()) for a in refs))


@pytest.mark.parametrize("refs,hyps,said", [
    (["a", "b"], ["a"], "2 reference lines but 1 hypothesis"), (["a"], ["a", "b"], "1 reference line but 2 hypotheses"),
    (["ab", "c", "d"], [], "3 reference lines but 0 hypotheses"), ([], ["a"], "0 reference lines but 1 hypothesis")])
def test_unpaired_lines_are_refused_either_way(refs, hyps, said):
    with pytest.raises(ValueError, match=f"^{said}$"):
        error_rates(refs, hyps)
    with pytest.raises(ValueError):
        error_rates(iter(refs), iter(hyps))   # iterables are counted whole, not zipped short


def test_compiled_distances_of_repeated_labels():
    rows = [([1, 1, 1], [1, 1]), ([2, 2], [2, 2, 2, 2]), ([1, 1, 2], [1, 2, 2]), ([], [3, 3]), ([3, 3], [])]
    W = 4
    ref = np.full((len(rows), W), 7)
    hyp = np.full((len(rows), W), 7)      # padding that equals no label of any row
    for b, (r, h) in enumerate(rows):
        ref[b, :len(r)] = r
        hyp[b, :len(h)] = h
    got = label_edit_distances(ref, np.array([len(r) for r, _ in rows]), hyp, np.array([len(h) for _, h in rows]))
    assert got.tolist() == [levenshtein(r, h) for r, h in rows]
