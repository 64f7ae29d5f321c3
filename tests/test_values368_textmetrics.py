"""lnrnn/textmetrics.py against hand computations: one line's character and word error rates (edits over
the reference's length, not the hypothesis'), and error_rates over several lines (total edits over total
reference length, an empty reference counted by its insertions: 0 over 0 is 0, edits over 0 infinite)."""
import math

from lnrnn.textmetrics import cer, error_rates, wer


def test_character_error_rate_divides_by_the_reference_length():
    """'ab' read as 'abc': one insertion over 2 reference characters; 'kitten' read as 'sitting': 3 over 6;
    'abcd' read as 'b': 3 deletions over 4."""
    assert cer("ab", "abc") == 1 / 2
    assert cer("kitten", "sitting") == 3 / 6
    assert cer("abcd", "b") == 3 / 4


def test_word_error_rate_divides_by_the_reference_words():
    """'the cat sat' read as 'the cat sat down': one inserted word over 3; 'a b c d' read as 'a x': one
    substitution and two deletions over 4 words."""
    assert wer("the cat sat", "the cat sat down") == 1 / 3
    assert wer("a b c d", "a x") == 3 / 4


def test_error_rates_sum_edits_and_reference_lengths_first():
    """Lines 'kitten' -> 'sitting' (3 edits, 1 word of 1 wrong) and 'abc' -> 'abc' (none): cer 3 / 9,
    wer 1 / 2; with an empty reference line read as 'xy': 2 more character edits and 1 more word."""
    got = error_rates(["kitten", "abc"], ["sitting", "abc"])
    assert got == {"cer": 3 / 9, "wer": 1 / 2}
    got = error_rates(["kitten", "abc", ""], ["sitting", "abc", "xy"])
    assert got == {"cer": 5 / 9, "wer": 2 / 2}


def test_error_rates_over_an_empty_total():
    """Only empty references: no edits gives 0, any insertion gives infinity (as the docstring says)."""
    assert error_rates([""], [""]) == {"cer": 0.0, "wer": 0.0}
    got = error_rates(["", ""], ["", "x y"])
    assert math.isinf(got["cer"]) and got["cer"] > 0
    assert math.isinf(got["wer"]) and got["wer"] > 0
