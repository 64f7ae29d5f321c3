"""Stroke preparation against hand computations: stroke-3 offsets and pen-up bits of lines of 2, 3 and 7 points
(and to_stroke3's refusal word for word); their offset standard deviations worked out by hand (a degenerate axis
given 1); a task's description with the training std (1, 3), the point range 2-3 and one glitch step dropped; the
too-small refusal naming the task and the empty split word for word; a batch of lines of 7, 2 and 3 points asked
in that (unsorted) order, padded to 6 steps with lengths 6, 1, 2, and each split's own size; a CTC reader's lines
that cannot be aligned counted by hand per split and its one unseen validation character named; the held-out
groups at N = 7, 10 and 101 (the nearest whole number to a tenth, at least one, never all) at the seed-0
permutation drawn here; the default line counts 2000/200 of the generated tasks; the first n points kept of a
line's strokes."""
import math

import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.errors import DataError

# three lines of 2, 3 and 7 points, as absolute pen-down strokes (y up)
TWO = [np.array([[1.0, 1.0], [4.0, 5.0]])]
THREE = [np.array([[0.0, 0.0], [2.0, -1.0]]), np.array([[5.0, 5.0]])]
SEVEN = [np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [6.0, 0.0]]),
         np.array([[10.0, 0.0], [15.0, 0.0], [21.0, 0.0]])]


def test_offsets_and_pen_lifts_of_two_three_and_seven_points():
    np.testing.assert_array_equal(S.to_stroke3(TWO), [[0, 0, 0], [3, 4, 1]])
    np.testing.assert_array_equal(S.to_stroke3(THREE), [[0, 0, 0], [2, -1, 1], [3, 6, 1]])
    want7 = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 1],      # end of the first stroke: pen up
             [4, 0, 0], [5, 0, 0], [6, 0, 1]]                 # (6, 0) -> (10, 0) the pen-up move; last row lifts
    np.testing.assert_array_equal(S.to_stroke3(SEVEN), want7)


def test_to_stroke3_refuses_no_stroke_and_an_empty_one_word_for_word():
    for bad in ([], [np.zeros((2, 2)), np.zeros((0, 2))]):
        with pytest.raises(ValueError) as e:
            S.to_stroke3(bad)
        assert str(e.value) == "to_stroke3 needs at least one stroke and no empty stroke"


def test_offset_std_by_hand_with_a_degenerate_axis():
    # dx over the 2-, 3- and 7-point lines: 3 | 2, 3 | 1..6; dy: 4 | -1, 6 | 0 x 6
    dx = [3, 2, 3, 1, 2, 3, 4, 5, 6]
    dy = [4, -1, 6, 0, 0, 0, 0, 0, 0]
    mx, my = sum(dx) / 9, sum(dy) / 9
    sx = math.sqrt(sum((v - mx) ** 2 for v in dx) / 9)
    sy = math.sqrt(sum((v - my) ** 2 for v in dy) / 9)
    lines = [S.to_stroke3(s) for s in (TWO, THREE, SEVEN)]
    np.testing.assert_allclose(S.offset_scale(lines), [sx, sy], rtol=1e-12)
    # the 7-point line alone: dx 1..6 has variance 35/12; dy all 0 is degenerate and gets 1
    np.testing.assert_allclose(S.offset_scale([lines[2]]), [math.sqrt(35 / 12), 1.0], rtol=1e-12)


def test_description_scale_range_and_a_glitch_dropped():
    train = np.array([[0.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, -3.0, 1.0]])     # dx +-1, dy +-3: std 1 and 3
    val = np.array([[0.0, 0.0, 0.0], [2000.0, 0.0, 0.0], [2.0, 6.0, 1.0]])      # the 2000 step is a glitch
    task = S.make_task({"task": "strokes-npz"}, "t", S.RawSplit([train]), S.RawSplit([val]))
    assert task.scale == [1.0, 3.0]
    assert task.description == ("t: 1 train / 1 validation lines of 2-3 points (dx, dy, pen), offsets divided by "
                                "the training std (1, 3); 1 glitch step longer than 1000 dropped")
    assert task.extra["dropped_steps"] == 1 and task.extra["points"] == [3, 2]
    np.testing.assert_allclose(task.line("val", 0), [[0, 0, 0], [2.0, 2.0, 1.0]])   # pen lift kept, dy / 3
    np.testing.assert_allclose(task.line("train", 0), [[0, 0, 0], [1, 1, 0], [-1, -1, 1]])


@pytest.mark.parametrize("empty", ["training", "validation"])
def test_too_small_refusal_names_task_and_split(empty):
    ok, dot = S.to_stroke3(THREE), np.array([[0.0, 0.0, 1.0]])
    train, val = (dot, ok) if empty == "training" else (ok, dot)
    with pytest.raises(DataError) as e:
        S.make_task({"task": "strokes-npz"}, "my lines", S.RawSplit([train]), S.RawSplit([val]))
    assert str(e.value) == (f"strokes-npz: the {empty} split has no line of 2 or more points; "
                            "the data set is too small to split.")


def _unit_task(train, val, spec=None, texts=(None, None)):
    return S.StrokeTask(spec or {"task": "t"}, "t", S.StrokeSet(train, texts=texts[0]),
                        S.StrokeSet(val, texts=texts[1]), [1.0, 1.0])


def test_batch_in_the_order_asked_padded_with_lengths_by_hand():
    lines = [S.to_stroke3(s) for s in (TWO, THREE, SEVEN)]
    task = _unit_task(lines, [lines[1]])
    assert (task.size("train"), task.size("val")) == (3, 1)
    assert task.steps == 6
    x, y, lengths = task.batch("train", [2, 0, 1], dtype=np.float64)
    assert lengths.tolist() == [6, 1, 2] and x.shape == (6, 3, 3) and y.shape == (3, 6, 3)
    want_x, want_y = np.zeros((6, 3, 3)), np.zeros((3, 6, 3))
    for b, (ln, n) in enumerate(((lines[2], 6), (lines[0], 1), (lines[1], 2))):
        want_x[:n, b] = ln[:-1]                 # inputs p_0..p_{N-2}
        want_y[b, :n] = ln[1:]                  # targets p_1..p_{N-1}
    np.testing.assert_array_equal(x, want_x)
    np.testing.assert_array_equal(y, want_y)
    xv, yv, lv = task.batch("val", [0, 0])
    assert lv.tolist() == [2, 2] and xv.shape == (2, 2, 3)


def test_reader_counts_unalignable_lines_per_split_and_names_one_unseen_character():
    two, three, seven = (S.to_stroke3(s) for s in (TWO, THREE, SEVEN))
    # CTC steps needed: "ab" 2, "aa" 3 (a blank between), "aab" 4 | "bb" 3, "abc" 3
    train = S.RawSplit([two, three, two], texts=["ab", "aa", "aab"])     # 2 >= 2, 3 >= 3, 2 < 4: one short
    val = S.RawSplit([two, seven], texts=["bb", "abc"])                  # 2 < 3: one short; 'c' unseen
    task = S.make_task({"task": "strokes-hershey", "head": "ctc"}, "r", train, val)
    assert isinstance(task, S.ReadingTask)
    assert task.alphabet == "\ufffdab" and task.head["outputs"] == 4
    assert task.extra["unalignable"] == {"train": 1, "val": 1}
    assert task.extra["unseen_characters"] == "c"
    assert task.description.endswith(
        "; read with a CTC head: each whole line in, its text out as labels over 3 characters and the blank"
        "; the validation texts hold 1 character no training text uses ('c'), which no reader can name"
        "; 1 train / 1 validation lines have fewer points than their labels need and score loss 0 without "
        "gradient (CTC's zero_infinity)")
    x, labels, lengths = task.batch("val", [1, 0], dtype=np.float64)
    assert lengths.tolist() == [7, 2] and x.shape == (7, 2, 3)
    np.testing.assert_array_equal(labels, [[2, 3, 1], [3, 3, -1]])       # code + 1; 'c' is code 0 -> 1
    np.testing.assert_allclose(x[:, 0], seven / [task.scale[0], task.scale[1], 1.0])


@pytest.mark.parametrize("n,n_val", [(7, 1), (10, 1), (101, 10)])
def test_held_out_groups_at_seven_ten_and_a_hundred_and_one(n, n_val):
    # round(0.7) = 1, round(1.0) = 1, round(10.1) = 10
    assert n_val == max(1, min(n - 1, int(math.floor(0.1 * n + 0.5))))
    groups = [f"form{(3 * i) % n:03d}" for i in range(3 * n)]          # each group three times, interleaved
    distinct = sorted(set(groups))
    val = {distinct[k] for k in np.random.default_rng(0).permutation(n)[:n_val]}
    mask = S.split_groups(groups)
    assert mask.tolist() == [g in val for g in groups]
    assert int(mask.sum()) == 3 * n_val


def test_held_out_at_least_one_never_all_and_one_group_refused():
    assert S.split_groups(["a", "b", "c", "d"]).sum() == 1                  # round(0.4) = 0 -> 1
    assert S.split_groups(list("abcdefg"), fraction=1.0).sum() == 6          # all 7 -> 6, never all
    with pytest.raises(DataError) as e:
        S.split_groups(["f1", "f1"], what="forms")
    assert str(e.value) == "needs at least two forms to split into training and validation, found 1."


def test_generated_tasks_default_to_2000_train_200_validation_lines():
    assert S.split_counts({"task": "strokes-synthetic"}) == (2000, 200)    # tasks.py: default 2000/200
    assert S.split_counts({"task": "strokes-synthetic", "split": "7/3"}) == (7, 3)


def test_first_n_points_of_the_strokes_kept():
    a, b = np.arange(6.0).reshape(3, 2), np.arange(8.0).reshape(4, 2) + 10
    for n, want in ((2, [a[:2]]), (3, [a]), (5, [a, b[:2]]), (7, [a, b]), (9, [a, b])):
        got = S._cut([a, b], n)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
    for n in (40, 101):
        assert sum(len(s) for s in S.synthetic_line(np.random.default_rng(3), n)) == n
