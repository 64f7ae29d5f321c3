"""Stroke preparation against hand computations: a known pair of training lines and one validation line,
each with one glitch offset, fixed (the glitch rows dropped, a dropped row's pen lift moved back), divided by
the training offsets' std worked out by hand (sqrt 5, sqrt 6), counted (2 glitch steps) and batched as inputs
p_0..p_{N-2} and targets p_1..p_{N-1}; synthetic line lengths drawn uniformly in [40, 300] inclusive (the
seeded draw replayed here); every synthetic spike counted and shaped as two opposite offsets of length 3000;
strokes-synthetic --split A/B giving A training and B validation lines."""
import math

import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.data.tasks import load_task, task_spec


def test_known_lines_fixed_normalized_counted_and_batched():
    A = np.array([[0, 0, 0], [3, 4, 0], [2000, 0, 0], [1, -2, 1]], float)   # row 2: a glitch, pen down
    B = np.array([[0, 0, 0], [-1, 2, 0], [5, 4, 1]], float)
    C = np.array([[0, 0, 0], [2, 2, 0], [0, 1500, 1]], float)               # row 2: a glitch that lifted the pen
    task = S.make_task({"task": "strokes-synthetic"}, "hand", S.RawSplit([A, B]), S.RawSplit([C]))
    # training offsets after the fix: (3, 4), (1, -2), (-1, 2), (5, 4)
    # dx 3 1 -1 5: mean 2, squares 1 1 9 9 -> var 5; dy 4 -2 2 4: mean 2, squares 4 16 0 4 -> var 6
    sx, sy = math.sqrt(5), math.sqrt(6)
    np.testing.assert_allclose(task.scale, [sx, sy], rtol=1e-12)
    assert task.extra["dropped_steps"] == 2 and task.extra["short_lines"] == 0
    assert task.description == ("hand: 2 train / 1 validation lines of 2-3 points (dx, dy, pen), offsets divided "
                                "by the training std (2.24, 2.45); 2 glitch steps longer than 1000 dropped")
    np.testing.assert_allclose(task.line("val", 0), [[0, 0, 0], [2 / sx, 2 / sy, 1]], rtol=1e-6)
    a = np.array([[0, 0, 0], [3 / sx, 4 / sy, 0], [1 / sx, -2 / sy, 1]])
    b = np.array([[0, 0, 0], [-1 / sx, 2 / sy, 0], [5 / sx, 4 / sy, 1]])
    x, y, lengths = task.batch("train", [1, 0])
    np.testing.assert_array_equal(lengths, [2, 2])
    np.testing.assert_allclose(x[:, 0], b[:2], rtol=1e-6)
    np.testing.assert_allclose(x[:, 1], a[:2], rtol=1e-6)
    np.testing.assert_allclose(y[0], b[1:], rtol=1e-6)
    np.testing.assert_allclose(y[1], a[1:], rtol=1e-6)


@pytest.mark.parametrize("seed", range(8))
def test_synthetic_line_length_drawn_in_40_to_300_inclusive(seed):
    (line,), spikes = S.synthetic_lines(np.random.default_rng(seed), 1, glitch_rate=0.0)
    n = int(np.random.default_rng(seed).integers(40, 300 + 1))            # the first draw: [40, 300]
    assert len(line) == n and spikes == 0


def test_every_spike_counted_as_two_opposite_offsets_of_3000():
    lines, spikes = S.synthetic_lines(np.random.default_rng(3), 4, glitch_rate=1.0)
    assert spikes == 4
    (plain,), none = S.synthetic_lines(np.random.default_rng(3), 1, glitch_rate=0.0)
    assert none == 0
    diff = lines[0] - plain                                     # the same line before its spike
    rows = np.flatnonzero(np.abs(diff).sum(1) > 0)
    assert len(rows) == 2 and rows[1] == rows[0] + 1
    np.testing.assert_allclose(diff[rows[0]], -diff[rows[1]])
    assert math.isclose(math.hypot(*diff[rows[0], :2]), 3000.0, rel_tol=1e-12)
    assert diff[:, 2].tolist() == [0.0] * len(diff)
    for ln in lines:
        assert int((np.hypot(ln[:, 0], ln[:, 1]) > 1000).sum()) == 2


def test_synthetic_split_gives_a_train_and_b_validation_lines():
    task = load_task(task_spec("strokes-synthetic", split="7/3"))
    assert (task.size("train"), task.size("val")) == (7, 3)
    assert task.description.startswith("synthetic handwriting (loops along a baseline, pen lifts; fixed seed): "
                                       "7 train / 3 validation lines of ")
