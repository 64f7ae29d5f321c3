"""lnrnn/judge.py's figures on tiny lines written here, against hand computation: the summary (mean of the lines'
CER, all edits over all characters asked, mean travel, the share that stopped at the last character, mean peak
phi) and the report's closing line that prints them (the stop rule as a count of lines out of all); check_judge's
refusals name each run's own task and the happy path hands back the reader's alphabet."""
from types import SimpleNamespace

import pytest

from lnrnn.data.strokes import CTC_SHIFT, UNKNOWN
from lnrnn.errors import UserError
from lnrnn.judge import Judged, as_record, check_judge, report_lines, summary

# asked -> read: 'ab' read right; 'abc' -> 'abd' (1 substitution of 3); 'x' right
LINES = [Judged(text="ab", read="ab", cer=0.0, travel=1.0, stop_at_last=True, peak_phi=0.9, points=10, capped=False),
         Judged(text="abc", read="abd", cer=1 / 3, travel=0.5, stop_at_last=False, peak_phi=0.5, points=8, capped=True),
         Judged(text="x", read="x", cer=0.0, travel=1.0, stop_at_last=True, peak_phi=0.7, points=4, capped=False)]


def test_summary_by_hand():
    s = summary(LINES)
    assert s["lines"] == 3
    assert s["mean_cer"] == pytest.approx((0 + 1 / 3 + 0) / 3)
    assert s["cer"] == pytest.approx(1 / 6)          # one edit over 2 + 3 + 1 characters
    assert s["mean_travel"] == pytest.approx(2.5 / 3)
    assert s["stop_at_last"] == pytest.approx(2 / 3)
    assert s["mean_peak_phi"] == pytest.approx(0.7)
    assert as_record(LINES, writer="w")["summary"] == s


def test_the_report_counts_the_lines_that_stopped_at_the_last_character():
    out = report_lines(LINES)
    assert len(out) == 1 + 3 + 1
    assert out[2].endswith("'abc' -> 'abd' (capped)") and " no " in out[2]
    assert out[-1] == ("mean CER 0.111 over 3 lines (all edits / all characters 0.167); mean travel 0.83; stop rule "
                       "at the last character 2/3; mean peak phi 0.70")
    one = report_lines(LINES[:1])
    assert one[-1].endswith("stop rule at the last character 1/1; mean peak phi 0.90")
    assert "over 1 line (" in one[-1]
    none = report_lines(LINES[1:2])
    assert "stop rule at the last character 0/1;" in none[-1]


ALPHABET = UNKNOWN + " abcx"


def _writer(task="strokes-hershey"):
    return SimpleNamespace(path="runs/w", task_spec={"task": task}, model=SimpleNamespace(conditioned=True))


def _reader(task="strokes-hershey", alphabet=ALPHABET):
    head = SimpleNamespace(kind="ctc", scale=(1.0, 1.0), O=len(alphabet) + CTC_SHIFT)
    return SimpleNamespace(path="runs/r", task_spec={"task": task}, meta={"text": {"alphabet": alphabet}},
                           model=SimpleNamespace(conditioned=False, head=head))


def test_check_judge_names_each_runs_own_task():
    assert check_judge(_writer(), _reader(), ["ab c", "x"]) == ALPHABET
    with pytest.raises(UserError) as e:
        check_judge(_writer("strokes-hershey"), _reader("strokes-iam"), ["ab"])
    msg = str(e.value)
    assert "the judge (runs/r) reads strokes-iam but the writer writes strokes-hershey" in msg
    assert msg.rstrip(".").endswith("train one on strokes-hershey")
    with pytest.raises(UserError, match="never learned to read 'z'"):
        check_judge(_writer(), _reader(), ["abz"])
