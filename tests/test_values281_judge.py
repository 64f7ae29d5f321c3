"""lnrnn/judge.py, thirteenth pass: summary and report_lines over three Judged lines made here, against the
table and the summary sentence written out by hand (asked before read, the CER over all characters beside the
mean of the lines' CER, mean travel apart from mean peak phi); check_judge's refusal of characters outside
the reader's alphabet, word for word, on stand-in runs with nothing trained."""
from types import SimpleNamespace as NS

import pytest

from lnrnn.errors import UserError
from lnrnn.judge import Judged, check_judge, report_lines, summary

from test_values48_textmetrics import levenshtein

# (asked, read): "aa" -> "a" one deletion; "abc" read right; "b" -> "bbb" two insertions
LINES = [("aa", "a"), ("abc", "abc"), ("b", "bbb")]
EDITS = [1, 0, 2]
TRAVEL, PEAK = [0.5, 1.0, 0.25], [0.9, 1.2, 0.3]
STOP, CAPPED = [True, True, False], [False, False, True]


def _judged():
    return [Judged(text=t, read=r, cer=EDITS[k] / len(t), travel=TRAVEL[k], stop_at_last=STOP[k],
                   peak_phi=PEAK[k], points=7 + k, capped=CAPPED[k]) for k, (t, r) in enumerate(LINES)]


def test_the_edits_written_out_are_levenshteins():
    assert [levenshtein(t, r) for t, r in LINES] == EDITS


def test_summary_by_hand():
    s = summary(_judged())
    assert s["lines"] == 3
    assert s["mean_cer"] == pytest.approx((0.5 + 0.0 + 2.0) / 3, rel=1e-15)
    assert s["cer"] == pytest.approx((1 + 0 + 2) / (2 + 3 + 1), rel=1e-15)     # 3 edits / 6 asked
    assert s["mean_travel"] == pytest.approx((0.5 + 1.0 + 0.25) / 3, rel=1e-15)
    assert s["mean_peak_phi"] == pytest.approx((0.9 + 1.2 + 0.3) / 3, rel=1e-15)
    assert s["stop_at_last"] == pytest.approx(2 / 3, rel=1e-15)


def test_the_table_and_summary_word_for_word():
    assert report_lines(_judged()) == [
        "line    CER  travel  stop at last  peak phi  asked -> read",
        "   1  0.500    0.50           yes      0.90  'aa' -> 'a'",
        "   2  0.000    1.00           yes      1.20  'abc' -> 'abc'",
        "   3  2.000    0.25            no      0.30  'b' -> 'bbb' (capped)",
        # mean CER 2.5/3 = 0.833; all edits / all characters 3/6; travel 1.75/3 = 0.58; peak 2.4/3 = 0.80
        "mean CER 0.833 over 3 lines (all edits / all characters 0.500); mean travel 0.58; stop rule at the last "
        "character 2/3; mean peak phi 0.80"]


def _runs(alphabet=" ab"):
    task = {"task": "strokes-hershey"}
    writer = NS(model=NS(conditioned=True), path="w-run", task_spec=task)
    reader = NS(model=NS(conditioned=False, head=NS(kind="ctc", scale=(1.0, 1.0), O=len(alphabet) + 1)),
                meta={"text": {"alphabet": alphabet}}, path="r-run", task_spec=task)
    return writer, reader


def test_characters_outside_the_alphabet_refused_word_for_word_in_order_of_first_use():
    writer, reader = _runs()
    assert check_judge(writer, reader, ["ab", "ba", ""]) == " ab"
    with pytest.raises(UserError) as e:
        check_judge(writer, reader, ["abc", "b?ca"])
    assert str(e.value) == ("the judge (r-run) never learned to read 'c', '?' (its alphabet is another); judge with "
                            "a reader whose training texts hold every character asked for.")
