"""lnrnn/judge.py, twentieth pass (round 387 of the planted bugs, tests/mutants/mutants_values387.py).

judge() on written lines made here (lnrnn.sample.Written: random points in data units, x and y scales apart;
rows of 4 and 6 points, primed and not; the prime's text "ab " holds a space the reader never learned) by a
one-layer float64 writer saved as a run, read by test_judge's reader that reads every line as "a": every row is
judged, given as a list or as a generator; the prime's characters are not asked of the reader (its points are
never read); a line's points are all its written points; its travel is (kappa_T - P) / (U - P), kappa_T the
alpha-weighted centre of the reference's window over the row alone (test_values360_judge.spec_row), P the
prime's characters and U all the characters the window read. summary() and report_lines() over judged lines
written by hand, one of them capped: the lines and the stop-rule share count every line. The table's header
word for word, each column's figures ending where its header ends. check_judge's refusals of a writer without
a window and of a reader of another task word for word (stand-in runs of test_values281_judge)."""
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.judge import Judged, check_judge, judge, report_lines, summary
from lnrnn.training.checkpoint import save_checkpoint
from test_judge import reader_run
from test_values133_sampler import ALPHABET, UNIT, text_model
from test_values281_judge import _runs
from test_values360_judge import rows as written_rows
from test_values360_judge import spec_row

PRIME = np.array([[0.4, -0.3, 0.0], [0.2, 0.5, 1.0], [-0.6, 0.1, 0.0]])   # normalized; its text "ab "
LINES, SIZES = ["cab", "de"], [4, 6]


def save_writer(folder, m):
    """The one-layer writer of test_values133_sampler as a run of the strokes task, its own alphabet."""
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 0, "task": {"task": "strokes"},
                                          "train": {"cell": "ln-lstm"},
                                          "text": {"alphabet": ALPHABET, "unknown": 0, "lines": 1}})
    return str(folder)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("v387")
    m = text_model()
    # the reader's alphabet lacks the space: only the prime's text "ab " holds one
    return m, save_writer(tmp / "writer", m), reader_run(tmp / "reader", "a", alphabet="\ufffdabcde")


@pytest.mark.parametrize("primed", [False, True])
def test_every_row_judged_with_its_points_and_its_travel_over_its_own_characters(runs, primed):
    m, writer, reader = runs
    rows = written_rows(PRIME if primed else None, LINES, SIZES, seed=7 + primed)
    P = 3 if primed else 0
    assert all(r.prime_chars == P and len(r.codes) == P + len(t) for r, t in zip(rows, LINES))
    got = judge(writer, reader, rows)                        # the prime's space is never asked of the reader
    assert [j.text for j in got] == LINES and [j.read for j in got] == ["a", "a"]
    assert [j.cer for j in got] == pytest.approx([2 / 3, 1.0])
    assert [j.points for j in got] == SIZES
    for j, r in zip(got, rows):
        first = np.zeros((1, 3)) if not primed else PRIME
        kappa_T, _ = spec_row(m, np.concatenate([first, r.points[:-1] / UNIT]), r.codes)
        assert j.travel == pytest.approx((kappa_T - P) / (len(r.codes) - P), rel=1e-8)
    assert abs(got[0].travel - got[1].travel) > 1e-3


def test_rows_given_as_a_generator_are_all_judged(runs):
    _, writer, reader = runs
    rows = written_rows(PRIME, LINES, SIZES, seed=9)
    from_list = judge(writer, reader, rows)
    from_gen = judge(writer, reader, (r for r in rows))
    assert len(from_gen) == 2 and [j.text for j in from_gen] == LINES
    assert from_gen == from_list


def lines():
    """Three judged lines by hand: the first capped (the cap ended it, so not at the last character)."""
    return [Judged(text="ab", read="a", cer=0.5, travel=0.4, stop_at_last=False, peak_phi=0.3, points=9,
                   capped=True),
            Judged(text="cde", read="cde", cer=0.0, travel=1.1, stop_at_last=True, peak_phi=0.9, points=7,
                   capped=False),
            Judged(text="e", read="d", cer=1.0, travel=0.7, stop_at_last=False, peak_phi=0.6, points=5,
                   capped=False)]


def test_summary_counts_every_line_capped_or_not():
    s = summary(lines())
    assert s["lines"] == 3
    assert s["stop_at_last"] == pytest.approx(1 / 3)
    assert s["mean_cer"] == pytest.approx(1.5 / 3) and s["cer"] == pytest.approx(2 / 6)
    assert s["mean_travel"] == pytest.approx(2.2 / 3) and s["mean_peak_phi"] == pytest.approx(1.8 / 3)
    last = report_lines(lines())[-1]
    assert "over 3 lines" in last and "stop rule at the last character 1/3;" in last


def test_the_tables_header_word_for_word_each_column_ending_over_its_figures():
    table = report_lines(lines())
    head = table[0]
    assert head == "line    CER  travel  stop at last  peak phi  asked -> read"
    ends = [head.index(w) + len(w) for w in ("line", "CER", "travel", "stop at last", "peak phi")]
    for row, j, k in zip(table[1:4], lines(), (1, 2, 3)):
        for end, fig in zip(ends, (str(k), f"{j.cer:.3f}", f"{j.travel:.2f}", "yes" if j.stop_at_last else "no",
                                   f"{j.peak_phi:.2f}")):
            assert row[end - len(fig):end] == fig and row[end - len(fig) - 1] == " "
    assert table[1].endswith("'ab' -> 'a' (capped)") and table[2].endswith("'cde' -> 'cde'")


def test_a_writer_without_a_window_and_a_reader_of_another_task_refused_word_for_word():
    writer, reader = _runs(" abc")
    with pytest.raises(UserError) as e:
        check_judge(NS(model=NS(conditioned=False), path="w-run", task_spec=writer.task_spec), reader, ["ab"])
    assert str(e.value) == ("the writer (w-run) writes no given text (it has no attention window): there is "
                            "nothing for a reader to judge.")
    other = NS(model=reader.model, meta=reader.meta, path="r-run", task_spec={"task": "strokes-kanjivg"})
    with pytest.raises(UserError) as e:
        check_judge(writer, other, ["ab"])
    assert str(e.value) == ("the judge (r-run) reads strokes-kanjivg but the writer writes strokes-hershey: a "
                            "reader reads only its own task's data (its units and letterforms); train one on "
                            "strokes-hershey.")
