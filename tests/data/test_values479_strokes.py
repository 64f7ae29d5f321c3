"""Two facts of lnrnn/data/strokes.py checked against their definitions.

A StrokeSet stores its lines' stroke-3 points end to end, (S, 3) float32: a set of no lines holds (0, 3) points,
the same columns as any other set (so an empty split concatenates with, saves like and is read like a full one),
and its longest line has 0 steps.

A synthetic word (_loop_word) sits at a random height: each word's points are shifted by one draw of N(0, 2),
shared by the whole word, on top of the loops' shape (zero at the bottom of every loop) and N(0, 0.3) jitter per
point. At the bottom of each loop (every per_loop-th point) a word's y is that shift plus jitter: over 3,000 words
its mean is within 0.2 of zero and its spread 1.8-2.25 (2.02 expected), and within a word those points agree to
the jitter."""
import numpy as np

from lnrnn.data.strokes import StrokeSet, _loop_word


def test_an_empty_set_holds_no_points_in_the_same_three_columns():
    empty, full = StrokeSet([]), StrokeSet([np.ones((4, 3)), np.zeros((2, 3))])
    assert len(empty) == 0 and empty.starts.tolist() == [0]
    assert empty.points.shape == (0, 3) and empty.points.dtype == np.float32
    assert full.points.shape == (6, 3) and full.points.dtype == np.float32
    both = np.concatenate([empty.points, full.points])
    assert both.shape == (6, 3)
    assert empty.max_steps == 0 and full.max_steps == 3 and StrokeSet([np.ones((1, 3))]).max_steps == 0


def test_a_word_sits_at_a_height_drawn_around_the_baseline_with_spread_two():
    rng = np.random.default_rng(479)
    per_loop, h = 9, 20.0
    heights = []
    for _ in range(3000):
        word = _loop_word(rng, h, 0.2, per_loop, 0.0)                  # (n, 2)
        bottoms = word[::per_loop, 1]                                  # (loops + 1,) y where 1 - cos t = 0
        assert np.abs(bottoms - bottoms.mean()).max() < 1.5            # one height per word, jitter 0.3
        heights.append(bottoms.mean())
    heights = np.array(heights)
    assert abs(heights.mean()) < 0.2, heights.mean()
    assert 1.8 < heights.std() < 2.25, heights.std()
