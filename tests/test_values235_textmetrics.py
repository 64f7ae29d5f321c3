"""Text metrics (lnrnn/textmetrics.py) against the edit distance's recursion (test_values87_textmetrics.lev)
and by hand: the compiled per-row distances of batches of 1, 3 and 11 rows at awkward widths, every row
(the last included) its own; error rates over lines whose totals pass 10 and 100; the refusal of unpaired
lines, word for word, with its counts in order."""
import numpy as np
import pytest

from lnrnn.textmetrics import cer, error_rates, label_edit_distances, wer
from test_values87_textmetrics import lev


def padded(rows, width):
    out = np.full((len(rows), width), -1, np.int64)
    for b, r in enumerate(rows):
        out[b, :len(r)] = r
    return out, np.array([len(r) for r in rows], np.int64)


@pytest.mark.parametrize("B", [1, 3, 11])
def test_label_edit_distances_of_every_row(B):
    rng = np.random.default_rng(23550 + B)
    refs = [rng.integers(1, 4, rng.integers(0, 7)).tolist() for _ in range(B)]
    hyps = [rng.integers(1, 4, rng.integers(0, 5)).tolist() for _ in range(B)]
    refs[-1], hyps[-1] = [1, 2, 3, 1, 2], [2, 2]          # the last row: 3 edits (by hand: delete 1, 3, 1)
    assert lev(refs[-1], hyps[-1]) == 3
    r, rl = padded(refs, 7)
    h, hl = padded(hyps, 5)
    got = label_edit_distances(r, rl, h, hl)
    assert got.tolist() == [lev(a, b) for a, b in zip(refs, hyps)]
    assert got[-1] == 3


def test_error_rates_past_ten_and_a_hundred():
    refs = ["the cat sat", "x" * 100]                     # 11 + 100 characters, 3 + 1 words
    hyps = ["the bat sat", "x" * 98 + "yy"]               # 1 + 2 character edits, 1 + 1 word edits
    assert cer(refs[0], hyps[0]) == 1 / 11
    assert wer(refs[0], hyps[0]) == 1 / 3
    assert error_rates(refs, hyps) == {"cer": 3 / 111, "wer": 2 / 4}


def test_unpaired_lines_refused_word_for_word():
    with pytest.raises(ValueError) as e:
        error_rates(["a", "b", "c"], ["a"])
    assert str(e.value) == "3 reference lines but 1 hypothesis"
    with pytest.raises(ValueError) as e:
        error_rates(["a"], ["a", "b"])
    assert str(e.value) == "1 reference line but 2 hypotheses"
