"""lnrnn/textmetrics.py, thirteenth pass: edit distances, CER and WER against Levenshtein distances worked
out by hand in the comments (empty strings, one character or word, repeated characters, a hypothesis longer
than the reference), cross-checked with test_values48_textmetrics' brute-force recursion; error_rates over
several lines summing character and word edits separately; the compiled label_edit_distances on padded rows
whose last hypothesis label decides the distance."""
import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer

from test_values48_textmetrics import levenshtein

# (ref, hyp, edits written out by hand)
PAIRS = [("", "", 0),
         ("", "abc", 3),            # three insertions
         ("abc", "", 3),            # three deletions
         ("a", "a", 0),
         ("a", "b", 1),             # one substitution
         ("aaa", "aa", 1),          # one a deleted
         ("aab", "abb", 1),         # the middle a -> b
         ("ab", "ba", 2),           # no transpositions: two substitutions
         ("kitten", "sitting", 3),  # k->s, e->i, insert g
         ("aaaa", "baaaab", 2)]     # insert b before and after


@pytest.mark.parametrize("ref,hyp,edits", PAIRS)
def test_edit_distance_by_hand(ref, hyp, edits):
    assert levenshtein(ref, hyp) == edits
    assert edit_distance(ref, hyp) == edits
    assert edit_distance(list(ref), list(hyp)) == edits


def test_one_lines_rates_are_edits_over_the_reference():
    assert cer("aaaa", "aa") == 2 / 4
    assert cer("kitten", "sitting") == pytest.approx(3 / 6, rel=1e-15)
    assert cer("ab", "abab") == 1.0                          # two insertions over two characters
    assert wer("one", "one two") == 1.0                      # one word inserted over one word
    assert wer("a b c", "a c") == pytest.approx(1 / 3, rel=1e-15)
    assert wer("the cat sat", "the  cat   sat") == 0.0      # whitespace runs split alike
    assert wer("the cat", "cat the") == 1.0                  # two substitutions over two words


def test_an_empty_reference_line_is_refused_word_for_word():
    for f in (cer, wer):
        with pytest.raises(ValueError) as e:
            f("", "x")
        assert str(e.value) == ("the error rate of an empty reference is undefined; use error_rates over several "
                                "lines")


def test_error_rates_sum_character_and_word_edits_apart():
    # "ab" -> "ab x": 2 character insertions (' ', 'x'), 1 word inserted;
    # "cd ef" -> "cd": 3 character deletions, 1 word deleted.
    r = error_rates(["ab", "cd ef"], ["ab x", "cd"])
    assert r["cer"] == pytest.approx(5 / 7, rel=1e-15)
    assert r["wer"] == pytest.approx(2 / 3, rel=1e-15)
    # an empty reference counts by its hypothesis' insertions
    r = error_rates(["", "ab"], ["xy", "ab"])
    assert r["cer"] == 1.0 and r["wer"] == 1.0


def test_label_distances_of_padded_rows_by_hand():
    pad = 9
    ref = np.array([[1, 2, pad, pad], [1, 1, 2, pad], [3, pad, pad, pad], [1, 2, 3, 4], [pad, pad, pad, pad],
                    [5, 5, 5, pad]], np.int64)
    rl = np.array([2, 3, 1, 4, 0, 3], np.int64)
    hyp = np.array([[1, 2, 7, 8, pad], [1, 2, 2, pad, pad], [3, 3, pad, pad, pad], [pad] * 5,
                    [5, 6, pad, pad, pad], [5, 5, 5, 5, 6]], np.int64)
    hl = np.array([4, 3, 2, 0, 2, 5], np.int64)
    # [1,2]->[1,2,7,8]: two insertions (not 4, the hypothesis' length); [1,1,2]->[1,2,2]: one substitution;
    # [3]->[3,3]: one insertion; [1,2,3,4]->[]: four deletions; []->[5,6]: two insertions;
    # [5,5,5]->[5,5,5,5,6]: two insertions
    want = [2, 1, 1, 4, 2, 2]
    assert [levenshtein(list(ref[b, :rl[b]]), list(hyp[b, :hl[b]])) for b in range(6)] == want
    assert label_edit_distances(ref, rl, hyp, hl).tolist() == want
