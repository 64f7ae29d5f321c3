"""lnrnn/data/strokes.py's counts and geometry against hand computations: stroke-3 of two known strokes (row 0
the zero offset, a lift after each stroke's last point) and back, the glitch fix's pen lifts (only a dropped
point that lifted moves its lift), a degenerate axis's scale, a stroke task's steps over both splits, a split
of groups at awkward sizes and fractions (and one group refused however many items), and a reader's
alphabet and CTC outputs counted from its training texts."""
import math

import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.errors import DataError


def test_stroke3_of_two_known_strokes_and_back():
    strokes = [np.array([[2.0, 3.0], [5.0, 7.0]]), np.array([[1.0, 1.0], [4.0, -2.0], [4.0, 0.0]])]
    seq = S.to_stroke3(strokes)
    # row i: the offset from point i-1 to point i (row 0 none), pen 1 after each stroke's last point
    want = [[0, 0, 0],
            [3, 4, 1],       # (5, 7) - (2, 3), end of stroke 1
            [-4, -6, 0],     # (1, 1) - (5, 7): the pen-up move, on the first point of stroke 2
            [3, -3, 0],
            [0, 2, 1]]       # end of stroke 2
    assert seq.tolist() == want
    back = S.to_strokes(seq)
    assert [b.tolist() for b in back] == [[[0, 0], [3, 4]], [[-1, -2], [2, -5], [2, -3]]]   # first point at 0
    scaled = S.to_strokes(seq, scale=(2.0, 0.5))
    assert [b.tolist() for b in scaled] == [[[0, 0], [6, 2]], [[-2, -1], [4, -2.5], [4, -1.5]]]


def test_dropped_points_move_only_their_own_lifts():
    seq = np.array([[0, 0, 0],
                    [1, 0, 0],
                    [0, 1500, 0],      # a spike inside a stroke: both steps glitches, neither lifts
                    [0, -1499, 0],
                    [1, 0, 1],         # kept, lifts
                    [1, 1, 0],
                    [2000, 0, 1]],     # dropped and lifted: the lift moves to the row before
                   float)
    out, dropped = S.drop_long_steps(seq)
    assert dropped == 3
    assert out.tolist() == [[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 1, 1]]
    # strokes of the fixed line: the spike did not split the first stroke
    assert [len(s) for s in S.to_strokes(out)] == [3, 1]


def test_a_degenerate_axis_gets_scale_one():
    lines = [np.array([[0, 0, 0], [1, 0, 0], [3, 0, 1]], float), np.array([[0, 0, 0], [2, 0, 1]], float)]
    sx, sy = S.offset_scale(lines)
    assert sy == 1.0                                             # every dy is 0
    assert sx == pytest.approx(math.sqrt(((1 - 2) ** 2 + (3 - 2) ** 2 + 0) / 3), rel=1e-12)
    assert S.offset_scale([np.array([[0, 0, 0], [2, 5, 0], [2, -5, 1]], float)]) == [1.0, 5.0]   # every dx 2
    task = S.make_task({"task": "strokes-npz"}, "flat", S.RawSplit(lines), S.RawSplit(lines[:1]))
    assert task.scale[1] == 1.0 and np.isfinite(task.sets["train"].points).all()
    np.testing.assert_array_equal(task.line("val", 0)[:, 1], [0, 0, 0])


def _line(n, step=1.0):
    seq = np.zeros((n, 3))
    seq[1:, 0] = step
    seq[1:, 1] = np.arange(1, n) % 3
    seq[-1, 2] = 1
    return seq


def test_steps_count_the_longest_line_of_both_splits():
    task = S.make_task({"task": "strokes-npz"}, "lines", S.RawSplit([_line(3), _line(4)]),
                       S.RawSplit([_line(9), _line(2)]))
    assert task.steps == 9 - 1                                   # a validation line is the longest
    x, y, lengths = task.batch("val", [0, 1])
    assert x.shape == (task.steps, 2, 3) and lengths.tolist() == [8, 1]
    task = S.make_task({"task": "strokes-npz"}, "lines", S.RawSplit([_line(6)]), S.RawSplit([_line(2)]))
    assert task.steps == 5


# the validation groups of n distinct groups at a fraction, by hand: round(f n), at least 1, at most n - 1
ROUNDED = [(2, 0.1, 1), (3, 0.1, 1), (7, 0.1, 1), (10, 0.1, 1), (11, 0.1, 1), (99, 0.1, 10), (101, 0.1, 10),
           (7, 0.15, 1), (11, 0.15, 2), (99, 0.15, 15), (101, 0.15, 15),
           (2, 1 / 3, 1), (3, 1 / 3, 1), (7, 1 / 3, 2), (10, 1 / 3, 3), (11, 1 / 3, 4), (99, 1 / 3, 33),
           (101, 1 / 3, 34), (2, 0.9, 1), (3, 0.9, 2)]


@pytest.mark.parametrize("n, fraction, n_val", ROUNDED)
def test_split_groups_holds_out_whole_groups_at_awkward_sizes(n, fraction, n_val):
    groups = [f"g{k % n:03d}" for k in range(2 * n + 1)]          # each group twice, g000 three times
    val = S.split_groups(groups, fraction=fraction)
    assert val.dtype == bool and val.shape == (len(groups),)
    held = {g for g, v in zip(groups, val) if v}
    assert len(held) == n_val
    assert all(v == (g in held) for g, v in zip(groups, val))     # a group goes to validation whole


@pytest.mark.parametrize("groups", [["f"] * 2, ["a01-000u"] * 7, ["x"]])
def test_split_groups_needs_two_distinct_groups(groups):
    with pytest.raises(DataError, match="found 1"):
        S.split_groups(groups, what="forms")


def test_a_readers_alphabet_and_outputs_count_unknown_and_the_blank():
    texts = ["ab", "ba c", "ccc"]
    lines = [_line(12), _line(10), _line(11)]
    task = S.make_task({"task": "strokes", "head": "ctc"}, "read", S.RawSplit(lines, texts=texts),
                       S.RawSplit([_line(9)], texts=["cab"]))
    distinct = {"a", "b", "c", " "}                                # by hand
    assert task.alphabet == S.UNKNOWN + " abc"
    assert task.head["outputs"] == 1 + len(distinct) + 1           # UNKNOWN, the characters, the blank
    assert f"labels over {1 + len(distinct)} characters" in task.description
    _, labels, _ = task.batch("train", [1])
    assert labels.tolist() == [[4, 3, 2, 5]]                       # "ba c": codes b 3, a 2, ' ' 1, c 4, plus 1
    assert labels.max() < task.head["outputs"]
