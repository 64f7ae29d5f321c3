"""lnrnn/textmetrics.py's rates over references with no characters or words at all: 0 without edits,
infinite with any (every hypothesis character is an insertion over nothing), and finite again as soon as one
reference has a character."""
import math

from lnrnn.textmetrics import error_rates


def test_empty_references_rate_zero_without_edits_and_infinite_with_some():
    assert error_rates([""], [""]) == {"cer": 0.0, "wer": 0.0}
    assert error_rates(["", "  "], ["", ""]) == {"cer": 2.0 / 2.0, "wer": 0.0}   # two spaces: 2 characters, no word
    r = error_rates(["", ""], ["", "ab"])
    assert math.isinf(r["cer"]) and r["cer"] > 0 and math.isinf(r["wer"]) and r["wer"] > 0
    r = error_rates([" "], ["a"])                  # one character, no word: 1 substitution, 1 inserted word
    assert r["cer"] == 1.0 and math.isinf(r["wer"])
    assert error_rates(["", "a"], ["ab", "a"]) == {"cer": 2.0, "wer": 1.0}
