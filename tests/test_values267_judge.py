"""lnrnn/judge.py, twelfth pass: report_lines, summary and as_record over Judged lines made here, against the
table and the summary sentence written out by hand (lines numbered from 1, ' (capped)' only on a capped line,
'1 line' in the singular, the stop rule counted as k/n), the CER of each line and of all lines against
Levenshtein distances written out at awkward strings (an empty read, one character, all wrong, an insertion
past the text), cross-checked with test_values48_textmetrics' brute-force distance; stop_at_last on rows made
here (the last character's phi largest at the last point, or one short of it, capped, no points) and peak_phi
past the prime's characters."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.judge import Judged, as_record, peak_phi, report_lines, stop_at_last, summary
from lnrnn.textmetrics import cer

from test_values48_textmetrics import levenshtein

# (asked, read, edits written out by hand)
LINES = [("a", "", 1),              # one deletion
         ("kitten", "sitting", 3),  # k->s, e->i, insert g
         ("xyz", "abc", 3),         # all wrong: three substitutions
         ("ab", "abab", 2)]         # two insertions past the text: a CER above 1


def _judged():
    travel, stop, peak, capped = [0.25, 1.1, 0.5, 0.0], [False, True, True, False], [0.5, 1.25, 0.75, 0.0], \
        [True, False, False, True]
    return [Judged(text=t, read=r, cer=float(cer(t, r)), travel=travel[k], stop_at_last=stop[k], peak_phi=peak[k],
                   points=10 + k, capped=capped[k]) for k, (t, r, _) in enumerate(LINES)]


def test_each_lines_cer_is_its_edits_over_the_characters_asked():
    for t, r, edits in LINES:
        assert levenshtein(t, r) == edits
        assert cer(t, r) == pytest.approx(edits / len(t), rel=1e-15)
    assert [j.cer for j in _judged()] == [1.0, 0.5, 1.0, 1.0]


def test_summary_against_the_lines_by_hand():
    s = summary(_judged())
    assert s["lines"] == 4
    assert s["mean_cer"] == pytest.approx((1 + 0.5 + 1 + 1) / 4, rel=1e-15)
    assert s["cer"] == pytest.approx((1 + 3 + 3 + 2) / (1 + 6 + 3 + 2), rel=1e-15)    # 9 edits / 12 asked
    assert s["mean_travel"] == pytest.approx((0.25 + 1.1 + 0.5 + 0.0) / 4, rel=1e-15)
    assert s["stop_at_last"] == 0.5
    assert s["mean_peak_phi"] == pytest.approx((0.5 + 1.25 + 0.75 + 0.0) / 4, rel=1e-15)


def test_the_table_word_for_word():
    assert report_lines(_judged()) == [
        "line    CER  travel  stop at last  peak phi  asked -> read",
        "   1  1.000    0.25            no      0.50  'a' -> '' (capped)",
        "   2  0.500    1.10           yes      1.25  'kitten' -> 'sitting'",
        "   3  1.000    0.50           yes      0.75  'xyz' -> 'abc'",
        "   4  1.000    0.00            no      0.00  'ab' -> 'abab' (capped)",
        "mean CER 0.875 over 4 lines (all edits / all characters 0.750); mean travel 0.46; stop rule at the last "
        "character 2/4; mean peak phi 0.62"]


def test_one_line_is_a_line_in_the_singular():
    one = [Judged(text="q", read="q", cer=0.0, travel=1.0, stop_at_last=True, peak_phi=1.0, points=1,
                  capped=False)]
    assert report_lines(one) == [
        "line    CER  travel  stop at last  peak phi  asked -> read",
        "   1  0.000    1.00           yes      1.00  'q' -> 'q'",
        "mean CER 0.000 over 1 line (all edits / all characters 0.000); mean travel 1.00; stop rule at the last "
        "character 1/1; mean peak phi 1.00"]


def test_a_record_keeps_what_it_is_about_and_every_line():
    judged = _judged()
    rec = as_record(judged, writer="runs/w", reader="runs/r", bias=0.5, seed=3)
    assert set(rec) == {"writer", "reader", "bias", "seed", "lines", "summary"}
    assert (rec["writer"], rec["reader"], rec["bias"], rec["seed"]) == ("runs/w", "runs/r", 0.5, 3)
    assert rec["lines"][3] == dict(text="ab", read="abab", cer=1.0, travel=0.0, stop_at_last=False, peak_phi=0.0,
                                   points=13, capped=True)
    assert rec["summary"] == summary(judged)


def _row(phi, capped=False, points=None, prime_chars=0):
    phi = np.asarray(phi, float)
    return SimpleNamespace(phi=phi, capped=capped, prime_chars=prime_chars,
                           points=np.zeros((len(phi), 3)) if points is None else points)


def test_which_rows_stop_at_the_last_character():
    walked = [[0.9, 0.1, 0.0], [0.1, 0.7, 0.2], [0.0, 0.3, 0.6]]           # last point: argmax on the last of 3
    short = [[0.9, 0.1, 0.0], [0.1, 0.7, 0.2], [0.0, 0.6, 0.3]]            # last point: one character short
    early = [[0.0, 0.1, 0.9], [0.2, 0.7, 0.1]]                              # on the last one, but not at the end
    assert stop_at_last(_row(walked)) is True
    assert stop_at_last(_row(short)) is False
    assert stop_at_last(_row(early)) is False
    assert stop_at_last(_row(walked, capped=True)) is False                 # the step cap ended it
    assert stop_at_last(_row(np.zeros((0, 3)), points=np.zeros((0, 3)))) is False
    assert stop_at_last(_row([[0.2]])) is True                              # a text of one character


def test_peak_phi_looks_past_the_primes_characters_only():
    phi = [[2.0, 0.1, 0.3], [0.4, 0.2, 0.7]]
    assert peak_phi(_row(phi, prime_chars=0)) == 2.0
    assert peak_phi(_row(phi, prime_chars=1)) == 0.7
    assert peak_phi(_row(phi, prime_chars=3)) == 0.0                        # nothing of its own: 0
