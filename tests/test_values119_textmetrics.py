"""lnrnn.textmetrics against the Levenshtein distance written here (the full table, no shortcuts): an empty
reference's distance is the hypothesis' length and its rate is refused, an empty hypothesis' rate is 1; words
are split on runs of spaces (and tabs); error_rates pools the edits and lengths over lines, blank lines
included."""
import pytest

from lnrnn.textmetrics import cer, edit_distance, error_rates, wer


def _lev(a, b):
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            if i == 0 or j == 0:
                d[i][j] = i + j
            else:
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return d[-1][-1]


PAIRS = [("", ""), ("", "abc"), ("abc", ""), ("kitten", "sitting"), ("a b", "a  b"), ("flaw", "lawn"),
         ("the cat  sat", "the  bat sat down"), ("  lead and trail ", "lead trail")]


@pytest.mark.parametrize("ref,hyp", PAIRS)
def test_edit_distance_is_levenshteins(ref, hyp):
    assert edit_distance(ref, hyp) == _lev(ref, hyp)
    assert edit_distance(ref.split(), hyp.split()) == _lev(ref.split(), hyp.split())
    assert edit_distance(list(ref), list(hyp)) == _lev(ref, hyp)


@pytest.mark.parametrize("ref,hyp", [p for p in PAIRS if p[0]])
def test_cer_and_wer_divide_by_the_reference(ref, hyp):
    assert cer(ref, hyp) == _lev(ref, hyp) / len(ref)
    words = [w for w in ref.replace("\t", " ").split(" ") if w]
    assert wer(ref, hyp) == _lev(words, [w for w in hyp.split(" ") if w]) / len(words)


def test_an_empty_hypothesis_rates_one_and_an_empty_reference_is_refused():
    assert cer("abcd", "") == 1.0 and wer("two words", "") == 1.0
    assert wer("a\t b   c", "a b\tc") == 0.0
    for f in (cer, wer):
        with pytest.raises(ValueError, match="empty reference"):
            f("", "x")


def test_error_rates_pool_over_lines_with_blank_ones():
    refs, hyps = ["kitten", "", "a  b c", "same"], ["sitting", "xy", "a c", ""]
    ce = sum(_lev(r, h) for r, h in zip(refs, hyps))
    we = sum(_lev(r.split(), h.split()) for r, h in zip(refs, hyps))
    got = error_rates(refs, hyps)
    assert got["cer"] == ce / sum(map(len, refs)) and got["wer"] == we / sum(len(r.split()) for r in refs)
    assert error_rates([""], [""]) == {"cer": 0.0, "wer": 0.0}
    assert error_rates([""], ["ab"]) == {"cer": float("inf"), "wer": float("inf")}
