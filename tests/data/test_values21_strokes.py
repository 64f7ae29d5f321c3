"""A stroke task's counts over both of its splits: the description's range of points per line reaches the
shortest and the longest line of either split (here both in validation), and the lines skipped for having
fewer than 2 points are counted in either split."""
from lnrnn.data import strokes as S
from test_values20_strokes import line  # (n, 3) stroke-3 of small steps, the pen lifted at the end


def test_the_range_of_points_spans_both_splits():
    train = [line(5, 1), line(6, 2), line(4, 3)]
    val = [line(9, 4), line(3, 5)]
    task = S.make_task({"task": "strokes-synthetic"}, "test", S.RawSplit(train), S.RawSplit(val))
    lens = [len(x) for x in train + val]
    assert f"lines of {min(lens)}-{max(lens)} points" in task.description, task.description
    assert task.extra["points"] == [sum(len(x) for x in train), sum(len(x) for x in val)]


def test_short_lines_are_counted_in_both_splits():
    train = [line(5, 1), line(1, 2), line(4, 3)]
    val = [line(6, 4), line(1, 5), line(1, 6)]
    task = S.make_task({"task": "strokes-synthetic"}, "test", S.RawSplit(train), S.RawSplit(val))
    assert task.extra["short_lines"] == 3
    assert "3 lines of fewer than 2 points skipped" in task.description
    assert (task.size("train"), task.size("val")) == (2, 1)
