"""Stroke preparation against hand computations: two pen-down strokes of 3 and 2 points turned into stroke-3
offsets with the pen lifted on each stroke's last point (and a stroke of one point, a dot, kept); a line of
fractional offsets drawn back to absolute points without rounding; a task's head scale equal to the standard
deviations of the training offsets worked out by hand (3, -1, 0 and 0, 2, 4: sqrt(78/27) and sqrt(8/3)) and its
normalized lines divided by them; a training split with a line of no text left without an alphabet; and the names
and texts of the lines kept when a one-point line in the middle is skipped."""
import math

import numpy as np

from lnrnn.data import strokes as S


def test_two_strokes_to_offsets_with_a_lift_on_each_last_point():
    seq = S.to_stroke3([np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 3.0]]), np.array([[5.0, 5.0], [6.0, 4.0]])])
    want = np.array([[0.0, 0.0, 0.0],      # the first point: offset (0, 0)
                     [1.0, 2.0, 0.0],
                     [2.0, 1.0, 1.0],      # the end of stroke 1: pen up
                     [2.0, 2.0, 0.0],      # (3, 3) -> (5, 5), the pen-up move
                     [1.0, -1.0, 1.0]])    # the end of stroke 2
    np.testing.assert_array_equal(seq, want)


def test_a_dot_is_a_stroke_of_one_point_lifted_at_once():
    seq = S.to_stroke3([np.array([[0.0, 0.0], [2.0, 0.0]]), np.array([[4.0, 1.0]]), np.array([[5.0, 1.0],
                                                                                            [5.0, 3.0]])])
    np.testing.assert_array_equal(seq[:, 2], [0.0, 1.0, 1.0, 0.0, 1.0])
    np.testing.assert_array_equal(seq[:, :2], [[0, 0], [2, 0], [2, 1], [1, 0], [0, 2]])


def test_fractional_offsets_drawn_back_without_rounding():
    seq = np.array([[0.0, 0.0, 0.0], [0.5, 1.5, 0.0], [1.25, -0.5, 1.0], [-0.75, 0.25, 1.0]])
    got = S.to_strokes(seq, scale=(2.0, 1.0))
    assert len(got) == 2
    # x: 0, 1.0, 3.5 | 2.0 (offsets times sx = 2); y: 0, 1.5, 1.0 | 1.25
    np.testing.assert_array_equal(got[0], [[0.0, 0.0], [1.0, 1.5], [3.5, 1.0]])
    np.testing.assert_array_equal(got[1], [[2.0, 1.25]])


def _line(*offsets, lift_last=True):
    rows = [[0.0, 0.0, 0.0]] + [[dx, dy, 0.0] for dx, dy in offsets]
    rows[-1][2] = 1.0 if lift_last else 0.0
    return np.array(rows)


def test_head_scale_is_the_training_offsets_std_by_hand():
    a, b = _line((3.0, 0.0), (-1.0, 2.0)), _line((0.0, 4.0))
    val = _line((10.0, -10.0))
    task = S.make_task({"task": "strokes-npz"}, "two lines", S.RawSplit([a, b]), S.RawSplit([val]))
    # dx 3, -1, 0: mean 2/3, variance (49 + 25 + 4) / 27; dy 0, 2, 4: mean 2, variance 8/3
    sx, sy = math.sqrt(78 / 27), math.sqrt(8 / 3)
    np.testing.assert_allclose(task.scale, [sx, sy], rtol=1e-12)
    np.testing.assert_allclose(task.head["scale"], [sx, sy], rtol=1e-12)
    assert task.head["kind"] == "mdn" and task.head["components"] == 20
    np.testing.assert_allclose(task.line("train", 0), [[0, 0, 0], [3 / sx, 0, 0], [-1 / sx, 2 / sy, 1]], rtol=1e-6)
    np.testing.assert_allclose(task.line("val", 0), [[0, 0, 0], [10 / sx, -10 / sy, 1]], rtol=1e-6)


def test_training_lines_partly_without_text_give_no_alphabet():
    a, b = _line((1.0, 0.0)), _line((0.0, 1.0), (2.0, 2.0))
    task = S.make_task({"task": "strokes-npz"}, "text", S.RawSplit([a, b], texts=["ab", None]),
                       S.RawSplit([a], texts=["a"]))
    assert task.alphabet is None and task.texts_train is None and task.texts_val is None
    full = S.make_task({"task": "strokes-npz"}, "text", S.RawSplit([a, b], texts=["ba", "c"]),
                       S.RawSplit([a], texts=["a"]))
    assert full.alphabet == S.UNKNOWN + "abc"


def test_names_and_texts_follow_the_lines_kept_past_a_skipped_one():
    one = np.array([[0.0, 0.0, 1.0]])                              # a line of 1 point: skipped
    a, c = _line((1.0, 1.0), (2.0, -1.0)), _line((3.0, 0.5))
    train = S.RawSplit([a, one, c], names=["n0", "n1", "n2"], texts=["x", "y", "z"])
    val = S.RawSplit([one, c], names=["v0", "v1"], texts=["p", "q"])
    task = S.make_task({"task": "strokes-npz"}, "kept", train, val)
    assert task.size("train") == 2 and task.size("val") == 1
    assert task.sets["train"].names == ["n0", "n2"] and task.sets["val"].names == ["v1"]
    assert [task.text("train", i) for i in range(2)] == ["x", "z"] and task.text("val", 0) == "q"
    assert task.extra["short_lines"] == 2
