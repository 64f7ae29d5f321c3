"""Character and word error rates (lnrnn/textmetrics.py) against the Levenshtein recursion
(test_values87_textmetrics.lev), including empty references and hypotheses: the distance to an empty sequence
is its length, a line's rate divides by its reference's length (undefined for an empty one), error_rates sums
edits and reference lengths over lines, and label_edit_distances of padded rows, as long as several table rows,
equals the recursion on each row's own labels."""
import itertools

import numpy as np
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, label_edit_distances, wer
from test_values87_textmetrics import lev

LINES = ["", "a", "ab", "ba", "aab", "abca", "cab", "bbcab"]


def test_edit_distance_of_every_pair_including_empty_ones():
    for r, h in itertools.product(LINES, repeat=2):
        assert edit_distance(r, h) == lev(r, h), (r, h)
        assert edit_distance(list(r), list(h)) == lev(r, h), (r, h)
    assert edit_distance("abc", "") == 3 and edit_distance("", "abc") == 3


def test_cer_and_wer_of_empty_hypotheses_and_references():
    assert cer("abc", "") == 1.0
    assert wer("the cat sat", "") == 1.0
    assert wer("the cat sat", "cat sat on it") == pytest.approx(lev("the cat sat".split(), "cat sat on it".split()) / 3)
    assert cer("kitten", "sitting") == pytest.approx(lev("kitten", "sitting") / 6)
    with pytest.raises(ValueError):
        cer("", "a")
    with pytest.raises(ValueError):
        wer("", "")


def test_error_rates_over_lines_with_empty_ones():
    refs = ["ab cd", "", "x", "a b c"]
    hyps = ["ab", "zz", "", "a c b"]
    got = error_rates(refs, hyps)
    ce = sum(lev(r, h) for r, h in zip(refs, hyps))
    we = sum(lev(r.split(), h.split()) for r, h in zip(refs, hyps))
    assert got["cer"] == pytest.approx(ce / sum(map(len, refs)))
    assert got["wer"] == pytest.approx(we / sum(len(r.split()) for r in refs))
    assert error_rates(["", ""], ["", ""]) == {"cer": 0.0, "wer": 0.0}
    assert error_rates([""], ["a"])["cer"] == float("inf")


def test_label_edit_distances_of_padded_rows():
    rng = np.random.default_rng(137)
    B, L = 12, 6
    ref = rng.integers(1, 4, (B, L))
    hyp = rng.integers(1, 4, (B, L + 1))
    rl = rng.integers(0, L + 1, B)
    hl = rng.integers(0, L + 2, B)
    rl[:3], hl[:3] = [0, 4, 6], [5, 0, 7]                   # an empty reference, an empty hypothesis, full rows
    got = label_edit_distances(ref, rl, hyp, hl)
    want = [lev(ref[b, :rl[b]].tolist(), hyp[b, :hl[b]].tolist()) for b in range(B)]
    assert got.tolist() == want
