"""lnrnn/judge.py's verdicts over lines written here, against hand computation: the summary's mean CER is the
mean of the lines' own CER (each recomputed here as a Levenshtein distance over the asked text's length), the
report's per-line "stop at last" column and "(capped)" mark each follow their own flag on lines where the two
disagree, and a synthesis run given as the reader is refused naming the reader's folder."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.judge import Judged, check_judge, report_lines, summary


def _lev(a, b):
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


PAIRS = [("abcd", "abd"), ("hello", "help"), ("x", "x")]                  # asked -> read
TRAVEL = [0.25, 1.5, 0.75]
LINES = [Judged(text=t, read=r, cer=_lev(t, r) / len(t), travel=tr, stop_at_last=(k == 0), peak_phi=0.5,
                points=6, capped=(k == 1))
         for k, ((t, r), tr) in enumerate(zip(PAIRS, TRAVEL))]


def test_mean_cer_is_the_mean_of_the_lines_own_cer():
    want = (1 / 4 + 2 / 5 + 0) / 3
    s = summary(LINES)
    assert s["mean_cer"] == pytest.approx(want, rel=1e-12)
    assert s["mean_travel"] == pytest.approx(sum(TRAVEL) / 3, rel=1e-12)
    assert s["cer"] == pytest.approx(3 / 10, rel=1e-12)                     # all edits over all characters asked
    assert report_lines(LINES)[-1].startswith(f"mean CER {want:.3f} over 3 lines")


def test_stop_column_and_capped_mark_follow_their_own_flags():
    out = report_lines(LINES)
    header = out[0]
    stop_end = header.index("stop at last") + len("stop at last")
    for j, row in zip(LINES, out[1:4]):
        assert row[stop_end - 12:stop_end].strip() == ("yes" if j.stop_at_last else "no")
        assert row.endswith(" (capped)") == j.capped
        assert f"{j.text!r} -> {j.read!r}" in row


def test_a_writer_given_as_reader_is_refused_naming_the_readers_folder():
    writer = SimpleNamespace(path="runs/w184", task_spec={"task": "strokes-hershey"},
                             model=SimpleNamespace(conditioned=True))
    reader = SimpleNamespace(path="runs/r184", task_spec={"task": "strokes-hershey"},
                             model=SimpleNamespace(conditioned=True))
    with pytest.raises(UserError) as e:
        check_judge(writer, reader, ["ab"], writer_name="the writer", reader_name="the judge")
    msg = str(e.value)
    assert msg.startswith("the judge (runs/r184) is a writer (a synthesis run), not a reader")
    assert "runs/w184" not in msg
