"""lnrnn/textmetrics.py by hand: one substitution costs 1, the compiled per-row distance on rows of every
length (empty references and hypotheses included, after rows that leave values behind), and the rates
of a test set as total edits over total length, words split on any whitespace."""
import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer


def test_edit_distance_by_hand():
    assert edit_distance("abc", "abd") == 1                  # one substitution
    assert edit_distance("abc", "xyz") == 3
    assert edit_distance("abc", "ab") == 1 and edit_distance("ab", "abc") == 1
    assert edit_distance("", "ab") == 2 and edit_distance("ab", "") == 2
    assert edit_distance("kitten", "sitting") == 3          # k->s, e->i, +g
    assert edit_distance(["the", "cat"], ["the", "hat"]) == 1


def test_compiled_distances_on_empty_and_full_rows():
    """Rows of (ref length, hyp length) (0,3), (2,0), (0,0), (3,3), (1,3): each against the Python
    distance; the rows come after one with long rows so stale buffer values would show."""
    ref = np.array([[1, 2, 3, 1], [1, 2, 3, 1], [1, 1, 1, 1], [1, 2, 3, 1], [1, 2, 3, 1], [2, 1, 1, 1]])
    hyp = np.array([[3, 2, 1, 2], [1, 2, 3, 2], [3, 3, 3, 3], [9, 9, 9, 9], [1, 3, 3, 3], [1, 2, 1, 9]])
    rl = np.array([4, 0, 2, 0, 3, 1])
    hl = np.array([4, 3, 0, 0, 3, 3])
    got = label_edit_distances(ref, rl, hyp, hl)
    want = [edit_distance(ref[b, :rl[b]].tolist(), hyp[b, :hl[b]].tolist()) for b in range(len(rl))]
    assert want == [3, 3, 2, 0, 1, 2]
    assert got.tolist() == want


def test_rates_of_lines_by_hand():
    assert cer("abcd", "abed") == 0.25
    assert wer("a b c d", "a x c") == 0.5
    assert wer("  a   b ", "a b") == 0.0
    with pytest.raises(ValueError):
        wer("   ", "a")


def test_rates_of_a_test_set_are_totals_over_totals():
    """cer: (2 + 0) edits over (2 + 6) characters = 0.25 (the mean of the lines' rates would be 0.5);
    wer: 1 edit over 3 reference words, the double space splitting no empty word."""
    r = error_rates(["ab", "abcdef"], ["", "abcdef"])
    assert r["cer"] == 0.25 and r["wer"] == 0.5
    r = error_rates(["a  b c"], ["a b"])
    assert r["wer"] == pytest.approx(1 / 3) and r["cer"] == pytest.approx(3 / 6)
    with pytest.raises(ValueError, match="2 reference lines but 1"):
        error_rates(["a", "b"], ["a"])
