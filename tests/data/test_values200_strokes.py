"""Stroke sets and tasks against hand computations on a few known lines: the glitch fix on a stroke with a spike
(pen lift carried back), a task's lines as the fixed lines divided by the training offsets' std computed here,
line starts of lines of unequal lengths, a batch over a partial last batch checked element by element, the texts
of the validation split encoded by hand, a reading batch's labels for shuffled rows, and the one-group refusal
word for word."""
import numpy as np
import pytest

from lnrnn.data.strokes import (UNKNOWN, RawSplit, StrokeSet, StrokeTask, drop_long_steps, make_task,
                                split_groups)
from lnrnn.errors import DataError

# a stroke-3 line with one spike (row 2, 2000 long) that lifts the pen: its lift moves to row 1
SPIKED = np.array([[0, 0, 0], [1, 2, 0], [2000, 0, 1], [3, 4, 0], [5, 0, 1]], np.float64)
SPIKED_FIXED = np.array([[0, 0, 0], [1, 2, 1], [3, 4, 0], [5, 0, 1]], np.float64)

# three small lines of 2, 4 and 3 points (dx, dy, pen)
LINES = [np.array([[0, 0, 0], [1, 1, 1]], np.float64),
         np.array([[0, 0, 0], [2, -1, 0], [1, 3, 1], [-2, 0, 1]], np.float64),
         np.array([[0, 0, 0], [4, 2, 0], [0, -3, 1]], np.float64)]


def test_a_spike_is_dropped_and_its_pen_lift_moves_to_the_row_before():
    out, n = drop_long_steps(SPIKED)
    np.testing.assert_array_equal(out, SPIKED_FIXED)
    assert n == 1


def test_line_starts_and_lines_of_unequal_lengths():
    s = StrokeSet(LINES)
    np.testing.assert_array_equal(s.starts, [0, 2, 6, 9])
    assert len(s) == 3 and s.max_steps == 3
    for i, ln in enumerate(LINES):
        np.testing.assert_array_equal(s.line(i), ln.astype(np.float32))


def test_make_task_lines_are_the_fixed_lines_over_the_training_offsets_std():
    train = RawSplit([SPIKED, LINES[1]])
    val = RawSplit([LINES[2]])
    task = make_task({"task": "strokes-npz"}, "two lines", train, val)
    # the training offsets by hand: rows 1.. of the fixed spiked line and of LINES[1]
    d = np.array([[1, 2], [3, 4], [5, 0], [2, -1], [1, 3], [-2, 0]], np.float64)
    sx, sy = np.sqrt(((d - d.mean(0)) ** 2).mean(0))
    np.testing.assert_allclose(task.scale, [sx, sy])
    div = np.array([sx, sy, 1.0])
    np.testing.assert_allclose(task.line("train", 0), SPIKED_FIXED / div, rtol=1e-6)
    np.testing.assert_allclose(task.line("train", 1), LINES[1] / div, rtol=1e-6)
    np.testing.assert_allclose(task.line("val", 0), LINES[2] / div, rtol=1e-6)
    assert task.extra["dropped_steps"] == 1
    assert task.extra["points"] == [8, 3]


def _task(texts_train=None, texts_val=None, head=None):
    train = StrokeSet(LINES, texts=texts_train)
    val = StrokeSet(LINES[::-1], texts=texts_val)
    spec = {"task": "strokes-npz"} if head is None else {"task": "strokes-hershey", "head": head}
    if head is None:
        return StrokeTask(spec, "three lines", train, val, [1.0, 1.0])
    from lnrnn.data.strokes import ReadingTask
    return ReadingTask(spec, "three lines", train, val, [1.0, 1.0])


@pytest.mark.parametrize("idx", [[2], [1, 0, 2], [0, 2]])
def test_a_batch_element_by_element_padded_to_its_longest_line(idx):
    task = _task()
    x, y, lengths = task.batch("train", idx)
    steps = [len(LINES[i]) - 1 for i in idx]
    np.testing.assert_array_equal(lengths, steps)
    T = max(steps)
    assert x.shape == (T, len(idx), 3) and y.shape == (len(idx), T, 3) and x.dtype == np.float32
    for b, i in enumerate(idx):
        for t in range(T):
            want_x = LINES[i][t] if t < steps[b] else np.zeros(3)
            want_y = LINES[i][t + 1] if t < steps[b] else np.zeros(3)
            np.testing.assert_array_equal(x[t, b], want_x)
            np.testing.assert_array_equal(y[b, t], want_y)


def test_text_batch_encodes_the_validation_split_texts():
    task = _task(["ab", "ba", "c"], ["cab", "", "zz"])
    alphabet = UNKNOWN + "abc"                            # by hand: the training texts' characters, sorted
    assert task.alphabet == alphabet
    codes, ulen = task.text_batch("val", [0, 2, 1])
    np.testing.assert_array_equal(ulen, [3, 2, 0])
    np.testing.assert_array_equal(codes, [[3, 1, 2], [0, 0, 0], [0, 0, 0]])   # z unknown (0), padding 0
    codes, ulen = task.text_batch("train", [2])
    np.testing.assert_array_equal(codes, [[3]])


def test_a_reading_batch_labels_each_row_with_its_own_line_text():
    task = _task(["ab", "ba", "c"], ["c", "a", "bb"], head="ctc")
    x, labels, lengths = task.batch("train", [2, 0])
    np.testing.assert_array_equal(lengths, [3, 2])       # points, not steps
    np.testing.assert_array_equal(labels, [[4, -1], [2, 3]])   # class = code + 1: c=3+1, a=1+1, b=2+1
    np.testing.assert_array_equal(x[:, 0], LINES[2])
    np.testing.assert_array_equal(x[:2, 1], LINES[0])
    np.testing.assert_array_equal(x[2, 1], np.zeros(3))
    x, labels, lengths = task.batch("val", [0])          # val lines reversed: val 0 is LINES[2], text "c"
    np.testing.assert_array_equal(labels, [[4]])


def test_one_group_is_refused_naming_the_distinct_groups_found():
    with pytest.raises(DataError) as e:
        split_groups(["f1", "f1", "f1"], what="forms")
    assert str(e.value) == "needs at least two forms to split into training and validation, found 1."
