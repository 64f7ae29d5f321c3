"""lnrnn/textmetrics.py against the Levenshtein recursion (memoized) on awkward strings: empty, one character,
all different, a hypothesis of repeats; cer and wer of single lines, and error_rates over lines given as
generators (a decoder's map), summed edits over summed reference lengths."""
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, wer
from test_values87_textmetrics import lev  # the Levenshtein recursion, memoized


PAIRS = [("", ""), ("", "x"), ("a", ""), ("a", "a"), ("a", "b"), ("abc", "xyz"), ("ab", "ba"), ("aaaa", "a"),
         ("x y", "y x z"), ("kitten", "sitting")]


@pytest.mark.parametrize("ref,hyp", PAIRS)
def test_edit_distance_cer_and_wer_are_the_recursion(ref, hyp):
    assert edit_distance(ref, hyp) == lev(ref, hyp)
    if ref:
        assert cer(ref, hyp) == pytest.approx(lev(ref, hyp) / len(ref))
        assert wer(ref, hyp) == pytest.approx(lev(ref.split(), hyp.split()) / len(ref.split()))


def test_error_rates_over_generators_are_summed_edits_over_summed_lengths():
    refs = [r for r, _ in PAIRS]
    hyps = [h for _, h in PAIRS]
    got = error_rates((r for r in refs), (h for h in hyps))
    ce = sum(lev(r, h) for r, h in PAIRS)
    we = sum(lev(r.split(), h.split()) for r, h in PAIRS)
    assert got["cer"] == pytest.approx(ce / sum(map(len, refs)))
    assert got["wer"] == pytest.approx(we / sum(len(r.split()) for r in refs))
    assert error_rates(iter([""]), iter(["ab"])) == {"cer": float("inf"), "wer": float("inf")}
